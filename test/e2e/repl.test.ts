// The REPL in a real terminal (issue 14), against a local mock model: what a person sees and the
// keys they press. Each test types keys into tmux and asserts on the captured screen.
import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startReplayServer, type ReplayServer } from "../helpers/replay-server.ts";
import { startTerm, type Term, type TermOptions } from "../helpers/tmux.ts";
import { answer, toolCalls } from "./repl-helpers.ts";

let server: ReplayServer;
let term: Term | undefined;
beforeAll(() => {
  server = startReplayServer();
});
afterAll(() => server.stop());
afterEach(async () => {
  await term?.close();
  term = undefined;
});

/** the binary may be built by the first test; the screen waits have their own timeouts */
const E2E_TIMEOUT = 90_000;
const model = () => ["--base-url", `${server.url}/v1`, "-m", "mock-model"];
async function open(opts: TermOptions = {}): Promise<Term> {
  term = await startTerm({ args: model(), ...opts, ...(opts.args ? { args: [...model(), ...opts.args] } : {}) });
  await prompt(term);
  return term;
}
/** the last line on the screen that is not blank */
const lastLine = (screen: string) => screen.trimEnd().split("\n").at(-1) ?? "";
/** waits until the prompt is the last line, holding `text` */
const prompt = (t: Term, text = "") => t.waitFor((s) => lastLine(s).trimEnd() === `› ${text}`.trimEnd());
const userTexts = () =>
  server.requests.map((r) => {
    const messages = (r.body as { messages: { role: string; content: unknown }[] }).messages.filter((m) => m.role === "user");
    return String(messages.at(-1)?.content);
  });

test("a one-line dim banner: version, provider/model, directory, /help", async () => {
  const t = await open();
  const screen = await t.screen();
  expect(screen.split("\n")[0]).toMatch(/^hey \d+\.\d+\.\d+ · cli\/mock-model · ~ · \/help for commands$/);
  expect(await t.screen({ colors: true })).toContain("\x1b[2mhey ");
}, E2E_TIMEOUT);

test("tool calls read like commands; a command that exits 1 gets a red ✗ and its error line", async () => {
  writeFileSync(join((await open()).home, "calc.py"), "def add(a, b):\n    return a - b\n");
  const t = term!;
  server.enqueue(
    toolCalls([["read_file", { path: "calc.py" }], ["bash", { command: "ls nope" }]], "Let me look."),
    answer("The file has a bug."),
  );
  await t.type("check calc.py");
  await t.keys("Enter");
  const screen = await t.waitFor("The file has a bug.");
  expect(screen).toContain("read calc.py");
  expect(screen).toContain("$ ls nope");
  expect(screen).toMatch(/✓ read calc\.py: 2 lines/);
  expect(screen).toMatch(/✗ \$ ls nope: exit 2: ls: cannot access 'nope'/);
  expect(screen).not.toContain('{"path"');
  expect(await t.screen({ colors: true })).toMatch(/\x1b\[31m✗/);
}, E2E_TIMEOUT);
