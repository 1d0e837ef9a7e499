// A cancelled answer and what follows it (issue 28), through dist/hey in tmux against a local mock
// model: the partial answer is kept with `[interrupted by the user]`, in the next request's body
// and in the session file, and a cancelled turn does not make the session's exit code 130.
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileReplayServer } from "../helpers/fixtures.ts";
import { sseReply } from "../helpers/replay-server.ts";
import type { Term } from "../helpers/tmux.ts";
import { until } from "../helpers/wait.ts";
import { ALL, answer, say, lastLine, replTerms, toolCalls } from "./repl-helpers.ts";

const E2E_TIMEOUT = 90_000;
const server = fileReplayServer();
const { open } = replTerms(server);

const slowAnswer = () => answer(Array.from({ length: 80 }, (_, i) => `w${i}`).join(" "), 150);

/** Sends `line` with a slow answer queued and presses `key` once some of it is on the screen. */
async function cancelled(t: Term, line: string, key: string): Promise<void> {
  server.enqueue(slowAnswer());
  await t.type(line);
  await t.keys("Enter");
  await t.waitFor("w2 ");
  await t.keys(key);
  await t.waitFor(/^interrupted by user$/m); // what happened, not an error
  await t.waitFor((s) => lastLine(s) === "›");
}

test(
  "an answer cut short with Esc is sent on with [interrupted by the user], and kept so in the session file",
  async () => {
    const t = await open();
    await cancelled(t, "tell me a long story", "Escape");
    server.enqueue(answer("Understood."));
    await say(t, "shorter please", "Understood.");
    const messages = (server.requests.at(-1)!.body as { messages: { role: string; content: string }[] }).messages.filter((m) => m.role !== "system");
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(messages[1]!.content).toMatch(/^w0 w1 w2 (w\d+ ?)*\n\n\[interrupted by the user\]$/);
    const dir = join(t.home, ".local/state/hey/sessions");
    const session = readFileSync(join(dir, readdirSync(dir).find((f) => f.endsWith(".jsonl"))!), "utf8");
    expect(session).toContain("\\n\\n[interrupted by the user]");
  },
  E2E_TIMEOUT,
);

test(
  "Esc followed at once by a line: the turn is cancelled and the whole line waits at the prompt",
  async () => {
    const t = await open();
    server.enqueue(slowAnswer());
    await t.type("tell me a long story");
    await t.keys("Enter");
    await t.waitFor("w2 ");
    await t.keys("Escape"); // then the next words before the Escape's wait is over: hey may read them in one go
    await t.type("no wait");
    await t.waitFor(/^interrupted by user$/m);
    await t.waitFor((s) => lastLine(s) === "› no wait");
  },
  E2E_TIMEOUT,
);

test(
  "Esc before the model's first word: the next request says the question was interrupted, so it is not taken up with the next one",
  async () => {
    const t = await open();
    server.enqueue(sseReply("", { hang: true })); // the model says nothing
    await t.type("delete the old tests");
    await t.keys("Enter");
    await t.waitFor((s) => s.includes("working…"));
    await t.keys("Escape");
    await t.waitFor(/^interrupted by user$/m); // what happened, not an error
    server.enqueue(answer("Noon."));
    await say(t, "what time is it", "Noon.");
    const messages = (server.requests.at(-1)!.body as { messages: { role: string; content: string }[] }).messages.filter((m) => m.role !== "system");
    expect(messages.map((m) => [m.role, m.content])).toEqual([
      ["user", "delete the old tests"],
      ["assistant", "[interrupted by the user]"],
      ["user", "what time is it"],
    ]);
  },
  E2E_TIMEOUT,
);

test(
  "Esc after a tool's result, before the model's next word: the next request says the user stopped there, and the session keeps it",
  async () => {
    const t = await open();
    server.enqueue(toolCalls([["bash", { command: "echo built" }]]), sseReply("", { hang: true }));
    await t.type("build it");
    await t.keys("Enter");
    await t.waitFor((s) => s.includes("✓") && s.includes("working…"));
    await t.keys("Escape");
    await t.waitFor(/^interrupted by user$/m);
    server.enqueue(answer("Changing course."));
    await say(t, "after lag", "Changing course.");
    const messages = (server.requests.at(-1)!.body as { messages: { role: string; content: string }[] }).messages.filter((m) => m.role !== "system");
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant", "user"]);
    expect(messages[3]!.content).toBe("[interrupted by the user]");
    const dir = join(t.home, ".local/state/hey/sessions");
    const session = readFileSync(join(dir, readdirSync(dir).find((f) => f.endsWith(".jsonl"))!), "utf8");
    expect(session).toContain('"text":"[interrupted by the user]"');
  },
  E2E_TIMEOUT,
);

test.each([
  ["/quit", ["/quit", "Enter"]],
  ["Ctrl-D after a command", ["/usage", "Enter", "C-d"]],
  ["a double Ctrl-C", ["C-c", "C-c"]],
])(
  "after a cancelled turn the session still ends cleanly: %s exits 0",
  async (_name, keys) => {
    const t = await open();
    await cancelled(t, "go on and on", "C-c");
    let typed = "";
    for (const k of keys) {
      if (k === "C-c" || k === "C-d") await t.keys(k);
      else if (k === "Enter") {
        await t.keys(k);
        // the command ran: its line stands above a fresh prompt (the prompt seen before the line was
        // echoed is not it: a Ctrl-D read with the Enter would make the Enter a newline, as in a paste)
        if (keys.at(-1) !== k) await t.waitFor((s) => lastLine(s) === "›" && s.includes(`› ${typed}\n`));
      } else await t.type((typed = k));
    }
    await t.waitFor(/^\[exit \d+\]$/m);
    expect(await t.screen()).toMatch(/^\[exit 0\]$/m);
  },
  E2E_TIMEOUT,
);

test(
  "/compact cancelled with Esc while the model is asked for the summary: said as other cancels are, and the conversation goes on as it was",
  async () => {
    const t = await open();
    const said = ["one", "two", "three", "four", "five"].flatMap((n) => [`question ${n}`, `Answer ${n}.`]);
    for (let i = 0; i < said.length; i += 2) {
      server.enqueue(answer(said[i + 1]!));
      await say(t, said[i]!, said[i + 1]!);
    }
    const before = server.requests.length;
    server.enqueue(sseReply("", { hang: true })); // the summary never comes
    await t.type("/compact");
    await t.keys("Enter");
    await until(() => server.requests.length > before, "the summary request").catch(async (e: Error) => {
      throw new Error(`${e.message}: ${await t.screen()}`);
    });
    await t.waitFor(/summarizing the conversation \(Esc cancels\)… \d+s/); // x117: the wait showed nothing
    await t.keys("Escape");
    await t.waitFor(/^compact: interrupted by user; the conversation is as it was$/m);
    expect(await t.screen()).not.toContain("summarizing the conversation"); // the spinner went with it
    expect(await t.screen(ALL)).not.toContain("aborted");
    await t.waitFor((s) => lastLine(s) === "›");
    server.enqueue(answer("Answer six."));
    await say(t, "question six", "Answer six.");
    const messages = (server.requests.at(-1)!.body as { messages: { role: string; content: string }[] }).messages.filter((m) => m.role !== "system");
    expect(messages.map((m) => m.content)).toEqual([...said, "question six"]);
  },
  E2E_TIMEOUT,
);
