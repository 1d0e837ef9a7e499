// hey's state directory (sessions, input history, approvals) that cannot be made is said when the
// REPL starts, before the first message — not only once that message's session fails to save —
// naming the path at fault and what to do. Through the compiled binary in a real terminal.
import { afterEach, expect, test } from "bun:test";
import { join } from "node:path";
import { startTerm, type Term } from "../helpers/tmux.ts";

let term: Term | undefined;
afterEach(async () => {
  await term?.close();
  term = undefined;
});

test("a file where the state directory should be: the REPL says at start that sessions, history and approvals cannot be kept, and why", async () => {
  term = await startTerm({
    args: ["--base-url", "http://127.0.0.1:9/v1", "-m", "m"], // never asked: no message is sent
    before: 'touch "$HOME/state"; export XDG_STATE_HOME="$HOME/state/x"',
    cols: 200,
  });
  const screen = await term.waitFor((s) => s.includes("›"));
  const file = join(term.home, "state");
  expect(screen.replace(/\n(?!›)/g, " ")).toContain(
    `hey: sessions, input history and approvals cannot be kept: ${file} is a file, not a directory, so hey cannot keep ${join(file, "x", "hey")}; move the file away (hey makes the directory again)`,
  );
  expect(screen.indexOf("cannot be kept")).toBeLessThan(screen.indexOf("›")); // before the prompt: before any message
  await term.type("/quit");
  await term.keys("Enter");
  await term.waitFor("[exit 0]");
}, 60_000);
