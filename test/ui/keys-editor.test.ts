// The prompt's keys and editing (issue 14): raw terminal input to keys, a bracketed paste as one
// piece, Esc told from a sequence by the caller's timeout, editing, history, completion, layout.
import { expect, test } from "bun:test";
import { parseKeys, waitsForPaste } from "../../src/ui/keys.ts";
import { complete, editKey, emptyEditor, insert } from "../../src/ui/line-editor.ts";

test.each([
  ["plain text", "héllo 你好", [{ type: "text", text: "héllo 你好" }], ""],
  [
    "Enter and Ctrl-J",
    "a\rb\n",
    [
      { type: "text", text: "a" },
      { type: "key", name: "enter" },
      { type: "text", text: "b" },
      { type: "key", name: "newline" },
    ],
    "",
  ],
  ["arrows, CSI and SS3", "\x1b[A\x1bOB\x1b[C\x1b[D", ["up", "down", "right", "left"].map((name) => ({ type: "key", name })), ""],
  ["home, end, delete", "\x1b[H\x1b[4~\x1b[3~", ["home", "end", "delete"].map((name) => ({ type: "key", name })), ""],
  [
    "ctrl and alt words",
    "\x1b[1;5D\x1bf\x1b\x7f\x17",
    [
      { type: "key", name: "wordLeft" },
      { type: "key", name: "wordRight", alt: "f" },
      { type: "key", name: "deleteWordLeft", alt: "\x7f" },
      { type: "key", name: "deleteWordLeft" },
    ],
    "",
  ],
  [
    "Shift-Enter and Ctrl-Enter as terminals that tell them from Enter send them, Ctrl-Delete",
    "\x1b[13;2u\x1b[13;5u\x1b[27;2;13~\x1b[27;5;13~\x1b[3;5~",
    ["newline", "newline", "newline", "newline", "deleteWordRight"].map((name) => ({ type: "key", name })),
    "",
  ],
  ["Ctrl-C, Ctrl-D, Tab", "\x03\x04\t", ["interrupt", "eof", "tab"].map((name) => ({ type: "key", name })), ""],
  [
    "Ctrl-R, Ctrl-S, Ctrl-G, Ctrl-Z, Ctrl-Y",
    "\x12\x13\x07\x1a\x19",
    ["reverseSearch", "forwardSearch", "cancel", "suspend", "yank"].map((name) => ({ type: "key", name })),
    "",
  ],
  ["a bracketed paste is one piece, CRLF as newlines", "\x1b[200~one\r\ntwo\rthree\x1b[201~", [{ type: "paste", text: "one\ntwo\nthree" }], ""],
  [
    "a paste then another",
    "\x1b[200~one\x1b[201~\x1b[200~two\x1b[201~",
    [
      { type: "paste", text: "one" },
      { type: "paste", text: "two" },
    ],
    "",
  ],
  [
    "an end marker inside a paste is its text: the paste ends at the last one",
    "a\x1b[200~cat <<EOF\r\x1b[201~\rrm -rf build\r\x1b[201~",
    [
      { type: "text", text: "a" },
      { type: "paste", text: "cat <<EOF\n\x1b[201~\nrm -rf build\n" },
    ],
    "",
  ],
  ["text behind an end marker waits for the paste's rest", "\x1b[200~one\x1b[201~\rtw", [], "\x1b[200~one\x1b[201~\rtw"],
  ["an unfinished paste waits", "a\x1b[200~one\ntw", [{ type: "text", text: "a" }], "\x1b[200~one\ntw"],
  ["an unfinished sequence waits", "a\x1b[1;5", [{ type: "text", text: "a" }], "\x1b[1;5"],
  ["a lone ESC waits for the timeout", "\x1b", [], "\x1b"],
  [
    "ESC ESC is an Escape then the rest",
    "\x1b\x1b[A",
    [
      { type: "key", name: "escape" },
      { type: "key", name: "up" },
    ],
    "",
  ],
  ["the terminal's answer to a cursor position request", "\x1b[12;7R", [{ type: "cursorAt", row: 12, col: 7 }], ""],
  ["unknown sequences and controls are dropped", "\x1b[99Z\x0fa", [{ type: "text", text: "a" }], ""],
])("%s", (_name, input, keys, rest) => {
  expect(parseKeys(input)).toEqual({ keys: keys as never, rest });
});

test("ESC then a key that is no Alt binding is Escape then the key: Esc typed quickly before a word loses no letter", () => {
  const esc = { type: "key", name: "escape" } as const;
  expect(parseKeys("\x1bno wait\x1b\x01").keys).toEqual([esc, { type: "text", text: "no wait" }, esc, { type: "key", name: "home" }]);
  // ESC O starts a terminal's sequence only with what a terminal sends after it: "Oh" typed after Esc is text
  expect(parseKeys("\x1bOh wait\x1bOA").keys).toEqual([esc, { type: "text", text: "Oh wait" }, { type: "key", name: "up" }]);
  expect(parseKeys("\x1bO", true).keys).toEqual([esc, { type: "text", text: "O" }]); // nothing more came: Esc, then O
});

test("after the timeout a lone ESC is the Escape key", () => {
  expect(parseKeys("\x1b", true)).toEqual({ keys: [{ type: "key", name: "escape" }], rest: "" });
});

test("after the timeout, text behind a paste's end marker with no marker of its own is the paste's too: its Enter sends nothing", () => {
  expect(parseKeys("\x1b[200~one\x1b[201~\rtwo\r", true)).toEqual({ keys: [{ type: "paste", text: "one\x1b[201~\ntwo\n" }], rest: "" });
  expect(waitsForPaste("\x1b[200~one\x1b[201~\rtw")).toBe(false); // the timeout ends this wait
  expect(waitsForPaste("\x1b[200~one\rtw")).toBe(true);
});

test("editing keys", () => {
  let s = insert(emptyEditor([]), "hello big world");
  s = editKey(s, "wordLeft", []);
  expect(s.cursor).toBe(10);
  s = editKey(s, "deleteWordLeft", []);
  expect(s.text).toBe("hello world");
  s = editKey(s, "home", []);
  s = editKey(s, "delete", []);
  expect(s).toMatchObject({ text: "ello world", cursor: 0 });
  s = editKey(s, "killToEnd", []);
  expect(s.text).toBe("");
  s = editKey(insert(s, "a🙂"), "backspace", []);
  expect(s).toMatchObject({ text: "a", cursor: 1 });
});

test("word keys in Chinese and Japanese written without spaces stop at words and punctuation; other text keeps words between spaces", () => {
  const at = (text: string, keys: string[], cursor = text.length) => {
    let s = { ...insert(emptyEditor([]), text), cursor };
    for (const k of keys) s = editKey(s, k as Parameters<typeof editKey>[1], []);
    return s;
  };
  const line = "foo 日本語、テスト。 👨‍👩‍👧‍👦🇫🇷 bar";
  const where = (s: { text: string; cursor: number }) => s.text.slice(s.cursor);
  expect(where(at(line, ["wordLeft"]))).toBe("bar");
  expect(where(at(line, ["wordLeft", "wordLeft"]))).toBe("👨‍👩‍👧‍👦🇫🇷 bar"); // emoji between spaces: one word
  expect(where(at(line, ["wordLeft", "wordLeft", "wordLeft"]))).toBe("テスト。 👨‍👩‍👧‍👦🇫🇷 bar");
  expect(where(at(line, ["wordLeft", "wordLeft", "wordLeft", "wordLeft"]))).toBe("日本語、テスト。 👨‍👩‍👧‍👦🇫🇷 bar");
  expect(where(at(line, ["wordRight"], 4))).toBe("、テスト。 👨‍👩‍👧‍👦🇫🇷 bar");
  expect(where(at(line, ["wordRight", "wordRight"], 4))).toBe("。 👨‍👩‍👧‍👦🇫🇷 bar");
  const zh = "请帮我重构这个函数，然后添加测试。好吗";
  expect(at(zh, ["wordLeft"]).cursor).toBe(zh.length - 1); // 吗
  expect(at(zh, ["deleteWordLeft", "deleteWordLeft", "deleteWordLeft"]).text).toBe("请帮我重构这个函数，然后添加"); // 吗, 好, then 测试 with its 。
  expect(at("src/app.ts 日本語", ["wordLeft", "wordLeft"]).cursor).toBe(0); // a path is one word, as before
});

test("up and down move between lines of a multi-line text, then through history, keeping the draft", () => {
  const history = ["first", "second"];
  let s = insert(emptyEditor(history), "line one\nline two");
  s = editKey(s, "up", history);
  expect(s).toMatchObject({ text: "line one\nline two", cursor: 8 });
  s = editKey(s, "up", history);
  expect(s).toMatchObject({ text: "second", historyIndex: 1 });
  s = editKey(editKey(s, "up", history), "up", history);
  expect(s.text).toBe("first");
  s = editKey(editKey(s, "down", history), "down", history);
  expect(s).toMatchObject({ text: "line one\nline two", historyIndex: 2 });
});

test("completion fills the common prefix; a unique one gets a space", () => {
  const s = insert(emptyEditor([]), "/mo");
  expect(complete(s, ["/model"]).state.text).toBe("/model ");
  expect(complete(insert(emptyEditor([]), "/s"), ["/sessions", "/skill:a"]).state.text).toBe("/s");
  expect(complete(insert(emptyEditor([]), "see @sr"), ["@src/"]).state.text).toBe("see @src/");
});

test("a unique completion ending in `:` gets no space: the next Tab completes inside it", () => {
  expect(complete(insert(emptyEditor([]), "/sk"), ["/skill:"]).state).toMatchObject({ text: "/skill:", cursor: 7 });
  expect(complete(insert(emptyEditor([]), "/mcp:do"), ["/mcp:docs:"]).state.text).toBe("/mcp:docs:");
});

test.each([
  ["a letter with a combining accent", "ae\u0301x"],
  ["an emoji with a skin tone", "a👍🏽x"],
  ["a family joined with ZWJ", "a👨‍👩‍👧x"],
  ["a flag", "a🇫🇷x"],
])("%s is one character to Left, Right, Backspace and Delete", (_name, text) => {
  const middle = text.slice(1, -1);
  let s = editKey(insert(emptyEditor([]), text), "left", []);
  expect(s.cursor).toBe(1 + middle.length);
  s = editKey(s, "left", []);
  expect(s.cursor).toBe(1);
  expect(editKey(s, "right", []).cursor).toBe(1 + middle.length);
  expect(editKey(s, "delete", []).text).toBe("ax");
  expect(editKey(editKey(s, "right", []), "backspace", [])).toMatchObject({ text: "ax", cursor: 1 });
});

test("up and down keep as many characters in, never landing inside an emoji or after half an accent", () => {
  let s = insert(emptyEditor([]), "🙂🙂🙂\naé\u0301b");
  s = editKey(editKey(s, "end", []), "left", []); // after "aé́" on the second line: 2 characters in
  s = editKey(s, "up", []);
  expect(s.cursor).toBe(4); // after two emoji, not between the halves of one
  s = editKey(s, "down", []);
  expect(s.cursor).toBe("🙂🙂🙂\naé\u0301".length);
});
