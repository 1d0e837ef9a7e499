// Big pastes folded in the prompt (ui/paste-fold.ts and its use in ui/repl-state.ts): one mark in
// the line, moved over and deleted as one character, sent and saved in full, recalled folded.
import { describe, expect, test } from "bun:test";
import type { Key, KeyName } from "../../src/ui/keys.ts";
import { expand, foldEntry, folds, pasteLabel, PASTE_FOLD_CHARS, PASTE_FOLD_LINES } from "../../src/ui/paste-fold.ts";
import { initialRepl, step, type Effect, type ReplEvent, type ReplState } from "../../src/ui/repl-state.ts";

const key = (name: KeyName): ReplEvent => ({ type: "key", key: { type: "key", name }, more: false, now: 0 });
const text = (t: string): ReplEvent => ({ type: "key", key: { type: "text", text: t } as Key, more: false, now: 0 });
const paste = (t: string): ReplEvent => ({ type: "key", key: { type: "paste", text: t }, more: false, now: 0 });

function play(events: ReplEvent[], state: ReplState = initialRepl([])): { state: ReplState; effects: Effect[] } {
  const effects: Effect[] = [];
  for (const e of events) {
    const next = step(state, e);
    state = next.state;
    effects.push(...next.effects);
  }
  return { state, effects };
}
/** the line as drawn: each mark as its label */
const drawn = (s: ReplState) => Array.from(s.editor.text, (ch) => pasteLabel(s.pastes, ch) ?? ch).join("");

/** `n` letters, each under 200 combining marks: one character each as the user sees them, 201 UTF-16 units */
const zalgo = (n: number) => `e${"\u0301\u0302\u0303\u0304".repeat(50)}`.repeat(n);
const big = Array.from({ length: 2000 }, (_, i) => `line ${i} of the log`).join("\n");

describe("what folds", () => {
  test.each([
    ["a short line", "npm test", false],
    ["a few lines", "a\nb\nc", false],
    [`${PASTE_FOLD_LINES - 1} lines`, "x\n".repeat(PASTE_FOLD_LINES - 2) + "x", false],
    [`${PASTE_FOLD_LINES} lines`, "x\n".repeat(PASTE_FOLD_LINES - 1) + "x", true],
    [`${PASTE_FOLD_CHARS - 1} characters`, "y".repeat(PASTE_FOLD_CHARS - 1), false],
    [`${PASTE_FOLD_CHARS} characters`, "y".repeat(PASTE_FOLD_CHARS), true],
    // characters as the user counts them, whatever the script: not UTF-16 units, nor code points
    ["600 emoji", "😀".repeat(600), false],
    [`${PASTE_FOLD_CHARS - 1} emoji with a skin tone`, "👍🏽".repeat(PASTE_FOLD_CHARS - 1), false],
    [`${PASTE_FOLD_CHARS - 1} accented letters written as two code points`, "e\u0301".repeat(PASTE_FOLD_CHARS - 1), false],
    [`${PASTE_FOLD_CHARS} Chinese characters`, "你".repeat(PASTE_FOLD_CHARS), true],
    [`${PASTE_FOLD_CHARS} emoji`, "😀".repeat(PASTE_FOLD_CHARS), true],
    // few characters of many code units each draw as slowly as many characters: they fold too
    [`${PASTE_FOLD_CHARS - 1} letters under 200 combining marks each (Zalgo text, 200,799 units)`, zalgo(PASTE_FOLD_CHARS - 1), true],
    [`${PASTE_FOLD_CHARS - 1} family emoji (10,989 units)`, "👨‍👩‍👧‍👦".repeat(PASTE_FOLD_CHARS - 1), true],
    ["40 letters under 200 combining marks each (8,040 units)", zalgo(40), true],
    ["30 letters under 200 combining marks each (6,030 units)", zalgo(30), false],
  ])("%s", (_, t, want) => expect(folds(t)).toBe(want));

  test("a paste of few characters but many code units folds, its label counting characters", () => {
    expect(drawn(play([text("see "), paste(zalgo(PASTE_FOLD_CHARS - 1))]).state)).toBe("see [Pasted text #1 999 chars]");
  });

  test("a long line's label counts its characters as the rule does: 10,000 of 'abcdef 你好👍é' say 10,000", () => {
    const alphabet = [..."abcdef 你好👍", "e\u0301"];
    const mixed = Array.from({ length: 10_000 }, (_, i) => alphabet[(i * 7) % alphabet.length]).join("");
    expect(drawn(play([paste(mixed)]).state)).toBe("[Pasted text #1 10,000 chars]");
    expect(drawn(play([paste("😀".repeat(1200))]).state)).toBe("[Pasted text #1 1,200 chars]");
    expect(drawn(play([paste("y".repeat(4210))]).state)).toBe("[Pasted text #1 4,210 chars]");
  });
});

describe("a big paste in the line", () => {
  test("shows as one label between what was typed; Enter sends and saves the whole text", () => {
    const { state, effects } = play([text("explain "), paste(big), text(" please")]);
    expect(drawn(state)).toBe("explain [Pasted text #1 +2000 lines] please");
    const sent = play([key("enter")], state);
    const full = `explain ${big} please`;
    expect(sent.effects).toContainEqual({ type: "run", line: full });
    expect(sent.effects).toContainEqual({ type: "remember", entry: full });
    expect(effects.some((e) => e.type === "run")).toBe(false);
  });

  test("the cursor moves over it as one character and Backspace deletes it whole", () => {
    let { state } = play([text("a"), paste(big), text("b"), key("left"), key("left")]);
    expect(state.editor.cursor).toBe(1);
    ({ state } = play([key("right"), key("backspace")], state));
    expect(drawn(state)).toBe("ab");
    ({ state } = play([key("end"), paste("y".repeat(PASTE_FOLD_CHARS)), key("left"), key("delete")], state));
    expect(drawn(state)).toBe("ab");
  });

  test("its label counts the lines pasted: a last line end (40 lines copied from a file) starts no line", () => {
    const forty = Array.from({ length: 40 }, (_, i) => `${i + 1}\n`).join("");
    expect(drawn(play([paste(forty)]).state)).toBe("[Pasted text #1 +40 lines]");
    expect(drawn(play([paste(big)]).state)).toBe("[Pasted text #1 +2000 lines]");
    expect(folds("x\n".repeat(PASTE_FOLD_LINES - 1))).toBe(false);
  });

  test("small pastes stay inline; each big one has its own number", () => {
    const { state } = play([paste("one\ntwo"), paste(big), paste("z".repeat(1500))]);
    expect(drawn(state)).toBe("one\ntwo[Pasted text #1 +2000 lines][Pasted text #2 1,500 chars]");
  });

  test("Ctrl-U cuts it and Ctrl-Y brings it back, still folded and still sent whole", () => {
    const { state } = play([paste(big), key("killToStart"), key("yank")]);
    expect(drawn(state)).toBe("[Pasted text #1 +2000 lines]");
    expect(play([key("enter")], state).effects).toContainEqual({ type: "run", line: big });
  });

  test("Up recalls the line folded as it was; Ctrl-R finds it by text inside the paste", () => {
    let { state } = play([text("look: "), paste(big), key("enter"), { type: "ended", line: "", quit: false, now: 0 }]);
    ({ state } = play([key("up")], state));
    expect(drawn(state)).toBe("look: [Pasted text #1 +2000 lines]");
    ({ state } = play([key("killToStart"), key("reverseSearch"), text("line 1999 of")], state));
    expect(state.mode).toBe("search");
    expect(drawn(state)).toBe("look: [Pasted text #1 +2000 lines]");
    expect(state.editor.cursor).toBe("look: ".length); // at the paste the match is in
    expect(play([key("enter")], state).effects).toContainEqual({ type: "run", line: `look: ${big}` });
  });

  test("a question during a turn gets the whole paste as its answer", () => {
    let { state } = play([text("go"), key("enter"), { type: "ask", question: "why? " }]);
    ({ state } = play([paste(big)], state));
    expect(play([key("enter")], state).effects).toContainEqual({ type: "answer", text: big });
  });
});

describe("history of earlier sessions", () => {
  test("a big entry is folded after its first line, or whole; small ones stay as they are; the text is kept", () => {
    const state = initialRepl(["npm test", `fix this:\n${big}`, "y".repeat(5000)]);
    const shown = (i: number) => Array.from(state.history[i]!, (ch) => pasteLabel(state.pastes, ch) ?? ch).join("");
    expect(shown(0)).toBe("npm test");
    expect(shown(1)).toBe("fix this:\n[Pasted text +2000 lines]");
    expect(shown(2)).toBe("[Pasted text 5,000 chars]");
    expect(expand(state.pastes, state.history[1]!)).toBe(`fix this:\n${big}`);
    // the user's first paste is still #1
    expect(drawn(play([paste(big)], state).state)).toBe("[Pasted text #1 +2000 lines]");
  });

  test("an entry whose first line is few characters of many code units folds whole", () => {
    const entry = `${zalgo(60)}\n${big}`; // 60 characters, 12,060 units: as slow to draw as the paste under it
    const { text: t, pastes } = foldEntry([], entry);
    expect([...t].length).toBe(1);
    expect(expand(pastes, t)).toBe(entry);
  });

  test("an entry made of one long first line folds whole", () => {
    const entry = `${"q".repeat(3000)}\nshort`;
    const { text: t, pastes } = foldEntry([], entry);
    expect([...t].length).toBe(1);
    expect(expand(pastes, t)).toBe(entry);
  });
});
