// hey where a stop is discarded (README "Keys"): run by a script with no job control, its process
// group is orphaned, and the kernel drops the stop Ctrl-Z asks for; a later SIGSTOP and SIGCONT
// from outside, with the terminal set back to cooked mode meanwhile (as a shell does), must still
// find hey taking raw mode back: Ctrl-A then moves to the line's start, not `^A` echoed by the terminal.
import { expect, test } from "bun:test";
import { readlinkSync } from "node:fs";
import { fileReplayServer } from "../helpers/fixtures.ts";
import { lastLine, replTerms } from "./repl-helpers.ts";

const server = fileReplayServer();
const { open } = replTerms(server);

test.if(process.platform === "linux")(
  "after a Ctrl-Z the kernel discarded, a SIGSTOP then SIGCONT (the terminal cooked meanwhile) still finds the line editable in raw mode",
  async () => {
    const t = await open();
    await t.type("ab");
    await t.waitFor((s) => lastLine(s) === "› ab");
    await t.keys("C-z"); // the script's group is orphaned: the stop is discarded, hey goes on at once
    await t.type("c");
    await t.waitFor((s) => lastLine(s) === "› abc");
    const pid = await t.heyPid();
    const tty = readlinkSync(`/proc/${pid}/fd/0`);
    process.kill(pid, "SIGSTOP");
    expect(Bun.spawnSync(["stty", "-F", tty, "sane"]).exitCode).toBe(0);
    process.kill(pid, "SIGCONT");
    await t.keys("C-a");
    await t.type("z");
    const screen = await t.waitFor((s) => lastLine(s) === "› zabc" || lastLine(s).includes("^A"));
    expect(lastLine(screen)).toBe("› zabc");
  },
  60_000,
);
