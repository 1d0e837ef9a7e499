// .hey/task.md is hey's own file inside a project it may not trust (SPEC §24): it is never read
// or written through a symbolic link, and the hand-off is appended atomically.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { continuedTask, fallbackHandOff, readTaskNote, saveHandOff, sessionNote, withHandOff } from "../../src/context/task-note.ts";
import type { Message } from "../../src/kernel/ir.ts";
import { tempDir } from "../helpers/e2e.ts";

let project: ReturnType<typeof tempDir>;
let outside: ReturnType<typeof tempDir>;
beforeEach(() => {
  project = tempDir("hey-task-note-");
  outside = tempDir("hey-outside-");
});
afterEach(() => {
  project.remove();
  outside.remove();
});

const NOW = new Date("2026-12-02T12:00:00Z");

test("the note is read trimmed; none, or an empty one, is undefined", () => {
  expect(readTaskNote(project.path)).toBeUndefined();
  mkdirSync(join(project.path, ".hey"));
  writeFileSync(join(project.path, ".hey", "task.md"), "  \n");
  expect(readTaskNote(project.path)).toBeUndefined();
  writeFileSync(join(project.path, ".hey", "task.md"), "# Goal\nship it\n\n");
  expect(readTaskNote(project.path)).toBe("# Goal\nship it");
});

/** `# Task`, `n` older hand-offs of ~1 KB, then the newest: each hand-off is appended to the end. */
const handOffs = (n: number) =>
  "# Task\n\nfix the parser\n\n" +
  Array.from({ length: n }, (_, i) => `## Stopped at the turn limit (${i})\n\nRemaining: old step ${i} ${"y".repeat(1000)}\n`).join("\n") +
  "\n## Stopped at the turn limit (last)\n\nNEWEST-HANDOFF-MARKER Remaining: fix parser.c line 42\n";

test("a note over 32 KB keeps its heading and its newest hand-off, and says how much was left out", () => {
  mkdirSync(join(project.path, ".hey"));
  for (const n of [40, 300]) {
    // 40 KB: read whole, then cut; 300 KB: only its start and end are read
    writeFileSync(join(project.path, ".hey", "task.md"), handOffs(n));
    const note = readTaskNote(project.path)!;
    expect(note.length).toBeLessThanOrEqual(32 * 1024);
    expect(note).toStartWith("# Task\n\nfix the parser\n\n[… about ");
    expect(note).toEndWith("NEWEST-HANDOFF-MARKER Remaining: fix parser.c line 42");
    expect(note).not.toContain("old step 0 ");
    const kb = Number(/about (\d+) KB of older notes left out/.exec(note)![1]);
    expect(Math.abs(kb * 1024 - (handOffs(n).length - note.length))).toBeLessThan(2048);
  }
});

test("the hand-off goes after the agent's note, or under the task when there is none", () => {
  // the agent's own note may be about anything: the section names its task
  expect(withHandOff("# Goal\nfix the\n  tests\n\n", "fix the tests", "Done so far: a\nRemaining: b", "max_turns", NOW)).toBe(
    "# Goal\nfix the\n  tests\n\n## Stopped at the turn limit (2026-12-02T12:00:00.000Z)\n\nTask: fix the tests\n\nDone so far: a\nRemaining: b\n",
  );
  expect(withHandOff(undefined, "fix the tests", "Remaining: b", "max_turns", NOW)).toBe(
    "# Task\n\nfix the tests\n\n## Stopped at the turn limit (2026-12-02T12:00:00.000Z)\n\nRemaining: b\n",
  );
});

test('a stop at --max-run-tokens says so in the heading, not "turn limit"', () => {
  expect(withHandOff(undefined, "fix the tests", "Remaining: b", "max_run_tokens", NOW)).toBe(
    "# Task\n\nfix the tests\n\n## Stopped at the run's token limit (2026-12-02T12:00:00.000Z)\n\nRemaining: b\n",
  );
});

test("a note about another task (an earlier run's): the hand-off quotes this run's task", () => {
  expect(withHandOff("# Task\n\nan older task\n", "count\nto ten", "Remaining: b", "max_turns", NOW)).toBe(
    "# Task\n\nan older task\n\n## Stopped at the turn limit (2026-12-02T12:00:00.000Z)\n\nTask: count to ten\n\nRemaining: b\n",
  );
});

test("a new task whose words the note holds (LOOP in `LOOP forever`) is quoted; the same task again is not", () => {
  const note = withHandOff(undefined, "LOOP forever", "Remaining: a", "max_turns", NOW);
  const loop = withHandOff(note, "LOOP", "Remaining: b", "max_turns", NOW);
  expect(loop).toEndWith("## Stopped at the turn limit (2026-12-02T12:00:00.000Z)\n\nTask: LOOP\n\nRemaining: b\n");
  expect(continuedTask(loop)).toBe("LOOP");
  // the same task continues: its sections go on under it, the whitespace aside
  expect(withHandOff(loop, " LOOP\n", "Remaining: c", "max_turns", NOW)).toEndWith("(2026-12-02T12:00:00.000Z)\n\nRemaining: c\n");
  expect(withHandOff(note, "LOOP  forever", "Remaining: c", "max_turns", NOW)).toEndWith("(2026-12-02T12:00:00.000Z)\n\nRemaining: c\n");
  // back to the first task after another: quoted again, as the last section was the other's
  expect(withHandOff(loop, "LOOP forever", "Remaining: d", "max_turns", NOW)).toEndWith("\n\nTask: LOOP forever\n\nRemaining: d\n");
});

test("continuedTask: the last quoted task, else the `# Task` heading's; none for the agent's own note", () => {
  expect(continuedTask("# Task\n\nfix  it\n")).toBe("fix it");
  expect(continuedTask("# Task\n\nfix it\n\n## Stopped at the turn limit (x)\n\nRemaining: y\n")).toBe("fix it");
  expect(continuedTask("# Task\n\na\n\n## Stopped at x\n\nTask: b\n\nr\n\n## Stopped at y\n\nr2\n")).toBe("b");
  expect(continuedTask("# Goal\nfix it\n")).toBeUndefined();
  expect(continuedTask("notes\n# Task\n\nfix it\n")).toBeUndefined();
});

test("the fallback hand-off names the last tool calls, their arguments cut", () => {
  const text = fallbackHandOff([
    { name: "bash", arguments: '{"command":"echo 2"}' },
    { name: "write_file", arguments: "x".repeat(400) },
  ]);
  expect(text).toContain('Last tool calls:\n- bash {"command":"echo 2"}\n- write_file ' + "x".repeat(300) + "…\n");
  expect(fallbackHandOff([])).not.toContain("Last tool calls");
});

test("a .hey/ the user made already gets no .gitignore: its files may be meant to be committed", async () => {
  mkdirSync(join(project.path, ".hey"));
  await saveHandOff(project.path, "fix it", "Remaining: one", "max_turns", NOW);
  expect(readdirSync(join(project.path, ".hey"))).toEqual(["task.md"]);
});

test("saveHandOff creates .hey/task.md and appends to it", async () => {
  const file = await saveHandOff(project.path, "fix it", "Remaining: one", "max_turns", NOW);
  expect(file).toBe(join(project.path, ".hey", "task.md"));
  await saveHandOff(project.path, "fix it", "Remaining: two", "max_turns", NOW);
  const text = readFileSync(file, "utf8");
  expect(text).toStartWith("# Task\n\nfix it\n\n## Stopped");
  expect(text).toContain("Remaining: one\n\n## Stopped at the turn limit");
  expect(text).toEndWith("Remaining: two\n");
});

test("a task.md that links outside the project is neither read nor written; its target is unchanged", async () => {
  const profile = join(outside.path, ".bashrc");
  const before = "export PATH=$HOME/bin:$PATH\n";
  writeFileSync(profile, before);
  mkdirSync(join(project.path, ".hey"));
  symlinkSync(profile, join(project.path, ".hey", "task.md"));
  expect(readTaskNote(project.path)).toBeUndefined();
  await expect(saveHandOff(project.path, "task", "Remaining: x", "max_turns", NOW)).rejects.toThrow("is a symbolic link");
  expect(readFileSync(profile, "utf8")).toBe(before);
  expect(lstatSync(join(project.path, ".hey", "task.md")).isSymbolicLink()).toBe(true);
});

test("a .hey directory that links elsewhere is not followed either", async () => {
  const secret = join(outside.path, "task.md");
  writeFileSync(secret, "-----BEGIN PRIVATE KEY-----\n");
  symlinkSync(outside.path, join(project.path, ".hey"));
  expect(readTaskNote(project.path)).toBeUndefined();
  await expect(saveHandOff(project.path, "task", "Remaining: x", "max_turns", NOW)).rejects.toThrow("is a symbolic link");
  expect(readFileSync(secret, "utf8")).toBe("-----BEGIN PRIVATE KEY-----\n");
});

test("a task.md that is a directory or a FIFO is refused, not read (a FIFO would block forever)", async () => {
  mkdirSync(join(project.path, ".hey", "task.md"), { recursive: true });
  expect(readTaskNote(project.path)).toBeUndefined();
  const fifoProject = join(project.path, "p");
  mkdirSync(join(fifoProject, ".hey"), { recursive: true });
  expect(Bun.spawnSync(["mkfifo", join(fifoProject, ".hey", "task.md")]).exitCode).toBe(0);
  expect(readTaskNote(fifoProject)).toBeUndefined();
  await expect(saveHandOff(fifoProject, "task", "Remaining: x", "max_turns", NOW)).rejects.toThrow("is not a regular file");
});

test("a note is this conversation's when the agent read or wrote it here, or its hand-off continues a task asked here; another task's is not", () => {
  const asked = (text: string): Message => ({ id: `u-${text}`, role: "user", content: [{ type: "text", text }] });
  const handOff = withHandOff(undefined, "refactor the parser", "Remaining: fix line 42", "max_turns", NOW);
  expect(sessionNote(handOff, [asked("refactor the parser")])).toBe(handOff); // hey -c after the hand-off
  expect(sessionNote(handOff, [asked("write the release notes")])).toBeUndefined(); // a new task
  const again = withHandOff(handOff, "write the release notes", "Remaining: the changelog", "max_turns", NOW);
  expect(sessionNote(again, [asked("write the release notes")])).toBe(again); // the newest hand-off's task
  // the agent's own note, of any form: its once the agent reads or writes it in this conversation
  const own = "GOAL: port the CLI\nDONE: flags";
  expect(sessionNote(own, [asked("port the CLI")])).toBeUndefined();
  const read: Message = { id: "a1", role: "assistant", content: [], toolCalls: [{ id: "c1", name: "read_file", arguments: '{"path":".hey/task.md"}' }] };
  expect(sessionNote(own, [asked("go on with the task"), read])).toBe(own);
  // another task.md is not the note: an ordinary notes/task.md read says nothing of it
  const other: Message = { id: "a2", role: "assistant", content: [], toolCalls: [{ id: "c2", name: "read_file", arguments: '{"path":"notes/task.md"}' }] };
  expect(sessionNote(own, [asked("go on"), other])).toBeUndefined();
  const windows: Message = {
    id: "a3",
    role: "assistant",
    content: [],
    toolCalls: [{ id: "c3", name: "bash", arguments: '{"command":"type .hey\\\\task.md"}' }],
  };
  expect(sessionNote(own, [asked("go on"), windows])).toBe(own);
  expect(sessionNote(undefined, [asked("x"), read])).toBeUndefined();
});

test("a resumed session's note whose call a summary took is its own when its earlier lines say so, asked only when nothing loaded tells", () => {
  const own = "GOAL: port the CLI\nDONE: flags";
  const summary: Message = { id: "summary-1", role: "user", content: [{ type: "text", text: "[summary] files were read" }] };
  const first: Message = { id: "u1", role: "user", content: [{ type: "text", text: "port the CLI" }] };
  let asked = 0;
  const earlier = (said: boolean) => () => (asked++, said);
  expect(sessionNote(own, [first, summary], earlier(true))).toBe(own);
  expect(sessionNote(own, [first, summary], earlier(false))).toBeUndefined(); // another conversation's note: still left out
  expect(asked).toBe(2);
  const read: Message = { id: "a1", role: "assistant", content: [], toolCalls: [{ id: "c1", name: "read_file", arguments: '{"path":".hey/task.md"}' }] };
  expect(sessionNote(own, [first, summary, read], earlier(false))).toBe(own); // a loaded call tells: the lines are not read
  expect(sessionNote(undefined, [first, summary], earlier(true))).toBeUndefined(); // no note (deleted): nothing to send, nothing read
  expect(asked).toBe(2);
});

test("a hand-off tidies what a hey killed mid-write left in .hey/ (its copy before the rename, its lock before the link); a running hey's stays", async () => {
  const dead = Bun.spawn(["true"]);
  await dead.exited;
  const dir = join(project.path, ".hey");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `.task.md.${dead.pid}.9843cd36.tmp`), "half a hand-off");
  writeFileSync(join(dir, `task.md.lock.new-${dead.pid}`), `${dead.pid} host\n`);
  writeFileSync(join(dir, `.task.md.${process.pid}.0123abcd.tmp`), "being written");
  await saveHandOff(project.path, "fix it", "Remaining: tests", "max_turns", NOW);
  expect(readdirSync(dir).sort()).toEqual([`.task.md.${process.pid}.0123abcd.tmp`, "task.md"]);
});
