// What the REPL shows before and between prompts (issue 14): the one-line banner, the last
// exchange of a resumed session, and the numbered list `/resume` picks from. Pure.
import { textOf, type Message } from "../kernel/ir.ts";
import { formatSize, oneLine, type SessionInfo } from "../sessions/format.ts";
import { visible } from "./visible.ts";

const DIM = "\x1b[2m";
const RESET = "\x1b[0m";
/** A resumed session shows this many lines of its last question and answer. */
const PAST_QUESTION_LINES = 3;
const PAST_ANSWER_LINES = 12;
/** `/resume` offers this many of the directory's latest sessions. */
export const RESUME_CHOICES = 10;

const dim = (text: string, color: boolean) => (color ? DIM + text + RESET : text);

/** `~/…` for paths under `home`. */
export function shortPath(path: string, home: string | undefined): string {
  return home && (path === home || path.startsWith(home + "/")) ? "~" + path.slice(home.length) : path;
}

/** One dim line: version, provider/model, directory, and where help is. */
export function banner(o: { version: string; provider: string; model: string; cwd: string; home?: string; color: boolean }): string {
  return dim(`hey ${o.version} · ${o.provider}/${o.model} · ${visible(shortPath(o.cwd, o.home))} · /help for commands`, o.color) + "\n";
}

/** The last question and its answer, dim, for a resumed session; "" when there is none. */
export function lastExchange(messages: readonly Message[], prompt: string, color: boolean): string {
  const asked = messages.findLastIndex((m) => m.role === "user" && textOf(m).trim() !== "");
  if (asked < 0) return "";
  const answer = messages.slice(asked + 1).findLast((m) => m.role === "assistant" && textOf(m).trim() !== "");
  const cap = (text: string, max: number, fromEnd: boolean) => {
    const lines = visible(text.trim()).split("\n");
    if (lines.length <= max) return lines;
    return fromEnd ? ["…", ...lines.slice(-max)] : [...lines.slice(0, max), "…"];
  };
  const shown = [...cap(textOf(messages[asked]!), PAST_QUESTION_LINES, false).map((l, i) => (i === 0 ? prompt : "  ") + l), ...(answer ? cap(textOf(answer), PAST_ANSWER_LINES, true) : [])];
  return shown.map((l) => dim(l, color)).join("\n") + "\n";
}

/** `/resume`'s choices: number, when, size, first prompt. */
export function resumeChoices(infos: SessionInfo[]): string {
  const when = (ms: number) => {
    const d = new Date(ms);
    const p = (n: number) => String(n).padStart(2, "0");
    return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
  };
  const width = String(infos.length).length;
  return infos.map((s, i) => `${String(i + 1).padStart(width)}  ${when(s.modified)}  ${formatSize(s.size).padStart(8)}  ${visible(oneLine(s.firstPrompt || "(no prompt)", 60))}`).join("\n") + "\n";
}
