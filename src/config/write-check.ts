// The agent's writes to hey's own config files (x96): a write_file or edit that would leave the user
// config, the project's `.hey/config.toml` or `.mcp.json` or the `--config` file unable to load is refused, with
// the loader's own errors (file, line, key), so nothing broken reaches the disk. A file that does
// not load stops every later start — for the user's file, in every project — and the agent could
// then no longer fix it itself. The check is `/reload`'s (config/load.ts vet): errors there before
// the write, in this file or another, are not the write's (an edit that fixes one of two mistakes
// is made). Only the file tools are vetted: a bash command that writes the file is not.
import { basename, isAbsolute, join, relative, resolve, sep } from "node:path";
import { controlNamed, type ControlNames } from "./control-files.ts";
import type { Written } from "./settings.ts";

/**
 * What a file tool calls with the file it is about to write (absolute) and the text it would
 * hold: `refused`, the refusal the model reads instead; `note`, a line to add to the tool's result
 * once written (what it wrote loads, but does not take effect); undefined: write, nothing to say. Never throws.
 */
export type WriteVet = (abs: string, text: string) => { refused: string } | { note: string } | undefined;

/**
 * The vet for config files `files` (absolute; the TOML ones and the project's `.mcp.json`): `errors` gives what
 * `/reload` would find with one file's text replaced (no text: as on disk now). A path that names
 * one of them another way counts as that file: through a link, a hard link, or in other case on a
 * disk that folds it (`names`: the run's, as the permission checks find control files).
 */
export function configWriteVet(
  files: readonly string[],
  check: (written: Written) => { errors: string[]; warnings: string[] },
  names: Omit<ControlNames, "controls">,
): WriteVet {
  return (abs, text) => {
    let path: string | undefined;
    try {
      path = controlNamed(resolve(abs), { ...names, controls: files });
    } catch (e) {
      // which file it is could not be told (a path that did not answer): the write is the file tool's as before there was a check, said
      return { note: `note: hey could not check that its config still loads: ${(e as Error).message}` };
    }
    if (path === undefined) return undefined;
    let after: { errors: string[]; warnings: string[] };
    try {
      after = check({ path, text });
    } catch (e) {
      // the loader fails on this very text: the next start would meet the same failure, and the agent could no longer fix it
      return { refused: configRefusal(path, [`hey's loader failed on this content: ${(e as Error).message}`]) };
    }
    let before: string[] = [];
    try {
      before = check({ path }).errors;
    } catch {} // the file as it is fails the check: every error of the new text counts as the write's
    const found = addedErrors(path, before, after.errors);
    if (found.length) return { refused: configRefusal(path, found) };
    // a server table it wrote that another file's table of the same name replaces (config/replaced-servers.ts): it would never run
    const unused = after.warnings.filter((w) => w.includes(` of ${path}:`) && w.includes(" is not used: "));
    return unused.length ? { note: `note: ${unused.join("\n")}` } : undefined;
  };
}

/**
 * The errors of `after` that `before` did not have, as many times as they are new: an error of
 * `path` is compared without its line and column, which a write above it moves. Pure.
 */
export function addedErrors(path: string, before: readonly string[], after: readonly string[]): string[] {
  const unplaced = (e: string) => (e.startsWith(`${path}:`) ? path + e.slice(path.length).replace(/^:\d+(:\d+)?:/, ":") : e);
  const left = new Map<string, number>();
  for (const e of before) left.set(unplaced(e), (left.get(unplaced(e)) ?? 0) + 1);
  return after.filter((e) => {
    const n = left.get(unplaced(e)) ?? 0;
    left.set(unplaced(e), n - 1);
    return n <= 0;
  });
}

/**
 * The refusal of a write that would leave `path` unable to load, with the loader's errors. A
 * project's `.mcp.json` stops no start (config/mcp-json-layer.ts): its servers would be lost, in hey
 * and in the other tools that read it.
 */
export function configRefusal(path: string, errors: readonly string[]): string {
  const cost =
    basename(path) === ".mcp.json" ? "its MCP servers would be left out, here and in the other tools that read it" : "could not start again until it is fixed";
  return (
    `not written: hey would not load ${path} with this content, and ${cost}:\n` +
    `${errors.map((e) => `  ${e}`).join("\n")}\n` +
    "fix these and write the file again (the file is unchanged)"
  );
}

/**
 * `vet`, with a note on a project file written below the project `root` (x136): the model writes
 * `.hey/skills/x/SKILL.md` relative to a subdirectory hey runs in, and the file is never read —
 * the project's are its root's, and that `.hey/` never replaces the root's (fs/places.ts
 * projectRoot). The note names where the file belongs, so the model moves it in the same turn.
 * None at home, which is no project: the guide names the user's own folders there.
 */
export function withStrayNote(vet: WriteVet, root: string, home: string): WriteVet {
  return (abs, text) => {
    const vetted = vet(abs, text);
    const belongs = root === home ? undefined : strayProjectFile(resolve(abs), root);
    if (!belongs || (vetted && "refused" in vetted)) return vetted;
    const note = `note: not where hey reads it: a project's skills, .hey/config.toml and .mcp.json are read at its root, ${root}; write it as ${belongs} (and delete this one) to have it loaded`;
    return { note: vetted ? `${vetted.note}\n${note}` : note };
  };
}

/** Where the project file `abs` belongs when it lies in a folder below `root` (its path from the project file's folder on, under `root`), else undefined. Pure. */
export function strayProjectFile(abs: string, root: string): string | undefined {
  const rel = relative(root, abs);
  if (!rel || rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return undefined;
  const names = rel.split(sep);
  for (let i = 1; i < names.length; i++) {
    const [name, next] = [names[i], names[i + 1]];
    const projectFile =
      (name === ".hey" && (next === "config.toml" || (next === "skills" && names.length > i + 2))) ||
      (name === ".mcp.json" && i === names.length - 1) ||
      ((name === ".agents" || name === ".claude") && next === "skills" && names.length > i + 2);
    if (projectFile) return join(root, ...names.slice(i));
  }
  return undefined;
}
