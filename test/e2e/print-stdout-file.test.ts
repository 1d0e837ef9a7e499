// `hey "msg" > out.txt` typed at a terminal: stdin was a terminal, so hey opened the interactive
// prompt — drawn into the file — and waited on a blank screen. A message with stdout a file or a
// pipe now runs one-shot, as with -p; no message there is a usage error that says why (exit 2).
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileModelServer } from "../helpers/fixtures.ts";
import { startTerm } from "../helpers/tmux.ts";

const server = fileModelServer(() => ({ text: "the answer" }));

/** dist/hey ARGS at a terminal with its stdout sent to $HOME/out.txt: the screen once it exited, and the file. */
async function toFile(args: string[]): Promise<{ screen: string; file: string }> {
  // stdout goes to the file for hey only: the shell's own line after it, `[exit N]`, is on the terminal again
  const term = await startTerm({
    args: ["--base-url", server.baseUrl, "-m", "m", ...args],
    before: 'exec 3>&1 >"$HOME/out.txt"',
    after: "exec >&3",
    cols: 200,
  });
  try {
    const screen = await term.waitFor(/\[exit \d+\]/);
    return { screen, file: readFileSync(join(term.home, "out.txt"), "utf8") };
  } finally {
    await term.close();
  }
}

test("a message with stdout a file runs one-shot: the answer in the file, exit 0, no prompt drawn", async () => {
  const run = await toFile(["say it"]);
  expect(run.file).toBe("the answer\n");
  expect(run.screen).toContain("[exit 0]");
  expect(server.requests.length).toBe(1);
});

test("no message with stdout a file: exit 2 saying the interactive prompt needs a terminal on stdout; nothing is sent", async () => {
  const before = server.requests.length;
  const run = await toFile([]);
  expect(run.file).toBe("");
  expect(run.screen.replace(/\n(?!\[exit)/g, " ")).toContain(
    'hey: the interactive prompt needs a terminal on stdout, and stdout is a file or a pipe; give a message (hey -p "…")',
  );
  expect(run.screen).toContain("[exit 2]");
  expect(server.requests.length).toBe(before);
});

test("no message with stdout closed (hey >&-): exit 2 saying stdout is closed, not that it is a file or a pipe", async () => {
  const before = server.requests.length;
  const term = await startTerm({ args: ["--base-url", server.baseUrl, "-m", "m"], before: "exec 3>&1 >&-", after: "exec >&3", cols: 200 });
  try {
    const screen = (await term.waitFor(/\[exit \d+\]/)).replace(/\n(?!\[exit)/g, " ");
    expect(screen).toContain("hey: the interactive prompt needs a terminal on stdout, and stdout is closed (>&-); run hey with stdout open");
    expect(screen).not.toContain("a file or a pipe");
    expect(screen).toContain("[exit 2]");
    expect(server.requests.length).toBe(before);
  } finally {
    await term.close();
  }
});
