// tools/process-tree.ts: a process and everything below it, found and killed (what stops a `!`
// command, which cannot have a process group of its own), and the process list it reads.
import { afterEach, expect, test } from "bun:test";
import { readFile } from "node:fs/promises";
import { CALL_MARK, killTree, listProcesses, markedProcesses, parsePs, treeOf } from "../../src/tools/process-tree.ts";
import { killMarked, marker, withMarker } from "../helpers/processes.ts";
import { until } from "../helpers/wait.ts";

const leftovers: string[] = [];
afterEach(() => killMarked(leftovers.splice(0)));

test("treeOf: the process, its children and theirs, parents first", async () => {
  const m = marker();
  leftovers.push(m);
  const shell = Bun.spawn(["sh", "-c", `sh -c 'sleep ${m}; :' & sleep ${m}; :`]);
  await until(() => withMarker(m).filter((p) => p.args.startsWith("sleep")).length === 2, "both sleeps");
  const tree = treeOf(shell.pid);
  expect(tree[0]!.pid).toBe(shell.pid);
  expect(tree.map((p) => p.pid).sort()).toEqual(
    withMarker(m)
      .map((p) => p.pid)
      .sort(),
  );
  for (const p of tree.slice(1)) expect(tree.findIndex((q) => q.pid === p.ppid)).toBeLessThan(tree.indexOf(p));
  shell.kill("SIGKILL");
});

test("killTree: SIGTERM to the whole tree, SIGKILL to what ignores it; back once none of it runs", async () => {
  const m = marker();
  leftovers.push(m);
  const shell = Bun.spawn(["sh", "-c", `sleep ${m} & sh -c "trap '' TERM; sleep ${m}; :"; :`]);
  await until(() => withMarker(m).filter((p) => p.args.startsWith("sleep")).length === 2, "both sleeps");
  await killTree(shell.pid, 300);
  expect(withMarker(m)).toEqual([]);
  expect(await shell.exited).toBe(143);
});

test("a process that does not run has no tree", () => {
  expect(treeOf(2 ** 22 + 12345)).toEqual([]); // above any pid_max
});

test.skipIf(process.platform === "win32" || !Bun.which("ps"))("parsePs reads ps(1)'s list as /proc has it", () => {
  const out = Bun.spawnSync(["ps", "-A", "-o", "pid=,ppid=,pgid=,stat=,lstart="]).stdout.toString();
  const self = parsePs(out).find((p) => p.pid === process.pid);
  expect(self).toMatchObject({ ppid: process.ppid, running: true });
  expect(self!.start).toMatch(/\d\d:\d\d:\d\d/);
  if (process.platform === "linux") expect(listProcesses().find((p) => p.pid === process.pid)).toMatchObject({ ppid: process.ppid, pgid: self!.pgid });
});

test.if(process.platform === "linux")(
  "the processes a call marked are found without holding up hey: a process whose /proc entry never answers (D state, a hung NFS mount) is left out at the deadline, the others found, timers run meanwhile",
  async () => {
    const m = marker();
    leftovers.push(m);
    const call = crypto.randomUUID();
    const env = { ...process.env, [CALL_MARK]: call };
    const [hung, answers] = [Bun.spawn(["sleep", m], { env }), Bun.spawn(["sleep", m], { env })];
    await until(() => withMarker(m).length === 2, "both sleeps");
    let ticked = false;
    setTimeout(() => (ticked = true), 0);
    const never = new Promise<Uint8Array>(() => {});
    const read = (path: string) => (path === `/proc/${hung.pid}/environ` ? never : readFile(path));
    const found = await markedProcesses(call, "0", listProcesses(), 200, read);
    expect(found.map((p) => p.pid)).toEqual([answers.pid]);
    expect(ticked).toBe(true);
    hung.kill("SIGKILL");
    answers.kill("SIGKILL");
  },
);
