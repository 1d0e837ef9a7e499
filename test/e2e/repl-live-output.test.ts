// A running command's output as it comes (issue 28 follow-up), through dist/hey in tmux against a
// local mock model: the last lines show under the command while it runs, its colours dropped and
// other control characters made visible, each cut to the width, and the usual result lines replace
// them when it ends, leaving nothing of them in the scrollback.
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileReplayServer } from "../helpers/fixtures.ts";
import { answer, lastLine, replTerms, toolCalls } from "./repl-helpers.ts";

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
