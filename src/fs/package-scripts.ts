// The `scripts` of a directory's package.json, for the deny checks (SPEC §8): `npm run release` runs
// what package.json says, read as the command is checked. A file that is not there, cannot be read,
// is not JSON or holds no scripts object gives undefined; a script that is not a string is left out.
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";

const MAX_BYTES = 1 << 20; // a package.json larger than this is not read: no scripts seen

export function packageScripts(dir: string): Record<string, string> | undefined {
  try {
    const file = join(dir, "package.json");
    if (statSync(file).size > MAX_BYTES) return undefined;
    const text = readFileSync(file, "utf8");
    const scripts = (JSON.parse(text) as { scripts?: unknown }).scripts;
    if (!scripts || typeof scripts !== "object") return undefined;
    return Object.fromEntries(Object.entries(scripts).filter((e): e is [string, string] => typeof e[1] === "string"));
  } catch {
    return undefined;
  }
}
