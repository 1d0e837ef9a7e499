// The notes hey writes into a user message ahead of the user's own words: plan mode's, the REPL's
// (`/undo`'s and a `!` command's "The user ran … before writing this message:", `/jobs stop`'s
// "[hey: …]") and hey's other bracketed notes. Their shapes live here, beside the one function that
// recognises them, so a session listing or a resumed recap that leaves them out cannot drift from
// what writes them. Pure.
import { textOf, type ContentBlock, type Message } from "./ir.ts";

/** The model's note when plan mode turns on (permission/plan-mode.ts says when it is sent). */
export const PLAN_ON =
  "plan mode: you can read and search but not change files or run commands that change things; investigate and present a plan; the user will switch plan mode off to let you carry it out";
/** The model's note when it turns off. */
export const PLAN_OFF = "plan mode is off: you can change files and run commands again";

/** A note of hey's own to the model: `[hey: BODY]`. */
export const heyNote = (body: string): string => `[hey: ${body}]`;

/** What the user did at the prompt before this message (`/undo`, a `!` command): "The user ran WHAT before writing this message:BODY". */
export const userRanNote = (what: string, body: string): string => `The user ran ${what} before writing this message:${body}`;

const USER_RAN = /^The user ran [^\n]*? before writing this message:/;

/** Whether a text block is one of the notes above rather than the user's words. */
export const isHeysNote = (text: string): boolean => text === PLAN_ON || text === PLAN_OFF || text.startsWith("[hey: ") || USER_RAN.test(text);

/**
 * The user's words of `message`: its text without the notes hey put before them and without the
 * files and stdin attached after them (prompt/mentions.ts buildPrompt: each a fenced block after a
 * blank line), which a listing or recap does not show as what was asked — a session's title was
 * `check @.env ```.env SECRET=1 ```…`. A message that is only an attachment keeps it.
 */
export function typedText(message: Pick<Message, "content">): string {
  const text = textOf({ content: message.content.filter((b) => b.type !== "text" || !isHeysNote(b.text)) });
  const attached = text.search(/\n\n```+[^\n`]*\n/);
  return attached > 0 ? text.slice(0, attached) : text;
}

const MOVED_START = "[hey: the working directory is now ";
const MOVED_END = " (the user continued this session there): relative paths and commands start from it]";

/** The model's note that hey now works in `dir`, not where the system prompt (or an earlier such note) says. */
export const movedNote = (dir: string): string => `${MOVED_START}${dir}${MOVED_END}`;

/**
 * The note the user's next message needs when hey works in `cwd` while the model last heard of
 * another directory — the last movedNote in `history`, else `promptDir`, the system prompt's —
 * undefined when it knows (so it is sent once, and again only after another move).
 */
export function moveNote(cwd: string, promptDir: string, history: readonly Message[]): string | undefined {
  let known = promptDir;
  for (const m of history)
    for (const b of m.role === "user" ? m.content : [])
      if (b.type === "text" && b.text.startsWith(MOVED_START) && b.text.endsWith(MOVED_END)) known = b.text.slice(MOVED_START.length, -MOVED_END.length);
  return known === cwd ? undefined : movedNote(cwd);
}

/** `content` (the user's next message) after moveNote's note, when it needs one. */
export function withMoveNote(cwd: string, promptDir: string, history: readonly Message[], content: ContentBlock[]): ContentBlock[] {
  const note = moveNote(cwd, promptDir, history);
  return note ? [{ type: "text", text: note }, ...content] : content;
}
