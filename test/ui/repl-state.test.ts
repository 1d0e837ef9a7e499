// The REPL's modes and keys as a pure step (ui/repl-state.ts): key sequences in, state and effects
// out — what the tmux tests (test/e2e/repl*.test.ts) check through a real terminal, here without one.
import { describe, expect, test } from "bun:test";
import { parseKeys, type Key, type KeyName } from "../../src/ui/keys.ts";
import { completionList } from "../../src/ui/line-editor.ts";
import { promptRows, rowMove } from "../../src/ui/prompt-rows.ts";

/** The line editor with `line` typed, the cursor at its end. */
const typed = (line: string) => ({ text: line, cursor: line.length });
import { STOP_GRACE_MS } from "../../src/tools/process-tree.ts";
import {
  EXIT_CTRL_C_MS,
  exitCode,
  FORCE_QUIT_AFTER_MS,
  HELD_AFTER_FAILURE,
  HELD_BREAK_MS,
  initialRepl,
  promptOf,
  step,
  type Effect,
  type ReplEvent,
  type ReplState,
} from "../../src/ui/repl-state.ts";

const key = (name: KeyName, now = 0): ReplEvent => ({ type: "key", key: { type: "key", name }, more: false, now });
const text = (t: string): ReplEvent => ({ type: "key", key: { type: "text", text: t } as Key, more: false, now: 0 });
const paste = (t: string): ReplEvent => ({ type: "key", key: { type: "paste", text: t }, more: false, now: 0 });

/** Runs `events` from `state`; every effect, in order. */
function play(events: ReplEvent[], state: ReplState = initialRepl([])): { state: ReplState; effects: Effect[] } {
  const effects: Effect[] = [];
  for (const e of events) {
    const next = step(state, e);
    state = next.state;
    effects.push(...next.effects);
  }
  return { state, effects };
}
const types = (effects: Effect[]) => effects.map((e) => e.type);

describe("at the prompt", () => {
  test("Enter runs the line and remembers it; an empty line runs nothing", () => {
    const { state, effects } = play([text("hi"), key("enter")]);
    expect(effects.filter((e) => e.type !== "draw")).toEqual([{ type: "below" }, { type: "remember", entry: "hi" }, { type: "run", line: "hi" }]);
    expect(state.mode).toBe("busy");
    expect(state.history).toEqual(["hi"]);
    expect(types(play([key("enter")]).effects)).toEqual(["below", "draw"]);
  });

  test("Ctrl-Y brings back what Ctrl-U, Ctrl-K, Ctrl-W or Alt-D cut, even after another line was sent", () => {
    const home = (n: number) => Array.from({ length: n }, () => key("left"));
    let { state } = play([text("a long draft"), key("killToStart")]);
    expect(state.editor.text).toBe("");
    ({ state } = play([text("git status"), key("enter"), { type: "ended", line: "git status", quit: false, now: 0 }, key("yank")], state));
    expect(state.editor).toMatchObject({ text: "a long draft", cursor: 12 });
    ({ state } = play([...home(5), key("killToEnd"), key("end"), key("deleteWordLeft"), key("yank")], state));
    expect(state.editor.text).toBe("a long ");
    ({ state } = play([key("home"), key("deleteWordRight"), key("end"), key("yank")], state));
    expect(state.editor.text).toBe(" long a");
    expect(play([key("yank")]).state.editor.text).toBe(""); // nothing cut yet
  });

  test("kills in a row add up, as in readline and zsh: Ctrl-Y brings back all they cut, in order; any other key starts afresh", () => {
    const yanked = (line: string, keys: ReplEvent[]) => play([text(line), ...keys, key("yank")]).state.editor.text;
    const w = key("deleteWordLeft");
    expect(yanked("alpha beta gamma delta", [w, w])).toBe("alpha beta gamma delta");
    expect(yanked("please fix the parser bug now", [w, w, w])).toBe("please fix the parser bug now");
    // forward kills join behind: Alt-D Alt-D from the start, then Ctrl-Y there
    expect(yanked("please fix the parser", [key("home"), key("deleteWordRight"), key("deleteWordRight")])).toBe("please fix the parser");
    // either way in one run: Ctrl-K then Ctrl-U takes the whole line, and Ctrl-Y gives it back whole
    expect(yanked("one two three", [...Array.from({ length: 6 }, () => key("left")), key("killToEnd"), key("killToStart")])).toBe("one two three");
    expect(yanked("one two three", [...Array.from({ length: 6 }, () => key("left")), key("killToStart"), key("killToEnd")])).toBe("one two three");
    // a move, a yank or a typed letter between ends the run: Ctrl-Y brings back only the last cut
    expect(yanked("alpha beta gamma", [w, key("left"), key("right"), w])).toBe("alpha beta ");
    expect(yanked("alpha beta gamma", [w, key("yank"), w])).toBe("alpha beta gamma");
    expect(yanked("alpha beta", [w, text("x"), key("backspace"), w])).toBe("alpha ");
  });

  test("Ctrl-C clears the line into the kill buffer: Ctrl-Y brings the draft back, a 20-line paste sent in full; Up is still the earlier line", () => {
    const cleared = play([text("a long message I typed"), key("interrupt", 5)], initialRepl(["earlier"]));
    expect(cleared.state.editor.text).toBe("");
    expect(play([key("up")], cleared.state).state.editor.text).toBe("earlier");
    expect(play([key("yank")], cleared.state).state.editor).toMatchObject({ text: "a long message I typed", cursor: 22 });
    // kept across a line sent meanwhile, as a Ctrl-U cut is
    const later = play([text("/usage"), key("enter"), { type: "ended", line: "/usage", quit: false, now: 0 }, key("yank")], cleared.state).state;
    expect(later.editor.text).toBe("a long message I typed");

    const paste = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join("\n");
    const pasted = play([
      text("look: "),
      { type: "key", key: { type: "paste", text: paste }, more: false, now: 0 },
      key("interrupt", 5),
      key("yank"),
      key("enter"),
    ]);
    expect(pasted.effects).toContainEqual({ type: "run", line: `look: ${paste}` });
  });

  test("a paste that ends in a backslash (a Windows path, a shell line) is sent as pasted by Enter, not continued", () => {
    for (const [before, pasted] of <[string, string][]>[
      ["", "ls -la \\"],
      ["look in ", "C:\\Users\\me\\"],
      ["", "run this:\nls -la \\"],
    ]) {
      const sent = play([text(before), paste(pasted), key("left"), key("right"), key("enter")]);
      expect(sent.effects).toContainEqual({ type: "run", line: before + pasted });
    }
  });

  test("Up and Down move a row on the screen where the driver says where that is, else through the lines and history", () => {
    const at = (cursor: number | undefined) => ({ ...key("up"), rowMove: () => (cursor === undefined ? undefined : { index: cursor, goal: 0 }) }) as ReplEvent;
    const { state } = play([text("a long line that the terminal wraps"), at(5)], initialRepl(["earlier"]));
    expect(state.editor).toMatchObject({ text: "a long line that the terminal wraps", cursor: 5 });
    expect(play([at(undefined)], state).state.editor.text).toBe("earlier");
    // a place inside an emoji is taken to its start
    expect(play([text("a👍🏽b"), at(3)]).state.editor.cursor).toBe(1);
  });

  test("Up and Down keep to the column the first of them left from, through a short line and back; a move sideways sets a new one", () => {
    let { state } = play([text("a long first line of text here\nx\nanother long third line of text")]); // the cursor at column 33
    const press = (name: KeyName) => {
      const drawn = () =>
        promptRows(
          "› ",
          "… ",
          state.editor.text,
          state.editor.cursor,
          120,
          (c) => c,
          () => 1,
          true,
        );
      state = step(state, { ...key(name), rowMove: (dir, goal) => rowMove(drawn(), dir, goal) } as ReplEvent).state;
      return state.editor.cursor;
    };
    expect([press("up"), press("up")]).toEqual([32, 30]); // the end of x, then the end of the first line, not 1 in
    expect([press("down"), press("down")]).toEqual([32, 64]); // back at column 33, the end of the third line
    expect([press("up"), press("up"), press("left")]).toEqual([32, 30, 29]);
    expect([press("down"), press("down")]).toEqual([32, 62]); // the column the Left left, 2 before the end
  });

  test("a trailing backslash makes Enter a new line; keys that arrive together (an unbracketed paste) too", () => {
    expect(play([text("a\\"), key("enter")]).state.editor.text).toBe("a\n");
    expect(play([paste("ls -la "), text("\\"), key("enter")]).state.editor.text).toBe("ls -la \n"); // typed after the paste
    const pasted = play([text("a"), { type: "key", key: { type: "key", name: "enter" }, more: true, now: 0 }, text("b")]);
    expect(pasted.state.editor.text).toBe("a\nb");
    expect(types(pasted.effects)).not.toContain("run");
  });

  test("Esc Esc at an empty prompt (Claude Code's rewind) says where hey's /undo is; one Esc, or Esc with a draft, says nothing", () => {
    const hint: Effect = {
      type: "print",
      text: "/undo puts back the files the agent's last turn changed (again: the turn before); /diff shows what changed",
      dim: true,
    };
    expect(play([key("escape", 10_000), key("escape", 10_300)]).effects).toContainEqual(hint);
    expect(play([key("escape", 10_000)]).effects).toEqual([]);
    expect(play([key("escape", 10_000), key("escape", 10_000 + EXIT_CTRL_C_MS)]).effects).toEqual([]);
    expect(play([text("draft"), key("escape", 10_000), key("escape", 10_300)]).effects).not.toContainEqual(hint);
  });

  test("the first Ctrl-C at an empty prompt warns, a second within the window exits; after it, it warns again", () => {
    const once = play([key("interrupt", 10_000)]);
    expect(once.effects).toContainEqual({ type: "print", text: "press Ctrl-C again or Ctrl-D to exit", dim: true });
    expect(play([key("interrupt", 10_000), key("interrupt", 10_000 + EXIT_CTRL_C_MS - 1)]).effects.at(-1)).toEqual({ type: "leave", code: 0 });
    const late = play([key("interrupt", 10_000), key("interrupt", 10_000 + EXIT_CTRL_C_MS)]);
    expect(late.state.mode).toBe("prompt");
    expect(types(late.effects).filter((t) => t === "print")).toHaveLength(2);
  });

  test("Ctrl-C clears a line that has text; Ctrl-D deletes there, and leaves at an empty prompt", () => {
    const cleared = play([text("draft"), key("interrupt", 5)]);
    expect(cleared.state.editor.text).toBe("");
    expect(cleared.state.mode).toBe("prompt");
    expect(play([text("ab"), key("home"), key("eof")]).state.editor.text).toBe("b");
    expect(play([key("eof")]).effects.at(-1)).toEqual({ type: "leave", code: 0 });
  });

  test("Tab asks for completions; several that add nothing are listed, one is completed", () => {
    const asked = play([text("/re"), key("tab")]);
    expect(asked.effects.at(-1)).toEqual({ type: "complete", line: "/re" });
    const listed = play([{ type: "completed", candidates: ["/reload", "/resume"] }], asked.state);
    expect(listed.effects).toContainEqual({ type: "print", text: "/reload  /resume" });
    expect(play([{ type: "completed", candidates: ["/reload"] }], asked.state).state.editor.text).toBe("/reload ");
  });

  test("Tab lists names by what follows their shared folder, and at most 100 of them with how many more", () => {
    const asked = play([text("@flat/f1"), key("tab")]);
    const files = Array.from({ length: 11_111 }, (_, i) => `@flat/f1${i}`);
    const listed = play([{ type: "completed", candidates: files }], asked.state).effects.find((e) => e.type === "print");
    expect(listed).toEqual({
      type: "print",
      text: `${files
        .slice(0, 100)
        .map((f) => f.slice("@flat/".length))
        .join("  ")}  … and 11,011 more: type more of the name`,
    });
    expect(completionList(['@"notes/a b.txt"', '@"notes/a c.txt"'], typed('see @"notes/a'))).toBe("a b.txt  a c.txt");
    expect(completionList(["/reload", "/resume"], typed("/re"))).toBe("/reload  /resume");
    const deeper = play([{ type: "completed", candidates: ["@src/a/x.ts", "@src/b/y.ts"] }], play([text("@src/"), key("tab")]).state);
    expect(deeper.effects).toContainEqual({ type: "print", text: "a/x.ts  b/y.ts" });
  });

  test("files found by name are listed as Tab writes them, not cut to a folder the word does not have", () => {
    // x58: from src/deep, `@dup` Tab listed `a/dup.md  b/dup.md`, and `@a/dup.md` is not a file from there
    const fromDeep = play([{ type: "completed", candidates: ["@../../a/dup.md", "@../../b/dup.md"] }], play([text("q @dup"), key("tab")]).state);
    expect(fromDeep.effects).toContainEqual({ type: "print", text: "@../../a/dup.md  @../../b/dup.md" });
    const fromRoot = play([{ type: "completed", candidates: ["@app/deep/cli.py", "@app/ui/cli_args.py"] }], play([text("@cli"), key("tab")]).state);
    expect(fromRoot.effects).toContainEqual({ type: "print", text: "@app/deep/cli.py  @app/ui/cli_args.py" });
    // a word that has part of the folder: cut to that part
    expect(completionList(["@../../a/dup.md", "@../../b/dup.md"], typed("@../../"))).toBe("a/dup.md  b/dup.md");
  });
});

test("Tab's list is laid out in columns within the terminal's width, read down then across: no name is broken at a row's end", () => {
  const commands = ["/help", "/model", "/effort", "/thinking", "/usage", "/compact", "/reload", "/trust", "/untrust", "/mcp", "/mcp:", "/skill:"];
  const fit = { columns: 30, width: (t: string) => t.length };
  const rows = completionList(commands, typed("/"), fit).split("\n");
  expect(rows).toEqual(["/help      /usage    /untrust", "/model     /compact  /mcp", "/effort    /reload   /mcp:", "/thinking  /trust    /skill:"]);
  // names of two-column characters are measured as drawn
  const wide = completionList(["@日本語.txt", "@中文.md", "@a.txt"], typed("@"), {
    columns: 24,
    width: (t) => [...t].reduce((n, c) => n + (c.codePointAt(0)! >= 0x1100 ? 2 : 1), 0),
  });
  expect(wide.split("\n")).toEqual(["@日本語.txt  @a.txt", "@中文.md"]);
  // one name wider than the terminal: one a row
  expect(completionList(["/aaaaaaaa", "/bbbbbbbb"], typed("/"), { columns: 5, width: (t) => t.length })).toBe("/aaaaaaaa\n/bbbbbbbb");
});

describe("during a turn", () => {
  test("Ctrl-L asks the terminal where the cursor is, and its answer clears the screen but for that row (the spinner, the answer's line)", () => {
    const { state, effects } = play([text("go"), key("enter"), key("clearScreen")]);
    expect(effects.at(-1)).toEqual({ type: "askCursor" });
    const at: ReplEvent = { type: "key", key: { type: "cursorAt", row: 12, col: 7 }, more: false, now: 0 };
    expect(play([at], state).effects).toEqual([{ type: "keepRow", row: 12, col: 7 }]);
    // at the prompt an answer that comes late does nothing; Ctrl-L clears and draws the line
    const back = play([{ type: "ended", line: "go", quit: false, now: 0 }, at, key("clearScreen")], state);
    expect(types(back.effects)).toEqual(["draw", "clearScreen", "draw"]);
  });

  test("Shift-F3 during a turn (CSI 1;2R, a cursor report's shape) clears nothing: only an answer hey asked for moves the row", () => {
    const f3: ReplEvent = { type: "key", key: { type: "cursorAt", row: 1, col: 2 }, more: false, now: 0 };
    const turn = play([text("go"), key("enter")]).state;
    expect(play([f3], turn).effects).toEqual([]);
    const asked = play([key("clearScreen")], turn).state;
    const answered = play([{ ...f3, key: { type: "cursorAt", row: 9, col: 3 } }], asked);
    expect(answered.effects).toEqual([{ type: "keepRow", row: 9, col: 3 }]);
    expect(play([f3], answered.state).effects).toEqual([]); // one answer per question
  });

  const busy = () => play([text("go"), key("enter")]).state;

  const ended: ReplEvent = { type: "ended", line: "go", quit: false, now: 0 };
  const endedAt = (now: number): ReplEvent => ({ type: "ended", line: "go", quit: false, now });

  test("keys edit a line that is never sent by itself; Enter queues it, and the queue is sent as the turn ends, the line being typed kept", () => {
    const typed = play([text("next"), key("enter"), text("lin"), key("left"), key("backspace"), key("right"), text("e")], busy());
    expect(types(typed.effects)).toEqual([]); // drawn under the turn's status by the driver, not at a prompt
    expect(typed.state).toMatchObject({ mode: "busy", queued: ["next"], editor: { text: "lne" } });
    const after = play([ended], typed.state);
    expect(after.effects).toEqual([
      { type: "draw", fresh: true, line: "next" },
      { type: "below" },
      { type: "remember", entry: "next" },
      { type: "run", line: "next" },
    ]);
    expect(after.state).toMatchObject({ mode: "busy", queued: [], editor: { text: "lne", cursor: 3 }, history: ["go", "next"] });
    // that turn ends with nothing queued: the line waits at the prompt, unsent
    const back = play([ended], after.state);
    expect(back.effects).toEqual([{ type: "draw", fresh: true }]);
    expect(back.state).toMatchObject({ mode: "prompt", editor: { text: "lne", cursor: 3 } });
  });

  test("a turn that failed (an error, a limit, a cut-off answer) sends nothing queued: the queue and the line being typed wait at the prompt, under a note", () => {
    const typed = play([text("first"), key("enter"), text("second"), key("enter"), text("thi")], busy());
    const after = play([{ ...ended, failed: true }], typed.state);
    expect(types(after.effects)).not.toContain("run");
    expect(types(after.effects)).not.toContain("remember");
    expect(after.effects).toEqual([
      { type: "print", text: HELD_AFTER_FAILURE, dim: true },
      { type: "draw", fresh: true },
    ]);
    expect(after.state).toMatchObject({ mode: "prompt", queued: [], editor: { text: "first\nsecond\nthi", cursor: 16 } });
    expect(play([key("enter")], after.state).effects.at(-1)).toEqual({ type: "run", line: "first\nsecond\nthi" }); // one message, when the user says
    // nothing queued: the line being typed waits as after any turn, with no note; a cancel that also failed says none either
    expect(play([{ ...ended, failed: true }], play([text("half")], busy()).state).effects).toEqual([{ type: "draw", fresh: true }]);
    const cancelled = play([text("next"), key("enter"), key("escape"), { ...ended, failed: true }], busy());
    expect(cancelled.effects).toEqual([{ type: "abort" }, { type: "draw", fresh: true }]);
    // the next turn that ends as it meant to sends its queue again
    const sent = play([key("enter"), text("later"), key("enter"), ended], after.state);
    expect(sent.effects.at(-1)).toEqual({ type: "run", line: "later" });
  });

  test("several queued lines are sent one per turn, in order, a slash command as typed (it runs as the command); an empty Enter queues nothing", () => {
    const typed = play([text("fix the test"), key("enter"), key("enter"), text("/diff"), key("enter"), text("  "), key("enter")], busy());
    expect(typed.state.queued).toEqual(["fix the test", "/diff"]);
    const first = play([ended], typed.state);
    expect(first.effects.at(-1)).toEqual({ type: "run", line: "fix the test" });
    const second = play([ended], first.state);
    expect(second.effects.at(-1)).toEqual({ type: "run", line: "/diff" });
    expect(play([ended], second.state).state).toMatchObject({ mode: "prompt", queued: [] });
  });

  test("a queued paste is sent whole and kept folded in the history; Ctrl-U clears the line being typed, not the queue", () => {
    const big = Array.from({ length: 20 }, (_, i) => `row ${i}`).join("\n");
    const typed = play([text("see "), paste(big), key("enter"), text("draft"), key("killToStart")], busy());
    expect(typed.state).toMatchObject({ editor: { text: "" }, killed: "draft" });
    expect(typed.state.queued).toHaveLength(1);
    expect(play([ended], typed.state).effects.at(-1)).toEqual({ type: "run", line: `see ${big}` });
  });

  test("Esc or Ctrl-C stops the turn as before; what was queued and the line being typed wait at the prompt, unsent, in order", () => {
    for (const stop of ["escape", "interrupt"] as const) {
      const typed = play([text("first"), key("enter"), text("second"), key("enter"), text("third"), key(stop)], busy());
      expect(typed.effects).toEqual([{ type: "abort" }]);
      const after = play([ended], typed.state);
      expect(types(after.effects)).not.toContain("run");
      expect(after.state).toMatchObject({ mode: "prompt", queued: [], editor: { text: "first\nsecond\nthird", cursor: 18 } });
      expect(play([key("enter")], after.state).effects.at(-1)).toEqual({ type: "run", line: "first\nsecond\nthird" }); // one message, when the user says
    }
  });

  /** `chunk` as the driver (repl.ts) feeds one read: its keys in order, Enter a newline when more keys came with it */
  const read = (chunk: string, state: ReplState) => {
    const { keys } = parseKeys(chunk);
    return play(
      keys.map((k, i) => ({ type: "key", key: k, more: i < keys.length - 1, now: 0 })),
      state,
    ).state;
  };
  /** `chunk` typed a key at a time, each read on its own */
  const typeOut = (chunk: string, state: ReplState) => parseKeys(chunk).keys.reduce((s, k) => read(k.type === "text" ? k.text : "\r", s), state);

  // a loaded machine hands over keys typed before the turn's end only after it: wherever the end falls, the same line is sent,
  // once, and the keys after its Enter are never part of it
  describe("`next question`, Enter, `more` typed a key at a time during a turn", () => {
    const typedKeys = "next question\rmore";
    const cuts = Array.from({ length: typedKeys.length + 1 }, (_, i) => i);

    test.each(cuts)("the turn ending after %i of them were read: `next question` is sent alone and `more` is typed on under the next turn", (cut) => {
      const during = typeOut(typedKeys.slice(0, cut), busy());
      const after = typeOut(typedKeys.slice(cut), play([ended], during).state);
      expect(after).toMatchObject({ mode: "busy", editor: { text: "more" }, queued: [] });
      expect(after.history).toEqual(["go", "next question"]); // sent once, and alone
    });
  });

  test("keys that came in one read (a paste the terminal did not bracket, a burst under load) are never sent: Enter among them is a line break", () => {
    const during = read("next question\rmore", busy());
    expect(during).toMatchObject({ queued: [], editor: { text: "next question\nmore" } });
    const atPrompt = read("\rmore", play([ended], read("next question", busy())).state);
    expect(atPrompt).toMatchObject({ mode: "prompt", editor: { text: "next question\nmore" } });
  });

  test("a line break (Ctrl-J) that ended what was typed during the turn is not drawn; words read within HELD_BREAK_MS go on after it", () => {
    const at = (t: string, now: number): ReplEvent => ({ type: "key", key: { type: "text", text: t } as Key, more: false, now });
    const back = play([endedAt(10_000)], play([text("fix the test"), key("newline"), key("newline")], busy()).state).state;
    expect(back.editor).toMatchObject({ text: "fix the test", cursor: 12 });
    expect(play([at("and lint", 10_000 + HELD_BREAK_MS)], back).state.editor.text).toBe("fix the test\nand lint"); // the race the hold is for
    expect(play([at(" in foo.ts", 10_000 + HELD_BREAK_MS + 1)], back).state.editor.text).toBe("fix the test in foo.ts");
    expect(play([key("backspace"), text("s")], back).state.editor.text).toBe("fix the tess"); // an edit: the user edits what they see
    expect(play([key("enter", 10_001)], back).effects).toContainEqual({ type: "run", line: "fix the test" });
  });

  test("an Enter read just after the turn's end onto the line typed during it sends it, as it would have queued it in time; with nothing typed, a line typed right after is sent", () => {
    const back = play([endedAt(10_000)], play([text("fix the test")], busy()).state).state;
    expect(play([key("enter", 10_000 + 1)], back).effects).toContainEqual({ type: "run", line: "fix the test" });
    const empty = play([endedAt(10_000)], busy()).state;
    expect(play([text("again"), key("enter", 10_001)], empty).effects).toContainEqual({ type: "run", line: "again" });
  });

  test("Esc or Ctrl-C cancels once; three more Ctrl-C while the turn ignores it for 2.5 s exit 130, saying why", () => {
    expect(play([key("escape")], busy()).effects).toEqual([{ type: "abort" }]);
    const late = 10_000 + FORCE_QUIT_AFTER_MS;
    const pressed = play([key("interrupt", 10_000), key("interrupt", late), key("interrupt", late), key("interrupt", late + 400)], busy());
    expect(pressed.effects).toEqual([{ type: "abort" }, { type: "exit", code: 130, why: "hey quit: the turn had not stopped 3 s after it was cancelled" }]);
    expect(pressed.state.mode).toBe("done");
    // after Esc, too
    const escaped = play([key("escape", 0), key("interrupt", late), key("interrupt", late), key("interrupt", late)], busy());
    expect(types(escaped.effects)).toEqual(["abort", "exit"]);
  });

  test("Ctrl-C pressed again and again while a cancelled command cleans up (1.5 s) does not quit: the turn ends, the typed line waits", () => {
    expect(FORCE_QUIT_AFTER_MS).toBeGreaterThan(STOP_GRACE_MS);
    // x97: four presses 150 ms apart during a trap's cleanup ended hey, and the line typed during the turn with it
    const presses = [0, 150, 300, 450, 1_900].map((at) => key("interrupt", 10_000 + at));
    const pressed = play([text("my next instruction"), ...presses], busy());
    expect(pressed.effects).toEqual([{ type: "abort" }]);
    const after = play([{ type: "ended", line: "go", quit: false, now: 0 }], pressed.state);
    expect(after.state).toMatchObject({ mode: "prompt", editor: { text: "my next instruction" } });
  });

  test("a force quit keeps what was typed during the turn in the history file, its pastes whole, without the Enter that ended it", () => {
    const paste = Array.from({ length: 20 }, (_, i) => `row ${i}`).join("\n");
    const typedAhead = [text("then fix "), { type: "key", key: { type: "paste", text: paste }, more: false, now: 0 } as ReplEvent, key("enter")];
    const late = 10_000 + FORCE_QUIT_AFTER_MS;
    const quit = play([...typedAhead, key("interrupt", 10_000), ...[0, 1, 2].map(() => key("interrupt", late))], busy());
    expect(quit.effects.slice(1)).toEqual([
      { type: "remember", entry: `then fix ${paste}` },
      { type: "exit", code: 130, why: "hey quit: the turn had not stopped 3 s after it was cancelled; what you typed during it is in the history (↑)" },
    ]);
  });

  test("a second Ctrl-C that clears what was typed unseen during the turn says so, leaving it on screen; Ctrl-Y brings it back, and a Ctrl-C exit keeps it in the history", () => {
    const typed = play([text("second careful follow-up"), key("interrupt", 10_000)], busy());
    const back = play([{ type: "ended", line: "go", quit: false, now: 0 }], typed.state).state;
    const cleared = play([key("interrupt", 10_200)], back);
    expect(cleared.effects).toEqual([
      { type: "below" },
      { type: "print", text: "cleared what you typed during the turn (Ctrl-Y brings it back)", dim: true },
      { type: "draw" },
    ]);
    expect(play([key("yank")], cleared.state).state.editor.text).toBe("second careful follow-up");
    // Ctrl-C twice more leaves hey, and the line goes to the history file; once another line was sent, it does not
    const left = play([key("interrupt", 10_400), key("interrupt", 10_600)], cleared.state).effects;
    expect(left.slice(-2)).toEqual([
      { type: "remember", entry: "second careful follow-up" },
      { type: "leave", code: 0 },
    ]);
    const sent = play([text("/usage"), key("enter"), { type: "ended", line: "/usage", quit: false, now: 0 }], cleared.state).state;
    expect(types(play([key("interrupt", 20_000), key("interrupt", 20_200)], sent).effects)).not.toContain("remember");
    // once edited it is the user's line as seen: Ctrl-C clears it quietly, as any line
    expect(play([text("!"), key("interrupt", 10_300)], back).effects).toEqual([{ type: "draw" }, { type: "draw" }]);
  });

  test("Esc then a letter read as one Alt key during a turn cancels it, and the letter waits at the next prompt", () => {
    for (const input of ["\x1bno wait", "\x1bbut first"]) {
      const keys = parseKeys(input).keys.map((k): ReplEvent => ({ type: "key", key: k, more: false, now: 0 }));
      const typed = play(keys, busy());
      expect(typed.effects).toEqual([{ type: "abort" }]);
      const after = play([{ type: "ended", line: "go", quit: false, now: 0 }], typed.state);
      expect(after.state.editor.text).toBe(input.slice(1));
    }
  });

  test("at the prompt an Alt key with no binding types its letter; Alt-b still moves a word", () => {
    const keys = (input: string) => parseKeys(input).keys.map((k): ReplEvent => ({ type: "key", key: k, more: false, now: 0 }));
    expect(play(keys("one two\x1bx")).state.editor).toMatchObject({ text: "one twox" });
    expect(play(keys("one two\x1bbX")).state.editor).toMatchObject({ text: "one Xtwo" });
  });

  test("the exit code is how the session ends: /quit, Ctrl-D and a double Ctrl-C after a cancelled turn exit 0", () => {
    const cancelled = play([key("interrupt"), { type: "ended", line: "go", quit: false, now: 0 }], busy()).state;
    expect(exitCode(cancelled)).toBe(0);
    expect(play([{ type: "ended", line: "/quit", quit: true, now: 0 }], play([text("/quit"), key("enter")], cancelled).state).effects.at(-1)).toEqual({
      type: "leave",
      code: 0,
    });
    expect(play([key("eof")], cancelled).effects.at(-1)).toEqual({ type: "leave", code: 0 });
    expect(play([key("interrupt", 50_000), key("interrupt", 50_001)], cancelled).effects.at(-1)).toEqual({ type: "leave", code: 0 });
  });

  test("lines that are not the turn's wait for its end; at the prompt they go above it", () => {
    const queued = play([{ type: "aside", line: "connected: fs (3 tools)" }], busy());
    expect(queued.effects).toEqual([]);
    expect(play([{ type: "ended", line: "go", quit: false, now: 0 }], queued.state).effects[0]).toEqual({ type: "print", text: "connected: fs (3 tools)" });
    expect(play([{ type: "aside", line: "x" }]).effects).toEqual([{ type: "aside", text: "x" }]);
  });

  test("a question takes the keys and gives the waiting line back; Ctrl-C or Esc answers nothing", () => {
    const typed = play([text("later")], busy()).state;
    const asking = play([{ type: "ask", question: "Apply? (y/N) " }], typed);
    expect(asking.state.mode).toBe("ask");
    expect(asking.state.editor.text).toBe("");
    const answered = play([text(" y "), key("enter")], asking.state);
    expect(answered.effects.at(-1)).toEqual({ type: "answer", text: "y" });
    expect(answered.state).toMatchObject({ mode: "busy", editor: { text: "later" } });
    expect(play([key("escape")], asking.state).effects).toEqual([{ type: "below" }, { type: "answer", text: undefined }]);
    expect(play([{ type: "ask", question: "q" }]).effects).toEqual([{ type: "answer", text: undefined }]); // only a turn asks
  });

  test("/quit leaves when its line ends", () => {
    expect(play([{ type: "ended", line: "/quit", quit: true, now: 0 }], busy()).effects.at(-1)).toEqual({ type: "leave", code: 0 });
  });
});

describe("signals", () => {
  test("at the prompt: leave at once with the signal's code, on a line of its own", () => {
    expect(play([{ type: "signal", code: 143, why: "terminated (SIGTERM)" }]).effects).toEqual([{ type: "below" }, { type: "leave", code: 143 }]);
  });

  test("during a turn: cancel it saying why, leave when it ends, and not wait past the grace; the first signal says what happened", () => {
    const busy = play([text("go"), key("enter")]).state;
    const signalled = play(
      [
        { type: "signal", code: 129, why: "the terminal hung up (SIGHUP)" },
        { type: "signal", code: 143, why: "terminated (SIGTERM)" },
      ],
      busy,
    );
    expect(signalled.effects).toEqual([
      { type: "abort", why: "the terminal hung up (SIGHUP)" },
      { type: "grace", code: 129 },
    ]);
    expect(play([{ type: "ended", line: "go", quit: false, now: 0 }], signalled.state).effects.at(-1)).toEqual({ type: "leave", code: 129 });
  });

  test("what was queued and typed during the turn goes to the history at once (the grace may end hey first), as one entry, its pastes whole", () => {
    const big = Array.from({ length: 20 }, (_, i) => `row ${i}`).join("\n");
    const busy = play([text("go"), key("enter"), text("fix "), paste(big), key("enter"), text("then lint")]).state;
    for (const [code, why] of [
      [143, "terminated (SIGTERM)"],
      [129, "the terminal hung up (SIGHUP)"],
    ] as const) {
      const signalled = play([{ type: "signal", code, why }], busy);
      expect(signalled.effects).toEqual([
        { type: "remember", entry: `fix ${big}\nthen lint` },
        { type: "abort", why },
        { type: "grace", code },
      ]);
      // and the turn's end sends none of it, nor remembers it twice
      expect(play([{ type: "ended", line: "go", quit: false, now: 0 }], signalled.state).effects).toEqual([{ type: "leave", code }]);
    }
    // under a question (a /reload's approval): the line it put aside is kept, not the answer being typed
    const asked = play([{ type: "ask", question: "approve? [y/N] " }, text("y")], busy);
    expect(play([{ type: "signal", code: 143, why: "terminated (SIGTERM)" }], asked.state).effects[0]).toEqual({
      type: "remember",
      entry: `fix ${big}\nthen lint`,
    });
  });

  test("at the prompt: the line being written is kept in the history, not a line recalled unchanged with ↑, nor an empty one", () => {
    const signal: ReplEvent = { type: "signal", code: 129, why: "the terminal hung up (SIGHUP)" };
    expect(play([text("half a tho"), signal]).effects.slice(1)).toEqual([
      { type: "remember", entry: "half a tho" },
      { type: "below" },
      { type: "leave", code: 129 },
    ]);
    const history = initialRepl(["git status"]);
    expect(types(play([key("up"), signal], history).effects)).toEqual(["draw", "below", "leave"]);
    expect(play([key("up"), text("!"), signal], history).effects.find((e) => e.type === "remember")).toEqual({ type: "remember", entry: "git status!" });
    // what a failed turn put back at the prompt is kept too
    const back = play([text("go"), key("enter"), text("next"), key("enter"), { type: "ended", line: "go", quit: false, now: 0, failed: true }, signal]);
    expect(back.effects.filter((e) => e.type === "remember").at(-1)).toEqual({ type: "remember", entry: "next" });
  });

  test("after leaving, keys do nothing", () => {
    const done = play([key("eof")]).state;
    expect(play([text("x"), key("enter"), key("interrupt")], done).effects).toEqual([]);
  });
});

test("history: an entry is not repeated back to back", () => {
  const { state } = play([text("a"), key("enter"), { type: "ended", line: "a", quit: false, now: 0 }, text("a"), key("enter")]);
  expect(state.history).toEqual(["a"]);
});

describe("Ctrl-R: searching the history", () => {
  const history = ["git status", "npm test", "git log --oneline", "ls", "npm run build"];
  const at = (s: ReplState) => ({ mode: s.mode, text: s.editor.text, cursor: s.editor.cursor, prompt: promptOf(s, "› ") });

  test("typing finds the newest line holding the query, the cursor where it matched; the prompt says so", () => {
    const { state } = play([text("draft"), key("reverseSearch"), text("git")], initialRepl(history));
    expect(at(state)).toEqual({ mode: "search", text: "git log --oneline", cursor: 0, prompt: "(reverse-i-search)'git': " });
    expect(at(play([text(" s")], state).state)).toMatchObject({ text: "git status", prompt: "(reverse-i-search)'git s': " });
  });

  test("Ctrl-R again goes older, Ctrl-S newer; past the oldest it fails and keeps the match", () => {
    const found = play([key("reverseSearch"), text("npm")], initialRepl(history)).state;
    expect(found.editor.text).toBe("npm run build");
    const older = play([key("reverseSearch")], found).state;
    expect(older.editor.text).toBe("npm test");
    const none = play([key("reverseSearch")], older).state;
    expect(at(none)).toMatchObject({ text: "npm test", prompt: "(failing reverse-i-search)'npm': " });
    expect(play([key("forwardSearch")], older).state.editor.text).toBe("npm run build");
  });

  test("Enter runs the line found; Esc, Ctrl-G and Ctrl-C give the line back as it was", () => {
    const found = play([text("draft"), key("reverseSearch"), text("log")], initialRepl(history)).state;
    const ran = play([key("enter")], found);
    expect(ran.effects.filter((e) => e.type === "run")).toEqual([{ type: "run", line: "git log --oneline" }]);
    for (const name of ["escape", "cancel", "interrupt"] as const) {
      const back = play([key(name)], found).state;
      expect(at(back)).toEqual({ mode: "prompt", text: "draft", cursor: 5, prompt: "› " });
    }
  });

  test("the line Enter sends from a search is drawn at the prompt first, so it stays on screen as a typed line does", () => {
    const found = play([key("reverseSearch"), text("log")], initialRepl(history)).state;
    expect(play([key("enter")], found).effects).toEqual([
      { type: "draw", line: "git log --oneline" },
      { type: "below" },
      { type: "remember", entry: "git log --oneline" },
      { type: "run", line: "git log --oneline" },
    ]);
  });

  test("an editing key takes the line found and edits it; ↓ then goes to newer lines", () => {
    const found = play([key("reverseSearch"), text("test")], initialRepl(history)).state;
    const edited = play([key("end"), text(" -- -u")], found).state;
    expect(at(edited)).toMatchObject({ mode: "prompt", text: "npm test -- -u" });
    expect(play([key("home"), key("down")], found).state.editor.text).toBe("git log --oneline");
  });

  test("Backspace widens the query; Ctrl-R on an empty query takes up the last search", () => {
    const narrowed = play([key("reverseSearch"), text("ls")], initialRepl(history)).state;
    expect(narrowed.editor.text).toBe("ls");
    expect(play([key("backspace")], narrowed).state.search?.state.query).toBe("l");
    const done = play([key("escape")], narrowed).state;
    expect(play([key("reverseSearch"), key("reverseSearch")], done).state.editor.text).toBe("ls");
  });
});

test("Ctrl-Z suspends at the prompt and during a turn", () => {
  expect(play([text("half"), key("suspend")]).effects.at(-1)).toEqual({ type: "suspend" });
  expect(play([text("go"), key("enter"), key("suspend")]).effects.at(-1)).toEqual({ type: "suspend" });
});

test("Shift+Tab (ESC [ Z) at the prompt turns plan mode on or off and keeps the line; during a turn it does nothing (before: the key was dropped)", () => {
  expect(parseKeys("\x1b[Z").keys).toEqual([{ type: "key", name: "backTab" }]);
  const atPrompt = play([text("half a line"), key("backTab")]);
  expect(atPrompt.effects.at(-1)).toEqual({ type: "plan" });
  expect(atPrompt.state.editor.text).toBe("half a line");
  expect(types(play([text("go"), key("enter"), key("backTab")]).effects)).not.toContain("plan");
});
