// The agent's writes to hey's own config files (x96): a write_file or edit that would leave the user
// config, the project's `.hey/config.toml` or `.mcp.json` or the `--config` file unable to load is refused, with
// the loader's own errors (file, line, key), so nothing broken reaches the disk. A file that does
// not load stops every later start — for the user's file, in every project — and the agent could
// then no longer fix it itself. The check is `/reload`'s (config/load.ts vet): errors there before
// the write, in this file or another, are not the write's (an edit that fixes one of two mistakes
// is made). Only the file tools are vetted: a bash command that writes the file is not.
import { basename, resolve } from "node:path";
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
