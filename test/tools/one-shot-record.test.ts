// A `hey -c -p` run's turn in /undo's record (one-shot-turn.ts): a step that cannot be written is
// said once, at once, and written with the next step once it can be; a record a killed hey left
// mid-line does not swallow the run's turn. Before, a failed write was passed over without a word,
// and a later `hey -c`'s /undo went past the run's changes as if it had made none.
import { afterEach, expect, test } from "bun:test";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers/e2e.ts";
import { createWriteFileTool } from "../../src/tools/write-file.ts";
import { oneShotTurns } from "../../src/tools/one-shot-turn.ts";
import { RECORD_FILE, recordLine, replayRecords } from "../../src/tools/undo-record.ts";
import type { Tool } from "../../src/kernel/tool.ts";

const dirs: ReturnType<typeof tempDir>[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) d.remove();
});

/** A session whose record holds one REPL turn, and a -p run's bash and write_file on it; `notices`: what the user was told. */
function oneShotRun() {
  const [work, outputs] = [tempDir("hey-oneshot-"), tempDir("hey-oneshot-out-")];
  dirs.push(work, outputs);
  const record = join(outputs.path, RECORD_FILE);
  const earlier = recordLine({ type: "turn", turn: "repl1", root: work.path });
  writeFileSync(record, earlier);
  const notices: string[] = [];
  const wrap = (t: Tool) => oneShotTurns(work.path)(t, outputs.path, work.path, undefined, (line) => notices.push(line));
  const bash = wrap({ name: "bash", description: "", parameters: {}, run: async () => ({ output: "" }) });
  const write = wrap(createWriteFileTool({ home: work.path, seen: new Map() }));
  const ctx = { signal: new AbortController().signal, cwd: work.path };
  return {
    work: work.path,
    record,
    earlier,
    notices,
    bash: () => bash.run({ command: "make" }, ctx),
    write: (path: string) => write.run({ path, content: "x\n" }, ctx),
    turns: () => replayRecords(readFileSync(record, "utf8")).turns,
  };
}

test("a step of the run's turn that cannot be saved is said once, and written with the next step once it can be: no step is lost", async () => {
  const run = oneShotRun();
  rmSync(run.record);
  mkdirSync(run.record); // the record cannot be written (as on a full disk)
  await run.bash();
  await run.write("a.txt");
  expect(run.notices).toHaveLength(1);
  expect(run.notices[0]).toStartWith(`hey: /undo's record of this run could not be saved in ${run.record}: `);
  expect(run.notices[0]).toContain("a later hey -c's /undo does not know what this run changed");

  rmSync(run.record, { recursive: true }); // room again
  writeFileSync(run.record, run.earlier);
  await run.write("b.txt");
  const [repl, oneShot] = run.turns();
  expect(repl?.id).toBe("repl1");
  expect(oneShot?.ranBash).toBe(true);
  expect([...(oneShot?.files.keys() ?? [])]).toEqual([join(run.work, "a.txt"), join(run.work, "b.txt")]);
  expect(run.notices).toHaveLength(1);
});

test("a record a killed hey left mid-line keeps the run's turn: its first step starts a line of its own", async () => {
  const run = oneShotRun();
  writeFileSync(run.record, `${run.earlier}{"type":"turn","tu`);
  await run.write("a.txt");
  const turns = run.turns();
  expect(turns.map((t) => [...t.files.keys()])).toEqual([[], [join(run.work, "a.txt")]]);
  expect(run.notices).toEqual([]);
});
