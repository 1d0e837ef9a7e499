// The interactive prompt's modes and keys (SPEC §17, issues 14 and 28) as a pure step: the state and one event in, the next state
// and what to do out. At the prompt keys edit the line (line-editor.ts), Ctrl-R searches the history (history-search.ts), Ctrl-G or
// Ctrl-X Ctrl-E hands the line to the user's editor (external-editor.ts) and takes back what it left, Shift+Tab turns plan mode on or
// off; during a turn keys edit a line drawn under the turn's status, Enter queues it, and the queue is sent line by line as turns
// end (typed-ahead.ts); Ctrl-C or Esc cancels a turn, its queue put back at the prompt, unsent; at an empty prompt the first
// Ctrl-C warns and a second within EXIT_CTRL_C_MS exits; a question asked during a turn (a /reload's approval) takes the keys until it
// is answered; Ctrl-Z suspends. The exit code says how the session ended (a signal's code, else 0), never how an earlier turn did.
// The driver (repl.ts) reads the terminal, draws, runs lines and carries out the effects, in order.
import { remembered } from "./history-line.ts";
import { again, narrow, newSearch, searchPrompt, widen, type Search } from "./history-search.ts";
import type { Key } from "./keys.ts";
import type { Effect, ReplEvent, RowMove } from "./repl-effects.ts";
import { complete, completionList, editKey, emptyEditor, graphemeStart, insert, isKill, killedBy, type EditorState } from "./line-editor.ts";
import { expand, foldEntry, foldPaste, folds } from "./paste-fold.ts";
import { aheadAtEnd, readAfterEnd } from "./typed-ahead.ts";
import { initialRepl, type ReplState } from "./repl-model.ts";

/** A second Ctrl-C at an empty prompt within this window exits. */
export const EXIT_CTRL_C_MS = 2000;
/** Ctrl-C presses after a cancel the turn has not honoured yet before hey stops waiting and exits. */
export const FORCE_QUIT_PRESSES = 3;
/**
 * ...and only this long after the cancel: a command asked to stop gets 1.5 s to clean up before SIGKILL
 * (STOP_GRACE_MS, tools/process-tree.ts), and a user pressing Ctrl-C meanwhile wants the prompt back, not hey gone.
 */
export const FORCE_QUIT_AFTER_MS = 2500;
export { HELD_BREAK_MS } from "./typed-ahead.ts";
/** said, dim, under a turn that failed (an error, a limit) when lines were queued during it: they wait at the prompt, unsent */
export const HELD_AFTER_FAILURE = "the turn did not finish, so what you queued was not sent (Enter sends it)";

export type { Effect, ReplEvent } from "./repl-effects.ts";
export { initialRepl, type ReplState };

/** The text before the line: the question while one is asked, the search while one runs, else the prompt. */
export function promptOf(s: ReplState, prompt: string): string {
  if (s.mode === "ask" && s.asking) return s.asking.question;
  if (s.mode === "search" && s.search) return searchPrompt(s.search.state);
  return prompt;
}

/** Whether the line is drawn (and must be drawn again after output): at the prompt, in a search, at a question. */
export const drawn = (s: ReplState) => s.mode === "prompt" || s.mode === "search" || s.mode === "ask";

/**
 * The exit code now: after a signal (or the terminal closing) its code, else 0 — a turn cancelled
 * earlier does not make /quit or Ctrl-D an interrupted exit.
 */
export const exitCode = (s: ReplState) => s.signalled ?? 0;

type Step = { state: ReplState; effects: Effect[] };

export function step(s: ReplState, e: ReplEvent): Step {
  if (s.mode === "done" && e.type !== "aside") return { state: s, effects: [] };
  switch (e.type) {
    case "key":
      return onKey(s, e.key, e.more, e.now, e.rowMove);
    case "completed": {
      const { state: editor, unique } = complete(s.editor, e.candidates);
      const listed = editor.text === s.editor.text && !unique && e.candidates.length > 1 && completionList(e.candidates, s.editor, e.fit);
      return {
        state: { ...s, editor },
        effects: [...(listed ? [{ type: "below" } as const, { type: "print", text: listed } as const] : []), { type: "draw" }],
      };
    }
    case "ended":
      return ended(s, e.quit, e.now, e.failed);
    case "ask":
      if (s.mode !== "busy") return { state: s, effects: [{ type: "answer", text: undefined }] };
      return {
        state: { ...s, mode: "ask", asking: { question: e.question, saved: s.editor }, editor: emptyEditor([]), killing: false },
        effects: [{ type: "draw", fresh: true }],
      };
    case "signal":
      return signalled(s, e.code, e.why);
    case "aside":
      if (s.mode === "busy") return { state: { ...s, later: [...s.later, e.line] }, effects: [] };
      if (s.mode === "done") return { state: s, effects: [{ type: "print", text: e.line }] };
      return { state: s, effects: [{ type: "aside", text: e.line }] };
    case "edited":
      return edited(s, e.text, e.why);
  }
}

function onKey(s: ReplState, key: Key, more: boolean, now: number, rowMove?: RowMove): Step {
  const { killing = false, goalCol, ctrlX = false } = s; // a kill, an Up or Down, a Ctrl-X: each goes on into the next key, and ends there
  const late = readAfterEnd(s.mode === "prompt" ? s : {}, key, now);
  s = { ...s, killing: false, goalCol: undefined, ctrlX: false, ...late.times, editor: late.lineBreak ? insert(s.editor, "\n") : s.editor };
  if (s.mode === "search") return searchKey(s, key, more, now);
  // Esc then a letter read as one Alt key (typed quickly; one read over ssh): during a turn Esc is the stop a user counts on,
  // so it is the cancel it looks like, the letter kept (words are moved over with Ctrl-Left, Ctrl-Right there)
  if (s.mode === "busy" && key.type === "key" && key.alt !== undefined && PRINTABLE.test(key.alt)) {
    const cancelled = onKey(s, { type: "key", name: "escape" }, more, now);
    const typed = onKey(cancelled.state, { type: "text", text: key.alt }, more, now);
    return { state: typed.state, effects: [...cancelled.effects, ...typed.effects] };
  }
  // Ctrl-G, or Ctrl-X then Ctrl-E (bash's and zsh's): the line in the user's editor, the terminal theirs till it closes
  if (s.mode === "prompt" && key.type === "key" && (key.name === "cancel" || (ctrlX && key.name === "end")))
    return { state: { ...s, mode: "busy" }, effects: [{ type: "edit", text: expand(s.pastes, s.editor.text) }] };
  if (s.mode === "prompt" && key.type === "key" && key.name === "ctrlX") return { state: { ...s, ctrlX: true }, effects: [] };
  const redraw: Effect[] = drawn(s) ? [{ type: "draw" }] : [];
  if (key.type === "cursorAt")
    return { state: { ...s, cursorAsked: false }, effects: s.mode === "busy" && s.cursorAsked ? [{ type: "keepRow", row: key.row, col: key.col }] : [] };
  if (key.type === "paste" && folds(key.text)) {
    const { mark, pastes } = foldPaste(s.pastes, key.text);
    return { state: { ...s, pastes, editor: insert(s.editor, mark) }, effects: redraw };
  }
  if (key.type === "paste") {
    const editor = insert(s.editor, key.text);
    return { state: { ...s, editor, pasted: editor.cursor === editor.text.length ? editor.text : undefined }, effects: redraw };
  }
  if (key.type !== "key") return { state: { ...s, editor: insert(s.editor, key.text) }, effects: redraw };
  const edited = (editor: EditorState): Step => ({ state: { ...s, editor }, effects: redraw });
  switch (key.name) {
    case "enter": {
      // for lines that arrive together (a paste the terminal did not bracket), Enter is a newline; during a turn it queues the line
      if (more) return edited(insert(s.editor, "\n"));
      if (s.mode === "busy") return s.editor.text.trim() === "" ? { state: s, effects: [] } : queue(s);
      const { text, cursor } = s.editor;
      // a typed `\` continues the line; one a paste ended in is text (a Windows path, a shell line), sent as pasted
      if (text.endsWith("\\") && cursor === text.length && text !== s.pasted)
        return { state: { ...s, editor: insert({ ...s.editor, text: text.slice(0, -1), cursor: cursor - 1 }, "\n") }, effects: [{ type: "draw" }] };
      return submit(s);
    }
    case "interrupt":
      return ctrlC(s, now);
    case "escape":
      if (s.mode === "busy" && !s.cancelled) return { state: { ...s, cancelled: true, cancelledAt: now }, effects: [{ type: "abort" }] };
      return s.mode === "ask" ? answer(s, undefined) : escapeAtPrompt(s, now);
    case "eof":
      if (s.mode === "busy" || s.editor.text !== "") return edited(editKey(s.editor, "delete", s.history));
      if (s.mode === "ask") return answer(s, undefined);
      return leave(s, [{ type: "below" }]);
    case "tab":
      return { state: s, effects: s.mode === "prompt" ? [{ type: "complete", line: s.editor.text.slice(0, s.editor.cursor) }] : [] };
    case "clearScreen":
      // during a turn what is live is the row being written (the spinner, a line of the answer), where the cursor is
      if (s.mode === "busy") return { state: { ...s, cursorAsked: true }, effects: [{ type: "askCursor" }] };
      return { state: s, effects: [{ type: "clearScreen" }, { type: "draw" }] };
    case "suspend":
      return { state: s, effects: [{ type: "suspend" }] };
    case "backTab":
      return { state: s, effects: s.mode === "prompt" ? [{ type: "plan" }] : [] }; // the line typed stays as it is
    case "reverseSearch":
      if (s.mode !== "prompt") return { state: s, effects: [] };
      return { state: { ...s, mode: "search", search: { state: newSearch(), saved: s.editor }, lastCtrlC: 0 }, effects: [{ type: "draw" }] };
    case "forwardSearch":
    case "cancel":
    case "ctrlX":
      return { state: s, effects: [] };
    case "yank":
      return edited(insert(s.editor, s.killed));
    case "up":
    case "down": {
      // a row up or down the line as drawn, at the goal column; from its first or last row, through history
      const to = drawn(s) ? rowMove?.(key.name === "up" ? -1 : 1, goalCol) : undefined;
      const editor = to ? { ...s.editor, cursor: graphemeStart(s.editor.text, to.index) } : editKey(s.editor, key.name, s.mode === "prompt" ? s.history : []);
      return { state: { ...s, editor, goalCol: to?.goal }, effects: redraw };
    }
    default: {
      const editor = editKey(s.editor, key.name, s.mode === "prompt" ? s.history : []);
      const killed = killedBy(key.name, s.editor, editor, s.killed, killing);
      return { state: { ...s, editor, killed, killing: isKill(key.name) }, effects: redraw };
    }
  }
}

/** a character that is typed text, not a control (an Alt key's second half) */
const PRINTABLE = /^[^\x00-\x1f\x7f]$/u;

function ctrlC(s: ReplState, now: number): Step {
  if (s.mode === "ask") return answer(s, undefined);
  if (s.mode === "busy") {
    if (!s.cancelled) return { state: { ...s, cancelled: true, cancelledAt: now }, effects: [{ type: "abort" }] };
    const presses = s.cancelPresses + 1;
    const since = s.cancelledAt === undefined ? Infinity : now - s.cancelledAt; // a signal's cancel: it has its own grace
    if (presses < FORCE_QUIT_PRESSES || since < FORCE_QUIT_AFTER_MS) return { state: { ...s, cancelPresses: presses }, effects: [] };
    return forceQuit({ ...s, cancelPresses: presses }, since);
  }
  // the draft is cut, not lost: Ctrl-Y brings it back (a paste's [Pasted text #N] too: its text stays in `pastes`)
  if (s.editor.text !== "") {
    const cleared: ReplState = { ...s, editor: emptyEditor(s.history), killed: s.editor.text, lastCtrlC: 0 };
    if (s.editor.text !== s.typedAhead) return { state: cleared, effects: [{ type: "draw" }] };
    // typed unseen during the turn, and cleared maybe by a Ctrl-C meant for the turn: left on screen, and said
    const said = "cleared what you typed during the turn (Ctrl-Y brings it back)";
    return { state: { ...cleared, clearedAhead: s.editor.text }, effects: [{ type: "below" }, { type: "print", text: said, dim: true }, { type: "draw" }] };
  }
  if (now - s.lastCtrlC < EXIT_CTRL_C_MS) {
    // more presses than the turn needed must not lose what was typed during it: ↑ finds it at the next start
    const kept: Effect[] = s.clearedAhead ? [{ type: "remember", entry: expand(s.pastes, s.clearedAhead) }] : [];
    return leave(s, [{ type: "below" }, ...kept]);
  }
  return {
    state: { ...s, lastCtrlC: now },
    effects: [{ type: "below" }, { type: "print", text: "press Ctrl-C again or Ctrl-D to exit", dim: true }, { type: "draw" }],
  };
}

/**
 * The turn ignores its cancel: hey does not hold the user hostage. It exits at once, what was typed during the
 * turn (never seen, and no prompt to bring it back to) kept in the history, as Up finds it after a restart.
 */
function forceQuit(s: ReplState, since: number): Step {
  const draft = unsent(s);
  const kept = draft !== "";
  const after = Number.isFinite(since) ? ` ${Math.round(since / 1000)} s after it was cancelled` : "";
  const why = `hey quit: the turn had not stopped${after}${kept ? "; what you typed during it is in the history (↑)" : ""}`;
  const remember: Effect[] = kept ? [{ type: "remember", entry: draft }] : [];
  return { state: { ...s, mode: "done" }, effects: [...remember, { type: "exit", code: 130, why }] };
}

/**
 * What was typed and never sent, as one entry, its pastes whole: the lines queued during the turn and the line being typed (the
 * one a question put aside, the one a search started from), "" when there is none. Kept in the history when hey ends with it.
 */
function unsent(s: ReplState): string {
  const line = s.asking?.saved ?? s.search?.saved ?? s.editor;
  const recalled = s.history[line.historyIndex] === line.text; // an earlier line browsed to with ↑, not changed: in the history already
  const typing = recalled ? "" : line.text;
  const draft = expand(s.pastes, [...s.queued, typing].join("\n")).replace(/\n+$/, "");
  return draft.trim() === "" ? "" : draft;
}

/** Esc Esc at an empty prompt (Claude Code's rewind): where hey's undo is. */
function escapeAtPrompt(s: ReplState, now: number): Step {
  if (s.mode !== "prompt" || s.editor.text !== "") return { state: s, effects: [] };
  if (now - (s.lastEscape ?? -Infinity) >= EXIT_CTRL_C_MS) return { state: { ...s, lastEscape: now }, effects: [] };
  const text = "/undo puts back the files the agent's last turn changed (again: the turn before); /diff shows what changed";
  return { state: { ...s, lastEscape: undefined }, effects: [{ type: "below" }, { type: "print", text, dim: true }, { type: "draw" }] };
}

function submit(s: ReplState): Step {
  const text = s.editor.text;
  const full = expand(s.pastes, text);
  if (s.mode === "ask") return answer(s, full.trim(), [{ type: "below" }]);
  if (full.trim() === "") return { state: { ...s, editor: emptyEditor(s.history) }, effects: [{ type: "below" }, { type: "draw" }] };
  // history keeps the line as folded (recalled as fast as it was typed); the file and the model get it whole
  return run({ ...s, history: remembered(s.history, text) }, full, [{ type: "below" }, { type: "remember", entry: full }]);
}

/** Enter during a turn: the line joins the queue, sent when the turn ends; the next is typed on an empty line. */
function queue(s: ReplState): Step {
  return { state: { ...s, queued: [...s.queued, s.editor.text], editor: emptyEditor(s.history), pasted: undefined }, effects: [] };
}

/** A line becomes a turn: what is typed meanwhile collects in a new line, drawn under the turn's status. */
export function run(s: ReplState, line: string, before: Effect[] = []): Step {
  return {
    state: {
      ...s,
      mode: "busy",
      cancelled: false,
      cancelPresses: 0,
      cancelledAt: undefined,
      lastCtrlC: 0,
      editor: emptyEditor(s.history),
      clearedAhead: undefined,
    },
    effects: [...before, { type: "run", line }],
  };
}

/** The first line of a REPL opened with a message: shown as typed, remembered, run. */
export function runInitial(s: ReplState, line: string): Step {
  const { text, pastes } = foldEntry(s.pastes, line);
  return run({ ...s, pastes, history: remembered(s.history, text) }, line, [{ type: "remember", entry: line }]);
}

function answer(s: ReplState, text: string | undefined, before: Effect[] = []): Step {
  if (!s.asking) return { state: s, effects: [] };
  const below: Effect[] = text === undefined ? [{ type: "below" }] : before;
  const { asking: _, ...rest } = s;
  return { state: { ...rest, mode: "busy", editor: s.asking.saved }, effects: [...below, { type: "answer", text }] };
}

/**
 * A key during a history search: typing and Backspace change the query, Ctrl-R and Ctrl-S go to
 * the next older or newer match, Enter runs the line found, Esc, Ctrl-G and Ctrl-C give the line
 * back as it was; any other key takes the line found and acts on it at the prompt.
 */
function searchKey(s: ReplState, key: Key, more: boolean, now: number): Step {
  const { state: search, saved } = s.search!;
  const to = (next: Search): Step => {
    const editor = next.at === undefined ? saved : { text: s.history[next.at]!, cursor: next.offset, historyIndex: next.at, draft: saved.text };
    return { state: { ...s, search: { state: next, saved }, editor }, effects: [{ type: "draw" }] };
  };
  if (key.type === "cursorAt") return { state: s, effects: [] };
  if (key.type !== "key") return to(narrow(search, s.history, key.text, s.pastes));
  const prompt: ReplState = { ...s, mode: "prompt", search: undefined, lastQuery: search.query || s.lastQuery };
  switch (key.name) {
    case "reverseSearch":
    case "forwardSearch":
      return to(again(search, s.history, key.name === "reverseSearch" ? -1 : 1, s.lastQuery, s.pastes));
    case "backspace":
      return to(widen(search, s.history, s.pastes));
    case "escape":
    case "cancel":
    case "interrupt":
      return { state: { ...prompt, editor: saved }, effects: [{ type: "draw" }] };
    case "enter": {
      if (more) return to(narrow(search, s.history, "\n", s.pastes));
      // the search line gives way to the line found at the prompt, which stays above the turn as a typed line does
      const sent = submit(prompt);
      return { state: sent.state, effects: [{ type: "draw", line: prompt.editor.text }, ...sent.effects] };
    }
    default: {
      // the line found is taken as it is shown, and the key acts on it
      const taken = onKey(prompt, key, more, now);
      return taken.effects.length > 0 ? taken : { state: taken.state, effects: [{ type: "draw" }] };
    }
  }
}

function ended(s: ReplState, quit: boolean, now: number, failed = false): Step {
  const flushed: Effect[] = s.later.map((text) => ({ type: "print", text }));
  const next: ReplState = { ...s, cancelled: false, later: [] };
  if (quit || s.signalled !== undefined) return leave(next, flushed);
  // the turn ended as it meant to: the first line queued is sent, shown as a typed line is; the line being typed goes on under the next turn
  const [first, ...rest] = s.queued;
  if (first !== undefined && !s.cancelled && !failed) {
    const full = expand(s.pastes, first);
    const shown: Effect[] = [...flushed, { type: "draw", fresh: true, line: first }, { type: "below" }, { type: "remember", entry: full }];
    const sent = run({ ...next, queued: rest, history: remembered(s.history, first) }, full, shown);
    return { state: { ...sent.state, editor: s.editor }, effects: sent.effects };
  }
  // the line typed meanwhile, after what was queued, is shown, unsent, its cursor at the end: a cancel sends none of it (the user
  // stopped the agent), nor a turn that failed (the next line would go into the same failure, or act on what the user has not read:
  // the error stays in view above it); line breaks that ended it are not drawn, and keys read right after may have been typed before the end
  const held: Effect[] = failed && !s.cancelled && first !== undefined ? [{ type: "print", text: HELD_AFTER_FAILURE, dim: true }] : [];
  const { text, ...times } = aheadAtEnd([...s.queued, s.editor.text].filter((l) => l !== "").join("\n"), now);
  return {
    state: {
      ...next,
      ...times,
      mode: "prompt",
      queued: [],
      editor: { ...s.editor, text, cursor: text.length, historyIndex: s.history.length },
      typedAhead: text,
    },
    effects: [...flushed, ...held, { type: "draw", fresh: true }],
  };
}

/**
 * The user's editor closed: what it left is the line, unsent, the cursor at its end (an editor's final line break dropped);
 * none (no editor set, it failed): `why` is said and the line is as it was.
 */
function edited(s: ReplState, text: string | undefined, why = ""): Step {
  const back: ReplState = { ...s, mode: "prompt", later: [], cancelled: false };
  if (s.signalled !== undefined || s.mode !== "busy") return s.signalled !== undefined ? leave(back) : { state: s, effects: [] };
  const effects: Effect[] = [...s.later.map((line) => ({ type: "print", text: line }) as const), { type: "draw", fresh: true }];
  if (text === undefined) return { state: back, effects: [{ type: "print", text: why, dim: true }, ...effects] };
  const line = text.replace(/\r\n?/g, "\n").replace(/\n+$/, "");
  return { state: { ...back, editor: { ...s.editor, text: line, cursor: line.length } }, effects };
}

function signalled(s: ReplState, code: number, why: string): Step {
  if (s.signalled !== undefined) return { state: s, effects: [] }; // the first one says what happened
  const next: ReplState = { ...s, signalled: code };
  // what was typed and not sent (queued during the turn, the line at the prompt) is in the history, where ↑ finds it at the next
  // start, as after a force quit: now, before the turn is stopped, as the grace may end hey before the turn does
  const draft = unsent(s);
  const kept: Effect[] = draft === "" ? [] : [{ type: "remember", entry: draft }];
  if (s.mode === "prompt" || s.mode === "search") return leave(next, [...kept, { type: "below" }]); // the shell's prompt goes on a line of its own
  if (s.mode !== "busy" && s.mode !== "ask") return leave(next);
  const asked = s.mode === "ask" ? answer({ ...next, cancelled: true }, undefined) : { state: { ...next, cancelled: true }, effects: [] };
  return { state: asked.state, effects: [...kept, { type: "abort", why }, ...asked.effects, { type: "grace", code }] };
}

function leave(s: ReplState, before: Effect[] = []): Step {
  const done: ReplState = { ...s, mode: "done" };
  return { state: done, effects: [...before, { type: "leave", code: exitCode(done) }] };
}
