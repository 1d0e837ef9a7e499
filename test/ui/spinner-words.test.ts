// The spinner's row while hey waits for the model: after 25 s with nothing of the reply it says
// that no reply came yet and from which host, not only `working… Ns` until the idle timeout (120 s)
// gives up; hidden thinking and a retry's countdown are told apart.
import { expect, test } from "bun:test";
import { spinnerWords } from "../../src/ui/spinner-words.ts";
import { createTerminalOutput } from "../../src/ui/terminal.ts";

test("the spinner says no reply yet from the host once a reply's wait had nothing for 25 s; before that, working… Ns", () => {
  const err: string[] = [];
  let t = 0;
  const info = { write: (s: string) => void err.push(s), color: false, tty: true, columns: () => 100 };
  const terminal = createTerminalOutput({ ...info, write: () => {} }, info, { maxRetries: 5, now: () => t, host: () => "127.0.0.1:41043" });
  terminal.emit({ type: "turn_start", turn: 1 });
  t = 24_000;
  terminal.notice("one"); // the spinner is drawn again under it, at this time
  t = 26_000;
  terminal.notice("two");
  terminal.stopSpinner();
  const [, first, second] = err.join("").split(/one\n|two\n/);
  expect(first).toContain("working… 24s");
  expect(first).not.toContain("no reply");
  expect(second).toContain("no reply yet from 127.0.0.1:41043 (26s)");
});

test("thinking that streams unseen is a reply: the spinner keeps saying working…", () => {
  const err: string[] = [];
  let t = 0;
  const info = { write: (s: string) => void err.push(s), color: false, tty: true, columns: () => 100 };
  const terminal = createTerminalOutput({ ...info, write: () => {} }, info, { maxRetries: 5, now: () => t, host: () => "h.example" });
  terminal.toggleThinking(); // hidden
  terminal.emit({ type: "turn_start", turn: 1 });
  t = 20_000;
  terminal.emit({ type: "thinking_delta", text: "hmm" });
  t = 40_000;
  terminal.notice("later");
  terminal.stopSpinner();
  const after = err.join("").split("later\n")[1]!;
  expect(after).toContain("working… 40s");
  expect(after).not.toContain("no reply");
});

test("a retry counts down, then its wait for the model says no reply yet after 25 s of it; a tool's wait never does; no host, no claim", () => {
  let t = 0;
  const words = spinnerWords(
    () => t,
    () => "api.example.com",
  );
  expect(words.words("retrying in", 0, 2_000)).toBe("retrying in 2s");
  t = 12_000;
  expect(words.words("retrying in", 0, 2_000)).toBe("waiting for the model… 10s");
  t = 27_000;
  expect(words.words("retrying in", 0, 2_000)).toBe("no reply yet from api.example.com (25s)");
  expect(words.words("running…", 0)).toBe("running… 27s");
  expect(words.words("summarizing the conversation…", 0)).toBe("summarizing the conversation… 27s");
  expect(spinnerWords(() => t).words("working…", 0)).toBe("working… 27s");
  words.heard({ type: "text_delta", text: "x" });
  expect(words.words("working…", 0)).toBe("working… 27s");
});
