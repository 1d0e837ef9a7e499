// A tiny repository with one bug and a failing test, for realistic task tests.
import { writeFileSync } from "node:fs";
import { join } from "node:path";

export const BUGGY = "export function add(a, b) {\n  return a - b;\n}\n";
export const FIXED = BUGGY.replace("a - b", "a + b");
export const TEST = 'import assert from "node:assert";\nimport { add } from "./math.mjs";\nassert.equal(add(2, 3), 5);\nconsole.log("1 passed");\n';

/** math.mjs (buggy) and math.test.mjs, committed in a fresh git repository at `dir`. */
export function makeRepo(dir: string): void {
  writeFileSync(join(dir, "math.mjs"), BUGGY);
  writeFileSync(join(dir, "math.test.mjs"), TEST);
  for (const cmd of [
    ["git", "init", "-q"],
    ["git", "add", "."],
    ["git", "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "init"],
  ])
    Bun.spawnSync(cmd, { cwd: dir });
}
