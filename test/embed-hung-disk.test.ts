// An embedded agent's path entries (permissionCheck's `read_file: src/**`) look at the disk within
// the deadline the CLI's checks keep (fs/bounded-reads.ts): a path, or a pattern's directory, that
// does not answer makes the call "cannot verify", naming it, instead of blocking the host program
// for good. A worker whose reads of paths holding "/hung" block until a file appears stands for
// the hung network mount, which a mount table of the test's own lists as NFS.
import { afterAll, afterEach, expect, test } from "bun:test";
import { existsSync, mkdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setWorkerSource, stuckReads, workerSource } from "../src/fs/bounded-reads.ts";
import { permissionCheck } from "../src/lib.ts";
import { tempDir } from "./helpers/e2e.ts";
import { networkMounts } from "./helpers/mount-table.ts";
import { until } from "./helpers/wait.ts";

const tmp = tempDir("hey-embed-hung-");
const root = realpathSync(tmp.path);
const project = join(root, "project");
const back = join(root, "mount-is-back");
mkdirSync(join(project, "src"), { recursive: true });
mkdirSync(join(project, "hung"));

/** hey's own worker, but a read of a path holding "/hung" blocks until `back` exists */
function hangingMount(): void {
  const gate = `(req) => { if (req.path.includes("/hung")) { const t = new Int32Array(new SharedArrayBuffer(4)); while (!fs.existsSync(${JSON.stringify(back)})) Atomics.wait(t, 0, 0, 20); } }`;
  setWorkerSource(workerSource(gate), 500, networkMounts(join(root, "mountinfo"), [join(project, "hung")]));
}

afterEach(async () => {
  if (!existsSync(back)) writeFileSync(back, "");
  await until(() => stuckReads() === 0, "the stuck reads to answer");
  setWorkerSource(undefined);
  rmSync(back);
});
afterAll(() => tmp.remove());

test("a path entry's look at a path that does not answer refuses the call as 'cannot verify', and the host program goes on", () => {
  hangingMount();
  const check = permissionCheck({ allow: ["read_file: src/**"] }).within(project);
  expect(check("read_file", { path: "hung/x.txt" })).toBe(
    `blocked by permission rules: cannot verify read_file of \`hung/x.txt\`: ${project}/hung/x.txt did not answer in 0.5 s (a hung network mount?)`,
  );
  expect(check("read_file", { path: "src/a.ts" })).toBeUndefined();
});

test("a pattern whose directory does not answer refuses as 'cannot verify' against that entry", () => {
  hangingMount();
  const check = permissionCheck({ deny: [`read_file: ${project}/hung/**`] }).within(project);
  expect(check("read_file", { path: "src/a.ts" })).toBe(
    `blocked by permission rules: cannot verify read_file of \`src/a.ts\` against deny entry \`read_file: ${project}/hung/**\`: ${project}/hung did not answer in 0.5 s (a hung network mount?)`,
  );
});
