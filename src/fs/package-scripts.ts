// The `scripts` of a directory's package.json, for the deny checks (SPEC §8): `npm run release` runs
// what package.json says, read as the command is checked. A file that is not there gives undefined
// (npm, pnpm, yarn and bun then look in the directory above); one that cannot be read, is not JSON
// or holds no scripts object gives none (npm fails on it, or runs none, but stops looking there); a
// script that is not a string is left out. A leading byte order mark is skipped, as npm's JSON reader skips it. A file
// over MAX_BYTES gives why it was not read: npm reads it, so its scripts must count as unknown.
// Read as read-head.ts reads (a FIFO or device named package.json is not opened for a blocking read):
// the check runs before every bash call, and a `mkfifo package.json` by the agent must not freeze hey
// at its next `npm test`. npm reads what a writer sends such a file, so it gives why it was not read;
// the same for a read that does not answer in time (fs/bounded-reads.ts: a hung network mount).
import { join } from "node:path";
import { boundedHead, Hung } from "./bounded-reads.ts";
import { isDevNull } from "./read-head.ts";

/** A package.json larger than this is not read (npm's own are a few KB). */
export const MAX_BYTES = 1 << 20;

export function packageScripts(dir: string): Record<string, string> | string | undefined {
  try {
    const { bytes, size } = boundedHead(join(dir, "package.json"), MAX_BYTES);
    const [text, truncated] = [Buffer.from(bytes).toString("utf8"), size > bytes.length];
    if (truncated) return `its package.json is over ${MAX_BYTES / 1048576} MB, more than hey reads`;
    const scripts = (JSON.parse(text.replace(/^\uFEFF/, "")) as { scripts?: unknown }).scripts;
    if (!scripts || typeof scripts !== "object") return {};
    return Object.fromEntries(Object.entries(scripts).filter((e): e is [string, string] => typeof e[1] === "string"));
  } catch (e) {
    if (e instanceof Hung) return `its package.json ${e.message.slice(e.path.length + 1)}, so its scripts are unknown`;
    // a FIFO or device: npm reads what a writer sends (an earlier call's `mkfifo package.json; … > package.json &`)
    if ((e as NodeJS.ErrnoException).code === "EINVAL" && !isDevNull(join(dir, "package.json")))
      return "its package.json is not a regular file (a FIFO or device), whose contents hey cannot read ahead";
    const code = (e as NodeJS.ErrnoException).code;
    return code === "ENOENT" || code === "ENOTDIR" ? undefined : {};
  }
}
