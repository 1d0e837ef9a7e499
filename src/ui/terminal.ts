// Human-readable output (SPEC §17): streamed answer text, dim thinking, a spinner until the first
// token, one line per tool call and per result. In `-p` mode stdout carries only the answer;
// everything else goes to stderr so `hey -p … > answer.txt` captures just the answer.
import type { AgentEvent, Output } from "../kernel/output.ts";

export interface Stream {
  write(text: string): void;
  /** colors and the spinner only where a person is watching (a TTY, and NO_COLOR unset) */
  color: boolean;
}

const DIM = "\x1b[2m";
const RED = "\x1b[31m";
const GREEN = "\x1b[32m";
const YELLOW = "\x1b[33m";
const RESET = "\x1b[0m";
const CLEAR_LINE = "\r\x1b[K";
const SPINNER_FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
const SPINNER_INTERVAL_MS = 80;
/** tool arguments and results are shown on one line, cut to this many characters */
const LINE_WIDTH = 100;

/**
 * `answer` receives the assistant's text; `info` thinking, tool lines, retries and errors.
 * In the REPL both are stdout; in `-p` mode `info` is stderr.
 */
export interface TerminalOutput extends Output {
  stopSpinner(): void;
  /** flips whether thinking is shown (display only; what is sent never changes); returns the new state */
  toggleThinking(): boolean;
}

export function createTerminalOutput(answer: Stream, info: Stream, opts: { maxRetries?: number } = {}): TerminalOutput {
  // whether each stream's cursor sits at the start of a line (answer and info may be one stream)
  const atLineStart = new Map<Stream, boolean>([[answer, true], [info, true]]);
  const write = (s: Stream, text: string, color?: string) => {
    if (text === "") return;
    s.write(color && s.color ? color + text + RESET : text);
    atLineStart.set(s, text.endsWith("\n"));
  };
  const endLine = (s: Stream) => {
    if (!atLineStart.get(s)) write(s, "\n");
  };
  let spinner: ReturnType<typeof setInterval> | undefined;
  let thinking = false; // the last thing shown was thinking
  let showThinking = true;

  const stopSpinner = () => {
    if (!spinner) return;
    clearInterval(spinner);
    spinner = undefined;
    info.write(CLEAR_LINE);
  };
  const startSpinner = () => {
    if (!info.color || spinner || !atLineStart.get(info)) return;
    let frame = 0;
    const draw = () => info.write(`${CLEAR_LINE}${DIM}${SPINNER_FRAMES[frame++ % SPINNER_FRAMES.length]} working…${RESET}`);
    draw();
    spinner = setInterval(draw, SPINNER_INTERVAL_MS);
  };
  const infoLine = (text: string, color: string, mark = "") => {
    stopSpinner();
    endLine(answer);
    endLine(info);
    thinking = false;
    write(info, mark, color);
    write(info, text + "\n", mark ? undefined : color);
  };

  return {
    stopSpinner,
    toggleThinking: () => (showThinking = !showThinking),
    emit(event: AgentEvent) {
      switch (event.type) {
        case "turn_start":
          startSpinner();
          break;
        case "thinking_delta":
          if (!showThinking) break;
          stopSpinner();
          if (!thinking) endLine(answer);
          thinking = true;
          write(info, event.text, DIM);
          break;
        case "text_delta":
          stopSpinner();
          if (thinking) {
            endLine(info);
            if (info === answer) write(info, "\n"); // a blank line between thinking and answer
            thinking = false;
          }
          write(answer, event.text);
          break;
        case "tool_call":
          infoLine(`→ ${event.name} ${oneLine(event.arguments)}`, DIM);
          break;
        case "tool_result":
          infoLine(oneLine(event.output), event.ok ? GREEN : RED, event.ok ? "✓ " : "✗ ");
          break;
        case "retry":
          infoLine(`retrying in ${formatDelay(event.delay_ms)} (${event.attempt}/${opts.maxRetries ?? "?"}): ${event.error}`, YELLOW);
          break;
        case "compaction":
          infoLine(
            event.kind === "summary"
              ? `context: summarized older work (~${event.tokens_before} → ~${event.tokens_after} tokens)`
              : `context: older messages left out to fit the budget${event.error ? ` (${event.error})` : ""}`,
            DIM,
          );
          break;
        case "error":
          infoLine(`error: ${event.message}`, RED);
          break;
        case "done":
          stopSpinner();
          if (event.stop_reason === "length") infoLine("the answer was cut off: the model reached its output token limit (raise max_tokens)", YELLOW);
          if (event.stop_reason === "max_turns") infoLine("stopped at the turn limit (--max-turns)", YELLOW);
          endLine(info);
          endLine(answer);
          thinking = false;
          break;
        default:
          break;
      }
    },
  };
}

/** the first line of `text`, cut to LINE_WIDTH characters, for one-line tool status */
function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > LINE_WIDTH ? flat.slice(0, LINE_WIDTH - 1) + "…" : flat;
}

function formatDelay(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`;
}
