// Parallel runs (CI jobs, `hey -p` beside the REPL) each record their config files in the approvals
// record at the same moment: every record lands, none written over by another hey's (fs/file-lock.ts).
import { expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { readApprovals } from "../../src/config/approval-store.ts";
import { tempDir } from "../helpers/e2e.ts";
import { entries, runWriters } from "../helpers/parallel-writers.ts";

test("8 heys recording approvals at once: every config file's record is kept, and no lock is left behind", async () => {
  const dir = tempDir("hey-approvals-parallel-");
  try {
    for (const result of await runWriters("approvals", dir.path, 8)) expect(result).toEqual({ code: 0, stderr: "" });
    expect(Object.keys(readApprovals(join(dir.path, "approvals.json"))!.configs).sort()).toEqual(entries(8));
    expect(readdirSync(dir.path).filter((f) => !f.startsWith(".ready-"))).toEqual(["approvals.json"]);
  } finally {
    dir.remove();
  }
});
