// The last exchange a resumed session shows, dim (issue 14): the question after the prompt, the
// answer rendered as a live answer is (markdown, wrap), a long answer cut to its end without losing its styles.
import { expect, test } from "bun:test";
import { userMessage, type Message } from "../../src/kernel/ir.ts";
import { sameCallResult } from "../../src/kernel/repeats.ts";
import { skillMessage } from "../../src/skills/catalog.ts";
import type { Skill } from "../../src/skills/frontmatter.ts";
import { banner, lastExchange, resumeChoices } from "../../src/ui/intro.ts";

const said = (text: string): Message => ({ id: "a", role: "assistant", content: [{ type: "text", text }] });
const format = (color: boolean, columns = 0) => ({ color, columns, stringWidth: (t: string) => [...t].length });

test("the answer's markdown is rendered, and the whole exchange is dim: the dim is set again after each style that ends it", () => {
  const shown = lastExchange([userMessage("what is it?"), said("It is **Paris**, see `map.txt`.")], "› ", format(true));
  expect(shown).toBe("\x1b[2m› what is it?\x1b[0m\n\x1b[2mIt is \x1b[1mParis\x1b[22m\x1b[2m, see \x1b[36mmap.txt\x1b[39m.\x1b[0m\n");
});

test("without colour the answer is as written, wrapped at the terminal's width", () => {
  expect(lastExchange([userMessage("q"), said("one two three **four**")], "› ", format(false, 10))).toBe("› q\none two\nthree\n**four**\n");
});

test("a long answer shows its last lines; lines inside a code fence opened before the cut stay code", () => {
  const code = "Here:\n```\n" + Array.from({ length: 20 }, (_, i) => `line ${i}`).join("\n") + "\n```\nDone.";
  const lines = lastExchange([userMessage("show me"), said(code)], "› ", format(true)).split("\n");
  expect(lines[1]).toBe("\x1b[2m…\x1b[0m");
  expect(lines[2]).toBe("\x1b[2m\x1b[36mline 10\x1b[39m\x1b[0m"); // styled as code (and dim), no ``` shown as text
  expect(lines.at(-2)).toBe("\x1b[2mDone.\x1b[0m");
  expect(lines).toHaveLength(1 + 1 + 12 + 1);
});

test("a long question (a paste, then what the user asked of it) shows its start and its last line", () => {
  const paste = Array.from({ length: 200 }, (_, i) => `log line ${i}`).join("\n");
  expect(lastExchange([userMessage(`${paste}\nwhy does it fail?`), said("A typo.")], "› ", format(false))).toBe(
    "› log line 0\n  log line 1\n  …\n  why does it fail?\nA typo.\n",
  );
});

test("a resumed history's summary of earlier work is not shown as the question: the user's prompt before it is", () => {
  const summary: Message = { id: "summary-0mx1", role: "user", content: [{ type: "text", text: "[summary of earlier work]\nread the files" }] };
  const step: Message = { id: "c", role: "assistant", content: [], toolCalls: [{ id: "t1", name: "bash", arguments: "{}" }] };
  const done: Message = { id: "r", role: "tool", toolCallId: "t1", toolName: "bash", isError: false, content: [{ type: "text", text: "ok" }] };
  const shown = lastExchange([userMessage("first"), userMessage("refactor the parser"), summary, step, done, said("Refactored.")], "› ", format(false));
  expect(shown).toBe("› refactor the parser\nRefactored.\n");
});

test("the banner shows the directory under home as ~, a Windows one too", () => {
  const line = (cwd: string, home: string) => banner({ version: "1", provider: "p", model: "m", cwd, home, color: false });
  expect(line("/home/ann/app", "/home/ann")).toBe("hey 1 · p/m · ~/app · /help for commands\n");
  expect(line("C:\\Users\\ann\\app", "C:\\Users\\ann")).toBe("hey 1 · p/m · ~\\app · /help for commands\n");
  expect(line("C:\\Users\\anna", "C:\\Users\\ann")).toBe("hey 1 · p/m · C:\\Users\\anna · /help for commands\n");
});

test("/resume's choices: a session another hey has open says so before its first prompt, so it is not picked only to be refused", () => {
  const info = (id: string, firstPrompt: string) => ({ id, created: "", modified: 0, cwd: "/w", firstPrompt, size: 10, path: `/s/${id}.jsonl` });
  const rows = resumeChoices([info("a", "fix the build"), info("b", "add a test")], undefined, (s) => s.id === "a").split("\n");
  expect(rows[0]).toEndWith("  (open in another hey) fix the build");
  expect(rows[1]).toEndWith("  add a test");
});

test("a question whose turn stopped in its tools (interrupted, hey ended) says how many calls were made and the last one, not the question alone", () => {
  const called: Message = {
    id: "a1",
    role: "assistant",
    content: [],
    toolCalls: [
      { id: "c1", name: "read_file", arguments: '{"path":"src/app.ts"}' },
      { id: "c2", name: "bash", arguments: '{"command":"npm test"}' },
    ],
  };
  const result = (id: string, text: string): Message => ({ id: `r-${id}`, role: "tool", toolCallId: id, isError: true, content: [{ type: "text", text }] });
  const history = [
    userMessage("fix the test"),
    called,
    result("c1", "…"),
    result("c2", "(no output)\n[exit code 130]\n[interrupted by user; the process group was killed]"),
  ];
  expect(lastExchange(history, "› ", format(false))).toBe(
    "› fix the test\n  2 tool calls, no answer yet; the last: $ npm test ✗ stopped (interrupted by user)\n",
  );
  expect(lastExchange([userMessage("hi")], "› ", format(false))).toBe("› hi\n"); // nothing done after it: the question alone
});

test("the line of a turn stopped in its tools is word-wrapped to the terminal, under its own indent, each row dim: never cut mid-word", () => {
  const called: Message = {
    id: "a1",
    role: "assistant",
    content: [],
    toolCalls: [{ id: "c1", name: "bash", arguments: '{"command":"sleep 30; echo finished"}' }],
  };
  const stopped: Message = {
    id: "r1",
    role: "tool",
    toolCallId: "c1",
    isError: true,
    content: [{ type: "text", text: "interrupted: hey stopped before this call finished" }],
  };
  const history = [userMessage("wait"), called, stopped];
  const narrow = { ...format(false), columns: 60 };
  const rows = lastExchange(history, "› ", narrow).trimEnd().split("\n").slice(1);
  expect(rows.length).toBeGreaterThan(1);
  for (const row of rows) expect(row.length).toBeLessThanOrEqual(60);
  expect(rows.slice(1).every((r) => r.startsWith("  ") && !r.startsWith("   "))).toBe(true);
  expect(rows.map((r) => r.trim()).join(" ")).toBe(lastExchange(history, "› ", format(false)).split("\n")[1]!.trim());
  const dimmed = lastExchange(history, "› ", { ...narrow, color: true })
    .trimEnd()
    .split("\n")
    .slice(1);
  expect(dimmed.every((r) => r.startsWith("\x1b[2m") && r.endsWith("\x1b[0m"))).toBe(true);
});

test("20 identical calls in one reply ran once: the recap counts that one and shows its output, not a copy's note", () => {
  const calls = Array.from({ length: 20 }, (_, i) => ({ id: `c${i}`, name: "bash", arguments: '{"command":"npm test"}' }));
  const ran: Message = {
    id: "r0",
    role: "tool",
    toolCallId: "c0",
    toolName: "bash",
    content: [{ type: "text", text: "1 failing\n  at add.test.ts:4\n[exit code 1]" }],
    isError: true,
  };
  const copies = calls.slice(1).map(
    (c): Message => ({
      id: `r-${c.id}`,
      role: "tool",
      toolCallId: c.id,
      toolName: "bash",
      isError: true,
      content: [{ type: "text", text: sameCallResult(0) }],
    }),
  );
  const history = [userMessage("fix the test"), { id: "a1", role: "assistant", content: [], toolCalls: calls } as Message, ran, ...copies];
  expect(lastExchange(history, "› ", format(false))).toBe("› fix the test\n  1 tool call, no answer yet; the last: $ npm test ✗ exit 1: 1 failing\n");
});

test("words before a call the terminal's closing stopped: the call and how it ended follow them, not the words alone", () => {
  const said: Message = {
    id: "a1",
    role: "assistant",
    content: [{ type: "text", text: "Let me wait." }],
    toolCalls: [{ id: "c1", name: "bash", arguments: '{"command":"sleep 30"}' }],
  };
  const killed = "(no output)\n[exit code 143]\n[the terminal closed; the process group was killed]";
  const result: Message = { id: "r1", role: "tool", toolCallId: "c1", toolName: "bash", isError: true, content: [{ type: "text", text: killed }] };
  expect(lastExchange([userMessage("SLEEP for hup"), said, result], "› ", format(false))).toBe(
    "› SLEEP for hup\nLet me wait.\n  1 tool call, no answer yet; the last: $ sleep 30 ✗ stopped (the terminal closed)\n",
  );
  // stopped with Esc after the result, before the model's next word: the calls, then the stop
  const stop: Message = { id: "a3", role: "assistant", content: [{ type: "text", text: "[interrupted by the user]" }] };
  expect(lastExchange([userMessage("SLEEP for hup"), said, result, stop], "› ", format(false))).toBe(
    "› SLEEP for hup\nLet me wait.\n  1 tool call, no answer yet; the last: $ sleep 30 ✗ stopped (the terminal closed)\n[interrupted by the user]\n",
  );
  expect(lastExchange([userMessage("hi"), stop], "› ", format(false))).toBe("› hi\n[interrupted by the user]\n"); // no calls: the stop is the answer
  const answered: Message = { id: "a2", role: "assistant", content: [{ type: "text", text: "Done waiting." }] };
  expect(lastExchange([userMessage("SLEEP for hup"), said, result, answered], "› ", format(false))).toBe("› SLEEP for hup\nDone waiting.\n"); // answered: the answer alone
});

test("a question sent with /skill:NAME shows as it was typed, not as the skill's text and its <skill> lines", () => {
  const skill = { name: "deploy", path: "/p/.hey/skills/deploy/SKILL.md" } as Skill;
  const text = `${skillMessage(skill, "---\nname: deploy\n---\nSteps:\n1. build\n2. push\n3. tag", false)}\n\nto staging, quickly`;
  expect(lastExchange([userMessage(text), said("Deployed.")], "› ", format(false))).toBe("› /skill:deploy to staging, quickly\nDeployed.\n");
  expect(lastExchange([userMessage(skillMessage(skill, "Steps.", false)), said("Done.")], "› ", format(false))).toBe("› /skill:deploy\nDone.\n");
});
