// Sending a request again after a bad-request refusal an adapter can adapt to (an optional field
// the endpoint refuses, a replay it turns out to need), each change once. Pure.
import { ProviderError, type StreamEvent } from "../kernel/provider.ts";

/**
 * The stream of `attempt()`, sent again when it fails as a bad request before any event and
 * `adapt(error)` changed what the next attempt sends (an optional field the endpoint refuses, a
 * replay it turns out to need). `adapt` makes each change for good, so each is tried once and the
 * retries end. A refusal comes before any event, so nothing is repeated. A change the user should
 * hear about (a level of theirs replaced) is `adapt`'s string: a `notice` goes before the next attempt.
 * `state()` is what the adapter's requests are built from besides the request itself (its request
 * options): a state already sent is never sent again (an `adapt` that says it changed something
 * and did not, or undid another change, would send the refused request forever), and at most
 * MAX_ADAPTATIONS changes are made to one request. The refusal is then thrown as it came.
 */
export async function* adaptingStream(
  attempt: () => AsyncIterable<StreamEvent>,
  adapt: (e: ProviderError) => boolean | string,
  state: () => unknown,
): AsyncGenerator<StreamEvent> {
  const sent = new Set([stateKey(state())]);
  for (;;) {
    let started = false;
    try {
      for await (const event of attempt()) {
        started = true;
        yield event;
      }
      return;
    } catch (e) {
      // a tool call the server could not parse (failed-call.ts) is the model's slip, no field of the request refused: its words, the model's output, adapt nothing
      const refusal = e instanceof ProviderError && e.kind === "bad_request" && e.failedCall === undefined;
      const adapted = !started && refusal && sent.size <= MAX_ADAPTATIONS && adapt(e);
      if (!adapted) throw e;
      const now = stateKey(state());
      if (sent.has(now)) throw e;
      sent.add(now);
      if (typeof adapted === "string") yield { type: "notice", message: adapted };
    }
  }
}

/** More changes than any adapter has kinds of (the chat adapter's ten, an effort level learned twice): past it, one request is not worth more. */
const MAX_ADAPTATIONS = 12;

/** A request state as a string to compare: sets and maps by their entries, sorted. */
function stateKey(state: unknown): string {
  return JSON.stringify(state, (_, v: unknown) =>
    v instanceof Set ? [...v].map(String).sort() : v instanceof Map ? [...v.entries()].map(([k, x]) => [String(k), x]).sort() : v,
  );
}
