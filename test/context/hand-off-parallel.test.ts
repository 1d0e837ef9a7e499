// Parallel runs in one project that all stop at --max-turns: each says its hand-off is saved in
// `.hey/task.md`, so each must be there, none written over by another run's.
import { afterEach, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers/e2e.ts";
import { entry, runWriters, UPDATES } from "../helpers/parallel-writers.ts";

const WRITERS = 8;
let dir: ReturnType<typeof tempDir>;
afterEach(() => dir.remove());

test("8 heys saving hand-offs at once: the note holds every one, and no lock is left behind", async () => {
  dir = tempDir("hey-hand-off-parallel-");
  const results = await runWriters("hand-off", dir.path, WRITERS);
  expect(results).toEqual(Array.from({ length: WRITERS }, () => ({ code: 0, stderr: "" })));
  const note = readFileSync(join(dir.path, ".hey", "task.md"), "utf8");
  expect(note.match(/^## Stopped at the turn limit/gm)?.length).toBe(WRITERS * UPDATES);
  for (let id = 0; id < WRITERS; id++) for (let n = 0; n < UPDATES; n++) expect(note).toContain(`hand-off of ${entry(id, n)}\n`);
  expect(readdirSync(join(dir.path, ".hey")).sort()).toEqual([".gitignore", "task.md"]); // the .hey/ they made leaves the note out of git
});
