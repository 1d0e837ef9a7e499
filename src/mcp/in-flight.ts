// Which requests to a local server still wait for their answer (SPEC §14): while one does, its
// process holds the program open (stdio.ts); between them it does not, so a program that embeds
// hey and forgets to close its MCP servers still exits, and a call on its way is not cut. Pure.

type Id = string | number;

/** What a transport tells of the messages it sends and receives. */
export interface InFlight {
  /** a message sent: a request waits for its answer; a `notifications/cancelled` gives one up */
  sent(message: unknown): void;
  /** a message received: a response ends the wait of the request it answers */
  received(message: unknown): void;
}

/** Counts the requests waiting; `onChange(true)` when the first starts, `onChange(false)` when the last ends. */
export function inFlight(onChange: (waiting: boolean) => void): InFlight {
  const ids = new Set<Id>();
  const update = (change: () => void) => {
    const before = ids.size > 0;
    change();
    if (ids.size > 0 !== before) onChange(ids.size > 0);
  };
  return {
    sent(message) {
      const m = fields(message);
      if (m.method === "notifications/cancelled") return update(() => ids.delete(idOf(fields(m.params).requestId) ?? ""));
      const id = idOf(m.id);
      if (typeof m.method === "string" && id !== undefined) update(() => ids.add(id));
    },
    received(message) {
      const m = fields(message);
      const id = idOf(m.id);
      if (m.method === undefined && id !== undefined) update(() => ids.delete(id));
    },
  };
}

const fields = (v: unknown): Record<string, unknown> => (typeof v === "object" && v !== null ? (v as Record<string, unknown>) : {});
const idOf = (v: unknown): Id | undefined => (typeof v === "string" || typeof v === "number" ? v : undefined);
