// x4 findings 3 and 4: what a session keeps of its system prompt (prompt-record.ts) and how a resumed run
// builds it again — the same text with the session's date and skills list, the changes since in notes;
// a record the run cannot match, or one past the cache's lifetime, gives the fresh prompt as before.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fixedHash } from "../../src/context/window.ts";
import type { AgentEvent } from "../../src/kernel/output.ts";
import { dateNote, promptRecordOf, type PromptRecord } from "../../src/prompt/prompt-record.ts";
import { createPromptSource, type PromptSourceOptions } from "../../src/prompt/source.ts";
import { promptParts } from "../../src/sessions/resumed.ts";
import type { LoadedSession } from "../../src/sessions/reader.ts";
import { tempDir } from "../helpers/e2e.ts";

let dir: ReturnType<typeof tempDir>;
beforeEach(() => {
  dir = tempDir("hey-record-");
});
afterEach(() => dir.remove());

const write = (path: string, text: string) => {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
};
const skill = (name: string) =>
  write(join(dir.path, "config", "skills", name, "SKILL.md"), `---\nname: ${name}\ndescription: The ${name} steps.\n---\nDo it.\n`);

const options = (sentWith?: PromptRecord): PromptSourceOptions => ({
  core: "core",
  cwd: dir.path,
  root: dir.path,
  home: dir.path,
  claudeDir: join(dir.path, ".claude"),
  codexDir: join(dir.path, ".codex"),
  configDir: join(dir.path, "config"),
  os: "linux",
  shell: () => "bash",
  skills: { trusted: () => true },
  importsOutside: () => undefined,
  redact: (text) => text,
  writable: () => true,
  warn: () => {},
  ...(sentWith ? { sentWith } : {}),
});

/** The records a source's output puts on usage events (three requests). */
function recordsOf(source: ReturnType<typeof createPromptSource>): PromptRecord[] {
  const events: AgentEvent[] = [];
  const output = source.recording({ emit: (e) => void events.push(e) });
  const usage = { type: "usage", input: 1, output: 1, cache_read: 0, cache_write: 0 } as unknown as AgentEvent;
  for (let k = 0; k < 3; k++) {
    source.system([]);
    output.emit(usage);
  }
  return events.flatMap((e) => (e.type === "usage" && e.system_prompt ? [e.system_prompt as PromptRecord] : []));
}

test("a run's record is written once while the prompt stays; a resumed run with a skill added sends the same prompt and notes the skill", () => {
  skill("lint");
  const first = createPromptSource(options());
  const records = recordsOf(first);
  expect(records).toHaveLength(1); // once per change, not on every usage line
  const record = promptRecordOf(JSON.parse(JSON.stringify(records[0]))); // as the session line reads back
  expect(record).toEqual(records[0]);

  skill("deploy");
  const resumed = createPromptSource(options(record));
  expect(resumed.system([])).toBe(first.system([]));
  const shown = resumed.shown();
  expect(shown.resumed).toHaveLength(1);
  expect(shown.resumed![0]).toContain("+ skill deploy: The deploy steps.");
  expect(shown.notes).toEqual(shown.resumed!); // a kept note: the list is not "up to date" while it stands
  expect(shown.list.text).not.toContain("deploy");
  // the resumed run records the list it kept and the skills the model heard of: the next hey -c goes on from it
  const again = recordsOf(resumed)[0]!;
  expect(again.skills).toEqual(record!.skills);
  expect(again.known?.map((s) => s.name)).toEqual(["deploy", "lint"]);
  expect(createPromptSource(options(again)).shown().resumed).toBeUndefined(); // nothing new to tell
});

test("a session's record of another UTC day keeps its Date: line; the model is told today's date", () => {
  const today = new Date().toISOString().slice(0, 10);
  const first = createPromptSource(options());
  const record = recordsOf(first)[0]!;
  // the record of yesterday's run: the same prompt with yesterday's date, hashed as it would have been
  const yesterday = "2026-01-01";
  const text = first.system([]).replace(`Date: ${today}`, `Date: ${yesterday}`);
  const resumed = createPromptSource(options({ ...record, date: yesterday, hash: fixedHash(text) }));
  expect(resumed.system([])).toBe(text);
  expect(resumed.shown().resumed).toEqual([dateNote(yesterday, today)]);
});

test("an AGENTS.md edited since the record: the hash does not match, the prompt is built afresh with the skills loaded now", () => {
  write(join(dir.path, "AGENTS.md"), "Run the tests.\n");
  const record = recordsOf(createPromptSource(options()))[0]!;
  write(join(dir.path, "AGENTS.md"), "Run the linter.\n");
  skill("deploy");
  const resumed = createPromptSource(options(record));
  expect(resumed.system([])).toContain("Run the linter.");
  expect(resumed.system([])).toContain("deploy");
  expect(resumed.shown().resumed).toBeUndefined();
});

test("a broken record on a line is no record", () => {
  const good = { date: "2026-12-07", guide: { skillsDir: "~/s", userConfig: "~/c", writable: true }, skills: [], hash: "x" };
  expect(promptRecordOf(good)).toEqual(good);
  expect(promptRecordOf({ ...good, skills: [{ name: "a" }] })).toBeUndefined();
  expect(promptRecordOf({ ...good, guide: { skillsDir: 1 } })).toBeUndefined();
  expect(promptRecordOf({ ...good, notes: [3] })).toBeUndefined();
  expect(promptRecordOf("text")).toBeUndefined();
});

test("the record is sent again only within the prompt cache's lifetime of the session's last request, the endpoint's", () => {
  const prompt = { date: "2026-12-07", guide: { skillsDir: "~/s", userConfig: "~/c", writable: true }, skills: [], hash: "x" };
  const at = 1_000_000_000;
  const session = { messages: [], header: { cwd: dir.path }, prompt, cache: { upTo: 1, at, answers: new Map() } } as unknown as LoadedSession;
  const claude = [{ protocol: "anthropic", baseUrl: "https://api.anthropic.com" }, "claude-sonnet-4-5"] as const;
  const openai = [{ protocol: "openai", baseUrl: "https://api.openai.com/v1" }, "gpt-5.1"] as const;
  expect(promptParts(session, dir.path, at + 60_000, ...claude).sentWith).toBe(prompt);
  expect(promptParts(session, dir.path, at + 10 * 60_000, ...claude).sentWith).toBeUndefined(); // Anthropic's 5 minutes: gone, built afresh
  expect(promptParts(session, dir.path, at + 10 * 60_000, ...openai).sentWith).toBe(prompt); // OpenAI keeps it longer
  expect(promptParts(session, dir.path, at + 25 * 60 * 60_000, ...openai).sentWith).toBeUndefined();
  expect(promptParts({ ...session, prompt: undefined }, dir.path, at, ...claude).sentWith).toBeUndefined(); // an older hey's session
});
