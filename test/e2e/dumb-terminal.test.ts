// TERM=dumb (Emacs' M-x shell): through dist/hey in tmux, with every byte hey writes recorded. `hey
// -p` streams its answer and tool lines as plain text, with no colour, spinner or cursor move; the
// REPL, which needs them, does not start and says what to use instead.
import { expect, setDefaultTimeout, test } from "bun:test";
import { fileReplayServer } from "../helpers/fixtures.ts";
import { answer, replTerms, toolCalls } from "./repl-helpers.ts";

setDefaultTimeout(90_000); // the first test may build dist/hey

const server = fileReplayServer();
const { start } = replTerms(server);
const args = () => ["--base-url", `${server.url}/v1`, "-m", "mock-model"];

test("hey -p under TERM=dumb writes the answer and the tool lines as plain text, no escape sequence at all", async () => {
  server.enqueue(toolCalls([["bash", { command: "echo checked" }]]));
  server.enqueue(answer("It is **done**: the `check` passed."));
  const term = await start({ record: true, before: "export TERM=dumb", args: [...args(), "-p", "check it"] });
  const screen = await term.waitFor(/\[exit \d+\]/);
  expect(screen).toContain("[exit 0]");
  expect(screen).toContain("$ echo checked\n");
  expect(screen).toContain("It is **done**: the `check` passed.\n"); // as written: no markdown without colours
  expect(term.recorded()).toContain("It is **done**");
  expect(term.recorded()).not.toContain("\x1b"); // no colour, no spinner, no line cleared or cursor moved
});

test("the REPL under TERM=dumb does not start: it says the terminal cannot show it and suggests hey -p", async () => {
  const term = await start({ record: true, before: "export TERM=dumb", args: args() });
  const screen = await term.waitFor(/\[exit \d+\]/, { joined: true });
  expect(screen).toContain("[exit 2]");
  expect(screen).toContain("this terminal (TERM=dumb) cannot show hey's prompt");
  expect(screen).toContain('hey -p "…"');
  expect(term.recorded()).not.toContain("\x1b"); // not even bracketed paste turned on
});

test("TERM unset or empty is a dumb terminal too (as git takes it): hey -p writes no escape sequence; the REPL says to set TERM", async () => {
  for (const before of ["unset TERM", "export TERM="]) {
    server.enqueue(toolCalls([["bash", { command: "echo checked" }]]));
    server.enqueue(answer("It is **done**."));
    const run = await start({ record: true, before, args: [...args(), "-p", "check it"] });
    const screen = await run.waitFor(/\[exit \d+\]/);
    expect(screen).toContain("[exit 0]");
    expect(screen).toContain("$ echo checked\n");
    expect(run.recorded()).toContain("It is **done**.");
    expect(run.recorded()).not.toContain("\x1b"); // no colour, no spinner's `\r\e[K`
  }
  const repl = await start({ record: true, before: "unset TERM", args: args() });
  const said = (await repl.waitFor(/\[exit \d+\]/)).replace(/\s+/g, " "); // a sentence wrapped at spaces
  expect(said).toContain("[exit 2]");
  expect(said).toContain("hey: TERM is not set, so hey cannot tell whether this terminal can show its prompt");
  expect(said).toContain("set TERM to what your terminal is (TERM=xterm-256color for most)");
  expect(repl.recorded()).not.toContain("\x1b");
});
