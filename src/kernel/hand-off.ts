// The end of a run at its limit (SPEC §6): once the turns (or the run's tokens) are spent, one more
// request without tools asks the model for a hand-off — what is done, what remains — which the
// caller saves in .hey/task.md. A model that calls tools instead is asked once more, plainly.
// Whether the request tells the API that no tool may be called is the adapter's choice
// (ModelRequest.toolChoice): where that would cost the provider's cached prefix it relies on the
// prompt, and the calls are dropped all the same.
import { textOf, userMessage, type Message } from "./ir.ts";
import type { HandOffLimit } from "./output.ts";
import type { RunResult, Turns } from "./turns.ts";

export type { HandOffLimit };

const HAND_OFF_PARTS =
  "no tools are available now. Reply with a short hand-off in exactly two parts:\n" +
  "Done so far: what is finished (files, decisions, test results).\nRemaining: the concrete next steps.";
/** Asked, without tools, when the turn limit is reached; the answer goes to .hey/task.md. */
export const MAX_TURNS_PROMPT = `You have reached the turn limit for this run; ${HAND_OFF_PARTS}`;
/** Asked, without tools, when the run's token limit is passed; the answer goes to .hey/task.md. */
export const MAX_RUN_TOKENS_PROMPT = `You have used up the token budget for this run; ${HAND_OFF_PARTS}`;
/** Asked once more when the hand-off came back with tool calls or without text (a model that called tools anyway). */
export const PLAIN_HAND_OFF_PROMPT = `Tool calls cannot run any more and are ignored. Answer in plain text only; ${HAND_OFF_PARTS}`;

/**
 * Asks for the hand-off and ends the run at `limit`, `keep` (saving it) done before its `done`.
 * Its requests are not counted against the limit; the run's last message is the hand-off when the
 * model wrote one (else the request for it).
 */
export async function handOff(turns: Turns, limit: HandOffLimit, keep?: (limit: HandOffLimit) => Promise<void>): Promise<RunResult> {
  turns.append(userMessage(limit === "max_turns" ? MAX_TURNS_PROMPT : MAX_RUN_TOKENS_PROMPT));
  for (const plainly of [false, true]) {
    const reply = await turns.request(true, limit);
    if ("turns" in reply) return reply;
    // text beside tool calls is the model's preamble to them ("Let me check …"), not a hand-off
    if ((reply.answered && reply.stop !== "tool_calls") || plainly) break;
    turns.append(userMessage(PLAIN_HAND_OFF_PROMPT));
  }
  await keep?.(limit); // the caller's .hey/task.md: saved (or said not to be) before `done`
  return turns.finish(limit);
}

/** How the note starts that tells the model its tool call could not be parsed (loop.ts malformedCallNote): hey's words, no task. */
export const MALFORMED_NOTE_START = "[hey: your last tool call could not be parsed";

/**
 * The prompt a hand-off is about: the user's last one, not the request for the hand-off itself nor
 * hey's note on a call it could not parse (a user message too, as the model must answer it). Pure.
 */
export function handOffTask(messages: readonly Message[]): Message | undefined {
  const asked = new Set([MAX_TURNS_PROMPT, MAX_RUN_TOKENS_PROMPT, PLAIN_HAND_OFF_PROMPT]);
  return messages.findLast((m) => m.role === "user" && !asked.has(textOf(m)) && !textOf(m).startsWith(MALFORMED_NOTE_START));
}
