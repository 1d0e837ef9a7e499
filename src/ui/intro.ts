// What the REPL shows before and between prompts (issue 14): the one-line banner, the last
// exchange of a resumed session, and the numbered list `/resume` picks from. Pure.
import { SUMMARY_ID } from "../context/passes.ts";
import { textOf, type Message } from "../kernel/ir.ts";
import { ranCalls } from "../kernel/repeats.ts";
import { typedText } from "../kernel/user-notes.ts";
import { cutBeforeAnswer } from "../kernel/turns.ts";
import { formatSize, oneLine, type SessionInfo } from "../sessions/format.ts";
import { typedSkillLine } from "../skills/catalog.ts";
import { createTextStream } from "./markdown.ts";
import { pastStatus, toolLine } from "./tool-lines.ts";
import { visible } from "./visible.ts";
import { cutToWidth, wrapColumns } from "./wrap.ts";

const DIM = "\x1b[2m";
const RESET = "\x1b[0m";
/** A resumed session shows this many lines of its last question and answer. */
const PAST_QUESTION_LINES = 3;
const PAST_ANSWER_LINES = 12;
/** `/resume` offers this many of the directory's latest sessions. */
export const RESUME_CHOICES = 10;

export const dim = (text: string, color: boolean): string => (color ? DIM + text + RESET : text);
/** A rendered line dim throughout: its styles' ends (`0m`, and `22m` after bold) would end the dim too, so it is set again after each. */
const dimRendered = (line: string, color: boolean): string =>
  color ? (DIM + line.replace(/\x1b\[(?:0|22)m(?!$)/g, (end) => end + DIM)).replace(/(?:\x1b\[0m)?$/, RESET) : line;

/** `~/…` for paths under `home` (`~\…` on Windows). */
export function shortPath(path: string, home: string | undefined): string {
  return home && (path === home || path.startsWith(home + "/") || path.startsWith(home + "\\")) ? "~" + path.slice(home.length) : path;
}

/**
 * One dim line: version, provider/model (and the variable the model came from: ANTHROPIC_MODEL; and its address when a variable moved a built-in provider's,
 * `via`: OPENAI_BASE_URL, OLLAMA_HOST — the key goes there), directory (and its project root when that is
 * another), and where help is.
 */
export function banner(o: {
  version: string;
  provider: string;
  model: string;
  /** the variable the model came from (ANTHROPIC_MODEL), when one did */
  modelVar?: string;
  via?: { urlVar: string; baseUrl: string };
  cwd: string;
  root?: string;
  home?: string;
  color: boolean;
}): string {
  const project = o.root && o.root !== o.cwd ? ` (project ${visible(shortPath(o.root, o.home))})` : "";
  const via = o.via ? ` at ${visible(o.via.baseUrl)} (${o.via.urlVar})` : "";
  const modelVar = o.modelVar ? ` (${o.modelVar})` : "";
  return (
    dim(`hey ${o.version} · ${o.provider}/${o.model}${modelVar}${via} · ${visible(shortPath(o.cwd, o.home))}${project} · /help for commands`, o.color) + "\n"
  );
}

/**
 * The line a user's first run at a terminal says when hey has no [permission] list (run.ts, once per
 * user): nothing else tells a newcomer from Claude Code or Codex that no tool call is asked about.
 */
export const unaskedLine = (userConfig: string, home: string) =>
  `the agent's tool calls (edits, shell commands) run without asking; to limit them, set [permission] allow/deny in ${shortPath(userConfig, home)} (README "Permissions")`;

/** How the terminal shows an answer: its width (0 = no wrapping), display widths, and whether it takes styles. */
export interface AnswerFormat {
  color: boolean;
  columns: number;
  stringWidth(text: string): number;
}

/**
 * The last exchange of a resumed session, dim (issue 14): the user's last question after the
 * prompt (a summary of earlier work is none), and the answer rendered as a live answer is
 * (markdown, word wrap); "" when there is none. A long question shows its first lines and its
 * last; a long answer its last lines; a skill's message, the `/skill:NAME args` line it was typed as.
 */
export function lastExchange(messages: readonly Message[], prompt: string, format: AnswerFormat): string {
  // a summary that stands for earlier work in a resumed history is no question the user asked
  const asked = messages.findLastIndex((m) => m.role === "user" && !m.id.startsWith(SUMMARY_ID) && textOf(m).trim() !== "");
  if (asked < 0) return "";
  const said = (m: Message, i: number) => i > asked && m.role === "assistant" && textOf(m).trim() !== "";
  let at = messages.findLastIndex(said);
  // the user stopped it after its calls, before it said more (`[interrupted by the user]`): the calls are said, then that
  const stop = at >= 0 && cutBeforeAnswer(messages[at]!) && messages.slice(asked + 1, at).some((m) => m.toolCalls?.length) ? messages[at] : undefined;
  if (stop) at = messages.findLastIndex((m, i) => i < at && said(m, i));
  const stopped = stop ? [dim(textOf(stop), format.color)] : [];
  const answer = at < 0 ? undefined : messages[at];
  const cap = (lines: string[], max: number, fromEnd: boolean) => {
    if (lines.length <= max) return lines;
    // a question's start and its last line: after a paste, what the user asked of it is often at the end
    return fromEnd ? [dim("…", format.color), ...lines.slice(-max)] : [...lines.slice(0, max - 1), "…", lines.at(-1)!];
  };
  const text = typedText(messages[asked]!); // without the notes hey put before the words
  // a `/skill:NAME args` message as it was typed, as the session listings show it: not the skill's text
  const question = cap(visible((typedSkillLine(text) ?? text).trim()).split("\n"), PAST_QUESTION_LINES, false).map((l, i) =>
    dim((i === 0 ? prompt : "  ") + l, format.color),
  );
  if (!answer) return [...question, ...unanswered(messages.slice(asked + 1), format), ...stopped].join("\n") + "\n";
  // rendered whole, then cut: a fence or a list cut off at its start would render wrong; every rendered line closes its styles
  const stream = createTextStream({ width: () => format.columns, stringWidth: format.stringWidth, markdown: format.color });
  const rendered = (stream.push(visible(textOf(answer).trim())) + stream.finish()).replace(/\n$/, "");
  const shown = cap(rendered.split("\n"), PAST_ANSWER_LINES, true).map((l) => (l.startsWith(DIM) ? l : dimRendered(l, format.color)));
  // words before calls that never got an answer after them (the terminal closed while one ran): the calls are said too
  return [...question, ...shown, ...unanswered(messages.slice(at), format), ...stopped].join("\n") + "\n";
}

/**
 * The work after a question that got no answer yet (a turn interrupted in its tools, hey stopped
 * mid-task): how many calls were made and the last one with how it ended, dim; nothing when none was.
 */
function unanswered(after: readonly Message[], format: AnswerFormat): string[] {
  // a call the model repeated in its reply did not run: the one that ran is counted, and its result is what the tool printed
  const calls = ranCalls(after);
  const last = calls.at(-1);
  if (!last) return [];
  const many = calls.length === 1 ? "1 tool call" : `${calls.length} tool calls`;
  const result = after.find((m) => m.role === "tool" && m.toolCallId === last.id);
  const status = result ? ` ${pastStatus(last.name, !result.isError, visible(textOf(result)), last.arguments)}` : "";
  const line = `  ${many}, no answer yet; the last: ${visible(toolLine(last.name, last.arguments))}${status}`;
  // at spaces, never mid-word, each row dim on its own
  return wrapColumns(line, format.columns, format.stringWidth)
    .split("\n")
    .map((row) => dim(row, format.color));
}

/** What `/resume`, `/sessions` and `hey --sessions` show before the first prompt of a session another hey has open. */
export const IN_USE = "(open in another hey) ";

/** The least room a choice's first prompt is cut to when its row is narrower than the rest of the line. */
const MIN_PROMPT_COLUMNS = 10;

/**
 * `/resume`'s choices: number, when, size, the directory when `home` is given (paths under it as
 * `~/…`: the project's sessions), first prompt; a session `inUse` (another hey has it open: picking
 * it is refused) says so, before its prompt is cut. With `fit`, the prompt is cut with … so a row
 * fits a terminal that many columns wide (0: not cut), as `/sessions` cuts it.
 */
export function resumeChoices(
  infos: SessionInfo[],
  home?: string,
  inUse: (s: SessionInfo) => boolean = () => false,
  fit: { columns: number; width(text: string): number } = { columns: 0, width: (t) => t.length },
): string {
  const when = (ms: number) => {
    const d = new Date(ms);
    const p = (n: number) => String(n).padStart(2, "0");
    return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
  };
  const width = String(infos.length).length;
  const row = (s: SessionInfo, i: number) => {
    const lead = `${String(i + 1).padStart(width)}  ${when(s.modified)}  ${formatSize(s.size).padStart(8)}  ${home !== undefined ? `${visible(shortPath(s.cwd, home))}  ` : ""}${inUse(s) ? IN_USE : ""}`;
    const prompt = visible(oneLine(s.firstPrompt || "(no prompt)", 60));
    if (fit.columns <= 0) return lead + prompt;
    return lead + cutToWidth(prompt, Math.max(MIN_PROMPT_COLUMNS, fit.columns - fit.width(lead)), fit.width, true);
  };
  return infos.map(row).join("\n") + "\n";
}
