// Another agent's `/command` from habit (README "Coming from another agent"): hey names its own
// instead of the nearest spelling, points a skill's name at `/skill:NAME`, and leaves a path — or
// any `/word …` that names nothing — to the model.
import { expect, test } from "bun:test";
import { slashMistake } from "../../src/ui/slash.ts";

const names = { skills: ["review"], other: (n: string) => (n === "review-pr" ? "/review-pr is Claude Code's command" : undefined) };

test.each([
  ["/cost", "hey has no /cost; /usage shows the tokens and context of the session"],
  ["/export", "hey has no /export; the session is saved as you go: hey --sessions lists the files, hey --resume ID continues one"],
  ["/context", "hey has no /context; /usage shows the tokens and context of the session"],
  ["/doctor", "hey has no /doctor; run hey doctor in a shell"],
  ["/init", "hey has no /init; ask the agent to write AGENTS.md (hey reads it, or CLAUDE.md, from the git root down to where it runs)"],
  ["/review", "/review is no command; the skill review is /skill:review"],
  ["/review src/main.ts", "/review is no command; the skill review is /skill:review src/main.ts"],
  ["/skill review", "a skill is /skill:NAME (no space): /skill:review"],
  ["/review-pr 12", "/review-pr is Claude Code's command"],
  ["/add-dir ../x", "hey has no /add-dir; its tools reach any path: name the directory in your message (@PATH brings a file of it)"],
  ["/bug it crashes", "hey has no /bug; hey sends no reports; write it in your issue tracker"],
  ["/mention foo.ts", "hey has no /mention; @FILE in your message brings the file (Tab completes it)"],
  ["/upgrade", "hey has no /upgrade; run hey upgrade in a shell"],
  // none of these tells the user to run `git restore`, which also drops their own uncommitted lines (x57)
  ["/rewind", "hey has no /rewind; /undo puts back the files the agent's last turn changed (again: the turn before), /diff shows what changed"],
  ["/checkpoint", "hey has no /checkpoint; /undo puts back the files the agent's last turn changed (again: the turn before), /diff shows what changed"],
  ["/export conv.md", "hey has no /export; the session is saved as you go: hey --sessions lists the files, hey --resume ID continues one"],
  [
    "/copy",
    "hey has no /copy; select the answer on the screen (hey does not hard-wrap its lines, so a long one copies whole); /last shows the last tool call's whole output",
  ],
  ["/modle", "unknown command /modle; did you mean /model? (/help lists the commands)"],
])("%s: %s", (line, said) => {
  expect(slashMistake(line, names)).toBe(said);
});

test.each([["/etc/hosts is broken, why?"], ["/api returns 500"], ["/usage"], ["/undo"], ["/diff"], ["/skill:review x"], ["fix /cost"]])(
  "%s is no mistake",
  (line) => {
    expect(slashMistake(line, names)).toBeUndefined();
  },
);

// Claude Code's /status, /login, /memory… take no arguments: with words after them the line is prose for the model
test.each([
  ["/status endpoint returns 500"],
  ["/login page is blank"],
  ["/memory leak in the worker"],
  ["/cost calculation in billing.py is off"],
  ["/init script fails on boot"],
  ["/doctor appointments table is empty"],
])("%s goes to the model", (line) => {
  expect(slashMistake(line, names)).toBeUndefined();
});
