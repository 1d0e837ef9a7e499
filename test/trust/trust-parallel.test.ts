// `hey trust` answered in several projects while other heys record their approvals: trust.json
// keeps every answer, and the approvals record the same ones, so none is later taken for a yes
// written outside hey (issue 24) and its project's files left out.
import { afterEach, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { readApprovals, updateApprovals } from "../../src/config/approval-store.ts";
import { readTrust } from "../../src/trust/store.ts";
import { tempDir } from "../helpers/e2e.ts";
import { entries, runWriters } from "../helpers/parallel-writers.ts";

const WRITERS = 6;
let dir: ReturnType<typeof tempDir>;
afterEach(() => dir.remove());

test("answers recorded at once by 6 heys, beside 6 recording approvals: trust.json and the approvals record both hold every one", async () => {
  dir = tempDir("hey-trust-parallel-");
  const approvals = join(dir.path, "approvals.json");
  await updateApprovals(approvals, (a) => a); // a record exists: an answer is kept in it too
  const [trusting, approving] = await Promise.all([runWriters("trust", dir.path, WRITERS), runWriters("approvals", dir.path, WRITERS)]);
  for (const results of [trusting, approving]) expect(results).toEqual(Array.from({ length: WRITERS }, () => ({ code: 0, stderr: "" })));
  const projects = entries(WRITERS);
  const trust = readTrust(join(dir.path, "trust.json")).projects;
  expect(Object.keys(trust).sort()).toEqual(projects);
  expect(Object.values(trust).every((p) => p.trusted)).toBe(true);
  const record = readApprovals(approvals)!;
  expect([...record.trusted].sort()).toEqual(projects);
  expect(Object.keys(record.configs).sort()).toEqual(projects); // the approvals writers' entries have the same names
  expect(readdirSync(dir.path).filter((f) => f.endsWith(".lock"))).toEqual([]);
});
