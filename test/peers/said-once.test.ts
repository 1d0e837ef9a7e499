// The notices hey says once per project (peers/said.ts) are kept in one record, which a start asks up
// to five times (the trust notice, other agents' files, the deny entries, the user's lists, the
// start's held lines): it is answered from one reading per start, and what one start records the next
// one sees; a change is written as that key alone, read again under the file's lock, so two heys
// starting at once keep each other's changes (x138 #4).
import { expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readOwnFile } from "../../src/fs/own-files.ts";
import { saidRecord } from "../../src/peers/said.ts";
import { eachTempDir } from "../helpers/fixtures.ts";

const dir = eachTempDir("hey-said-once-");

/** A record of `file` that counts its reads of the file. */
function counted(file: string) {
  let reads = 0;
  const record = saidRecord(file, (...args: Parameters<typeof readOwnFile>) => (reads++, readOwnFile(...args)));
  return { record, reads: () => reads };
}

/** One start's questions, as run.ts asks them. */
async function start(file: string, peers: string[]) {
  const { record, reads } = counted(file);
  const said = [
    ...(await record.unsaid("/p", ["trust: not decided"], "trust")),
    ...(await record.unsaid("/p", peers)),
    ...(await record.unsaid("/p", [], "reads")),
    ...(await record.unsaid("~", ["lists: none set"])),
    ...(await record.unsaid("/p", ["CLAUDE.md imports left out"], "start")),
  ];
  return { said, reads: reads() };
}

test("a start reads the record once, however many notices it asks about, and the next start says only what changed", async () => {
  const file = join(dir.path, "state", "peer-notices.json");
  const first = await start(file, ["CLAUDE.md found"]);
  // a change read again before it is written: one reading to answer, one per key written
  expect(first).toEqual({ said: ["trust: not decided", "CLAUDE.md found", "lists: none set", "CLAUDE.md imports left out"], reads: 1 + 4 });
  expect(Object.keys(JSON.parse(readFileSync(file, "utf8"))).sort()).toEqual(["/p", "/p#start", "/p#trust", "~"]);
  expect(await start(file, ["CLAUDE.md found"])).toEqual({ said: [], reads: 1 });
  expect(await start(file, ["CLAUDE.md found", ".cursorrules found"])).toEqual({ said: [".cursorrules found"], reads: 1 + 1 });
});

test("a record that is not JSON is started again: read once to answer, each change written into a fresh one", async () => {
  const file = join(dir.path, "peer-notices.json");
  await Bun.write(file, "{not json");
  expect(await start(file, ["AGENTS.md found"])).toEqual({
    said: ["trust: not decided", "AGENTS.md found", "lists: none set", "CLAUDE.md imports left out"],
    reads: 1 + 4,
  });
  expect(JSON.parse(readFileSync(file, "utf8"))["/p"]).toHaveLength(1);
});

test("two starts at once keep each other's changes: a key one drops is not put back by the other's later write", async () => {
  const file = join(dir.path, "state", "peer-notices.json");
  expect(await saidRecord(file).unsaid("/P", ["trust: not decided"], "trust")).toEqual(["trust: not decided"]);
  const inQ = saidRecord(file); // start B, in project Q, reads the record at its first question
  expect(await inQ.unsaid("/Q", ["trust: not decided"], "trust")).toEqual(["trust: not decided"]);
  const inP = saidRecord(file); // start A, in P, trusted now: its trust notice is gone, and it finds another agent's file
  expect(await inP.unsaid("/P", [], "trust")).toEqual([]);
  expect(await inP.unsaid("/P", ["CLAUDE.md found"])).toEqual(["CLAUDE.md found"]);
  expect(await inQ.unsaid("/Q", ["CLAUDE.md imports left out"], "start")).toEqual(["CLAUDE.md imports left out"]); // B's last write, after its assemble
  expect(Object.keys(JSON.parse(readFileSync(file, "utf8"))).sort()).toEqual(["/P", "/Q#start", "/Q#trust"]);
  // P untrusted again: the notice gone and back is said again, and what A found is not said twice
  const next = saidRecord(file);
  expect(await next.unsaid("/P", ["trust: not decided"], "trust")).toEqual(["trust: not decided"]);
  expect(await next.unsaid("/P", ["CLAUDE.md found"])).toEqual([]);
});

// the lock's wait is the timeout's business: at 5 s a notice (the wait before) the five take 25 s
test("a lock held by a hey on another machine costs a start no wait: the notices are said, nothing written, said again next start", async () => {
  const file = join(dir.path, "state", "peer-notices.json");
  mkdirSync(join(dir.path, "state"), { recursive: true });
  writeFileSync(`${file}.lock`, "4242 laptop-b\n"); // never stale: its host cannot be asked
  const first = await start(file, ["CLAUDE.md found"]);
  expect(first.said).toEqual(["trust: not decided", "CLAUDE.md found", "lists: none set", "CLAUDE.md imports left out"]);
  expect(existsSync(file)).toBe(false);
  expect((await start(file, ["CLAUDE.md found"])).said).toEqual(first.said);
}, 8000);
