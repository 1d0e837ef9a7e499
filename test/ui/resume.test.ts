// `/resume`'s list names the session files it cannot show (no read permission, a FIFO, a
// directory, a link; damaged or lost ones), once above the list, rather than passing them over.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { newId, userMessage } from "../../src/kernel/ir.ts";
import { createSessionWriter } from "../../src/sessions/writer.ts";
import { resumeCommand } from "../../src/ui/resume.ts";
import { tempDir } from "../helpers/e2e.ts";
import { HEY_STOPPED } from "../../src/kernel/turns.ts";

const UNANSWERED = `[interrupted: ${HEY_STOPPED}]`;

let root: ReturnType<typeof tempDir>;
beforeEach(() => {
  root = tempDir("hey-resume-pick-");
});
afterEach(() => root.remove());

test("the picker names the files that cannot be opened, once, above the sessions it offers", async () => {
  const dir = join(root.path, "sessions");
  const here = join(root.path, "here");
  mkdirSync(here);
  const w = createSessionWriter({ dir, id: newId(), cwd: here, version: "1.2.3", warn: () => {} });
  w.emit({ type: "message", message: userMessage("earlier work") });
  w.close();
  expect(Bun.spawnSync(["mkfifo", join(dir, "pipe.jsonl")]).exitCode).toBe(0);
  mkdirSync(join(dir, "x.jsonl"));
  const said: string[] = [];
  const picked = await resumeCommand("", {
    dir,
    cwd: here,
    root: here,
    home: root.path,
    current: join(dir, "current.jsonl"),
    ask: async () => "", // Enter: cancelled
    say: (text) => said.push(text),
  });
  expect(picked).toBeUndefined();
  const shown = said.join("");
  expect(shown).toContain("hey: 2 session files cannot be opened: ");
  expect(shown).toContain(`${join(dir, "pipe.jsonl")} (a FIFO (named pipe))`);
  expect(shown).toContain(`${join(dir, "x.jsonl")} (a directory)`);
  expect(shown.match(/cannot be opened/g)).toHaveLength(1);
  expect(shown).toContain("earlier work");
});

test("sessions beyond the list's ten are named below it, and a number beyond it says how to reach them", async () => {
  const dir = join(root.path, "sessions");
  const here = join(root.path, "here");
  mkdirSync(here);
  for (let i = 1; i <= 13; i++) {
    const w = createSessionWriter({ dir, id: newId(), cwd: here, version: "1.2.3", warn: () => {} });
    w.emit({ type: "message", message: userMessage(`task ${i}`) });
    w.close();
  }
  const said: string[] = [];
  const ctx = (answer: string) => ({
    dir,
    cwd: here,
    root: here,
    home: root.path,
    current: join(dir, "current.jsonl"),
    ask: async () => answer,
    say: (text: string) => said.push(text),
  });
  expect(await resumeCommand("", ctx(""))).toBeUndefined();
  const lines = said.join("").trimEnd().split("\n");
  expect(lines).toHaveLength(11);
  expect(lines.at(-1)).toBe("… 3 more: /resume ID (hey --sessions lists them all)");
  await expect(resumeCommand("12", ctx(""))).rejects.toThrow("no session 12 in the list (1-10); 3 more: /resume ID (hey --sessions lists them all)");
});

test("/resume ID of the session this REPL writes reads it again, and the new run's writer goes on with it once the old one closes", async () => {
  const dir = join(root.path, "sessions");
  const here = join(root.path, "here");
  mkdirSync(here);
  const id = newId();
  const was = createSessionWriter({ dir, id, cwd: here, version: "1.2.3", warn: () => {} });
  was.emit({ type: "message", message: userMessage("current work") });
  const ctx = { dir, cwd: here, root: here, home: root.path, current: was.path, ask: async () => "", say: () => {} };
  // its writer holds the lock in this process: not refused as another writer's
  const loaded = (await resumeCommand(id, ctx))!;
  // (its question has no answer yet: the copy read marks it so, as any resume does)
  expect(loaded.messages.map((m) => m.content)).toEqual([[{ type: "text", text: "current work" }], [{ type: "text", text: UNANSWERED }]]);
  const warned: string[] = [];
  const next = createSessionWriter({ dir, id, cwd: here, version: "1.2.3", warn: (m) => void warned.push(m), existing: loaded });
  was.close(); // the swap: the new run is made, then the old one closed
  next.emit({ type: "message", message: userMessage("more work") });
  expect(existsSync(`${next.path}.lock`)).toBe(true);
  next.close();
  expect(warned).toEqual([]);
  expect(readFileSync(next.path, "utf8")).toContain("more work");
  expect(existsSync(`${next.path}.lock`)).toBe(false);
});
