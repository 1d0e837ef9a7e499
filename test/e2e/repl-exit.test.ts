// Every way out of the REPL gives the terminal back as it was (issue 14): after Ctrl-D, a double
// Ctrl-C, SIGTERM during a turn and SIGHUP at the prompt, `stty -a` reads as before hey started,
// and a paste reaches the next program as plain text (bracketed paste mode is off again).
import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startReplayServer, type ReplayServer } from "../helpers/replay-server.ts";
import { startTerm, type Term } from "../helpers/tmux.ts";
import { answer } from "./repl-helpers.ts";

const E2E_TIMEOUT = 90_000;
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

async function start(): Promise<Term> {
  term = await startTerm({
    args: ["--base-url", `${server.url}/v1`, "-m", "mock-model"],
    before: 'stty -a > "$HOME/stty-before"',
    after: 'stty -a > "$HOME/stty-after"; echo ready to paste; head -c 12 > "$HOME/pasted"',
  });
  await term.waitFor(/^›/m);
  return term;
}
async function sttyKept(t: Term, code: number): Promise<void> {
  await t.waitFor("ready to paste");
  await t.paste("hello world\n");
  await t.waitFor(`[exit ${code}]`);
  expect(readFileSync(join(t.home, "stty-after"), "utf8")).toBe(readFileSync(join(t.home, "stty-before"), "utf8"));
  expect(readFileSync(join(t.home, "pasted"), "utf8")).toBe("hello world\n"); // no \x1b[200~ around it
}

test.each([
  ["Ctrl-D", ["C-d"], 0],
  ["a double Ctrl-C", ["C-c", "C-c"], 0],
])("after %s the terminal is as it was", async (_name, keys, code) => {
  const t = await start();
  for (const key of keys) await t.keys(key);
  await sttyKept(t, code);
}, E2E_TIMEOUT);

test("after SIGTERM during a turn: exit 143, the terminal as it was", async () => {
  const t = await start();
  server.enqueue(answer(Array.from({ length: 80 }, (_, i) => `w${i}`).join(" "), 200));
  await t.type("go");
  await t.keys("Enter");
  await t.waitFor("w1 ");
  process.kill(await t.heyPid(), "SIGTERM");
  await sttyKept(t, 143);
}, E2E_TIMEOUT);

test("after SIGHUP at the prompt: exit 129, the terminal as it was", async () => {
  const t = await start();
  process.kill(await t.heyPid(), "SIGHUP");
  await sttyKept(t, 129);
}, E2E_TIMEOUT);
