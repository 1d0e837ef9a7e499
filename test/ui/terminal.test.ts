// What a person sees (SPEC §17, issue 14): the answer alone on one stream, thinking dim, one
// readable line per tool call and a status per result, diffs, retries announced, colours only
// where the stream is a terminal, foreign control characters made visible.
import { expect, test } from "bun:test";
import type { AgentEvent } from "../../src/kernel/output.ts";
import { createTerminalOutput, type TerminalOptions } from "../../src/ui/terminal.ts";

interface Opts extends TerminalOptions {
  color?: boolean;
  tty?: boolean;
  same?: boolean;
  columns?: number;
}

function render(events: AgentEvent[], o: Opts = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const tty = o.tty ?? o.color ?? false;
  const answer = { write: (t: string) => void out.push(t), color: o.color ?? false, tty, columns: () => o.columns ?? 0 };
  const info = o.same ? answer : { write: (t: string) => void err.push(t), color: o.color ?? false, tty, columns: () => o.columns ?? 0 };
  const terminal = createTerminalOutput(answer, info, { maxRetries: 5, ...o });
  for (const e of events) terminal.emit(e);
  terminal.stopSpinner();
  return { out: out.join(""), err: err.join("") };
}

const usage = { input_tokens: 1, output_tokens: 1, cache_read_tokens: 0, cache_write_tokens: 0, reasoning_tokens: 0, cache_hit_share: 0 };
const done: AgentEvent = { type: "done", stop_reason: "end", turns: 2, usage };
const run: AgentEvent[] = [
  { type: "turn_start", turn: 1 },
  { type: "thinking_delta", text: "Let me check" },
  { type: "thinking_delta", text: " the file." },
  { type: "text_delta", text: "Looking" },
  { type: "tool_call", id: "c1", name: "read_file", arguments: '{"path":"a.ts"}' },
  { type: "tool_result", id: "c1", name: "read_file", ok: true, output: "1\tconst a = 1;\n2\tconst b = 2;" },
  { type: "retry", attempt: 2, delay_ms: 4000, error: "rate limited (429): slow down" },
  { type: "turn_start", turn: 2 },
  { type: "text_delta", text: "Done." },
  done,
];

test("-p to a pipe: stdout carries only the final answer; narration, tools and thinking go to stderr", () => {
  const { out, err } = render(run);
  expect(out).toBe("Done.\n");
  expect(err).toBe("thinking: Let me check the file.\nLooking\nread a.ts\n  ✓ 2 lines\nretrying in 4 s (2/5): rate limited (429): slow down\n");
});

test("-p to a pipe: successive turns' narration never runs together", () => {
  const turn = (n: number, said: string): AgentEvent[] => [
    { type: "turn_start", turn: n },
    { type: "text_delta", text: said },
    { type: "tool_call", id: `c${n}`, name: "bash", arguments: '{"command":"ls"}' },
    { type: "tool_result", id: `c${n}`, name: "bash", ok: true, output: "a\n[exit code 0]" },
  ];
  const { out, err } = render([...turn(1, "First."), ...turn(2, "Second."), { type: "turn_start", turn: 3 }, { type: "text_delta", text: "Answer." }, done]);
  expect(out).toBe("Answer.\n");
  expect(err).toBe("First.\n$ ls\n  ✓ 1 line of output\n    a\nSecond.\n$ ls\n  ✓ 1 line of output\n    a\n");
});

test("-p on a terminal: the answer streams to stdout as it comes", () => {
  const { out } = render(run, { tty: true });
  expect(out).toBe("Looking\nDone.\n");
});

test("REPL: one stream, thinking separated from the answer by a blank line, and marked where it cannot be dim (NO_COLOR)", () => {
  const { out } = render(run, { same: true });
  expect(out).toBe("thinking: Let me check the file.\n\nLooking\nread a.ts\n  ✓ 2 lines\nretrying in 4 s (2/5): rate limited (429): slow down\nDone.\n");
});

test("on a terminal thinking is dim, a failed command red with its first error line", () => {
  const { err } = render(
    [
      { type: "turn_start", turn: 1 },
      { type: "thinking_delta", text: "hmm" },
      { type: "tool_call", id: "c", name: "bash", arguments: '{"command":"ls nope"}' },
      { type: "tool_result", id: "c", name: "bash", ok: false, output: "[stderr]\nls: nope: No such file\n[exit code 1]" },
      { type: "text_delta", text: "x" },
    ],
    { color: true },
  );
  expect(err).toContain("\x1b[2mhmm\x1b[0m"); // dim says it: no word before it
  expect(err).not.toContain("thinking:");
  expect(err).toContain("\x1b[1m$ ls nope\x1b[0m\n");
  expect(err).toContain("\x1b[31m✗\x1b[0m \x1b[31mexit 1: ls: nope: No such file\x1b[0m\n");
});

test("while a summary request runs the spinner says so, then goes back to waiting for the turn's own request", () => {
  let t = 0;
  const { err } = render(
    [
      { type: "turn_start", turn: 3 },
      { type: "summarizing" },
      { type: "compaction", kind: "summary", from_id: "a", to_id: "b", summary: "s", tokens_before: 45_092, tokens_after: 14_797 },
    ],
    { tty: true, color: false, now: () => (t += 1500) },
  );
  const [during, after] = err.split("context: summarized older work");
  expect(during).toContain("⠋ summarizing the conversation… ");
  expect(after).toMatch(/⠋ working… \ds/);
});

test("/compact's summary (no turn around it) shows a spinner that says Esc cancels it, and its compaction line ends it", () => {
  let t = 0;
  const { err } = render(
    [{ type: "summarizing" }, { type: "compaction", kind: "summary", from_id: "a", to_id: "b", summary: "s", tokens_before: 45_092, tokens_after: 14_797 }],
    { tty: true, color: false, now: () => (t += 1500), cancelKey: "Esc" },
  );
  const [during, after] = err.split("context: summarized older work");
  expect(during).toContain("⠋ summarizing the conversation (Esc cancels)… ");
  expect(after).not.toContain("working…"); // no request of a turn follows
});

test("`hey -p /compact`'s spinner names no key: a one-shot run reads none (x122: it said Esc cancels)", () => {
  const { err } = render([{ type: "summarizing" }], { tty: true, color: false, now: () => 1500 });
  expect(err).toContain("⠋ summarizing the conversation… ");
  expect(err).not.toContain("cancels");
});

test("a spinner with elapsed seconds runs while the model or a tool is awaited, plain under NO_COLOR", () => {
  let t = 0;
  const { err } = render(
    [
      { type: "turn_start", turn: 1 },
      { type: "tool_call", id: "c", name: "bash", arguments: '{"command":"sleep 3"}' },
    ],
    { tty: true, color: false, now: () => (t += 1500) },
  );
  expect(err).toContain("⠋ working… ");
  expect(err).toMatch(/⠋ running… \ds/);
  expect(err).not.toContain("\x1b[2m");
});

test("a retry's spinner counts down to the retry, then counts the wait for the answer", () => {
  const err: string[] = [];
  let t = 0;
  const info = { write: (s: string) => void err.push(s), color: false, tty: true, columns: () => 80 };
  const terminal = createTerminalOutput({ ...info, write: () => {} }, info, { maxRetries: 5, now: () => t });
  terminal.emit({ type: "turn_start", turn: 1 });
  terminal.emit({ type: "retry", attempt: 1, delay_ms: 4000, error: "rate limited (429): slow down" });
  const frames: string[] = [];
  for (const at of [0, 1000, 2500, 3900, 4000, 6100]) {
    t = at;
    err.length = 0;
    terminal.notice("."); // draws the spinner again at `t`
    frames.push(
      err
        .join("")
        .split("\n")
        .at(-1)!
        .replace(/^\r\x1b\[K/, ""),
    );
  }
  terminal.stopSpinner();
  expect(frames).toEqual([
    "⠋ retrying in 4s",
    "⠋ retrying in 3s",
    "⠋ retrying in 2s",
    "⠋ retrying in 1s",
    "⠋ waiting for the model… 0s",
    "⠋ waiting for the model… 2s",
  ]);
});

test("each compaction line says how the context shrank, in grouped digits: a trim's too", () => {
  const { err } = render([
    { type: "compaction", kind: "trim", tokens_before: 41230, tokens_after: 39870 },
    { type: "compaction", kind: "trim", tokens_before: 5200, tokens_after: 3900, error: "the summary request failed" },
    { type: "compaction", kind: "window", window: 16000, error: "too long", tokens_before: 20100, tokens_after: 15000 },
  ]);
  expect(err.trimEnd().split("\n")).toEqual([
    "context: older messages left out to fit the budget (~41,230 → ~39,870 tokens)",
    "context: older messages left out to fit the budget (~5,200 → ~3,900 tokens); the summary request failed",
    "context: the model's window is about 16,000 tokens; the request was cut to fit (~20,100 → ~15,000 tokens) and sent again",
  ]);
});

test("no spinner where nobody watches", () => {
  expect(render([{ type: "turn_start", turn: 1 }, { type: "text_delta", text: "a" }, done]).err).toBe("");
});

test("an edit shows its diff in colour; a write its diff against the file before", () => {
  const { err } = render(
    [
      { type: "tool_call", id: "e", name: "edit", arguments: '{"path":"a.py","old_string":"a - b","new_string":"a + b"}' },
      {
        type: "tool_result",
        id: "e",
        name: "edit",
        ok: true,
        output: "edited a.py: 1 replacement\n@@ -1,2 +1,2 @@\n def add(a, b):\n-    return a - b\n+    return a + b",
      },
    ],
    { color: true },
  );
  expect(err).toContain("\x1b[1medit a.py\x1b[0m");
  expect(err).toContain("\x1b[31m    -    return a - b\x1b[0m\n");
  expect(err).toContain("\x1b[32m    +    return a + b\x1b[0m\n");
  const w = render(
    [
      { type: "tool_call", id: "w", name: "write_file", arguments: '{"path":"n.md","content":"one\\nTWO\\n"}' },
      { type: "tool_start", id: "w" },
      { type: "tool_result", id: "w", name: "write_file", ok: true, output: "overwrote n.md (2 lines, 8 bytes)" },
    ],
    { readBefore: (p) => (p === "n.md" ? "one\ntwo\n" : undefined) },
  );
  expect(w.err).toBe("write n.md (2 lines)\n  ✓ overwrote\n    @@ -1,2 +1,2 @@\n     one\n    -two\n    +TWO\n");
});

test("control characters from the model and from tools are made visible; hey's own styles stay", () => {
  const { out, err } = render(
    [
      { type: "text_delta", text: "hi\x1b]0;owned\x07" },
      { type: "tool_call", id: "c", name: "bash", arguments: '{"command":"printf \\"\\u001b[2J\\""}' },
      { type: "tool_result", id: "c", name: "bash", ok: false, output: "\x1b[8mhidden\n[exit code 1]" },
      done,
    ],
    { same: true },
  );
  expect(out).not.toContain("\x1b");
  expect(out).toContain("hi^[]0;owned^G");
  expect(out).toContain('$ printf "^[[2J"');
  expect(out).toContain("✗ exit 1: ^[[8mhidden");
  expect(err).toBe("");
});

test("a write's diff shows the model's content and the file's old text with controls made visible", () => {
  const { err } = render(
    [
      { type: "tool_call", id: "w", name: "write_file", arguments: JSON.stringify({ path: "t.txt", content: "\x1b]52;c;cGF5bG9hZA==\x07new\n" }) },
      { type: "tool_start", id: "w" },
      { type: "tool_result", id: "w", name: "write_file", ok: true, output: "overwrote t.txt (1 line, 20 bytes)" },
    ],
    { readBefore: () => "\x1b[2Jold\n" },
  );
  expect(err).not.toContain("\x1b");
  expect(err).toContain("-^[[2Jold");
  expect(err).toContain("+^[]52;c;cGF5bG9hZA==^Gnew");
});

test("an error is followed by the hint for it", () => {
  const { err } = render([{ type: "error", kind: "network", message: "connection refused" }], {
    hint: (e) => (e.kind === "network" ? "start Ollama" : undefined),
  });
  expect(err).toBe("error: connection refused\nstart Ollama\n");
});

test("an answer the user interrupted says so, not as an error", () => {
  expect(render([{ type: "error", kind: "interrupted", message: "interrupted by user" }]).err).toBe("interrupted by user\n");
});

test("an answer cut at the token limit and a max-turns stop are said", () => {
  expect(
    render(
      [
        { type: "text_delta", text: "The ans" },
        { type: "error", kind: "length", message: "the answer was cut off: the model reached its output token limit" },
        { type: "done", stop_reason: "length", turns: 1, usage },
      ],
      { hint: (e) => (e.kind === "length" ? "raise max_tokens in [provider.p] of /c.toml (now 64)" : undefined) },
    ).err,
  ).toBe("the answer was cut off: the model reached its output token limit\nraise max_tokens in [provider.p] of /c.toml (now 64)\n");
});

test("a file written twice in one batch: each write's diff is against the file as that call found it", () => {
  const disk = new Map<string, string>(); // same.txt as the calls leave it
  const ran = (text: string) => () => void disk.set("same.txt", text);
  const result = (id: string, name: string, output: string): AgentEvent => ({ type: "tool_result", id, name, ok: true, output });
  const steps: (AgentEvent | (() => void))[] = [
    // all calls are announced before any runs; then they run in call order (one path)
    { type: "tool_call", id: "w1", name: "write_file", arguments: '{"path":"same.txt","content":"first\\n"}' },
    { type: "tool_call", id: "e", name: "edit", arguments: '{"path":"same.txt","old_string":"first","new_string":"second"}' },
    { type: "tool_call", id: "w2", name: "write_file", arguments: '{"path":"./same.txt","content":"third\\n"}' },
    { type: "tool_start", id: "w1" },
    ran("first\n"),
    { type: "tool_start", id: "e" },
    ran("second\n"),
    { type: "tool_start", id: "w2" },
    ran("third\n"),
    result("w1", "write_file", "created same.txt"),
    result("e", "edit", "edited same.txt: 1 replacement"),
    result("w2", "write_file", "overwrote same.txt"),
  ];
  const err: string[] = [];
  const info = { write: (t: string) => void err.push(t), color: false, tty: false };
  const terminal = createTerminalOutput(info, info, { readBefore: (p) => disk.get(p.replace(/^\.\//, "")) });
  for (const step of steps) typeof step === "function" ? step() : terminal.emit(step);
  const shown = err.join("");
  expect(shown).toContain("  ✓ write same.txt (1 line): created\n    @@ -1,0 +1,1 @@\n    +first\n");
  expect(shown).toContain("  ✓ write ./same.txt (1 line): overwrote\n    @@ -1,1 +1,1 @@\n    -second\n    +third\n"); // not +third against an empty file
});

test("a run that ends without a final answer after working with tools says so in one line; an answered one does not", () => {
  const worked: AgentEvent[] = [
    { type: "turn_start", turn: 1 },
    { type: "text_delta", text: "Fixing it." },
    { type: "tool_call", id: "c1", name: "bash", arguments: '{"command":"true"}' },
    { type: "tool_result", id: "c1", name: "bash", ok: true, output: "" },
    { type: "turn_start", turn: 2 },
    { type: "thinking_delta", text: "done" },
    done,
  ];
  expect(render(worked).err).toEndWith("the model ended without a final answer; its work is above\n");
  expect(render(run).err).not.toContain("without a final answer");
});

test("a notice while the spinner runs gets a line of its own, and the spinner goes on under it, its seconds still counting", () => {
  const err: string[] = [];
  let t = 0;
  const info = { write: (s: string) => void err.push(s), color: false, tty: true, columns: () => 80 };
  const terminal = createTerminalOutput({ ...info, write: () => {} }, info, { maxRetries: 5, now: () => (t += 1000) });
  terminal.emit({ type: "turn_start", turn: 1 });
  terminal.notice("connected: everything (13 tools)");
  terminal.stopSpinner();
  const text = err.join("");
  // the spinner's line is cleared before the notice, which ends with its own newline
  expect(text).toMatch(/⠋ working… \ds\r\x1b\[Kconnected: everything \(13 tools\)\n/);
  expect(text).not.toMatch(/\dsconnected/);
  // after it, the same wait is drawn again, counting from when it began
  expect(text.split("connected: everything (13 tools)\n")[1]).toMatch(/^(\r\x1b\[K)?⠋ working… [2-9]s/);
});

test("-p with stdout redirected and stderr on a terminal: while the answer streams to stdout, stderr says it is being written", () => {
  const out: string[] = [];
  const err: string[] = [];
  let t = 0;
  const answer = { write: (s: string) => void out.push(s), color: false, tty: false, columns: () => 0 };
  const info = { write: (s: string) => void err.push(s), color: false, tty: true, columns: () => 80 };
  const terminal = createTerminalOutput(answer, info, { maxRetries: 5, now: () => (t += 1000) });
  const first: AgentEvent[] = [
    { type: "turn_start", turn: 1 },
    { type: "text_delta", text: "Reading it." },
    { type: "tool_call", id: "c1", name: "bash", arguments: '{"command":"ls"}' },
    { type: "tool_result", id: "c1", name: "bash", ok: true, output: "a\n[exit code 0]" },
  ];
  for (const e of [...first, { type: "turn_start", turn: 2 }, { type: "text_delta", text: "The " }, { type: "text_delta", text: "answer." }] as AgentEvent[])
    terminal.emit(e);
  expect(err.join("")).toMatch(/⠋ writing… \ds$/); // the spinner says the answer is coming
  terminal.emit(done);
  expect(out.join("")).toBe("The answer.\n");
  const shown = err.join("");
  expect(shown).toContain("Reading it.\n$ ls\n"); // narration on its own line, not after a spinner frame
  expect(shown).not.toMatch(/\dsReading/);
});

test("a status line is cut to the terminal's width as the lines under it are; with no width (a pipe), at 160 characters", () => {
  const tools = Array.from({ length: 30 }, (_, i) => `server_tool_${i}`).join(", ");
  const events: AgentEvent[] = [
    { type: "turn_start", turn: 1 },
    { type: "tool_call", id: "c1", name: "nosuchtool", arguments: "{}" },
    { type: "tool_result", id: "c1", name: "nosuchtool", ok: false, output: `unknown tool "nosuchtool"; available: ${tools}` },
    { type: "turn_start", turn: 2 },
    { type: "tool_call", id: "c2", name: "bash", arguments: '{"command":"make"}' },
    { type: "tool_result", id: "c2", name: "bash", ok: false, output: `[stderr]\n${"E".repeat(300)}\n[exit code 2]` },
    done,
  ];
  // the lines as they stay on screen: a spinner's frames are cleared before each
  const lines = (err: string) => err.split("\n").map((l) => l.replace(/^[^]*\r\x1b\[K/, ""));
  const statuses = (err: string) => lines(err).filter((l) => l.startsWith("  ✗ "));
  const wide = render(events, { tty: true, columns: 120 }).err;
  expect(statuses(wide)).toEqual([
    expect.stringMatching(/^ {2}✗ unknown tool "nosuchtool"; available: server_tool_0, .*…$/),
    expect.stringMatching(/^ {2}✗ exit 2: E+…$/),
  ]);
  for (const line of [...statuses(wide), ...lines(wide).filter((l) => l.startsWith("    E"))]) expect(line).toHaveLength(120);
  expect(statuses(render(events).err).map((l) => l.length)).toEqual(["  ✗ ".length + 160, "  ✗ ".length + 160]);
});

test("an MCP call's progress shows on the spinner line, its seconds counting from the call's start, cut to one row", () => {
  const err: string[] = [];
  let t = 0;
  const info = { write: (s: string) => void err.push(s), color: false, tty: true, columns: () => 40 };
  const terminal = createTerminalOutput({ ...info, write: () => {} }, info, { maxRetries: 5, now: () => t });
  terminal.emit({ type: "turn_start", turn: 1 });
  terminal.emit({ type: "tool_call", id: "c", name: "index", arguments: "{}", server: "search" });
  t = 3_000;
  terminal.emit({ type: "tool_start", id: "c" });
  terminal.emit({ type: "tool_progress", id: "c", note: "2/5" });
  const step = err.join("").split("\r\x1b[K").at(-1);
  terminal.emit({ type: "tool_progress", id: "c", note: "3/5 reading a very long list of files under src/" });
  const long = err.join("").split("\r\x1b[K").at(-1);
  terminal.stopSpinner();
  expect(step).toBe("⠋ running… 2/5 3s");
  expect(long).toBe("⠋ running… 3/5 reading a very long list…"); // 40 columns
});

test("a running command's last lines show above the spinner, cut to one row each, and go when its result is shown", () => {
  const err: string[] = [];
  const info = { write: (s: string) => void err.push(s), color: false, tty: true, columns: () => 20 };
  const terminal = createTerminalOutput({ ...info, write: () => {} }, info, { maxRetries: 5, now: () => 0 });
  terminal.emit({ type: "turn_start", turn: 1 });
  terminal.emit({ type: "tool_call", id: "c", name: "bash", arguments: '{"command":"make"}' });
  err.length = 0;
  terminal.emit({ type: "tool_output", id: "c", lines: ["cc -c main.c", "warning\x07 in a very long line"] });
  expect(err.join("")).toBe("\r\x1b[K    cc -c main.c\n    warning^G in a …\n\r\x1b[K⠙ running… 0s");
  err.length = 0;
  terminal.emit({ type: "tool_output", id: "c", lines: ["ld main.o"] });
  expect(err.join("")).toBe("\r\x1b[2A\r \x1b[J\r\x1b[K    ld main.o\n\r\x1b[K⠹ running… 0s"); // the two rows redrawn in place
  err.length = 0;
  terminal.emit({ type: "tool_result", id: "c", name: "bash", ok: true, output: "[exit code 0]" });
  terminal.stopSpinner();
  expect(err.join("").startsWith("\r\x1b[1A\r \x1b[J\r\x1b[K  ✓ ")).toBe(true); // the live row goes, the result takes its place
  expect(err.join("")).not.toContain("ld main.o");
});

test("a running command's live line is cut to 80 columns where the terminal does not say its width: a wrapped row would be left behind", () => {
  const err: string[] = [];
  const info = { write: (s: string) => void err.push(s), color: false, tty: true, columns: () => 0 };
  const terminal = createTerminalOutput({ ...info, write: () => {} }, info, { maxRetries: 5, now: () => 0 });
  terminal.emit({ type: "tool_call", id: "c", name: "bash", arguments: '{"command":"make"}' });
  err.length = 0;
  terminal.emit({ type: "tool_output", id: "c", lines: ["x".repeat(200)] });
  terminal.stopSpinner();
  const row = err.join("").split("\n")[0]!.replace("\r\x1b[K", "");
  expect(row).toBe(`    ${"x".repeat(75)}…`);
});

test("commands side by side each show their live lines under their own line, not one in place of the other", () => {
  const err: string[] = [];
  const info = { write: (s: string) => void err.push(s), color: false, tty: true, columns: () => 40 };
  const terminal = createTerminalOutput({ ...info, write: () => {} }, info, { maxRetries: 5, now: () => 0 });
  terminal.emit({ type: "turn_start", turn: 1 });
  terminal.emit({ type: "tool_call", id: "a", name: "bash", arguments: '{"command":"npm test"}' });
  terminal.emit({ type: "tool_call", id: "b", name: "bash", arguments: '{"command":"cargo build"}' });
  const shown = () => {
    const last = err.join("").split("\x1b[J").at(-1)!; // what the last redraw drew
    return last
      .split("\n")
      .map((l) => l.replace(/^\r\x1b\[K/, ""))
      .slice(0, -1); // the spinner's row last
  };
  terminal.emit({ type: "tool_output", id: "a", lines: ["a1", "a2", "a3", "a4", "a5"] });
  terminal.emit({ type: "tool_output", id: "b", lines: ["Compiling foo", "Compiling bar"] });
  expect(shown()).toEqual(["$ npm test", "    a3", "    a4", "    a5", "$ cargo build", "    Compiling foo", "    Compiling bar"]);
  terminal.emit({ type: "tool_result", id: "a", name: "bash", ok: true, output: "a5\n[exit code 0]" });
  terminal.emit({ type: "tool_output", id: "b", lines: ["Compiling bar", "Finished"] });
  expect(shown()).toEqual(["    Compiling bar", "    Finished"]); // alone again: its lines only
  terminal.emit({ type: "tool_call", id: "c", name: "read_file", arguments: '{"path":"a.txt"}' });
  terminal.emit({ type: "tool_output", id: "b", lines: ["Finished", "Running tests"] });
  expect(shown()).toEqual(["$ cargo build", "    Finished", "    Running tests"]); // another call still runs: whose they are
  terminal.stopSpinner();
});

test("at 60 columns: a batch's failed status keeps its exit code and error, the call's label is what is cut; a long diff line is cut with … under its marker", () => {
  const command = "echo this is the output line; echo this is an error line >&2; exit 3";
  const { err } = render(
    [
      { type: "tool_call", id: "r", name: "read_file", arguments: '{"path":"src/calc.py"}' },
      { type: "tool_call", id: "b", name: "bash", arguments: JSON.stringify({ command }) },
      { type: "tool_result", id: "r", name: "read_file", ok: true, output: "1\tdef add(a, b):\n2\t    return a + b" },
      { type: "tool_result", id: "b", name: "bash", ok: false, output: "this is the output line\n[stderr]\nthis is an error line\n[exit code 3]" },
      { type: "tool_call", id: "e", name: "edit", arguments: '{"path":"src/calc.py","old_string":"a + b","new_string":"x"}' },
      {
        type: "tool_result",
        id: "e",
        name: "edit",
        ok: true,
        output: `edited src/calc.py: 1 replacement\n@@ -1,2 +1,2 @@\n def add(a, b):\n-    return a + b\n+    return ${"a_rather_long_name + ".repeat(4)}b`,
      },
    ],
    { tty: true, columns: 60 },
  );
  const rows = err.split("\n").map((row) => row.split("\x1b[K").at(-1)!); // each row as left after the spinner's line is cleared
  expect(rows).toContain("  ✗ $ echo this is the outpu…: exit 3: this is an error line");
  expect(rows).toContain("  ✓ read src/calc.py: 2 lines");
  expect(rows).toContain("    +    return a_rather_long_name + a_rather_long_name + a…");
  for (const row of rows) expect(Bun.stringWidth(row)).toBeLessThanOrEqual(60);
});

test("a call the model repeated in its reply shows once: no line per copy, its result line says how often it was asked for", () => {
  const command = '{"command":"echo line >> log.txt"}';
  const copies = Array.from({ length: 19 }, (_, i) => `c${i + 1}`);
  const { err } = render([
    { type: "turn_start", turn: 1 },
    { type: "tool_call", id: "c0", name: "bash", arguments: command },
    ...copies.map((id): AgentEvent => ({ type: "tool_call", id, name: "bash", arguments: command, same_as: "c0" })),
    { type: "tool_result", id: "c0", name: "bash", ok: true, output: "(no output)\n[exit code 0]" },
    ...copies.map(
      (id): AgentEvent => ({
        type: "tool_result",
        id,
        name: "bash",
        ok: true,
        output: "same call as the 1st in this reply: not run again; its result is above",
      }),
    ),
    done,
  ]);
  expect(err.match(/echo line/g)).toHaveLength(1);
  expect(err).toContain("✓ no output (asked for 20 times in one reply; run once)");
  expect(err).not.toContain("same call as");
});
