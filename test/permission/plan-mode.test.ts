// Plan mode's narrowing (permission/plan-mode.ts): what only reads runs, what may change things is
// refused with plan mode's reason; off, it judges nothing; the user's own lists are asked first
// (wire.ts), so it can only narrow them. And the note the model gets when the mode changes.
import { describe, expect, test } from "bun:test";
import { createPlanMode, planNote, withPlanNote } from "../../src/permission/plan-mode.ts";
import { PLAN_OFF, PLAN_ON } from "../../src/kernel/user-notes.ts";
import { permissionCheck } from "../../src/permission-check.ts";
import { userMessage, type Message } from "../../src/kernel/ir.ts";

const on = createPlanMode(true);
const judged = (tool: string, args: Record<string, unknown>) => on.check(tool, args, "bash");

describe("in plan mode", () => {
  test.each([
    ["read_file", { path: "src/a.ts" }],
    ["grep", { pattern: "TODO" }],
    ["find_tools", { query: "github" }],
    ["compress", {}],
    ["bash", { command: "ls -la src" }],
    ["bash", { command: "cat README.md | head -20" }],
    ["bash", { command: "git status && git diff HEAD~1 -- src" }],
    ["bash", { command: "git log --oneline -5 2>/dev/null" }],
    ["bash", { command: "rg -n 'fn main' src | wc -l" }],
    ["bash", { command: "find . -name '*.ts' -newer package.json" }],
    ["bash", { command: "git branch -a" }],
  ])("%s %j runs", (tool, args) => {
    expect(judged(tool, args)).toBeUndefined();
  });

  test.each([
    ["write_file", { path: "a.txt", content: "x" }, "write_file may change things"],
    ["edit", { path: "a.txt", old_string: "x", new_string: "y" }, "edit may change things"],
    ["github_create_issue", { title: "x" }, "github_create_issue may change things"],
    ["bash", { command: "rm -rf build" }, "`rm -rf build` may change things"],
    ["bash", { command: "npm install" }, "`npm install` may change things"],
    ["bash", { command: "cat a.txt > b.txt" }, "`cat a.txt > b.txt`"],
    ["bash", { command: "ls $(touch x)" }, "`ls $(touch x)`"],
    ["bash", { command: "find . -name '*.o' -delete" }, "-delete` may change things"],
    ["bash", { command: "git branch -D old" }, "`git branch -D old`"],
    ["bash", { command: "git log --output=log.txt" }, "`git log --output=log.txt`"],
    ["bash", { command: "rg --pre=./run.sh foo" }, "`rg --pre=./run.sh foo`"],
    ["bash", { command: "rg --hostname-bin=./deploy.sh foo" }, "`rg --hostname-bin=./deploy.sh foo`"],
    ["bash", { command: "rg --hostname-bin make --hyperlink-format=default x" }, "`rg --hostname-bin make"],
    ["bash", { command: "file -C -m mymagic" }, "`file -C -m mymagic`"],
    ["bash", { command: "sed -i s/a/b/ x.txt" }, "`sed -i s/a/b/ x.txt`"],
  ])("%s %j is refused, saying plan mode is on and how to leave it", (tool, args, what) => {
    const reason = judged(tool, args);
    expect(reason).toStartWith("blocked by plan mode:");
    expect(reason).toContain(what);
    expect(reason).toEndWith("until the user turns plan mode off (Shift+Tab or /plan)");
  });

  test("an MCP tool is refused whatever its name: a server's `compress`, offered so when hey's own is off, is not hey's", () => {
    const origin = { server: "fs", name: "compress", qualified: "fs_compress" };
    expect(on.check("compress", { path: "x" }, "bash", origin)).toBe(
      "blocked by plan mode: compress (from MCP server fs) may change things; only reading and searching run until the user turns plan mode off (Shift+Tab or /plan)",
    );
    expect(on.check("read_file", { path: "x" }, "bash", { server: "fs", name: "read_file", qualified: "fs_read_file" })).toStartWith("blocked by plan mode:");
    expect(on.check("compress", {}, "bash")).toBeUndefined(); // hey's own
  });

  test("in a one-shot run, which no key takes out of plan mode, a refusal says the run is in it (--plan), not to wait for Shift+Tab", () => {
    const once = createPlanMode(true, true);
    expect(once.check("bash", { command: "touch x" }, "bash")).toBe(
      "blocked by plan mode: `touch x` may change things; this run is in plan mode (--plan): only reading and searching run",
    );
    expect(once.check("write_file", { path: "a" }, "bash")).toBe(
      "blocked by plan mode: write_file may change things; this run is in plan mode (--plan): only reading and searching run",
    );
    expect(once.check("compress", { path: "x" }, "bash", { server: "fs", name: "compress", qualified: "fs_compress" })).toEndWith(
      "this run is in plan mode (--plan): only reading and searching run",
    );
  });

  test("turned off, it refuses nothing", () => {
    const mode = createPlanMode(true);
    mode.on = false;
    expect(mode.check("write_file", { path: "a" }, "bash")).toBeUndefined();
    expect(mode.check("bash", { command: "rm -rf build" }, "bash")).toBeUndefined();
  });

  test("it never widens the user's lists: what they refuse stays refused, by their words", () => {
    const lists = permissionCheck({ allow: ["read_file"], deny: ["bash: git log *"], narrow: [] }, "bash", { cwd: "/p", home: "/h", controls: [] });
    // wire.ts: the lists first, then plan mode
    const both = (tool: string, args: Record<string, unknown>) => lists(tool, args) ?? judged(tool, args);
    expect(both("grep", { pattern: "x" })).toContain("blocked by permission rules:");
    expect(both("bash", { command: "git log -1" })).toContain("blocked by permission rules:");
    expect(both("read_file", { path: "a" })).toBeUndefined();
  });
});

describe("the model's note", () => {
  const said = (text: string): Message => ({
    ...userMessage("hi"),
    content: [
      { type: "text", text },
      { type: "text", text: "hi" },
    ],
  });
  test.each([
    [true, [], PLAN_ON],
    [false, [], undefined],
    [true, [said(PLAN_ON)], undefined],
    [false, [said(PLAN_ON)], PLAN_OFF],
    [true, [said(PLAN_ON), said(PLAN_OFF)], PLAN_ON],
    [false, [said(PLAN_ON), said(PLAN_OFF)], undefined],
  ] as [boolean, Message[], string | undefined][])("on %p after %j: %p (said only when the mode changed)", (mode, history, note) => {
    expect(planNote(mode, history)).toBe(note);
  });

  test("it goes before the user's words in their message", () => {
    expect(withPlanNote(createPlanMode(true), [], [{ type: "text", text: "plan a fix" }])).toEqual([
      { type: "text", text: PLAN_ON },
      { type: "text", text: "plan a fix" },
    ]);
    expect(withPlanNote(createPlanMode(false), [], [{ type: "text", text: "go" }])).toEqual([{ type: "text", text: "go" }]);
  });
});
