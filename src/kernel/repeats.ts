// Repeated identical tool calls (a "doom loop"): a model that makes the same call and gets the same
// result turn after turn learns nothing new, and free models do it until the turn limit (20 runs of
// `cat a.txt`, 160 KB of requests). From the REPEAT_NOTE_AT-th time in a row its result says so;
// at REPEAT_STOP_AT the run stops (loop.ts) instead of spending the rest of --max-turns. Pure.
import { parseArguments, textOf, type Message, type ToolCall } from "./ir.ts";

/** From this many identical calls in a row on, each one's result ends with repeatNote. */
export const REPEAT_NOTE_AT = 3;
/** This many identical calls in a row end the run: two more chances after the first note. */
export const REPEAT_STOP_AT = 5;

/** One call and its result, as the repetition is judged: the same tool, arguments and result. */
export interface Step {
  name: string;
  /** the arguments as JSON without spacing (a space more is the same call), else their raw text */
  args: string;
  output: string;
  isError: boolean;
}

/** What a call's result ends with when it is the `n`-th identical one in a row. */
export function repeatNote(n: number): string {
  return `\n\n[hey: you have made this exact call ${n} times in a row and got the same result each time. Do something different, or answer with what you have.]`;
}

/** What the user is told when the model is first told it repeats itself. */
export function repeatNotice(tool: string, n: number): string {
  return `the model made the same ${tool} call ${n} times in a row with the same result; it is told to do something different (at ${REPEAT_STOP_AT} the run stops)`;
}

/** repeatNote at the end of a result, taken off again when results are compared. */
const NOTE_AT_END = /\n\n\[hey: you have made this exact call \d+ times in a row and got the same result each time\. [^\n]*\]$/;

/** `call` and its result as a Step. */
export function stepOf(call: Pick<ToolCall, "name" | "arguments">, output: string, isError: boolean): Step {
  const parsed = parseArguments(call.arguments);
  return { name: call.name, args: parsed ? JSON.stringify(parsed) : call.arguments, output: output.replace(NOTE_AT_END, ""), isError };
}

/**
 * The calls that lead up to the end of `messages`, oldest first, each with its result: those made
 * since the latest user message or answer (an assistant message without calls), in call order.
 * A call without a result (the turn in progress, one cut off) is left out.
 */
export function callSteps(messages: readonly Message[]): Step[] {
  let from = messages.length;
  while (from > 0) {
    const m = messages[from - 1]!;
    if (m.role === "user" || (m.role === "assistant" && !m.toolCalls?.length)) break;
    from--;
  }
  const results = new Map<string, Message>();
  for (let i = from; i < messages.length; i++) if (messages[i]!.role === "tool") results.set(messages[i]!.toolCallId ?? "", messages[i]!);
  const steps: Step[] = [];
  for (let i = from; i < messages.length; i++) {
    for (const c of messages[i]!.toolCalls ?? []) {
      const r = results.get(c.id);
      if (r) steps.push(stepOf(c, textOf(r), r.isError === true));
    }
  }
  return steps;
}

/**
 * How many times in a row `step` has now been made: 1 plus the identical steps that end `before`
 * (a hole, a call of the same turn not finished yet, ends the row).
 */
export function repeatCount(before: readonly (Step | undefined)[], step: Step): number {
  let n = 1;
  for (let i = before.length - 1; i >= 0 && same(before[i], step); i--) n++;
  return n;
}

/** How many identical calls in a row end `steps` (0 for none). */
export function trailingRepeats(steps: readonly Step[]): number {
  const last = steps.at(-1);
  return last ? repeatCount(steps.slice(0, -1), last) : 0;
}

const same = (a: Step | undefined, b: Step) => a !== undefined && a.name === b.name && a.args === b.args && a.isError === b.isError && a.output === b.output;

/** The `error` message of a run stopped for repeating itself (kind "repeated_calls"), or undefined while it may go on. */
export function repeatStop(messages: readonly Message[]): string | undefined {
  const steps = callSteps(messages);
  const n = trailingRepeats(steps);
  if (n < REPEAT_STOP_AT) return undefined;
  const last = steps.at(-1)!;
  const args = last.args.length > 80 ? `${last.args.slice(0, 80)}…` : last.args;
  return `the model made the same call ${n} times in a row and got the same result each time (${last.name} ${args}); stopped rather than spend the rest of its turns on it: say what to do differently`;
}
