// Ctrl-G and Ctrl-X Ctrl-E at the prompt (as Claude Code's and Codex's Ctrl-G, bash's Ctrl-X Ctrl-E):
// the line goes to the user's $VISUAL or $EDITOR and what it leaves comes back as the line, unsent,
// the cursor at its end; no editor set, or one that fails, is said and the line kept. In a history
// search Ctrl-G still gives the line back.
import { afterAll, expect, test } from "bun:test";
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { editText } from "../../src/ui/external-editor.ts";
import { parseKeys, type Key, type KeyName } from "../../src/ui/keys.ts";
import { initialRepl, step, type Effect, type ReplEvent, type ReplState } from "../../src/ui/repl-state.ts";
import { tempDir } from "../helpers/e2e.ts";

const key = (name: KeyName): ReplEvent => ({ type: "key", key: { type: "key", name }, more: false, now: 0 });
const typed = (t: string): ReplEvent => ({ type: "key", key: { type: "text", text: t } as Key, more: false, now: 0 });

function play(events: ReplEvent[], state: ReplState = initialRepl([])): { state: ReplState; effects: Effect[] } {
  const effects: Effect[] = [];
  for (const e of events) {
    const next = step(state, e);
    state = next.state;
    effects.push(...next.effects);
  }
  return { state, effects };
}

test("Ctrl-G and Ctrl-X are keys of their own", () => {
  expect(parseKeys("\x07").keys).toEqual([{ type: "key", name: "cancel" }]);
  expect(parseKeys("\x18\x05").keys).toEqual([
    { type: "key", name: "ctrlX" },
    { type: "key", name: "end" },
  ]);
});

test.each([
  ["Ctrl-G", [key("cancel")]],
  ["Ctrl-X Ctrl-E", [key("ctrlX"), key("end")]],
])("%s opens the line in the editor; what it leaves is the line, unsent, the cursor at its end", (_name, keys) => {
  const opened = play([typed("long prompt draft"), ...keys]);
  expect(opened.effects).toEqual([{ type: "draw" }, { type: "edit", text: "long prompt draft" }]);
  // the editor has the keys meanwhile: a notice waits for it to close
  const back = play(
    [
      { type: "aside", line: "mcp: fs connected" },
      { type: "edited", text: "long prompt, written out\nwith a second line\n" },
    ],
    opened.state,
  );
  expect(back.state.mode).toBe("prompt");
  expect(back.state.editor).toMatchObject({ text: "long prompt, written out\nwith a second line", cursor: 43 });
  expect(back.effects).toEqual([
    { type: "print", text: "mcp: fs connected" },
    { type: "draw", fresh: true },
  ]);
});

test("Ctrl-X then another key: the key acts as ever; Ctrl-E alone goes to the end", () => {
  const { state, effects } = play([typed("ab"), key("home"), key("ctrlX"), typed("x"), key("end")]);
  expect(state.editor).toMatchObject({ text: "xab", cursor: 3 });
  expect(effects.some((e) => e.type === "edit")).toBe(false);
});

test("no editor, or one that fails: said, and the line is as it was", () => {
  const opened = play([typed("draft"), key("cancel")]);
  const back = play([{ type: "edited", text: undefined, why: "no editor set" }], opened.state);
  expect(back.state).toMatchObject({ mode: "prompt", editor: { text: "draft", cursor: 5 } });
  expect(back.effects).toEqual([
    { type: "print", text: "no editor set", dim: true },
    { type: "draw", fresh: true },
  ]);
});

test("in a history search Ctrl-G gives the line back, and opens no editor", () => {
  const { state, effects } = play([typed("draft"), key("reverseSearch"), typed("x"), key("cancel")], initialRepl(["fix x"]));
  expect(state).toMatchObject({ mode: "prompt", editor: { text: "draft" } });
  expect(effects.some((e) => e.type === "edit")).toBe(false);
});

test("during a turn Ctrl-G opens nothing", () => {
  const busy = play([typed("go"), key("enter")]).state;
  expect(play([key("cancel")], busy).effects).toEqual([]);
});

const dir = tempDir("hey-editor-");
afterAll(() => dir.remove());
const script = (name: string, body: string) => {
  const path = join(dir.path, name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
};

test("the editor gets the line in a file and what it writes comes back; $VISUAL before $EDITOR", async () => {
  const log = join(dir.path, "called");
  const visual = script("visual", `cat "$1" > ${log}; printf ' and more\\n' >> "$1"`);
  const edited = await editText("long prompt draft", { PATH: process.env.PATH, VISUAL: visual, EDITOR: script("editor", "exit 3") });
  expect(edited).toEqual({ text: "long prompt draft\n and more\n" });
  expect(readFileSync(log, "utf8")).toBe("long prompt draft\n");
});

test("an editor command with words (code --wait) runs through the shell", async () => {
  const editor = `${script("with-args", `[ "$1" = --wait ] && printf done > "$2"`)} --wait`;
  expect(await editText("x", { PATH: process.env.PATH, EDITOR: editor })).toEqual({ text: "done" });
});

test.each([
  [{}, "no editor set: export VISUAL or EDITOR"],
  [{ EDITOR: "no-such-editor-here" }, "the editor no-such-editor-here was not found: the line is as it was"],
  [{ EDITOR: "false" }, "the editor false exited with code 1: the line is as it was"],
])("%p: said, no text", async (env, why) => {
  const edited = await editText("draft", { PATH: process.env.PATH, ...env });
  expect(edited.text).toBeUndefined();
  expect("why" in edited && edited.why).toContain(why);
});

test("a folded paste goes to the editor whole", () => {
  const pasted = Array.from({ length: 20 }, (_, i) => `line ${i}`).join("\n");
  const paste: ReplEvent = { type: "key", key: { type: "paste", text: pasted }, more: false, now: 0 };
  const { state, effects } = play([typed("review: "), paste, key("cancel")]);
  expect(state.editor.text).not.toContain("line 5"); // folded in the line as drawn
  expect(effects.at(-1)).toEqual({ type: "edit", text: `review: ${pasted}` });
});
