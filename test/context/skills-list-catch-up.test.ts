// x114 findings 2 and 3: the skills list in the system prompt stays as it was after a skills-only
// /reload, and the model keeps a note instead. When a summary or a trim leaves that note out of a
// request, the list must be up to date in that same request: before, a trim (a summary that
// failed) never caught it up, so a removed skill was listed again with no word against it, and
// after a summary the first request still sent the old list and the next rewrote it, a second miss.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createAgent } from "../../src/agent.ts";
import { reloadAll } from "../../src/config/reload.ts";
import { textOf } from "../../src/kernel/ir.ts";
import { ProviderError, type ModelRequest, type Provider, type StreamEvent } from "../../src/kernel/provider.ts";
import { createPromptSource, type PromptSource } from "../../src/prompt/source.ts";
import { agentSettings } from "../../src/runtime.ts";
import { tempDir } from "../helpers/e2e.ts";
import { fakeProvider, type Turn } from "../helpers/fake-provider.ts";
import { recordingOutput } from "../helpers/recording-output.ts";
import { defaultSettingsForTest } from "../helpers/settings.ts";
import { isSummaryRequest } from "../helpers/summary-requests.ts";

let dir: ReturnType<typeof tempDir>;
beforeEach(() => {
  dir = tempDir("hey-catch-up-");
});
afterEach(() => dir.remove());

const skill = (name: string, description: string) => {
  mkdirSync(join(dir.path, ".hey", "skills", name), { recursive: true });
  writeFileSync(join(dir.path, ".hey", "skills", name, "SKILL.md"), `---\nname: ${name}\ndescription: ${description}\n---\nSteps.\n`);
};

function source(): PromptSource {
  return createPromptSource({
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
  });
}

/** Work turns from a script; summary requests answered with a summary, or failed with `failed`. */
function provider(script: Turn[], failed?: ProviderError) {
  const work = fakeProvider(script);
  const p: Provider & { work: typeof work } = {
    protocol: "openai",
    model: "fake-model",
    work,
    async *stream(request: ModelRequest, signal: AbortSignal): AsyncGenerator<StreamEvent> {
      if (!isSummaryRequest(request)) return yield* work.stream(request, signal);
      if (failed) throw failed;
      yield {
        type: "done",
        message: { id: "s", role: "assistant", content: [{ type: "text", text: "Read the files; nothing wrong." }] },
        usage: { input: 10, output: 10, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
        stop: "stop",
      };
    },
  };
  return p;
}

const reads = (n: number): Turn[] => Array.from({ length: n }, (_, i) => ({ toolCalls: [{ name: "read_big", arguments: { n: i + 1 } }] }));

/** A conversation whose second message carries a /reload's note (old removed, shout added), then a third asking for eight ~2 KB reads on a 2,500-token budget. */
async function run(failed?: ProviderError) {
  skill("old", "An old habit.");
  const prompt = source();
  const p = provider([{ text: "ok" }, { text: "noted" }, ...reads(8), { text: "done" }], failed);
  const settings = defaultSettingsForTest();
  settings.agent.budgetTokens = 2500;
  const readBig = {
    name: "read_big",
    description: "reads",
    parameters: {},
    run: async (args: Record<string, unknown>) => ({ output: `file ${args.n}: ${"lorem ipsum ".repeat(170)}` }),
  };
  const agent = createAgent({
    settings: agentSettings(settings),
    provider: p,
    tools: () => [readBig],
    output: recordingOutput(),
    cwd: dir.path,
    system: prompt.system,
    permission: () => undefined,
    taskNote: () => undefined,
  });
  await agent.send("first question", new AbortController().signal);
  rmSync(join(dir.path, ".hey", "skills", "old"), { recursive: true });
  skill("shout", "Shout the answer.");
  const report = await reloadAll(async () => ({ errors: [], warnings: [], changes: [], apply() {}, settings: {} as never }), prompt.reloadables);
  expect(report.note).toContain("- skill old: removed; do not use it");
  await agent.send(
    [
      { type: "text", text: report.note! },
      { type: "text", text: "second question" },
    ],
    new AbortController().signal,
  );
  await agent.send("read the files", new AbortController().signal);
  return p.work.requests.map((r) => ({ note: r.messages.some((m) => textOf(m).includes(report.note!)), system: r.system }));
}

test("a trim that drops the note's message (the summary failed): the same request lists the skills as they are now", async () => {
  const sent = await run(new ProviderError("overloaded", "overloaded (529)"));
  const last = sent.at(-1)!;
  expect(last.note).toBe(false);
  expect(last.system).toContain("- shout: Shout the answer."); // before: the start's list, `old` in it and no note against it
  expect(last.system).not.toContain("- old:");
  for (const r of sent.filter((r) => r.note)) expect(r.system).toContain("- old: An old habit."); // byte-identical while the note is seen
});

test("an automatic summary that folds the note away: the first request after it carries the new list, and the next the same", async () => {
  const sent = await run();
  const after = sent.findIndex((r, i) => i > 1 && !r.note);
  expect(after).toBeGreaterThan(1);
  expect(sent[after]!.system).toContain("- shout: Shout the answer."); // before: the old list here, the new one a request later
  expect(new Set(sent.slice(after).map((r) => r.system)).size).toBe(1);
  expect(new Set(sent.slice(0, after).map((r) => r.system)).size).toBe(1);
});
