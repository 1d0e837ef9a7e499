// What the user is told when a tool result was cut to fit the context budget before the model saw
// any of it. The terminal printed the result's size (`✓ 300 lines`) as the tool returned; the cut
// comes after, as the next request is built, so without this line the user believes the model read
// all 300 lines when it got 70 and a note saying where the rest is. Pure.
import { textOf, type Message } from "../kernel/ir.ts";
import { TOOL } from "../kernel/tool-names.ts";
import { pathArgument } from "./result-cut.ts";

const count = (n: number) => n.toLocaleString("en-US");
const NUMBERED = /^\s*\d+\t/;

/**
 * What the model has seen: the ids of the messages of the last request it answered (a request
 * refused as too long was read by no model), and the cut notices said since, by result id.
 */
export interface Seen {
  ids: ReadonlySet<string>;
  told: Map<string, string>;
}

/** What the model saw of a request it answered (`messages`); nothing without one. */
export const seenIn = (messages: readonly Message[] = []): Seen => ({ ids: new Set(messages.map((m) => m.id)), told: new Map() });

/**
 * One line per result of the newest step (the tool messages after the last assistant message of
 * `history`) that is shorter in `sent` than in `history` and that the model has not seen
 * (`seen.ids`): cut before the model saw it. A result the model read whole once and cut later is
 * not told; nor a line already said for a request built before and not answered (a retry after
 * a context-length error says only a cut that changed). Records what it returns in `seen.told`.
 */
export function cutNotices(history: readonly Message[], sent: readonly Message[], seen: Seen): string[] {
  const step = history.slice(history.findLastIndex((m) => m.role === "assistant") + 1);
  const byId = new Map(step.filter((m) => m.role === "tool").map((m) => [m.id, m]));
  const lines: string[] = [];
  for (const m of sent) {
    if (m.role !== "tool" || seen.ids.has(m.id)) continue;
    const whole = byId.get(m.id);
    if (!whole || whole === m) continue;
    const full = textOf(whole);
    const shown = textOf(m);
    if (shown.length >= full.length) continue;
    const call = history.flatMap((h) => h.toolCalls ?? []).find((c) => c.id === m.toolCallId);
    const line = `${label(call)}: ${amount(full, shown, call?.name === TOOL.readFile)} sent to the model; the rest was left out to fit the context budget`;
    if (seen.told.get(m.id) === line) continue;
    seen.told.set(m.id, line);
    lines.push(line);
  }
  return lines;
}

/** `70 of 300 lines` (of a file read: the numbered lines), or characters when lines were cut inside. */
function amount(full: string, shown: string, read: boolean): string {
  const lines = (text: string) => text.split("\n").filter((l) => !read || NUMBERED.test(l)).length;
  const all = lines(full);
  const kept = lines(shown) - (read ? 0 : 1); // the note in place of what was left out is a line of its own
  if (kept > 0 && kept < all) return `${count(kept)} of ${count(all)} lines`;
  return `${count(shown.length)} of ${count(full.length)} characters`;
}

/** The call as the user knows it: `read notes.md`, else the tool's name. */
function label(call: { name: string; arguments: string } | undefined): string {
  if (!call) return "a tool result";
  const path = call.name === TOOL.readFile ? pathArgument(call.arguments) : undefined;
  return path === undefined ? call.name : `read ${path}`;
}
