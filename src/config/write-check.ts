// The agent's writes to hey's own config files (x96): a write_file or edit that would leave the user
// config, the project's `.hey/config.toml` or the `--config` file unable to load is refused, with
// the loader's own errors (file, line, key), so nothing broken reaches the disk. A file that does
// not load stops every later start — for the user's file, in every project — and the agent could
// then no longer fix it itself. The check is `/reload`'s (config/load.ts vet): errors in other
// files, there before the write, are not the write's.
import { resolve } from "node:path";
import type { Written } from "./settings.ts";

/**
 * What a file tool calls with the file it is about to write (absolute) and the text it would
 * hold: `refused`, the refusal the model reads instead; `note`, a line to add to the tool's result
 * once written (what it wrote loads, but does not take effect); undefined: write, nothing to say. Never throws.
 */
export type WriteVet = (abs: string, text: string) => { refused: string } | { note: string } | undefined;

/**
 * The vet for config files `files` (absolute; the ones hey reads as TOML): `errors` gives what
 * `/reload` would find with one file's text replaced (no text: as on disk now). A path
 * that names one of them through a link counts as that file (`realTarget`: fs/real-target.ts's).
 */
export function configWriteVet(
  files: readonly string[],
  check: (written: Written) => { errors: string[]; warnings: string[] },
  realTarget: (abs: string) => string,
): WriteVet {
  return (abs, text) => {
    const real = realTarget(resolve(abs));
    const path = files.find((f) => f === abs || realTarget(f) === real);
    if (path === undefined) return undefined;
    const before = new Set(check({ path }).errors);
    const after = check({ path, text });
    const found = after.errors.filter((e) => e.startsWith(path) || !before.has(e));
    if (found.length) return { refused: configRefusal(path, found) };
    // a server table it wrote that another file's table of the same name replaces (config/replaced-servers.ts): it would never run
    const unused = after.warnings.filter((w) => w.includes(` of ${path}:`) && w.includes(" is not used: "));
    return unused.length ? { note: `note: ${unused.join("\n")}` } : undefined;
  };
}

/** The refusal of a write that would leave `path` unable to load, with the loader's errors. */
export function configRefusal(path: string, errors: readonly string[]): string {
  return (
    `not written: hey would not load ${path} with this content, and could not start again until it is fixed:\n` +
    `${errors.map((e) => `  ${e}`).join("\n")}\n` +
    "fix these and write the file again (the file is unchanged)"
  );
}
