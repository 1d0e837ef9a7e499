// What a command printed, on screen (issue 28): through dist/hey in tmux against a local mock
// model, a bash call shows the last lines of its output under its status, a failed one its error
// lines first, and a command of several lines is shown whole (the model sees what it always saw);
// a markdown table fits the terminal, as columns or, when they cannot fit, as `header: value` blocks.
import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startReplayServer, type ReplayServer } from "../helpers/replay-server.ts";
import { startTerm, type Term } from "../helpers/tmux.ts";
import { gate } from "../helpers/wait.ts";
import { answer, heldAnswer, toolCalls } from "./repl-helpers.ts";

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

const E2E_TIMEOUT = 90_000;

test(
  "a bash result shows how the output ended; a failure its error first; a multi-line command whole",
  async () => {
    const script = "for i in 1 2 3 4 5 6 7 8 9 10 11 12; do\n  echo step $i\ndone";
    server.enqueue(
      toolCalls([["bash", { command: script }]]),
      toolCalls([["bash", { command: "echo building; echo 'error: b.ts:3: missing ;' >&2; exit 2" }]]),
      answer("Done."),
    );
    term = await startTerm({ args: ["--base-url", `${server.url}/v1`, "-m", "mock-model"], cols: 100 });
    await term.waitFor((s) => s.trimEnd().split("\n").at(-1)?.trimEnd() === "›");
    await term.type("run it");
    await term.keys("Enter");
    const screen = await term.waitFor("Done.");
    const lines = screen.split("\n").map((l) => l.trimEnd());
    const at = lines.indexOf("$ for i in 1 2 3 4 5 6 7 8 9 10 11 12; do …");
    expect(at).toBeGreaterThanOrEqual(0);
    expect(lines.slice(at + 1, at + 3)).toEqual(["    echo step $i", "  done"]);
    expect(lines[at + 3]).toBe("  ✓ 12 lines of output");
    expect(lines.slice(at + 4, at + 9)).toEqual(["    step 8", "    step 9", "    step 10", "    step 11", "    step 12"]);
    const failed = lines.findIndex((l) => l.startsWith("  ✗ exit 2: error: b.ts:3: missing ;"));
    expect(failed).toBeGreaterThan(at);
    // the error is in the status line, not again under it; then how the output ended
    expect(lines.slice(failed + 1, failed + 2)).toEqual(["    building"]);
    // what the model got is unchanged: the whole output of the loop
    const result = (server.requests[1]!.body as { messages: { role: string; content: string }[] }).messages.at(-1)!.content;
    for (let i = 1; i <= 12; i++) expect(result).toContain(`step ${i}\n`);
  },
  E2E_TIMEOUT,
);

test(
  "a markdown table in an answer is drawn with aligned columns that fit the terminal, a `---:` column to the right",
  async () => {
    server.enqueue(answer("Here:\n\n| file | lines |\n|---|---:|\n| src/cli.ts | 270 |\n| src/run.ts | 398 |\n\nBoth fine."));
    term = await startTerm({ args: ["--base-url", `${server.url}/v1`, "-m", "mock-model"], cols: 40 });
    await term.waitFor((s) => s.trimEnd().split("\n").at(-1)?.trimEnd() === "›");
    await term.type("sizes?");
    await term.keys("Enter");
    const lines = (await term.waitFor("Both fine.")).split("\n").map((l) => l.trimEnd());
    const at = lines.indexOf("file       │ lines");
    expect(at).toBeGreaterThanOrEqual(0);
    expect(lines.slice(at + 1, at + 4)).toEqual(["───────────┼──────", "src/cli.ts │   270", "src/run.ts │   398"]); // `---:`: numbers to the right
  },
  E2E_TIMEOUT,
);

test(
  "-p at 40 columns: a table too wide for its columns is drawn as one block of `header: value` lines a row, no line wrapped by the terminal",
  async () => {
    const table = "| a | b | c | d | e | f |\n|---|---|---|---|---|---|\n| aaaaaa | bbbbbb | cccccc | dddddd | eeeeee | ffffff |\n| 1 | 2 | 3 | 4 | 5 | 6 |";
    server.enqueue(answer(`The table:\n\n${table}\n\nThat is all.`));
    term = await startTerm({ args: ["--base-url", `${server.url}/v1`, "-m", "mock-model", "-p", "show the table"], cols: 40 });
    // joined: a line the terminal wrapped reads as the one long line it was
    const lines = (await term.waitFor("That is all.", { joined: true })).split("\n").map((l) => l.trimEnd());
    for (const l of lines) expect(Bun.stringWidth(l)).toBeLessThanOrEqual(40);
    const at = lines.indexOf("a: aaaaaa");
    expect(at).toBeGreaterThanOrEqual(0);
    expect(lines.slice(at, at + 13)).toEqual([
      "a: aaaaaa",
      "b: bbbbbb",
      "c: cccccc",
      "d: dddddd",
      "e: eeeeee",
      "f: ffffff",
      "─────────",
      "a: 1",
      "b: 2",
      "c: 3",
      "d: 4",
      "e: 5",
      "f: 6",
    ]);
  },
  E2E_TIMEOUT,
);

test(
  "-p on a terminal: an MCP server's notice gets a line of its own, never glued to the spinner",
  async () => {
    const { tempDir } = await import("../helpers/e2e.ts");
    const { BUN, FAKE_SERVER } = await import("../helpers/mcp.ts");
    const dir = tempDir("hey-notice-");
    try {
      const config = `${dir.path}/hey.toml`;
      await Bun.write(config, `[mcp.slow]\ncommand = "${BUN}"\nargs = ["${FAKE_SERVER}", "slow-start", "1500"]\n`);
      server.enqueue(answer("Hello there."));
      term = await startTerm({ args: ["--base-url", `${server.url}/v1`, "-m", "mock-model", "--config", config, "-p", "hi"] });
      const screen = await term.waitFor(/\[exit \d+\]/);
      const lines = screen.split("\n").map((l) => l.trimEnd());
      expect(lines).toContain("connected: slow (1 tool)");
      expect(screen).not.toMatch(/\dsconnected/);
      expect(lines).toContain("Hello there.");
    } finally {
      dir.remove();
    }
  },
  E2E_TIMEOUT,
);

test(
  "-p with stdout to a file: the terminal shows the work and that the answer is being written, the file gets the answer",
  async () => {
    // the answer's words after its first wait until the test has seen the spinner (it goes when the answer ends)
    const rest = gate();
    server.enqueue(
      toolCalls([["bash", { command: "echo checked" }]], "Checking."),
      heldAnswer("The answer is forty-two and it took a while to write.", 1, rest.passed),
    );
    term = await startTerm({
      args: ["--base-url", `${server.url}/v1`, "-m", "mock-model", "-p", "what is it?"],
      before: 'exec 3>&1 1>"$HOME/answer.txt"',
      after: "exec 1>&3",
    });
    await term.waitFor("writing…");
    rest.open();
    const screen = await term.waitFor(/\[exit \d+\]/);
    expect(screen).toContain("[exit 0]");
    expect(screen).toContain("Checking.\n$ echo checked\n  ✓ 1 line of output\n    checked\n");
    expect(screen).not.toContain("forty-two");
    expect(await Bun.file(`${term.home}/answer.txt`).text()).toBe("The answer is forty-two and it took a while to write.\n");
  },
  E2E_TIMEOUT,
);

test(
  "hey's own lines on stderr wrap at spaces, like answers, never mid-word",
  async () => {
    server.enqueue(answer("ok"));
    const config = "unknown_section_with_a_long_name = 1\n";
    // wide enough for the config's path (a word of its own) under any TMPDIR: $TMPDIR/hey-tmux-XXXXXX/long-name-config.toml:1:
    const pathWord = `${tmpdir()}/hey-tmux-XXXXXX/long-name-config.toml:1:`.length;
    const cols = Math.max(60, pathWord + 10);
    term = await startTerm({
      args: ["--base-url", `${server.url}/v1`, "-m", "mock-model", "--config", "long-name-config.toml", "-p", "hi"],
      before: `printf '${config}' > long-name-config.toml`,
      cols,
    });
    const screen = await term.waitFor(/\[exit \d+\]/);
    const lines = screen.split("\n").map((l) => l.trimEnd());
    const start = lines.findIndex((l) => l.startsWith("hey:"));
    const end = lines.findIndex((l, i) => i > start && (l === "ok" || l.startsWith("hey:"))); // the first run's line about permissions follows
    const warning = lines.slice(start, end);
    expect(warning.length).toBeGreaterThan(1); // long enough to wrap
    for (const l of warning) expect(l.length).toBeLessThanOrEqual(cols);
    // broken at spaces: joined with spaces again, the lines are the message exactly
    expect(warning.join(" ")).toBe(`hey: ${term.home}/long-name-config.toml:1: unknown key unknown_section_with_a_long_name (ignored)`);
  },
  E2E_TIMEOUT,
);

test(
  "at the prompt too: the banner and a refused line's hey: message wrap at spaces",
  async () => {
    term = await startTerm({ args: ["--base-url", `${server.url}/v1`, "-m", "mock-model"], cols: 40 });
    await term.waitFor(/^›/m);
    await term.type("/skill:no-such-skill-with-a-long-name");
    await term.keys("Enter");
    const screen = await term.waitFor(/loaded\n›/);
    const lines = screen.split("\n").map((l) => l.trimEnd());
    const banner = lines.slice(
      lines.findIndex((l) => l.startsWith("hey 0.")),
      lines.findIndex((l) => l.startsWith("›")),
    );
    const error = lines.slice(
      lines.findIndex((l) => l.startsWith("hey: no skill")),
      lines.findLastIndex((l) => l.startsWith("›")),
    );
    for (const block of [banner, error]) {
      expect(block.length).toBeGreaterThan(1); // long enough to wrap at 40 columns
      for (const l of block) expect(Bun.stringWidth(l)).toBeLessThanOrEqual(40);
    }
    expect(banner.join(" ")).toEndWith("· /help for commands");
    expect(error.join(" ")).toBe('hey: no skill named "no-such-skill-with-a-long-name"; none are loaded');
  },
  E2E_TIMEOUT,
);

test(
  "at 60 columns: a failed call of a batch keeps its exit code and error on its status line, and a diff line too wide keeps its marker, cut with …",
  async () => {
    const command = "echo this is the output line; echo this is an error line >&2; exit 3";
    const long = `    return ${"a_rather_long_name + ".repeat(4)}b`;
    server.enqueue(
      toolCalls([
        ["read_file", { path: "src/calc.py" }],
        ["bash", { command }],
      ]),
      toolCalls([["edit", { path: "src/calc.py", old_string: "    return a + b", new_string: long }]]),
      answer("Done."),
    );
    term = await startTerm({ args: ["--base-url", `${server.url}/v1`, "-m", "mock-model"], cols: 60 });
    mkdirSync(join(term.cwd, "src"));
    writeFileSync(join(term.cwd, "src", "calc.py"), "def add(a, b):\n    return a + b\n");
    await term.waitFor((s) => s.trimEnd().split("\n").at(-1)?.trimEnd() === "›");
    await term.type("fix it");
    await term.keys("Enter");
    const lines = (await term.waitFor("Done.")).split("\n").map((l) => l.trimEnd());
    expect(lines).toContain("  ✗ $ echo this is the outpu…: exit 3: this is an error line");
    expect(lines).toContain("  ✓ read src/calc.py: 2 lines");
    expect(lines).toContain("    -    return a + b");
    expect(lines).toContain("    +    return a_rather_long_name + a_rather_long_name + a…");
    expect(lines.filter((l) => l.startsWith("a_rather_long_name") || l.startsWith("b"))).toEqual([]); // nothing wrapped to column 0
  },
  E2E_TIMEOUT,
);
