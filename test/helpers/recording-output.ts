// An Output that keeps every event, for asserting what the loop emitted and in which order.
import type { AgentEvent, Output } from "../../src/kernel/output.ts";

export interface RecordingOutput extends Output {
  events: AgentEvent[];
  /** event types in order, deltas of the same type merged into one entry, `message` and `tool_start` events left out */
  sequence(): string[];
  /** all text_delta text joined */
  text(): string;
  thinking(): string;
  of<T extends AgentEvent["type"]>(type: T): Extract<AgentEvent, { type: T }>[];
}

export function recordingOutput(): RecordingOutput {
  const events: AgentEvent[] = [];
  const of = <T extends AgentEvent["type"]>(type: T) => events.filter((e): e is Extract<AgentEvent, { type: T }> => e.type === type);
  return {
    events,
    emit: (e) => void events.push(e),
    of,
    text: () =>
      of("text_delta")
        .map((e) => e.text)
        .join(""),
    thinking: () =>
      of("thinking_delta")
        .map((e) => e.text)
        .join(""),
    sequence() {
      const out: string[] = [];
      for (const e of events) {
        if (e.type === "message" || e.type === "tool_start") continue;
        const merged = e.type === "text_delta" || e.type === "thinking_delta";
        if (merged && out[out.length - 1] === e.type) continue;
        out.push(e.type);
      }
      return out;
    },
  };
}
