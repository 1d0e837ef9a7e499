// realTarget resolves a path as the kernel does when a shell opens it for writing: links on the
// way and at the end (also one whose target does not exist yet, which the open creates), `..`
// after the link before it; fileId knows a hard link for the same file. The permission checks' copy
// (realTargetBounded) runs the same walk on fs/bounded-reads.ts's worker.
import { afterAll, expect, test } from "bun:test";
import { linkSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join, win32 } from "node:path";
import { resolveTarget } from "../../src/fs/disk-walks.ts";
import { boundedLstat, readerStarted, setWorkerSource, stuckReads, workerSource } from "../../src/fs/bounded-reads.ts";
import { callTarget, fileId, realTarget, realTargetBounded } from "../../src/fs/real-target.ts";
import { tempDir } from "../helpers/e2e.ts";
import { networkMounts } from "../helpers/mount-table.ts";

const tmp = tempDir("hey-real-target-");
afterAll(() => tmp.remove());
const root = realpathSync(tmp.path);
const at = (...parts: string[]) => join(root, ...parts);
/** the mount table the hung-read tests see: `hung` is an NFS mount (a local disk's read would wait longer) */
const onNfs = networkMounts(at("mountinfo"), [at("hung")]);
mkdirSync(at("conf", "hey"), { recursive: true });
mkdirSync(at("proj", "sub"), { recursive: true });
mkdirSync(at("proj", ".hey"));
mkdirSync(at("proj", "hey")); // `proj/dirlink/../hey` lexically
writeFileSync(at("proj", "hey", "config.toml"), "y");
writeFileSync(at("conf", "hey", "config.toml"), "x");
symlinkSync(at("conf", "hey", "config.toml"), at("proj", "cfglink"));
symlinkSync(at("conf", "hey"), at("proj", "dirlink"));
symlinkSync("../conf/hey", at("proj", "rel-dirlink"));
symlinkSync(at("proj", ".hey", "config.toml"), at("proj", "dangling"));
symlinkSync(".hey/config.toml", at("proj", "rel-dangling"));
symlinkSync(at("proj", "loop-a"), at("proj", "loop-b"));
symlinkSync(at("proj", "loop-b"), at("proj", "loop-a"));
linkSync(at("conf", "hey", "config.toml"), at("proj", "hard"));

test.each([
  ["an existing directory", "proj/sub", "proj/sub"],
  ["a link to a file", "proj/cfglink", "conf/hey/config.toml"],
  ["a missing file under a linked directory", "proj/dirlink/new.toml", "conf/hey/new.toml"],
  ["a relative link to a directory", "proj/rel-dirlink/config.toml", "conf/hey/config.toml"],
  ["a dangling link: the file the open would create", "proj/dangling", "proj/.hey/config.toml"],
  ["a relative dangling link", "proj/rel-dangling", "proj/.hey/config.toml"],
  ["a directory not made yet, then `..` and a link", "proj/new-dir/../cfglink", "conf/hey/config.toml"],
  ["a missing file", "proj/sub/none/x", "proj/sub/none/x"],
  ["`..` after a link to a file's directory, where the lexical path exists too", "proj/dirlink/../hey/config.toml", "conf/hey/config.toml"],
])("%s", (_why, path, real) => {
  expect(realTarget(`${root}/${path}`)).toBe(at(real)); // not joined: join would take `..` before the link
  expect(realTargetBounded(`${root}/${path}`)).toBe(at(real)); // the same walk, on the permission checks' worker
});

test("a link loop ends without throwing, as the kernel's ELOOP does", () => {
  expect(() => realTarget(at("proj", "loop-a", "x"))).not.toThrow();
});

test("fileId: a hard link is the same file; a missing file is none", () => {
  expect(fileId(at("proj", "hard"))).toBe(fileId(at("conf", "hey", "config.toml"))!);
  expect(fileId(at("proj", "cfglink"))).toBe(fileId(at("conf", "hey", "config.toml"))!);
  expect(fileId(at("proj", "sub"))).not.toBe(fileId(at("conf", "hey", "config.toml"))!);
  expect(fileId(at("proj", "dangling"))).toBeUndefined();
});

test("callTarget (the order of tool calls on one file) does not wait on a path that does not answer: it cannot tell which file it is (the call runs in order with every file call), said at once the second time", () => {
  // the worker's reads of paths holding "/hung" never answer: a hung mount (fs/bounded-reads.ts)
  setWorkerSource(workerSource(`(req) => { if (req.path.includes("/hung")) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0); }`), 300, onNfs);
  try {
    expect(callTarget(at("proj", "cfglink"))).toBe(at("conf", "hey", "config.toml")); // no thread for reads yet: looked up here
    boundedLstat(at("proj")); // a permission list's check starts the thread
    expect(callTarget(at("proj", "cfglink"))).toBe(at("conf", "hey", "config.toml"));
    expect(callTarget(at("hung", "x"))).toBeUndefined();
    expect(stuckReads()).toBe(1); // it was asked of the worker, which hey stopped waiting for
    expect(callTarget(at("hung", "x"))).toBeUndefined(); // at once: no second thread stuck
    expect(stuckReads()).toBe(1);
    expect(callTarget(at("proj", "cfglink"))).toBe(at("conf", "hey", "config.toml"));
  } finally {
    setWorkerSource(undefined);
  }
});

test("with a permission list the first turn's calls, ordered before any check has run, do not wait on a path that does not answer", () => {
  setWorkerSource(workerSource(`(req) => { if (req.path.includes("/hung")) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0); }`), 300, onNfs);
  try {
    expect(readerStarted()).toBe(false); // no check has run yet
    expect(callTarget(at("hung", "x"), true)).toBeUndefined(); // on a hung mount, looked up here, hey would freeze
    expect(stuckReads()).toBe(1);
    expect(callTarget(at("proj", "cfglink"), true)).toBe(at("conf", "hey", "config.toml"));
  } finally {
    setWorkerSource(undefined);
  }
});

test("without a permission list no thread for reads is started for the order of calls alone (it costs ~9 MB of a short task's ~50)", () => {
  setWorkerSource(undefined); // as at start-up: none started
  expect(callTarget(at("proj", "cfglink"))).toBe(at("conf", "hey", "config.toml"));
  expect(readerStarted()).toBe(false);
});

// Windows' and macOS's file systems ignore case: `b.txt` names the file `B.txt`. A model that copies
// VS Code's `c:\…` paths, or types a name in another case, must reach the key the file is known by
// (write_file refused a file read as `b.txt` and written as `B.txt`). Modelled here: a file system
// that finds names whatever their case, whose realpathSync keeps the case typed (as Bun's does on
// Windows) and realpathSync.native gives the stored one.
test("a file system that ignores case: every spelling of a file, or of a new file's folder, resolves to the stored one", () => {
  const stored = ["Z:\\", "Z:\\work", "Z:\\work\\Proj", "Z:\\work\\Proj\\B.txt"];
  const find = (p: string) => {
    const hit = stored.find((s) => s.toLowerCase() === win32.resolve(p).toLowerCase());
    if (!hit) throw Object.assign(new Error(`ENOENT: ${p}`), { code: "ENOENT" });
    return hit;
  };
  const realpathSync = Object.assign((p: string) => (find(p), p), { native: find });
  const fs = { realpathSync, lstatSync: (p: string) => (find(p), { isSymbolicLink: () => false }), readlinkSync: () => "" };
  const resolve = (p: string) => resolveTarget(fs as never, win32, p);
  for (const spelling of ["Z:\\work\\Proj\\B.txt", "z:\\work\\proj\\b.txt", "Z:\\WORK\\PROJ\\b.TXT", "z:/work/proj/B.txt"])
    expect(resolve(spelling)).toBe("Z:\\work\\Proj\\B.txt");
  expect(resolve("z:\\WORK\\proj\\new\\c.txt")).toBe("Z:\\work\\Proj\\new\\c.txt");
});
