// Type-ahead that is not sent (README "typing during a turn"), through dist/hey in tmux against a mock model: a turn that does
// not finish (an error, the turn limit) puts what was queued during it back at the prompt, under the error, instead of sending
// it into the same failure; SIGTERM and a closed terminal (SIGHUP) keep what was queued and typed in the history, where ↑ finds
// it at the next start, and the terminal is given back as it was.
import { afterEach, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { HELD_AFTER_FAILURE } from "../../src/ui/repl-state.ts";
import { fileReplayServer } from "../helpers/fixtures.ts";
import { jsonReply, type Reply } from "../helpers/replay-server.ts";
import { startTerm, type Term, type TermOptions } from "../helpers/tmux.ts";
import { gate, until } from "../helpers/wait.ts";
import { answer, heldAnswer, lastLine, toolCalls } from "./repl-helpers.ts";

const E2E_TIMEOUT = 90_000;
const server = fileReplayServer();
const model = ["--base-url", `${server.url}/v1`, "-m", "mock-model"];
let terms: Term[] = [];
afterEach(async () => {
  for (const t of terms.reverse()) await t.close(); // the second start shares the first's home: it goes first
  terms = [];
});
async function open(opts: TermOptions = {}): Promise<Term> {
  const t = await startTerm({ ...opts, args: [...model, ...(opts.args ?? [])] });
  terms.push(t);
  await t.waitFor((s) => lastLine(s) === "›");
  return t;
}
const userTexts = () =>
  server.requests.map((r) => String((r.body as { messages: { role: string; content: unknown }[] }).messages.filter((m) => m.role === "user").at(-1)?.content));

/** a command that runs until the test creates $HOME/go: the turn is surely running while the test types */
const waitForGo = toolCalls([["bash", { command: 'while [ ! -e "$HOME/go" ]; do sleep 0.05; done; echo went' }]]);

test.each<[string, Reply, string[], RegExp]>([
  [
    "an error the provider will not retry (400)",
    jsonReply(400, { error: { message: "the mock refuses this request", type: "invalid_request_error" } }),
    [],
    /^error: request rejected \(400\): the mock refuses this request$/m,
  ],
  ["its turn limit (--max-turns 1: the hand-off written)", answer("Hand-off: the loop still waits for go."), ["--max-turns", "1"], /stopped at the turn limit/],
])(
  "a turn that ends at %s sends nothing queued: the queue and the line being typed wait at the prompt under the error, unsent",
  async (_what, last, args, said) => {
    const t = await open({ args });
    const before = server.requests.length;
    server.enqueue(waitForGo, last);
    await t.type("start the loop");
    await t.keys("Enter");
    await t.waitFor("$HOME/go");
    await t.type("then run the tests");
    await t.keys("Enter");
    await t.waitFor("queued: then run the tests"); // else a loaded machine may read Enter and `draft` together: a line break
    await t.type("draft");
    await t.waitFor((s) => s.includes("queued: then run the tests") && s.includes("› draft"));
    await t.keysRead();
    writeFileSync(join(t.home, "go"), "");
    const screen = await t.waitFor((s) => lastLine(s) === "… draft");
    const rows = screen.trimEnd().split("\n");
    expect(rows.slice(-3)).toEqual([HELD_AFTER_FAILURE, "› then run the tests", "… draft"]);
    expect(screen).toMatch(said); // the error is in view above what waits
    expect(screen).not.toContain("queued:");
    expect(server.requests.length - before).toBe(2); // the call's request and the one after its result: nothing queued went out
    // Enter sends both lines as one message, when the user says
    server.enqueue(answer("Both done."));
    await t.keys("Enter");
    await t.waitFor("Both done.");
    expect(userTexts().at(-1)).toBe("then run the tests\ndraft");
  },
  E2E_TIMEOUT,
);

test.each([
  ["SIGTERM", 143],
  ["SIGHUP (the terminal closed)", 129],
] as const)(
  "%s during a turn keeps what was queued and typed in the history: ↑ at the next start brings it back",
  async (signal, code) => {
    const t = await open({ before: 'stty -a > "$HOME/stty-before"', after: 'stty -a > "$HOME/stty-after"' });
    const rest = gate();
    try {
      server.enqueue(heldAnswer("w0 w1 w2 w3", 2, rest.passed));
      await t.type("first");
      await t.keys("Enter");
      await t.waitFor("w0 w1");
      await t.type("queued one");
      await t.keys("Enter");
      await t.waitFor("queued: queued one");
      await t.type("half typ");
      await t.waitFor("› half typ");
      await t.keysRead();
      const pid = await t.heyPid();
      if (signal === "SIGTERM") {
        process.kill(pid, "SIGTERM");
        const screen = await t.waitFor(/^\[exit \d+\]$/m);
        expect(screen).toMatch(new RegExp(`^\\[exit ${code}\\]$`, "m"));
        expect(readFileSync(join(t.home, "stty-after"), "utf8")).toBe(readFileSync(join(t.home, "stty-before"), "utf8"));
      } else {
        await t.kill(); // the pane closed: hey reads its input end, then the SIGHUP
        await until(() => !alive(pid), "hey to exit after the hang-up", 20_000);
      }
    } finally {
      rest.open();
    }
    const history = readFileSync(join(t.home, ".local/state/hey/history"), "utf8");
    expect(history).toContain("queued one");
    // the next start, in the same home and project: ↑ brings back the two lines, one entry, unsent
    const again = await open({ env: { HOME: t.home }, cwd: t.home });
    const sent = server.requests.length;
    await again.keys("Up");
    const screen = await again.waitFor((s) => lastLine(s) === "… half typ");
    expect(screen.trimEnd().split("\n").slice(-2)).toEqual(["› queued one", "… half typ"]);
    await again.keys("Up", "Up"); // to the entry's first row, then to the entry before it
    await again.waitFor((s) => lastLine(s) === "› first"); // the line sent before it, one entry further back
    expect(server.requests.length).toBe(sent);
  },
  E2E_TIMEOUT,
);

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
