// A project path that is a link onto a network mount (`data` → /mnt/nfs/data) is local by its name
// only. hey waited a local disk's LOCAL_TIMES deadlines (30 s, hey frozen) for each read through it
// while the NFS server was gone, and each such path took a thread of its own, up to MAX_STUCK: about
// four minutes frozen in one session. The worker now says, before the read, whether the path's links
// lead onto a network mount: then the read gets the short deadline, and every path through that
// link is refused at once. The mount table is read once, not once a second (Kubernetes nodes list
// thousands of mounts), and again when a read waits.
import { afterAll, expect, setSystemTime, spyOn, test } from "bun:test";
import * as fs from "node:fs";
import { join } from "node:path";
import { leadsOnto } from "../../src/fs/disk-walks.ts";
import { boundedLstat, LOCAL_TIMES, setWorkerSource, stuckReads, workerSource } from "../../src/fs/bounded-reads.ts";
import { tempDir } from "../helpers/e2e.ts";
import { networkMounts } from "../helpers/mount-table.ts";

const tmp = tempDir("hey-link-onto-");
afterAll(() => {
  setWorkerSource(undefined);
  setSystemTime();
  tmp.remove();
});
const root = fs.realpathSync(tmp.path);
const nfs = join(root, "nfs");
const project = join(root, "project");
fs.mkdirSync(join(nfs, "data"), { recursive: true });
fs.mkdirSync(join(project, "src"), { recursive: true });
fs.symlinkSync(join(nfs, "data"), join(project, "data"));
fs.mkdirSync(join(root, "sub"));
fs.symlinkSync("../project/data", join(root, "sub", "relative")); // a relative link onto the same place
const table = networkMounts(join(root, "mountinfo"), [nfs]);
/** a worker whose reads through `data` (as written) never answer: the NFS server behind the link is gone */
const hangs = (pattern: string) => workerSource(`(req) => { if (${pattern}.test(req.path)) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0); }`);

test("a read through a local link onto a hung network mount gets the network mount's deadline, and the link's other paths are refused at once", () => {
  setWorkerSource(hangs("/\\/data(\\/|$)/"), 200, table);
  try {
    // before: "…/project/data/a did not answer in 3 s (a hung disk, or a link onto a hung network mount?)"
    expect(() => boundedLstat(join(project, "data", "a"))).toThrow(
      `${join(project, "data", "a")} did not answer in 0.2 s (${join(project, "data")} leads onto ${nfs} (nfs4): a hung network mount?)`,
    );
    // before: each waited its own 3 s and held a thread of its own
    expect(() => boundedLstat(join(project, "data", "b"))).toThrow(
      `${join(project, "data", "b")} is below ${join(project, "data")}, which leads onto ${nfs} (nfs4), where a read of ${join(project, "data", "a")} has not answered for`,
    );
    expect(() => boundedLstat(join(nfs, "data", "c"))).toThrow(`is on ${nfs} (nfs4)`);
    expect(stuckReads()).toBe(1);
    expect(boundedLstat(join(project, "src")).kind).toBe("dir"); // the project's own paths still read
  } finally {
    setWorkerSource(undefined);
  }
});

test("a relative link onto the mount counts too", () => {
  setWorkerSource(hangs("/\\/relative\\//"), 200, table);
  try {
    expect(() => boundedLstat(join(root, "sub", "relative", "x"))).toThrow(
      `(${join(root, "sub", "relative")} leads onto ${nfs} (nfs4): a hung network mount?)`,
    );
  } finally {
    setWorkerSource(undefined);
  }
});

test("a local path whose links stay on local disks still waits a busy disk's time", () => {
  const slow = join(project, "src", "slow");
  const late = `(req) => { if (req.path === ${JSON.stringify(slow)}) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 600); }`;
  setWorkerSource(workerSource(late), 200, table);
  try {
    expect(() => boundedLstat(slow)).toThrow(expect.objectContaining({ code: "ENOENT" })); // answered after three deadlines, not refused
    expect(stuckReads()).toBe(0);
    // and one that never answers is refused after LOCAL_TIMES deadlines, as before
    setWorkerSource(workerSource(late.replace(", 600)", ")")), 200, table);
    expect(() => boundedLstat(slow)).toThrow(`did not answer in ${(200 * LOCAL_TIMES) / 1000} s (a hung disk`);
  } finally {
    setWorkerSource(undefined);
  }
});

test("the mount table is read once for many reads over minutes, not once a second", () => {
  setWorkerSource(workerSource(), 200, table);
  const reads = spyOn(fs, "readFileSync");
  try {
    const start = Date.now();
    for (let minute = 0; minute < 5; minute++) {
      setSystemTime(new Date(start + minute * 60_000));
      expect(boundedLstat(join(project, "src")).kind).toBe("dir");
    }
    // before: 5, one for each read a second or more after the last
    expect(reads.mock.calls.filter((c) => c[0] === table).length).toBe(1);
  } finally {
    reads.mockRestore();
    setSystemTime();
    setWorkerSource(undefined);
  }
});

test.each([
  ["a path on the mount as written", "nfs/data/a", { point: 0, names: 1 }],
  ["an absolute link onto it", "project/data/a", { point: 0, names: 2 }],
  ["a relative link with `..` onto it", "sub/relative/x/y", { point: 0, names: 2 }],
  ["a chain of links (loop → sub/relative → project/data)", "chain/a", { point: 0, names: 1 }],
  ["a local path", "project/src/x", undefined],
  ["a path not there", "nowhere/a/b", undefined],
  ["a link that loops", "loop/a", undefined],
])("where a path's links lead: %s", (_, path, expected) => {
  if (!fs.existsSync(join(root, "chain"))) {
    fs.symlinkSync("sub/relative", join(root, "chain"));
    fs.symlinkSync("loop", join(root, "loop"));
  }
  // `names`: how many of the path's own names led there, counted below root here
  const depth = root.split("/").filter(Boolean).length;
  const found = leadsOnto(fs, join(root, path), [nfs]);
  expect(found && { ...found, names: found.names - depth }).toEqual(expected as never);
});
