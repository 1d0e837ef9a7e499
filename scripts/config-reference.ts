// bun scripts/config-reference.ts [--check] — writes the configuration reference, made from the
// key table (src/config/keys.ts), into README.md between its two marker lines. --check only says
// whether the README is up to date (exit 1 when it is not). Adding or changing a key: edit the
// table, then run this.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { configReference, REFERENCE_END, REFERENCE_START } from "../src/config/reference.ts";

const README = join(import.meta.dir, "..", "README.md");

/** The README with its reference replaced by `reference`; throws when the markers are missing. */
export function withReference(readme: string, reference: string): string {
  const start = readme.indexOf(REFERENCE_START);
  const end = readme.indexOf(REFERENCE_END);
  if (start < 0 || end < start) throw new Error(`README.md has no "${REFERENCE_START}" … "${REFERENCE_END}" block`);
  return readme.slice(0, start) + reference + readme.slice(end + REFERENCE_END.length);
}

if (import.meta.main) {
  const readme = readFileSync(README, "utf8");
  const next = withReference(readme, configReference());
  if (process.argv.includes("--check")) {
    if (next !== readme) {
      console.error("README.md: the configuration reference is out of date; run bun scripts/config-reference.ts");
      process.exit(1);
    }
  } else if (next !== readme) {
    writeFileSync(README, next);
    console.log("README.md: the configuration reference was rewritten from src/config/keys.ts");
  }
}
