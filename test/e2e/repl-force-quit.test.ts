// Ctrl-C again and again while a cancelled turn does not stop (README "Keys"), through dist/hey in
// tmux: past the wait a command's cleanup gets, hey quits at once — the status row cleared, not left
// half-drawn for the shell to write over, one line saying why and that the session is saved, the
// terminal as it was, and what was typed during the turn in the history file, where ↑ finds it.
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { FORCE_QUIT_AFTER_MS } from "../../src/ui/repl-state.ts";
import { fileReplayServer } from "../helpers/fixtures.ts";
import { until } from "../helpers/wait.ts";
import { lastLine, replTerms, toolCalls } from "./repl-helpers.ts";

const E2E_TIMEOUT = 90_000;
const server = fileReplayServer();
const { open } = replTerms(server);

test(
  "four Ctrl-C while the cancelled turn has not stopped: hey quits cleanly, says why, and keeps the line typed meanwhile in the history",
  async () => {
    const t = await open({ before: 'stty -a > "$HOME/stty-before"', after: 'stty -a > "$HOME/stty-after"' });
    // a command that outlives its SIGTERM (its 1.5 s cleanup), stopped by the SIGKILL after it
    server.enqueue(toolCalls([["bash", { command: "trap 'echo got-term' TERM; echo started; while :; do sleep 0.1; done" }]]));
    await t.type("run the server");
    await t.keys("Enter");
    await t.waitFor(/^ {4}started$/m);
    await t.type("my next instruction");
    await t.keysRead();
    await t.keys("C-c");
    await t.waitFor(/^ {4}got-term$/m); // hey read the cancel and asked the command to stop
    const cancelled = Date.now();
    // the turn held past the wait for a cleanup: hey stopped (its stop grace counts on no clock meanwhile)
    const pid = await t.heyPid();
    process.kill(pid, "SIGSTOP");
    try {
      await until(() => Date.now() > cancelled + FORCE_QUIT_AFTER_MS + 200, "the wait a cleanup gets to pass");
      await t.keys("C-c", "C-c", "C-c"); // read when hey goes on, before the turn it still stops can end
    } finally {
      process.kill(pid, "SIGCONT");
    }
    const screen = await t.waitFor(/^\[exit \d+\]$/m, { joined: true });
    expect(screen).toMatch(/^\[exit 130\]$/m);
    const said =
      "hey quit: the turn had not stopped 3 s after it was cancelled; what you typed during it is in the history (↑); the session is saved (hey -c continues it)";
    // on lines of their own (wrapped at spaces), the status row (`⠸ running… 3s`) gone
    expect(screen.trimEnd().split("\n").slice(-3, -1).join(" ")).toBe(said);
    expect(screen).not.toContain("running…");
    expect(readFileSync(join(t.home, "stty-after"), "utf8")).toBe(readFileSync(join(t.home, "stty-before"), "utf8"));
    // the call that ran on is saved as the user's stop, which `hey -c` tells the model (not "hey stopped before this call finished")
    const sessions = join(t.home, ".local/state/hey/sessions");
    const session = readFileSync(join(sessions, readdirSync(sessions).find((f) => f.endsWith(".jsonl"))!), "utf8");
    expect(session).toContain('"text":"interrupted by user: the user stopped this call before it finished, and hey quit while it ran;');
    const history = readFileSync(join(t.home, ".local/state/hey/history"), "utf8");
    expect(history.trimEnd().split("\n").slice(-2)).toEqual(["run the server", "my next instruction"]);
    expect(lastLine(screen)).toBe("[exit 130]");
  },
  E2E_TIMEOUT,
);
