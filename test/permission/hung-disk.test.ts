// The permission check never waits on the disk longer than the deadline (fs/bounded-reads.ts): where
// a write goes once links are resolved (the file tools, a redirection, a command's argument), which
// file a hard link is, and the search for a file's other names under an `rm -rf` entry's directory
// all run on the worker. A path that does not answer makes the check refuse, naming the path and
// that it took too long, never allow; the same path again is refused at once; and once the mount
// answers again — also after more reads hung than hey keeps threads for — checks work again.
// A worker whose reads of paths holding "hung" block until a file appears stands for the mount, which
// a mount table of the test's own lists as NFS (a local disk's read waits longer: a busy machine).
import { afterAll, afterEach, expect, test } from "bun:test";
import { existsSync, linkSync, mkdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { LOCAL_TIMES, MAX_STUCK, setWorkerSource, stuckReads, workerSource } from "../../src/fs/bounded-reads.ts";
import { permissionCheck } from "../../src/wire.ts";
import { tempDir } from "../helpers/e2e.ts";
import { networkMounts } from "../helpers/mount-table.ts";
import { found, until } from "../helpers/wait.ts";

const tmp = tempDir("hey-hung-disk-");
const root = realpathSync(tmp.path);
const project = join(root, "project");
const home = join(root, "home");
const back = join(root, "mount-is-back");
mkdirSync(join(project, "hung"), { recursive: true });
mkdirSync(join(project, "build"));
mkdirSync(home);
writeFileSync(join(project, "notes.txt"), "the user's notes\n");
linkSync(join(project, "notes.txt"), join(project, "notes-copy.txt")); // a second name: the search under build runs
const controls = [join(home, ".config", "hey", "config.toml")];
const place = { cwd: project, home, controls };
const allowing = permissionCheck({ allow: ["write_file", "bash: echo * > *", "bash: cd *"], deny: [], narrow: [] }, "sh", place);
const denying = permissionCheck({ allow: [], deny: ["bash: rm -rf build"], narrow: [] }, "sh", place);
const DEADLINE = 500;

const hangingGate = (hangs: string) =>
  `(req) => { if (${hangs}) { const t = new Int32Array(new SharedArrayBuffer(4)); while (!fs.existsSync(${JSON.stringify(back)})) Atomics.wait(t, 0, 0, 20); } }`;
/** the mount table the tests see: each of `network` is an NFS mount */
const table = (network: string[]) => networkMounts(join(root, "mountinfo"), network);

/** hey's own worker, but a read whose path holds "hung" (or, `search`, the search for other names) blocks until `back` exists; `network`: the NFS mounts */
function hangingMount(search = false, network = [join(project, "hung")]): void {
  setWorkerSource(workerSource(hangingGate(search ? `req.op === "links"` : `req.path.includes("/hung")`)), DEADLINE, table(network));
}

afterEach(() => {
  setWorkerSource(undefined);
  if (existsSync(back)) rmSync(back);
});
afterAll(() => tmp.remove());

const write = (path: string) => allowing("write_file", { path, content: "x" });

test("a file tool's write to a path that does not answer is refused, naming it; the same path again is refused at once; others are not held up", async () => {
  hangingMount();
  expect(write("hung/dir")).toBe(
    `blocked by permission rules: cannot verify that hung/dir is none of the files hey guards (its own configuration, git's config and hooks): ${project}/hung/dir did not answer in 0.5 s (a hung network mount?); while a permission list is set the agent may not write it`,
  );
  expect(stuckReads()).toBe(1);
  // no second wait, no second thread held
  expect(write("hung/dir")).toMatch(new RegExp(`: ${project}/hung/dir has not answered for [\\d.]+ s \\(a hung network mount\\?\\)`));
  expect(write("hung/dir/y.txt")).toContain(`${project}/hung/dir/y.txt is below ${project}/hung/dir, which has not answered for`);
  expect(stuckReads()).toBe(1);
  expect(write("src/a.ts")).toBeUndefined();
  writeFileSync(back, "");
  await until(() => stuckReads() === 0, "the stuck read to answer");
  expect(write("hung/dir")).toBeUndefined();
});

test("a redirection into a path that does not answer is 'cannot verify', naming the path", () => {
  hangingMount();
  expect(allowing("bash", { command: "echo hi > hung/out.txt" })).toBe(
    `blocked by permission rules: cannot verify \`echo hi > hung/out.txt\`: hey cannot tell whether \`> hung/out.txt\` writes a file hey guards (its own configuration, git's config and hooks): ${project}/hung/out.txt did not answer in 0.5 s (a hung network mount?)`,
  );
  expect(allowing("bash", { command: "echo hi > out.txt" })).toBeUndefined();
});

test("one check waits for one path that does not answer, not for each: the next paths of the check are not read", () => {
  hangingMount();
  // `> f` is resolved from each directory the `cd`s may lead to: two on the hung mount
  expect(allowing("bash", { command: "cd hung/a || cd hung/b; echo hi > f" })).toBe(
    `blocked by permission rules: cannot verify \`cd hung/a || cd hung/b; echo hi > f\`: hey cannot tell whether \`> f\` writes a file hey guards (its own configuration, git's config and hooks): ${project}/hung/a/f did not answer in 0.5 s (a hung network mount?)`,
  );
  expect(stuckReads()).toBe(1); // hung/b/f was not sent to a second worker to wait for
  expect(allowing("bash", { command: "echo hi > f" })).toBeUndefined(); // the next check reads again
});

test("emptying a file whose other names are searched for under a directory that does not answer is refused, saying so", () => {
  hangingMount(true);
  expect(denying("bash", { command: ": > notes.txt" })).toBe(
    `blocked by permission rules: \`: > notes.txt\` does what deny entry \`bash: rm -rf build\` refuses: it empties \`notes.txt\` (may be a link to a file under \`build\`, which the entry names: hey cannot tell, ${project}/build was not searched in 0.5 s for other names of ${project}/notes.txt (a hung network mount, or too large a tree?)) if it holds anything, which hey cannot see`, // not looked at either: the check has waited once
  );
  expect(denying("bash", { command: ": > new.txt" })).toBeUndefined(); // nothing there: no search
});

test(`after ${MAX_STUCK} reads hung at once every disk check is refused at once, saying why; once the mount answers, checks work again`, async () => {
  hangingMount(
    false,
    Array.from({ length: MAX_STUCK }, (_, i) => join(project, "hung", `f${i}.txt`)),
  ); // as many hung mounts (an automounter's shares)
  for (let i = 0; i < MAX_STUCK; i++) expect(write(`hung/f${i}.txt`)).toContain(`hung/f${i}.txt did not answer in 0.5 s`);
  expect(stuckReads()).toBe(MAX_STUCK);
  expect(write("src/a.ts")).toMatch(
    new RegExp(
      `: ${project}/src/a.ts was not read: ${MAX_STUCK} reads before it have not answered \\(the first, of ${project}/hung/f0.txt, for [\\d.]+ s: a hung network mount\\?\\); hey reads again once one answers`,
    ),
  );
  expect(stuckReads()).toBe(MAX_STUCK); // no thread more
  writeFileSync(back, "");
  await until(() => stuckReads() === 0, "the stuck reads to answer");
  // a loaded machine may take longer than the deadline to start a fresh thread: wait for the answers, not the clock
  await until(() => write("src/a.ts") === undefined, "src/a.ts to be read again");
  await until(() => write("hung/f0.txt") === undefined, "hung/f0.txt to be read again");
  // answered: no deny entry refuses it, and the file's second name (notes-copy.txt) is what refuses it now
  const refusal = await found(() => {
    const said = denying("bash", { command: ": > notes.txt" });
    return said?.includes("in 0.5 s") ? undefined : said;
  }, "the search under build to answer in time");
  expect(refusal).toContain("is a file with other hard links");
});

test("a fresh thread for reads slow to start (a busy machine) is waited for as a local read is, and reads: only one that never starts refuses the check, saying so — the reads never move to hey's own thread, where a hung mount would freeze it", async () => {
  const slowFor = join(root, "slow-start-for-a-while");
  const never = join(root, "slow-start");
  // hey's worker, whose start takes 0.6 s while `slowFor` exists (three deadlines), and waits while `never` exists
  const starting = `{ const fs = require("node:fs"); const t = new Int32Array(new SharedArrayBuffer(4)); const end = Date.now() + (fs.existsSync(${JSON.stringify(slowFor)}) ? 600 : 0); while (Date.now() < end || fs.existsSync(${JSON.stringify(never)})) Atomics.wait(t, 0, 0, 20); }`;
  const deadline = 200; // a thread's start waits LOCAL_TIMES as long: 3 s
  setWorkerSource(`${starting}\n${workerSource(hangingGate(`req.path.includes("/hung")`))}`, deadline, table([join(project, "hung"), join(project, "hung2")]));
  try {
    expect(write("hung/a")).toContain(`${project}/hung/a did not answer in 0.2 s`); // the thread left stuck there had started
    writeFileSync(slowFor, "");
    // before: "…src/a.ts was not read: hey's thread for reads has not started in 0.2 s (an overloaded machine, or no threads left?)"
    expect(write("src/a.ts")).toBeUndefined();
    rmSync(slowFor);
    expect(write("hung2/b")).toContain(`${project}/hung2/b did not answer in 0.2 s`); // a second thread left stuck
    writeFileSync(never, "");
    expect(write("src/c.ts")).toBe(
      `blocked by permission rules: cannot verify that src/c.ts is none of the files hey guards (its own configuration, git's config and hooks): ${project}/src/c.ts was not read: hey's thread for reads has not started in ${(deadline * LOCAL_TIMES) / 1000} s (an overloaded machine, or no threads left?); while a permission list is set the agent may not write it`,
    );
    expect(stuckReads()).toBe(2); // the thread that has not started is not joined by more
  } finally {
    rmSync(never, { force: true });
    rmSync(slowFor, { force: true });
  }
  await until(() => write("src/a.ts") === undefined, "the thread for reads to start");
});

test("a fresh thread for reads that never starts is not waited for again: the checks after it are refused at once, and once it has been given as long again a fresh one reads", async () => {
  const taken = join(root, "start-never"); // the thread made while it exists takes it and never starts
  const starting = `{ const fs = require("node:fs"); let mine = false; try { fs.rmSync(${JSON.stringify(taken)}); mine = true; } catch {} const t = new Int32Array(new SharedArrayBuffer(4)); while (mine && !fs.existsSync(${JSON.stringify(back)})) Atomics.wait(t, 0, 0, 20); }`;
  const deadline = 100;
  const wait = deadline * LOCAL_TIMES; // 1.5 s
  setWorkerSource(`${starting}\n${workerSource(hangingGate(`req.path.includes("/hung")`))}`, deadline, table([join(project, "hung")]));
  expect(write("hung/a")).toContain(`${project}/hung/a did not answer in 0.1 s`); // a thread has worked, and is left stuck
  writeFileSync(taken, "");
  expect(write("src/a.ts")).toContain(`${project}/src/a.ts was not read: hey's thread for reads has not started in ${wait / 1000} s`);
  const began = Date.now();
  // before: every check waited the whole start again (30 s a check in hey, 15 min under the tests' patient deadline: a CI run hung)
  expect(write("src/b.ts")).toMatch(
    new RegExp(`${project}/src/b.ts was not read: hey's thread for reads has not started in [\\d.]+ s \\(an overloaded machine`),
  );
  expect(Date.now() - began).toBeLessThan(wait);
  expect(existsSync(taken)).toBe(false);
  await until(() => write("src/b.ts") === undefined, "a fresh thread to read");
  expect(stuckReads()).toBe(1);
});

test("a first thread for reads slow to start (an overloaded machine) lets the checks read the disk themselves only until it starts: from then on a path that does not answer is refused", async () => {
  const slow = join(root, "slow-start");
  writeFileSync(slow, "");
  const gate = `(req) => { if (req.path.includes("/hung")) { const t = new Int32Array(new SharedArrayBuffer(4)); while (!fs.existsSync(${JSON.stringify(back)})) Atomics.wait(t, 0, 0, 20); } }`;
  const starting = `{ const t = new Int32Array(new SharedArrayBuffer(4)); while (require("node:fs").existsSync(${JSON.stringify(slow)})) Atomics.wait(t, 0, 0, 20); }`;
  setWorkerSource(`${starting}\n${workerSource(gate)}`, DEADLINE, table([join(project, "hung")]));
  try {
    expect(write("src/a.ts")).toBeUndefined(); // read here, after one wait
  } finally {
    rmSync(slow);
  }
  await until(() => write("hung/x") !== undefined, "the thread for reads to take the reads");
  expect(write("hung/x")).toContain(`${project}/hung/x has not answered for`);
});
