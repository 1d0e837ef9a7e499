// What a hey stopped mid-turn (kill -9, a power cut, a failed run) leaves open at the end of a
// session, closed when it is resumed (SPEC §19): a call without a result gets a synthetic one
// (closeToolCalls), a question without an answer the marker of an answer cut before its
// first word, and the user is told in one line what the model is told. Pure.
import { SUMMARY_ID } from "../context/passes.ts";
import { parseArguments, textOf, type Message, type ToolCall } from "../kernel/ir.ts";
import { callPath } from "../kernel/tool-args.ts";
import { TOOL } from "../kernel/tool-names.ts";
import { cutBeforeAnswer, HEY_STOPPED, HEY_STOPPED_MIDWAY, interruptedAnswer } from "../kernel/turns.ts";
import { syntheticResult } from "../kernel/tool-calls.ts";
import { oneLine } from "./format.ts";

/**
 * `messages` with every call given a result (closeToolCalls), then the answer hey stopped in: the
 * words it had streamed (`streamed`, the session's partial lines after its last message) or none,
 * as the message an answer cut short is, marked `[interrupted: hey stopped before it answered]` —
 * after a user message always, so that the next message goes as a message of its own; after tool
 * results when words had come. What was added is in `appended` too, for the caller to persist.
 */
export function closeOpenEnds(
  messages: Message[],
  makeId: () => string,
  streamed?: string,
  lost?: ReadonlyMap<string, string>,
): { messages: Message[]; appended: Message[] } {
  const closed = closeToolCalls(messages, makeId, lost);
  const last = closed.messages.at(-1);
  const asked = last?.role === "user" && !last.id.startsWith(SUMMARY_ID); // a summary stands for answered work
  const words = streamed !== undefined && streamed.trim() !== "" && (asked || last?.role === "tool");
  if (!asked && !words) return closed;
  const text = words ? streamed : "";
  const marker = interruptedAnswer({ id: makeId(), role: "assistant", content: [{ type: "text", text }] }, words ? HEY_STOPPED_MIDWAY : HEY_STOPPED);
  return { messages: [...closed.messages, marker], appended: [...closed.appended, marker] };
}

/**
 * The lines a resume says of what `appended` (closeOpenEnds) closed: the calls left without a result,
 * each named by its tool and what it was given (a command, a path), and a question left without an answer.
 */
export function interruptedNotes(messages: readonly Message[], appended: readonly Message[]): string[] {
  const lostText = new Map(appended.flatMap((m) => (m.role === "tool" && textOf(m).startsWith(LOST_PREFIX) ? [[m.toolCallId, textOf(m)]] : [])));
  const open = openCalls(messages, appended);
  const calls = open.filter((c) => !lostText.has(c.id));
  const lost = open.filter((c) => lostText.has(c.id));
  // the last turn is the one the last user message began: a call before it belongs to a turn that went on
  const asked = messages.findLastIndex((m) => m.role === "user" && !m.id.startsWith(SUMMARY_ID));
  const lastCalls = messages.slice(asked + 1).flatMap((m) => (m.role === "assistant" ? (m.toolCalls ?? []) : []));
  const ofLast = calls.every((c) => lastCalls.includes(c)) ? " of the last turn" : "";
  const notes: string[] = [];
  if (lost.length > 0) {
    const lines = [...new Set(lost.map((c) => /\(session (.*) damaged\)/.exec(lostText.get(c.id)!)?.[1]))].join(", ");
    const named = lost.slice(0, MAX_NAMED).map(callLabel).join(", ") + (lost.length > MAX_NAMED ? ", …" : "");
    const whose = lost.length === 1 ? "the result of 1 tool call was" : `the results of ${lost.length} tool calls were`;
    notes.push(`${whose} lost (session ${lines} damaged): ${named}; ${lost.length === 1 ? "it" : "they"} may have run, and the model is told so`);
  }
  if (calls.length > 0) {
    const named = calls.slice(0, MAX_NAMED).map(callLabel).join(", ") + (calls.length > MAX_NAMED ? ", …" : "");
    const count = calls.length === 1 ? `1 tool call${ofLast} was` : `${calls.length} tool calls${ofLast} were`;
    notes.push(`${count} interrupted (hey stopped before ${calls.length === 1 ? "it" : "they"} finished): ${named}; the model is told so`);
  }
  const cut = appended.find((m) => m.role === "assistant");
  if (cut && cutBeforeAnswer(cut))
    notes.push("the last message had no answer (hey stopped before it answered); the model is told so, and the next message goes on its own");
  else if (cut) notes.push("the last answer was cut short (hey stopped while it streamed); what had come is kept, marked unfinished for the model");
  return notes;
}

/** The paths the write_file and edit calls left without a result name (as the model gave them): a killed write may have left its temporary copy beside them. */
export function interruptedWrites(messages: readonly Message[], appended: readonly Message[]): string[] {
  const writes = openCalls(messages, appended).filter((c) => c.name === TOOL.writeFile || c.name === TOOL.edit);
  return writes.map((c) => callPath(parseArguments(c.arguments))).filter((p): p is string => p !== undefined);
}

/**
 * The paths the write_file and edit calls of `messages` that succeeded named (as the model gave
 * them), each once: the files the session wrote. A call refused (at the prompt, by a rule, in plan
 * mode), failed or left without a result wrote nothing: the file is still as the user left it.
 */
export function writtenPaths(messages: readonly Message[]): string[] {
  const succeeded = new Set(messages.flatMap((m) => (m.role === "tool" && !m.isError ? [m.toolCallId] : [])));
  const writes = messages
    .flatMap((m) => (m.role === "assistant" ? (m.toolCalls ?? []) : []))
    .filter((c) => (c.name === TOOL.writeFile || c.name === TOOL.edit) && succeeded.has(c.id));
  return [...new Set(writes.map((c) => callPath(parseArguments(c.arguments))).filter((p): p is string => p !== undefined))];
}

/** How the result of a call whose saved result line is damaged begins: the call finished, so hey did not stop in it (x117). */
const LOST_PREFIX = "the result of this call was lost";

/** A call's result when its line (`where`: "line 28", "the line at byte B") was skipped as damaged: it may have run, so the model checks before running it again. */
export function lostResult(where: string): string {
  return `${LOST_PREFIX} (session ${where} damaged); it may have run: check what it did before running it again`;
}

/** Calls named in one note; more are "…". */
const MAX_NAMED = 3;
/** Characters of a command or path a note quotes. */
const QUOTED_CHARS = 40;

/** The calls `appended`'s synthetic results answer, in the order they were made. */
function openCalls(messages: readonly Message[], appended: readonly Message[]): ToolCall[] {
  const open = new Set(appended.filter((m) => m.role === "tool").map((m) => m.toolCallId));
  return messages.flatMap((m) => (m.role === "assistant" ? (m.toolCalls ?? []) : [])).filter((c) => open.has(c.id));
}

/** `bash \`sleep 30; echo never\``: the tool, and the command or path it was given. */
function callLabel(call: ToolCall): string {
  const args = parseArguments(call.arguments);
  const what = typeof args?.command === "string" ? args.command : typeof args?.path === "string" ? args.path : undefined;
  return what === undefined ? call.name : `${call.name} \`${oneLine(what, QUOTED_CHARS).replaceAll("`", "'")}\``;
}

/**
 * Puts every tool result right after the assistant message that made its call, in the order they
 * were saved (as their calls finished; requests send them in call order, kernel/adapt-history.ts);
 * drops results whose call is not in `messages` and repeated message ids; and gives each call
 * without a result a synthetic error result (`NO_RESULT`; lostResult for a call in `lost`, whose
 * result line was skipped as damaged), returned in `appended` too so the caller can persist it. `makeId` names the synthetic messages.
 */
export function closeToolCalls(messages: Message[], makeId: () => string, lost?: ReadonlyMap<string, string>): { messages: Message[]; appended: Message[] } {
  const results = new Map<string, Message>();
  for (const m of messages) if (m.role === "tool" && m.toolCallId !== undefined && !results.has(m.toolCallId)) results.set(m.toolCallId, m);
  const position = new Map(messages.map((m, i) => [m, i]));
  const out: Message[] = [];
  const appended: Message[] = [];
  const seen = new Set<string>();
  for (const m of messages) {
    if (m.role === "tool" || seen.has(m.id)) continue;
    seen.add(m.id);
    out.push(m);
    const calls = m.role === "assistant" ? (m.toolCalls ?? []) : [];
    // the results saved, in the order they were (their calls finished in it: the history's order, which a summary's range follows)
    const saved = calls.flatMap((call) => results.get(call.id) ?? []).sort((a, b) => (position.get(a) ?? 0) - (position.get(b) ?? 0));
    for (const result of saved) {
      if (seen.has(result.id)) continue;
      seen.add(result.id);
      out.push(result);
    }
    for (const call of calls) {
      if (results.has(call.id)) continue;
      const where = lost?.get(call.id);
      const synthetic = syntheticResult(call, makeId(), where === undefined ? undefined : lostResult(where));
      appended.push(synthetic);
      out.push(synthetic);
    }
  }
  return { messages: out, appended };
}
