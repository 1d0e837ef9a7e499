// The agent loop (SPEC §6). It reads like its pseudocode:
//   loop: completion = provider.stream(context(messages)); append it; stop if no tool calls;
//         run the tool calls; append their results as they finished (each saved then; sent in call order).
// At the turn or token limit the run ends with a hand-off (hand-off.ts). Every dependency is
// passed in; the loop prints nothing and persists nothing (Outputs do).
import { handOff, MALFORMED_NOTE_START } from "./hand-off.ts";
import { refused } from "./refusal.ts";
import { callSteps, repeatStop } from "./repeats.ts";
import { runToolCalls, syntheticResult } from "./tool-calls.ts";
import { turnsOf, type LoopDeps, type RunResult } from "./turns.ts";
import { newId, textOf, userMessage, type Message } from "./ir.ts";

export type { LoopDeps, RequestContext, RunResult } from "./turns.ts";

/** The `error` event of a run whose answer stopped at the model's output token limit (`done.stop_reason` "length"); a provider that says why otherwise (`done.detail`: the context window) is quoted instead. */
export const CUT_OFF = "the answer was cut off: the model reached its output token limit";

/** The `error` event of a run whose first reply was empty (no tool calls, no text: nothing, or only thinking); unknownStop starts with it for any reply that was so and stopped for an unlisted reason. */
export const EMPTY_ANSWER = "the model's answer was empty";

/** How much of the provider's words on a call it could not parse is quoted: enough to show where the call went wrong, not a whole file it tried to write. */
export const MALFORMED_QUOTE_CHARS = 1000;

/**
 * This many replies in a row whose tool call could not be parsed end the run (kind
 * "repeated_calls"): told twice, the model wrote it no better, and a call syntax its provider cannot
 * read (a server that sends calls as text in a form hey does not know) would be asked again until --max-turns.
 */
export const MALFORMED_STOP_AT = 3;

/** What the model is told, as the next user message, when its provider could not parse its tool call (stop "malformed_call"). */
export function malformedCallNote(detail: string | undefined): string {
  return `${MALFORMED_NOTE_START}, so nothing ran${detail ? `. The provider said: ${quoted(detail)}` : ""}]\nMake the call again as a proper tool call: a tool that is offered, its arguments as JSON the tool's schema takes (no code around the call).`;
}

/**
 * Runs the conversation in `messages` (appended to in place, each addition also emitted as a
 * `message` event for the session writer) until the model stops calling tools, the user aborts or
 * a provider error cannot be recovered; at the turn or token limit the run ends with a hand-off
 * (kernel/hand-off.ts). Never throws for provider or tool failures: they end as `error` events and
 * a `done` event.
 */
export async function runLoop(messages: Message[], deps: LoopDeps): Promise<RunResult> {
  const turns = turnsOf(messages, deps);
  let malformed = 0; // replies in a row whose call could not be parsed
  for (;;) {
    const limit = turns.limitReached();
    if (limit) return handOff(turns, limit, deps.keepHandOff);
    const reply = await turns.request(false);
    if ("turns" in reply) return reply;
    const calls = reply.message.toolCalls ?? [];
    malformed = calls.length === 0 && reply.stop === "malformed_call" ? malformed + 1 : 0;
    if (malformed >= MALFORMED_STOP_AT) {
      const said = reply.detail ? `: ${quoted(reply.detail)}` : "";
      return turns.fail(
        "repeated_calls",
        `the model's tool call could not be parsed ${malformed} turns in a row; stopped rather than ask again${said}`,
        "error",
      );
    }
    if (malformed > 0) {
      // the model's mistake, not the network's: told what went wrong, it tries again (a turn like any other)
      turns.append(userMessage(malformedCallNote(reply.detail)));
      const said = reply.detail ? ` (${oneLine(reply.detail)})` : "";
      deps.output.emit({ type: "notice", message: `the model's tool call could not be parsed${said}; it is asked to make it again` });
      continue;
    }
    if (calls.length === 0 && reply.stop === "refusal") {
      return turns.fail("refusal", refused(reply.detail), "error");
    }
    // a stop for a reason no protocol lists ("other": Gemini's OTHER, a new stop_reason) says nothing
    // of whether the answer was done: its text stays, its calls do not run (the last may be cut), and
    // the run ends with an error saying why (exit 1): a script must not take it for a whole answer
    if (reply.stop === "other") {
      if (calls.length > 0) turns.append(...calls.map((c) => syntheticResult(c, newId(), notRunAfter(reply.detail))));
      const kind = calls.length === 0 && !reply.answered ? "empty_answer" : "unknown_stop";
      return turns.fail(kind, unknownStop(reply.detail, reply.message), "error");
    }
    // nothing at all for the request: a failure (exit 1), not a silent success; an answer without
    // text after the model worked with tools ends the run normally (its work is the result)
    if (calls.length === 0 && reply.stop !== "length" && !reply.answered && turns.count() === 1) return turns.fail("empty_answer", EMPTY_ANSWER, "error");
    if (calls.length === 0 && reply.stop === "length") {
      const message = reply.detail ? `the answer was cut off: ${reply.detail}` : CUT_OFF;
      return turns.fail("length", message, "length", reply.maxTokens);
    }
    if (calls.length === 0) return turns.finish("end");
    const cutOff = reply.stop === "length"; // the last call may have been cut off mid-arguments: it is not run
    // each result was emitted (for the session writer) as its call finished: kept in the history in that order, as in the file
    const repeats = callSteps(messages); // the calls before these: a call made again and again is told so, then stopped
    messages.push(...(await runToolCalls(calls, { ...deps, tools: reply.tools, parallel: deps.limits.parallelTools, cutOff, repeats })));
    if (deps.signal.aborted) return turns.interrupted();
    const stuck = repeatStop(messages);
    if (stuck) return turns.fail("repeated_calls", stuck, "error");
  }
}

/**
 * The `error` event of `reply`, which stopped for a reason no protocol lists (stop "other"), named by
 * its provider's `detail` (`"OTHER"`): its text is kept, its calls were not run.
 */
export function unknownStop(detail: string | undefined, reply: Message): string {
  const why = `stopped for ${detail ?? "a reason its provider did not name"}`;
  const calls = reply.toolCalls ?? [];
  const thought = reply.content.some((p) => p.type === "thinking" && p.text.trim() !== "");
  if (textOf(reply).trim() === "" && calls.length === 0) return thought ? `the model answered with only reasoning: it ${why}` : `${EMPTY_ANSWER}: it ${why}`;
  const names = [...new Set(calls.map((c) => c.name))].join(", ");
  const notRun = calls.length === 1 ? `its tool call (${names}) was not run` : `its ${calls.length} tool calls (${names}) were not run`;
  return `the model ${why}; its answer may be incomplete${calls.length > 0 ? `, and ${notRun}` : ""}`;
}

/** The result of a call in a reply that stopped for an unlisted reason: the model, asked to go on, makes it again. */
const notRunAfter = (detail: string | undefined) =>
  `not run: the reply that made this call stopped for ${detail ?? "a reason its provider did not name"}, so the call may be incomplete. Make it again if it is still needed`;

/** A provider's words on a call it could not parse, cut at MALFORMED_QUOTE_CHARS. */
const quoted = (detail: string) => (detail.length > MALFORMED_QUOTE_CHARS ? `${detail.slice(0, MALFORMED_QUOTE_CHARS)}…` : detail);

/** `text` on one line, short enough for a notice. */
const oneLine = (text: string) => {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat;
};
