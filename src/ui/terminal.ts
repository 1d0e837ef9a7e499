// Human-readable output (SPEC §17, issue 14): the streamed answer (light markdown and word wrap on
// a terminal), dim thinking, one readable line per tool call and a short status per result with
// the diff of an edit or a write, and a spinner with elapsed seconds whenever hey waits. Text hey
// did not write is passed through visible() first. In `-p` mode `info` is stderr; when stdout is
// not a terminal it gets only the final answer, and the text of turns that called tools goes to
// stderr as narration (issue 10 item 4).
import type { AgentEvent } from "../kernel/output.ts";
import type { Stream, TerminalOptions, TerminalOutput } from "./terminal-output.ts";
import { createTextStream, rawTextStream, type TextStream } from "./markdown.ts";
import { cutToWidth, wrapColumns } from "./wrap.ts";
import { type Before, commandRest, DIFF_INDENT, resultLines, resultStatus, toolLine } from "./tool-lines.ts";
import { visible } from "./visible.ts";
import { compactionLine } from "./compaction-line.ts";
import { lineEnd, QUIET_MS } from "./quiet-status.ts";
import { delayWords, spinnerWords } from "./spinner-words.ts";
import { aheadBlock, LIVE_COLUMNS, liveLines, liveRowsFor, liveRowsUp } from "./live-rows.ts";
import { frameHold } from "./frame-hold.ts";
import { TOOL } from "../kernel/tool-names.ts";
import { parseArguments } from "../kernel/ir.ts";
import { callPath } from "../kernel/tool-args.ts";

export type { Stream, TerminalOptions, TerminalOutput } from "./terminal-output.ts";

const DIM = "\x1b[2m";
const BOLD = "\x1b[1m";
const RED = "\x1b[31m";
const YELLOW = "\x1b[33m";
const RESET = "\x1b[0m";
const CLEAR_LINE = "\r\x1b[K";
const SPINNER_FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
/** fast enough to look alive, slow enough to cost nothing measurable */
const SPINNER_INTERVAL_MS = 100;
/**
 * from the cursor's row and everything below cleared, never from the screen's top corner: tmux
 * keeps what such a clear wipes in the scrollback (a copy per redraw once Ctrl-L put the lines there)
 */
const CLEAR_DOWN = "\r \x1b[J\r\x1b[K";
/** starts each stretch of thinking where it cannot be shown dim */
const THINKING_MARK = "thinking: ";

export function createTerminalOutput(answer: Stream, info: Stream, opts: TerminalOptions = {}): TerminalOutput {
  const width = opts.stringWidth ?? ((t: string) => [...t].length);
  const now = opts.now ?? Date.now;
  const later = opts.later ?? ((ms, run) => clearTimeout.bind(null, setTimeout(run, ms).unref()));
  const end = lineEnd(width); // where the streamed text stands, for a status under it
  const waits = spinnerWords(now, opts.host);
  // -p with stdout not a terminal: stdout gets the final answer only
  const finalOnly = answer !== info && !answer.tty;
  const textStream = (s: Stream, markdown: boolean): TextStream =>
    s.tty ? createTextStream({ width: () => s.columns?.() ?? 0, stringWidth: width, markdown: markdown && s.color }) : rawTextStream();
  const text = textStream(answer, true);
  const thought = textStream(info, false);
  const atLineStart = new Map<Stream, boolean>([
    [answer, true],
    [info, true],
  ]);
  const write = (s: Stream, t: string, color?: string) => {
    if (t === "") return;
    // the reset goes before a final newline, so a style never leaks into the next line's start
    const styled = color && s.color ? (t.endsWith("\n") ? color + t.slice(0, -1) + RESET + "\n" : color + t + RESET) : t;
    s.write(styled);
    end.wrote(styled);
    atLineStart.set(s, t.endsWith("\n"));
  };
  const endLine = (s: Stream) => {
    if (!atLineStart.get(s)) write(s, "\n");
  };

  let section: "text" | "thinking" | undefined; // what the last streamed text was
  let showThinking = true;
  let turnText = ""; // finalOnly: this turn's text, until it turns out to be narration or the answer
  let turnAnswered = false; // this turn has written text
  let inTurn = false; // between turn_start and done: a summary outside one is /compact's
  const calls = new Map<string, { name: string; args: string; before?: Before; label: string; copies?: number }>();
  const copies = new Set<string>(); // calls that repeat an earlier one of their reply: not run, no line of their own
  let batch = 0; // calls announced in the current turn

  /** ends the streamed text or thinking, so other lines start on a line of their own */
  const closeSection = () => {
    if (section === "text") write(answer, text.finish());
    if (section === "thinking") write(info, thought.finish(), DIM);
    section = undefined;
  };

  let spinner: ReturnType<typeof setInterval> | undefined;
  let spinLabel = "";
  let spinUntil: number | undefined;
  let spinStart = 0;
  const live = new Map<string, string[]>(); // running commands' last lines of output, by call
  let liveDrawn = { cells: [] as number[][], columns: 0, height: 0, below: false }; // the rows of them above the spinner's, as drawn; rows under it
  let typing: ((columns: number) => string[]) | undefined; // the REPL's rows under the spinner (what is typed and queued during the turn), at a width
  let spinLine = ""; // the spinner's row as drawn: the cursor is at its end
  /** a drawn line's characters, the columns of each (what a resize reflows) */
  const cellsOf = (line: string) => [...line].map(width).filter((w) => w > 0);
  let back: ((columns: number) => string) | undefined; // after a status under the text is cleared: what takes the cursor back to where the text stopped
  let spinUnder = false; // the spinner is the quiet status under the streamed text
  let cancelQuiet = () => {};
  /**
   * the live lines above the spinner's row, cut to one row each; the spinner is drawn after them.
   * Commands side by side each show under their own line, in the order they were called (and a
   * command's under its own while other calls of the batch still run)
   */
  const drawLive = () => {
    const running = [...calls].filter(([id]) => live.has(id)).map(([id, call]) => ({ label: call.label, lines: live.get(id)! }));
    const lines = liveLines(running, calls.size > 1, DIFF_INDENT);
    const columns = info.columns?.() || LIVE_COLUMNS; // a wrapped row would not be cleared: cut even when the width is unknown
    // and no more rows than fit above the spinner's (and what is typed under it): a row scrolled off the screen's top could not be cleared
    const height = info.rows?.() ?? 0;
    const rows = lines.slice(lines.length - liveRowsFor(lines.length, height, typing?.(columns).length)).map((l) => cutToWidth(l, columns, width));
    const block = rows.join("\n");
    info.write(block === "" ? "" : (info.color ? DIM + block + RESET : block) + "\n");
    liveDrawn = { cells: rows.map(cellsOf), columns, height, below: liveDrawn.below };
  };
  /** the live lines and the spinner's row cleared, the cursor where the first was: as many rows up as the terminal's reflow made them after a resize */
  const clearLive = () => {
    const up = liveRowsUp(liveDrawn.cells, liveDrawn.columns, cellsOf(spinLine), width(spinLine), info.columns?.() || LIVE_COLUMNS);
    info.write(up > 0 ? `\r\x1b[${up}A${CLEAR_DOWN}` : liveDrawn.below ? CLEAR_DOWN : CLEAR_LINE);
    liveDrawn = { cells: [], columns: 0, height: 0, below: false };
  };
  const stopSpinner = () => {
    cancelQuiet(); // the caller writes, or a spinner of its own starts
    if (!spinner) return;
    clearInterval(spinner);
    spinner = undefined;
    clearLive(); // the live lines go with it: the scrollback keeps none
    if (back) info.write(back(info.columns?.() ?? 0));
    back = undefined;
  };
  /**
   * `start`: when the wait began (a spinner drawn again after a notice keeps counting); `until`: a
   * wait with a known end (a retry's delay) counts down to it, then the wait for the answer counts up;
   * `under`: drawn under the streamed text, which goes on where it stopped once the spinner is cleared
   */
  const spin = (label: string, start = now(), until?: number, under?: { below: string; back(columns: number): string }) => {
    if (!info.tty) return;
    if (spinner && label === spinLabel) return;
    stopSpinner();
    spinUnder = under !== undefined;
    if (under) {
      info.write(under.below);
      back = under.back;
    } else {
      closeSection();
      endLine(answer);
      endLine(info);
    }
    spinLabel = label;
    spinStart = start;
    spinUntil = until;
    let frame = 0;
    drawLive();
    const draw = (redrawLive = false) => {
      // a resize since the last frame: the terminal reflowed the rows drawn, which are cleared as it reflowed them
      // (and a window made shorter or taller holds fewer or more of them)
      if (redrawLive || (info.columns?.() || LIVE_COLUMNS) !== liveDrawn.columns || (info.rows?.() ?? 0) !== liveDrawn.height) {
        clearLive();
        drawLive();
      }
      const line = fitted(`${SPINNER_FRAMES[frame++ % SPINNER_FRAMES.length]} ${waits.words(label, spinStart, until)}`); // one row: a wrapped line would not be cleared
      const below = aheadBlock(typing?.(info.columns?.() || LIVE_COLUMNS) ?? [], width(line), liveDrawn.below, info.color);
      info.write(CLEAR_LINE + (info.color ? DIM + line + RESET : line) + below.text);
      [spinLine, liveDrawn.below] = [line, below.drawn];
    };
    draw();
    if (under && typing) held.drawn();
    spinner = setInterval(draw, SPINNER_INTERVAL_MS);
    redraw = (live = true) => draw(live);
  };
  let redraw = (_live?: boolean) => {};
  /** after streamed text or thinking: a stream quiet for QUIET_MS (a stall, a call's arguments coming) shows a status under it */
  const awaitQuiet = (atOnce = false) => {
    cancelQuiet();
    if (!info.tty || finalOnly || section === undefined || spinner) return;
    // while the user types during the turn, the status (the wait it counted going on) and their line come back under the text at once
    const since = typing ? spinStart : now();
    const show = () => {
      const under = end.status(info.columns?.() ?? 0);
      if (under && section !== undefined && !spinner) spin(typing ? "working…" : "waiting for the model…", since, undefined, under);
    };
    if (atOnce && typing)
      show(); // what was held for a frame went out: the rows drawn again with it, not a tick later
    else cancelQuiet = later(typing ? 0 : QUIET_MS, show);
  };
  // text streamed while the status and the typed rows stand under it: it goes out with them cleared and drawn again, once a frame
  const held = frameHold<Stream>((to, t, color, atFrame) => (stopSpinner(), write(to, t, color), awaitQuiet(atFrame)), now, later);
  const rowsUnder = () => typing !== undefined && spinUnder && spinner !== undefined;

  /** a line of hey's own on `info`, after whatever was streaming */
  const infoLine = (line: string, color?: string) => {
    stopSpinner();
    closeSection();
    endLine(answer);
    endLine(info);
    write(info, wrapColumns(line, info.columns?.() ?? 0, width) + "\n", color); // at spaces, never mid-word
  };
  /** finalOnly: the turn's text so far goes to stderr (narration) or, at the end, to stdout */
  const flushTurn = (to: Stream) => {
    if (turnText.trim() !== "") {
      endLine(to);
      write(to, turnText.endsWith("\n") ? turnText : turnText + "\n");
    }
    turnText = "";
  };

  const showResult = (event: Extract<AgentEvent, { type: "tool_result" }>) => {
    const call = calls.get(event.id);
    calls.delete(event.id);
    const status = resultStatus(event.name, event.ok, visible(event.output), call?.args, call?.before);
    const label = batch > 1 && call ? call.label : "";
    for (const [line, color] of resultLines(status, label, call?.copies, info.columns?.() ?? 0, width, info.color)) write(info, `${line}\n`, color);
  };
  /**
   * `text` cut with "…" to the terminal's width, `lead` columns of its line being taken before it
   * (a status or a preview line must not wrap into the next one); whole where there is no width.
   */
  const fitted = (text: string, lead = 0) => (room(lead) <= 0 ? text : cutToWidth(text, room(lead), width));
  /** the columns of the terminal's width left after `lead` (at least one); 0 where there is no width */
  const room = (lead: number) => ((info.columns?.() ?? 0) <= 0 ? 0 : Math.max(1, info.columns!() - lead));

  return {
    stopSpinner: () => (held.release(), stopSpinner()),
    suspend(moved) {
      held.release();
      const was = spinner ? { label: spinLabel, start: spinStart, until: spinUntil, under: spinUnder } : undefined;
      if (moved) [liveDrawn, back] = [{ cells: [], columns: 0, height: 0, below: false }, undefined]; // the shell's lines stand where they were drawn
      if (moved) clearInterval(spinner);
      else stopSpinner();
      // after a SIGSTOP the status's timer may have drawn a frame on the shell's fresh line before this
      // (timers run before the SIGCONT is handled): that line is cleared, the stream goes on below it
      if (moved && was) info.write(CLEAR_LINE);
      [spinner, spinLabel] = [undefined, ""];
      const line = end.shown();
      if (line !== "") info.write("\r\n");
      return () => {
        info.write(line); // the rest of the stream goes on after it, below what the shell wrote
        if (was) spin(was.label, was.start, was.until, was.under ? end.status(info.columns?.() ?? 0) : undefined);
      };
    },
    toggleThinking: () => (showThinking = !showThinking),
    typing(rows) {
      typing = rows;
      if (spinner) redraw(false);
      else if (rows) awaitQuiet();
    },
    notice(line) {
      held.release();
      const running = spinner ? { label: spinLabel, start: spinStart, until: spinUntil } : undefined;
      infoLine(line);
      if (!running) return;
      spin(running.label, running.start, running.until); // the same wait goes on: its seconds keep counting
    },
    emit(event: AgentEvent) {
      waits.heard(event);
      if (event.type !== "text_delta" && event.type !== "thinking_delta") held.release(); // the stream's text first, then what follows it
      switch (event.type) {
        case "turn_start":
          inTurn = true;
          batch = 0;
          turnAnswered = false;
          spin("working…");
          break;
        case "thinking_delta": {
          if (!showThinking) break;
          // without colours (NO_COLOR, a pipe) dim is lost: a word tells thinking from the answer and narration
          const shown = thought.push((section !== "thinking" && !info.color ? THINKING_MARK : "") + visible(event.text));
          if (section === "thinking" && held.hold(info, shown, rowsUnder(), DIM)) break;
          held.release();
          if (shown !== "" || section === "text") stopSpinner(); // while all of it is held, the spinner goes on
          if (section === "text") closeSection();
          write(info, shown, DIM);
          section = "thinking";
          awaitQuiet();
          break;
        }
        case "message":
          // finalOnly: a message of hey's to the model after text (a call the provider could not parse,
          // to be made again) makes that text narration, not the final answer; it goes out before what follows
          if (finalOnly && event.message.role === "user") flushTurn(info);
          break;
        case "text_delta": {
          // finalOnly: the text goes to stdout (a file, a pipe) at the end; the terminal is told it is coming
          if (finalOnly && event.text.trim() !== "") spin("writing…");
          const shown = finalOnly ? "" : text.push(visible(event.text));
          if (event.text.trim() !== "") turnAnswered = true;
          if (section === "text" && held.hold(answer, shown, rowsUnder())) break;
          held.release();
          if (shown !== "" || section === "thinking") stopSpinner(); // while all of it is held, the spinner goes on
          if (section === "thinking") {
            closeSection();
            if (info === answer) write(info, "\n"); // a blank line between thinking and answer
          }
          section = "text";
          if (!finalOnly) write(answer, shown);
          else turnText += visible(event.text);
          awaitQuiet();
          break;
        }
        case "tool_call": {
          if (event.same_as !== undefined) {
            const first = calls.get(event.same_as); // its result line says how often it was asked for
            if (first) first.copies = (first.copies ?? 0) + 1;
            copies.add(event.id);
            break;
          }
          if (finalOnly) {
            stopSpinner(); // the turn's text was narration: it goes where the spinner was
            closeSection();
            flushTurn(info);
          }
          const label = visible(toolLine(event.name, event.arguments, event.server));
          calls.set(event.id, { name: event.name, args: event.arguments, label });
          batch++;
          infoLine(label, BOLD);
          for (const line of commandRest(event.name, event.arguments)) write(info, fitted(`  ${visible(line)}`) + "\n", BOLD);
          spin("running…");
          break;
        }
        case "tool_start": {
          // the file as this call finds it: an earlier call of the batch may have written it
          const call = calls.get(event.id);
          if (call?.name === TOOL.writeFile) call.before = before(call.args);
          break;
        }
        case "tool_progress": {
          // the wait goes on, its seconds counting from the call's start; side by side calls say whose it is
          const call = calls.get(event.id);
          if (spinner && call) spin(`running… ${batch > 1 ? `${call.label}: ` : ""}${visible(event.note)}`, spinStart);
          break;
        }
        case "tool_output":
          // redrawn in place under the call's line, until its result replaces them
          if (!calls.has(event.id)) break;
          live.set(event.id, event.lines);
          if (spinner) redraw();
          break;
        case "tool_result":
          if (copies.delete(event.id)) break;
          live.delete(event.id);
          stopSpinner();
          showResult(event);
          spin(calls.size > 0 ? "running…" : "working…");
          break;
        case "notice":
        case "fallback": // another model answers from here on: as plain to see as a retry
          infoLine(`hey: ${visible(event.message)}`, event.type === "fallback" ? YELLOW : DIM);
          break;
        case "retry":
          infoLine(`retrying in ${delayWords(event.delay_ms)} (${event.attempt}/${event.retries ?? opts.maxRetries ?? "?"}): ${visible(event.error)}`, YELLOW);
          spin("retrying in", now(), now() + event.delay_ms);
          break;
        case "summarizing":
          // a summary takes 10-30 s, and interrupting it loses it: the user sees what the wait is
          // outside a turn it is /compact's, which Esc cancels at the prompt (and nothing else would say so)
          spin(inTurn || !opts.cancelKey ? "summarizing the conversation…" : `summarizing the conversation (${opts.cancelKey} cancels)…`);
          break;
        case "compaction": {
          const waiting = spinner !== undefined;
          infoLine(compactionLine(event), DIM);
          if (waiting && inTurn) spin("working…"); // the turn's own request follows the summary; /compact's is all
          break;
        }
        case "error": {
          // a cut-off answer is not a failure of hey's or the provider's: said as a warning, with what to do
          if (event.kind === "length") infoLine(visible(event.message), YELLOW);
          // the user's own Ctrl-C or Esc (or a signal) stopped it: what happened, not a failure in red
          else if (event.kind === "interrupted") infoLine(visible(event.message), DIM);
          else infoLine(`error: ${visible(event.message)}`, RED);
          const hint = opts.hint?.(event);
          if (hint) write(info, wrapColumns(hint, info.columns?.() ?? 0, width) + "\n"); // the setup help: at spaces, never mid-word
          break;
        }
        case "done":
          inTurn = false;
          stopSpinner();
          closeSection();
          if (finalOnly) flushTurn(answer);
          // an empty end_turn after tool results is how Claude may end a task (other protocols retry it as a flake): the work is done, exit 0
          if (event.stop_reason === "end" && !turnAnswered && event.turns > 0) infoLine("the model ended without a final answer; its work is above", YELLOW);
          if (event.stop_reason === "max_turns") infoLine("stopped at the turn limit (--max-turns)", YELLOW);
          if (event.stop_reason === "max_run_tokens") {
            const used = `${event.usage.estimated ? "~" : ""}${(event.usage.input_tokens + event.usage.output_tokens).toLocaleString("en-US")}`;
            infoLine(`stopped at the run's token limit (--max-run-tokens): ${used} tokens used, the hand-off included`, YELLOW);
          }
          endLine(info);
          endLine(answer);
          calls.clear();
          live.clear();
          break;
      }
    },
  };

  function before(argsJson: string): Before | undefined {
    const path = callPath(parseArguments(argsJson)); // `file_path` too, as the call will take it
    return path ? opts.readBefore?.(path) : undefined;
  }
}
