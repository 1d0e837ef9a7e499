// Reads a provider stream to its end: the events that arrived, and the error if it threw.
import type { StreamEvent } from "../../src/kernel/provider.ts";

/** `each` sees the events so far after every event (e.g. to abort after the third). */
export async function drain(stream: AsyncIterable<StreamEvent>, each?: (events: StreamEvent[]) => void): Promise<{ events: StreamEvent[]; error?: unknown }> {
  const events: StreamEvent[] = [];
  try {
    for await (const e of stream) {
      events.push(e);
      each?.(events);
    }
    return { events };
  } catch (error) {
    return { events, error };
  }
}
