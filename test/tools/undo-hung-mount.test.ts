// x101 #5: /undo of an earlier hey's turn compares the turn's project with this one through links,
// on hey's own thread, where a read of a hung network mount would freeze the REPL with no Ctrl-C.
// It now looks within the read deadline and, when a path does not answer, touches nothing and says so.
import { afterAll, afterEach, expect, test } from "bun:test";
import { cpSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setWorkerSource, workerSource } from "../../src/fs/bounded-reads.ts";
import { checkpointsIn, withCheckpoints } from "../../src/tools/checkpoints.ts";
import { createEditTool } from "../../src/tools/edit.ts";
import { createReadFileTool } from "../../src/tools/read-file.ts";
import { notUndoneText } from "../../src/ui/undo-report.ts";
import { tempDir } from "../helpers/e2e.ts";
import { networkMounts } from "../helpers/mount-table.ts";

const tmp = tempDir("hey-undo-hung-");
afterAll(() => tmp.remove());
afterEach(() => setWorkerSource(undefined));
const at = (...parts: string[]) => join(realpathSync(tmp.path), ...parts);

test("an earlier turn made in a project on a mount that stops answering: /undo returns within the deadline, touches nothing and says the path did not answer", async () => {
  const project = at("hung");
  const outputs = at("outputs");
  const other = at("other");
  for (const d of [project, outputs, other]) mkdirSync(d, { recursive: true });
  writeFileSync(join(project, "app.txt"), "v0\n");
  const seen = new Map();
  const ctx = { signal: new AbortController().signal, cwd: project };
  const first = checkpointsIn(outputs, { seen, root: project });
  const read = withCheckpoints(createReadFileTool({ home: project, seen }), outputs, project, seen);
  const edit = withCheckpoints(createEditTool({ home: project, seen }), outputs, project, seen);
  first.beginTurn();
  await read.run({ path: "app.txt" }, ctx);
  expect((await edit.run({ path: "app.txt", old_string: "v0", new_string: "v1" }, ctx)).isError).toBeFalsy();

  // the mount under `hung` stops answering; hey is resumed in another folder
  setWorkerSource(
    workerSource(`(req) => { if (req.path.includes("/hung")) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0); }`),
    300,
    networkMounts(at("mountinfo"), [project]),
  );
  cpSync(outputs, at("resumed"), { recursive: true }); // the next hey's outputs folder: a store that has not seen it
  const outcome = await checkpointsIn(at("resumed"), { root: other }).undo();
  expect(outcome).toEqual({ kind: "elsewhere", root: project, files: [join(project, "app.txt")], unanswered: project });
  expect(outcome.kind === "elsewhere" && notUndoneText(outcome, other)).toContain(`${project} did not answer in time (a hung network mount?)`);
  expect(readFileSync(join(project, "app.txt"), "utf8")).toBe("v1\n");
});
