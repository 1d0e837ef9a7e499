// The calls a user's quit cuts off (SPEC §19): when hey quits while a turn's calls run (the user's
// second Ctrl-C while one ignores its cancel), each call of the turn without a result gets the
// result that says so, written before hey exits — not left for the resume to close as if hey had
// crashed (open-ends.ts NO_RESULT), which a model takes as a reason to run it again.
import { newId, type Message } from "../kernel/ir.ts";
import type { AgentEvent } from "../kernel/output.ts";
import { notStarted, syntheticResult, userStopped } from "../kernel/tool-calls.ts";
import type { SessionWriter } from "./writer.ts";

/** A session writer that can close the calls a quit cuts off. */
export interface QuittingWriter extends SessionWriter {
  /** writes a result for each call of the turn under way that has none (`reason`: the abort's words, `interrupted by user`); never throws */
  quit(reason: string): void;
}

/** `writer`, with the calls under way followed from the events it is given, for `quit`. */
export function quitting(writer: SessionWriter): QuittingWriter {
  const open = new Map<string, { name: string; started: boolean }>(); // the last assistant message's calls without a result
  return {
    get path() {
      return writer.path;
    },
    model: (provider, model, effort) => writer.model(provider, model, effort),
    sync: () => writer.sync(),
    close: () => writer.close(),
    leave: () => writer.leave(),
    holding: () => writer.holding(),
    emit(event) {
      follow(open, event);
      writer.emit(event);
    },
    quit(reason) {
      for (const message of cutOff(open, reason)) writer.emit({ type: "message", message });
      open.clear();
    },
  };
}

/** Keeps `open` to the calls of the last assistant message that have no result yet, and whether each has started. */
function follow(open: Map<string, { name: string; started: boolean }>, event: AgentEvent): void {
  if (event.type === "tool_start" && open.has(event.id)) open.get(event.id)!.started = true;
  if (event.type !== "message") return;
  const m = event.message;
  if (m.role === "tool" && m.toolCallId !== undefined) open.delete(m.toolCallId);
  if (m.role !== "assistant") return;
  open.clear();
  for (const c of m.toolCalls ?? []) open.set(c.id, { name: c.name, started: false });
}

/** The results of the calls `open` holds: one the user stopped mid-run (userStopped), or one that never started, as a cancel says of it. */
export function cutOff(open: ReadonlyMap<string, { name: string; started: boolean }>, reason: string): Message[] {
  const before = AbortSignal.abort(reason); // notStarted's words for a call the abort came before
  return [...open].map(([id, call]) => syntheticResult({ id, name: call.name }, newId(), call.started ? userStopped(reason) : notStarted(before)));
}
