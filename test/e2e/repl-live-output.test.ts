// A running command's output as it comes (issue 28 follow-up), through dist/hey in tmux against a
// local mock model: the last lines show under the command while it runs, its colours dropped and
// other control characters made visible, each cut to the width, and the usual result lines replace
// them when it ends, leaving nothing of them in the scrollback.
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileReplayServer } from "../helpers/fixtures.ts";
import { answer, lastLine, replTerms, say, toolCalls } from "./repl-helpers.ts";

const E2E_TIMEOUT = 90_000;
const server = fileReplayServer();
const { open } = replTerms(server);

test(
  "the last lines of a running command show under it, then its result replaces them",
  async () => {
    const long = "x".repeat(200);
    // waits for the test's file, never for a fixed time
    const command = `for i in 1 2 3 4 5 6 7; do echo line $i; done; printf '\\033[32mgreen\\033[0m bell\\007\\n'; echo ${long}; while [ ! -e go ]; do sleep 0.05; done; echo finished`;
    server.enqueue(toolCalls([["bash", { command }]]), answer("Done."));
    const t = await open({ cols: 80 });
    await t.type("run it");
    await t.keys("Enter");
    const running = await t.waitFor((s) => s.includes(" xxx") && s.includes("running…"));
    const rows = running.split("\n").map((l) => l.trimEnd());
    const spin = rows.findIndex((l) => l.includes("running…"));
    expect(rows.slice(spin - 4, spin)).toEqual(["    line 6", "    line 7", "    green bell^G", `    ${"x".repeat(75)}…`]);
    writeFileSync(join(t.cwd, "go"), "");
    await t.waitFor("Done.");
    const all = (await t.screen({ scrollback: true })).split("\n").map((l) => l.trimEnd());
    const at = all.indexOf("  ✓ 10 lines of output");
    expect(all[at - 1]).toEndWith("…"); // the command's line, then its result: no live lines left between
    expect(all.slice(at + 1, at + 7)).toEqual(["    line 6", "    line 7", "    green bell^G", `    ${"x".repeat(75)}…`, "    finished", "Done."]);
    expect(all.filter((l) => l === "    line 7")).toHaveLength(1); // the result's preview only, in the scrollback too
  },
  E2E_TIMEOUT,
);

test(
  "Ctrl-C during a command says 'interrupted by user' once: the call's line says it stopped, the turn's line why",
  async () => {
    server.enqueue(toolCalls([["bash", { command: "echo start; while [ ! -e never ]; do sleep 0.05; done" }]]));
    const t = await open();
    await t.type("run it");
    await t.keys("Enter");
    await t.waitFor(/^ {4}start$/m); // running: its first line is on the screen
    await t.keys("C-c");
    const screen = await t.waitFor((s) => lastLine(s) === "›" && s.includes("✗"));
    const rows = screen.split("\n").map((l) => l.trimEnd());
    const at = rows.indexOf("  ✗ stopped: start");
    expect(rows.slice(at - 1, at + 2)).toEqual(["$ echo start; while [ ! -e never ]; do sleep 0.05; done", "  ✗ stopped: start", "interrupted by user"]);
    expect(screen.match(/interrupted by user/g)).toHaveLength(1);
  },
  E2E_TIMEOUT,
);

test(
  "a resize while the live lines are up leaves none of them behind: the terminal's reflow of them is cleared too",
  async () => {
    const lines = [1, 2, 3, 4, 5].map((i) => `echo "L${i} building module number ${i} of the project with a long line"`).join("; ");
    server.enqueue(toolCalls([["bash", { command: `${lines}; while [ ! -e go ]; do sleep 0.05; done; echo end` }]]), answer("Done."));
    const t = await open({ cols: 80 });
    await t.type("run it");
    await t.keys("Enter");
    await t.waitFor(/^ {4}L5 /m);
    await t.resize(40, 24); // each live row now takes two
    writeFileSync(join(t.cwd, "go"), "");
    await t.waitFor("Done.");
    const all = (await t.screen({ scrollback: true, joined: true })).split("\n");
    const at = all.findIndex((l) => l.startsWith("  ✓ "));
    expect(all.slice(0, at).filter((l) => /^ {4}L\d/.test(l))).toEqual([]); // before the result: the command's line only
  },
  E2E_TIMEOUT,
);

test(
  "Ctrl-L while the live lines are up: later redraws leave no copies of them in the scrollback",
  async () => {
    const command =
      "for i in 1 2 3; do echo a$i; done; while [ ! -e go ]; do sleep 0.05; done; for i in 1 2 3; do echo b$i; done; while [ ! -e end ]; do sleep 0.05; done";
    server.enqueue(toolCalls([["bash", { command }]]), answer("Done."));
    const t = await open({ cols: 80 });
    await t.type("run it");
    await t.keys("Enter");
    await t.waitFor(/^ {4}a3$/m);
    await t.keys("C-l");
    await t.waitFor((s) => s.split("\n")[0]!.includes("running…")); // the spinner's row at the top, the rest cleared
    writeFileSync(join(t.cwd, "go"), "");
    await t.waitFor(/^ {4}b3$/m);
    const all = (await t.screen({ scrollback: true })).split("\n");
    expect(all.filter((l) => l.includes("running…"))).toHaveLength(1);
    writeFileSync(join(t.cwd, "end"), "");
    await t.waitFor("Done.");
  },
  E2E_TIMEOUT,
);

test(
  "Ctrl-C during the first call of a batch: the calls it kept from running say 'not run' on screen and to the model, 'interrupted by user' is said once",
  async () => {
    server.enqueue(
      toolCalls([
        ["bash", { command: "echo start; while [ ! -e never ]; do sleep 0.05; done" }],
        ["read_file", { path: "a.txt" }],
        ["bash", { command: "echo two" }],
      ]),
    );
    const t = await open();
    await t.type("run it");
    await t.keys("Enter");
    await t.waitFor(/^ {4}start$/m);
    await t.keys("C-c");
    const screen = await t.waitFor((s) => lastLine(s) === "›" && s.includes("✗ $ echo two"));
    expect(screen).toContain(": stopped: start\n  ✗ read a.txt: not run\n  ✗ $ echo two: not run\ninterrupted by user\n");
    expect(screen.match(/interrupted by user/g)).toHaveLength(1);
    server.enqueue(answer("Noted."));
    await say(t, "never mind", "Noted.");
    const sent = (server.requests.at(-1)!.body as { messages: { role: string; content: string }[] }).messages.filter((m) => m.role === "tool");
    // each result ends with its mark for the model (`[#ab12c]`)
    expect(sent.map((m) => m.content.split("\n").at(-2))).toEqual([
      "[interrupted by user; the process group was killed]",
      "not run: interrupted by user before it started",
      "not run: interrupted by user before it started",
    ]);
  },
  E2E_TIMEOUT,
);
