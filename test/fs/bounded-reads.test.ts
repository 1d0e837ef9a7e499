// The permission checks read the disk before every bash call (package.json for `npm test`, git's
// config for `git push`, a file `: > f` would empty). A path on a hung network mount blocked those
// reads, and hey with them, for as long as the mount hung. Each read now has a deadline
// (fs/bounded-reads.ts); one that does not answer makes the check "cannot verify", naming the file.
// A worker that never answers stands for the hung mount: the reads' own thread is what is bounded.
// Where the mount table is known (Linux), only a network or FUSE mount's paths get the short
// deadline; a local disk's wait as long as a busy machine may need (a mount table of the test's own
// says which is which). Where it is not (here: a table that is not there), every path gets it.
import { afterAll, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { boundedHead, boundedList, boundedLstat, DEADLINE_MS, LOCAL_TIMES, setWorkerSource, stuckReads, workerSource } from "../../src/fs/bounded-reads.ts";
import { permissionCheck } from "../../src/wire.ts";
import { tempDir } from "../helpers/e2e.ts";
import { networkMounts } from "../helpers/mount-table.ts";

const tmp = tempDir("hey-bounded-");
afterAll(() => {
  setWorkerSource(undefined);
  tmp.remove();
});
const root = realpathSync(tmp.path);
const project = join(root, "project");
const home = join(root, "home");
mkdirSync(join(project, ".git"), { recursive: true });
mkdirSync(home);
writeFileSync(join(project, "package.json"), JSON.stringify({ scripts: { test: "npm publish" } }));
writeFileSync(join(project, "notes.txt"), "the user's notes\n");
writeFileSync(join(project, ".git", "config"), "[core]\n\tbare = false\n");
const place = { cwd: project, home, controls: [join(home, ".config", "hey", "config.toml")] };
/** a system whose mount table hey cannot read (not Linux): any path may be on a network mount */
const noTable = join(root, "no-mountinfo");
const check = (deny: string, command: string) => permissionCheck({ allow: [], deny: [deny], narrow: [] }, "sh", place)("bash", { command });

test("reads answer as the file system does: kind, size, content, the system error", () => {
  expect(boundedLstat(join(project, "notes.txt"))).toMatchObject({ kind: "file", size: 17, nlink: 1 });
  expect(boundedLstat(project).kind).toBe("dir");
  const head = boundedHead(join(project, "notes.txt"), 8);
  expect([Buffer.from(head.bytes).toString(), head.size]).toEqual(["the user", 17]);
  expect(() => boundedLstat(join(project, "missing"))).toThrow(expect.objectContaining({ code: "ENOENT" }));
  execFileSync("mkfifo", [join(root, "fifo")]);
  expect(() => boundedHead(join(root, "fifo"), 8)).toThrow(expect.objectContaining({ code: "EINVAL" }));
});

test("a read that does not answer in time makes the check 'cannot verify', naming the file; the next reads work again", () => {
  expect(check("bash: npm publish *", "npm test")).toContain("runs package.json's script `test`");
  // a mount that hangs: no read of a package.json, nor an lstat of notes.txt, ever answers
  const hang = (hangs: string) =>
    setWorkerSource(workerSource(`(req) => { if (${hangs}) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0); }`), DEADLINE_MS, noTable);
  hang(`/package\\.json$/.test(req.path) || (req.op === "lstat" && /notes/.test(req.path))`);
  try {
    expect(check("bash: npm publish *", "npm test")).toBe(
      "blocked by permission rules: cannot verify `npm test`: its package.json did not answer in 2 s (a hung network mount?), so its scripts are unknown",
    );
    expect(check("bash: rm *", ": > notes.txt")).toContain("it empties `notes.txt` if it holds anything, which hey cannot see");
    expect(check("bash: npm publish *", "ls")).toBeUndefined(); // reads nothing
  } finally {
    setWorkerSource(undefined);
  }
  // nor does a read of the .git: git's config may include any file, so a command naming one cannot be verified
  hang(`/\\.git/.test(req.path)`);
  try {
    expect(check("bash: git push --force *", "git push")).toContain(`may force the push through git's config (${join(project, ".git")} did not answer in 2 s`);
    expect(check("bash: rm *", "cp a b")).toContain(`cannot verify \`cp a b\`: hey cannot tell whether \`a\` names a file hey guards`);
  } finally {
    setWorkerSource(undefined);
  }
  expect(check("bash: npm publish *", "npm test")).toContain("runs package.json's script `test`");
  expect(check("bash: rm *", ": > new.txt")).toBeUndefined();
});

test("a workspace's packages are listed within the deadline too: a directory that does not answer makes an install at its root 'cannot verify'", () => {
  const ws = join(root, "ws");
  mkdirSync(join(ws, "packages", "ui"), { recursive: true });
  writeFileSync(join(ws, "package.json"), JSON.stringify({ workspaces: ["packages/*"] }));
  writeFileSync(join(ws, "packages", "ui", "package.json"), JSON.stringify({ scripts: { prepare: "npm publish" } }));
  expect(boundedList(join(ws, "packages"))).toEqual(["ui"]);
  const install = () =>
    permissionCheck({ allow: [], deny: ["bash: npm publish *"], narrow: [] }, "sh", { ...place, cwd: ws })("bash", { command: "npm install" });
  expect(install()).toContain("/ws/packages/ui/package.json's script `prepare` (`npm publish`)");
  setWorkerSource(workerSource(`(req) => { if (req.op === "list") Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0); }`), DEADLINE_MS, noTable);
  try {
    expect(install()).toBe(
      `blocked by permission rules: cannot verify \`npm install\`: its workspace ${join(ws, "packages")} did not answer in 2 s (a hung network mount?), so its packages' scripts are unknown`,
    );
  } finally {
    setWorkerSource(undefined);
  }
});

test("a package.json that is a FIFO at a path near PATH_MAX is still 'cannot verify' (the error naming it kept its code)", () => {
  let dir = root;
  while (dir.length < 4070) {
    dir = join(dir, "d".repeat(Math.min(200, 4070 - dir.length)));
    mkdirSync(dir);
  }
  execFileSync("mkfifo", [join(dir, "package.json")]);
  const deep = permissionCheck({ allow: [], deny: ["bash: npm publish *"], narrow: [] }, "sh", { ...place, cwd: dir });
  expect(deep("bash", { command: "npm test" })).toContain("its package.json is not a regular file (a FIFO or device)");
  expect(() => boundedLstat(join(dir, "missing"))).toThrow(expect.objectContaining({ code: "ENOENT" }));
});

test("a worker that cannot start (its code does not load on this platform) costs one wait, then the checks read the disk themselves", () => {
  setWorkerSource("throw new Error('no workers here');", DEADLINE_MS);
  try {
    expect(check("bash: npm publish *", "npm test")).toContain("runs package.json's script `test`");
    expect(check("bash: rm *", ": > notes.txt")).toEndWith("it empties `notes.txt`"); // seen to hold something
  } finally {
    setWorkerSource(undefined);
  }
});

test("one check reads a path once however many of its words are compared with it (hey's control files, for every path a command names); the next check reads again, so a link made between them is seen", () => {
  const log = join(root, "reads.log");
  writeFileSync(log, "");
  setWorkerSource(workerSource(`(req) => fs.appendFileSync(${JSON.stringify(log)}, req.op + " " + req.path + "\\n")`));
  const control = place.controls[0]!;
  const copies = `cp ${Array.from({ length: 20 }, (_, i) => `f${i}.txt`).join(" ")} dest/`;
  const reads = () =>
    readFileSync(log, "utf8")
      .split("\n")
      .filter((l) => l === `real ${control}`).length;
  try {
    expect(check("bash: rm -rf build", copies)).toBeUndefined();
    expect(reads()).toBe(1); // was 42: twice for each word cp may write
    symlinkSync(control, join(project, "f7.txt"));
    expect(check("bash: rm -rf build", copies)).toBe(
      "blocked by permission rules: `f7.txt` names hey's own configuration or trust file (by another name), which the agent may not change",
    );
    expect(reads()).toBe(2);
  } finally {
    setWorkerSource(undefined);
  }
});

test("a path too long for the worker's buffer (a megabyte) is refused as too long, saying so, not as an offset out of bounds", () => {
  const long = `${project}/${"a/".repeat(700_000)}f`;
  expect(() => boundedLstat(long)).toThrow(expect.objectContaining({ code: "ENAMETOOLONG" }));
  const writes = permissionCheck({ allow: ["write_file"], deny: [], narrow: [] }, "sh", place)("write_file", { path: long, content: "" });
  expect(writes).toContain(`: ${project}/a/a/a/`);
  expect(writes).toContain("… is too long a path to look at (1400");
  expect(boundedLstat(join(project, "notes.txt")).kind).toBe("file"); // the worker still reads
});

test("a read its thread has not even taken up by the deadline (a starved CPU, not a hung mount) gets one more deadline, not a refusal", () => {
  // the thread is slow to take each request up (the machine is busy): 450 ms against a 300 ms deadline
  const starved = workerSource().replace(
    "Atomics.store(ctl, 0, 0);",
    "Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 450); Atomics.store(ctl, 0, 0);",
  );
  expect(starved).not.toBe(workerSource());
  setWorkerSource(starved, 300, networkMounts(join(root, "mountinfo-project"), [project])); // on a network mount: the short deadline
  try {
    // before: "cannot verify `npm test`: its package.json did not answer in 0.3 s (a hung network mount?)"
    expect(check("bash: npm publish *", "npm test")).toContain("runs package.json's script `test`");
  } finally {
    setWorkerSource(undefined);
  }
});

test("once a read on a network mount is stuck, every path on that mount is refused at once, naming it; a local mount's paths and a local mount inside it still wait and read", () => {
  // the kernel's table as a file of the test's own: nfs (an NFS server gone) hangs, slow (a local disk on a busy machine) answers late; nfs/scratch is a local mount inside nfs
  const nfs = join(root, "nfs");
  const slow = join(root, "slow dir");
  mkdirSync(slow);
  const table = join(root, "mountinfo");
  writeFileSync(
    table,
    [
      "22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw",
      `40 22 0:50 / ${nfs} rw,relatime shared:20 - nfs4 server:/export rw,vers=4.2`,
      `41 40 8:2 / ${nfs}/scratch rw,relatime - ext4 /dev/sdb1 rw`,
      `42 22 8:3 / ${slow.replace(" ", "\\040")} rw,relatime - xfs /dev/sdc1 rw`,
    ].join("\n") + "\n",
  );
  const hangs = `req.path.startsWith(${JSON.stringify(nfs)}) && !req.path.includes("scratch")`;
  const late = `req.path.startsWith(${JSON.stringify(slow)})`; // 0.6 s: three deadlines
  const gate = `(req) => { if (${hangs}) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0); if (${late}) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 600); }`;
  setWorkerSource(workerSource(gate), 200, table);
  try {
    expect(() => boundedLstat(join(nfs, "src", "a.ts"))).toThrow("did not answer in 0.2 s");
    expect(stuckReads()).toBe(1);
    // before: each path of the mount waited its own 0.2 s and held a thread of its own, until 8 of them refused every read
    expect(() => boundedLstat(join(nfs, "docs", "b.md"))).toThrow(
      `${join(nfs, "docs", "b.md")} is on ${nfs} (nfs4), where a read of ${join(nfs, "src", "a.ts")} has not answered for`,
    );
    expect(() => boundedLstat(nfs)).toThrow(`is on ${nfs} (nfs4)`);
    expect(stuckReads()).toBe(1); // refused before it was asked: no second thread left waiting
    expect(() => boundedLstat(join(nfs, "scratch", "x"))).toThrow(expect.objectContaining({ code: "ENOENT" })); // its own mount, read
    expect(boundedLstat(join(project, "notes.txt")).kind).toBe("file");
    // a local disk that is slow (a busy machine) is waited for: its reads answer, not "a hung network mount?"
    // before: "…/slow dir/one did not answer in 0.2 s (a hung network mount?)", and a thread held for each
    expect(() => boundedLstat(join(slow, "one"))).toThrow(expect.objectContaining({ code: "ENOENT" }));
    expect(boundedLstat(slow).kind).toBe("dir");
    expect(stuckReads()).toBe(1);
  } finally {
    setWorkerSource(undefined);
  }
});

test("a read stuck on a root file system that is FUSE (a rootless container's fuse-overlayfs) refuses only its path and those below it, not every path", () => {
  const table = join(root, "mountinfo-root");
  writeFileSync(table, "1 0 0:40 / / rw,relatime - fuse.fuse-overlayfs fuse-overlayfs rw\n");
  const slow = join(root, "slow-file");
  setWorkerSource(
    workerSource(`(req) => { if (req.path === ${JSON.stringify(slow)}) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0); }`),
    200,
    table,
  );
  try {
    // the root is a local disk's, however it is served: waited for LOCAL_TIMES deadlines, then refused, naming the path
    expect(() => boundedLstat(slow)).toThrow(`did not answer in ${(200 * LOCAL_TIMES) / 1000} s (a hung disk, or a link onto a hung network mount?)`);
    expect(boundedLstat(join(project, "notes.txt")).kind).toBe("file"); // read, not refused for being on /
  } finally {
    setWorkerSource(undefined);
  }
});
