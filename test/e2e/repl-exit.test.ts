// Every way out of the REPL gives the terminal back as it was (issue 14): after Ctrl-D, a double
// Ctrl-C, SIGTERM during a turn and SIGHUP at the prompt, `stty -a` reads as before hey started,
// and a paste reaches the next program as plain text (bracketed paste mode is off again).
import { afterEach, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

import { startTerm, type Term } from "../helpers/tmux.ts";
import { killMarked, marker, processes, waitForGroup } from "../helpers/processes.ts";
import { answer, toolCalls } from "./repl-helpers.ts";
import { until } from "../helpers/wait.ts";
import { fileReplayServer } from "../helpers/fixtures.ts";

const E2E_TIMEOUT = 90_000;
const server = fileReplayServer();
let term: Term | undefined;
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
])(
  "after %s the terminal is as it was",
  async (_name, keys, code) => {
    const t = await start();
    for (const key of keys) await t.keys(key);
    await sttyKept(t, code);
  },
  E2E_TIMEOUT,
);

test(
  "after SIGTERM during a turn: exit 143, the terminal as it was",
  async () => {
    const t = await start();
    server.enqueue(answer(Array.from({ length: 80 }, (_, i) => `w${i}`).join(" "), 200));
    await t.type("go");
    await t.keys("Enter");
    await t.waitFor("w1 ");
    process.kill(await t.heyPid(), "SIGTERM");
    await t.waitFor(/^terminated \(SIGTERM\)$/m); // not "interrupted by user": nobody pressed a key
    await sttyKept(t, 143);
  },
  E2E_TIMEOUT,
);

test(
  "after SIGQUIT (kill -QUIT) at the prompt: exit 131, the terminal as it was (it was left raw, without echo)",
  async () => {
    const t = await start();
    process.kill(await t.heyPid(), "SIGQUIT");
    await sttyKept(t, 131);
  },
  E2E_TIMEOUT,
);

test(
  "after SIGHUP at the prompt: exit 129, the terminal as it was",
  async () => {
    const t = await start();
    process.kill(await t.heyPid(), "SIGHUP");
    await sttyKept(t, 129);
  },
  E2E_TIMEOUT,
);

// Closing the terminal (tmux kill-session) during a tool call: stdin ends and SIGHUP follows. The
// turn is cancelled as a hang-up cancels it — the command's process group killed, its result in
// the session, the lock released — and hey exits 129 instead of leaving the command running.
test(
  "the terminal closed during a tool call: no process of the tool survives, the session has the result",
  async () => {
    const m = marker();
    const t = (term = await startTerm({
      args: ["--base-url", `${server.url}/v1`, "-m", "mock-model"],
      before: "trap true HUP", // the pane's shell outlives the terminal to note hey's exit code (hey gets the default SIGHUP)
      after: 'echo $code > "$HOME/code"',
    }));
    await t.waitFor(/^›/m);
    const hey = await t.heyPid();
    server.enqueue(toolCalls([["bash", { command: `sleep ${m} & sleep ${m}; echo finished` }]]));
    await t.type("run it");
    await t.keys("Enter");
    try {
      const pgid = await waitForGroup(m, 20_000);
      await t.kill();
      await until(() => !existsSync(`/proc/${hey}`), "hey to exit");
      await until(() => existsSync(join(t.home, "code")), "the shell to record hey's exit code");
      expect(readFileSync(join(t.home, "code"), "utf8")).toBe("129\n");
      expect(processes().filter((p) => p.pgid === pgid)).toEqual([]); // ps reads /proc
      const dir = join(t.home, ".local/state/hey/sessions");
      const files = readdirSync(dir);
      expect(files.filter((f) => f.endsWith(".lock"))).toEqual([]);
      const session = readFileSync(join(dir, files.find((f) => f.endsWith(".jsonl"))!), "utf8");
      expect(session).toContain('"role":"tool"');
      expect(session).toMatch(/\[the terminal (closed|hung up \(SIGHUP\)); the process group was killed\]/);
    } finally {
      killMarked([m]);
    }
  },
  E2E_TIMEOUT,
);
