// Repeated identical tool calls (a "doom loop"): a model that makes the same call and gets the same
// result turn after turn learns nothing new, and free models do it until the turn limit (20 runs of
// `cat a.txt`, 160 KB of requests). Counted in turns: the same call twice in one reply (a habit of
// weak models) is one. From the REPEAT_NOTE_AT-th turn in a row its result says so; at
// REPEAT_STOP_AT the run stops (loop.ts) instead of spending the rest of --max-turns — after the
// model read the note and went on twice. Pure.
import { textOf, type Message, type ToolCall } from "./ir.ts";
import { readCallArguments } from "./call-arguments.ts";
import { TOOL } from "./tool-names.ts";

/** From this many turns in a row with the identical call on, each one's result ends with repeatNote. */
export const REPEAT_NOTE_AT = 3;
/** This many turns in a row with the identical call end the run: two more chances after the first note. */
export const REPEAT_STOP_AT = 5;

/** One call and its result, as the repetition is judged: the same tool, arguments and result. */
export interface Step {
  name: string;
  /** the arguments as JSON without spacing (a space more is the same call), else their raw text */
  args: string;
  output: string;
  isError: boolean;
  /** the reply it was made in (any value, compared by identity): identical steps of one reply count once */
  turn: unknown;
}

/** repeatNote's words around its count. */
const NOTE_HEAD = "\n\n[hey: you have made this exact call in each of your last ";
const NOTE_TAIL =
  " turns and got the same result each time. Do something different, or answer with what you have. To wait for a change, make one call that waits until it happens, not the same call each turn.]";

/** What a call's result ends with when it is made in the `n`-th turn in a row. */
export function repeatNote(n: number): string {
  return `${NOTE_HEAD}${n}${NOTE_TAIL}`;
}

/** What the user is told when the model is first told it repeats itself. */
export function repeatNotice(tool: string, n: number): string {
  return `the model made the same ${tool} call ${n} turns in a row with the same result; it is told to do something different (at ${REPEAT_STOP_AT} the run stops)`;
}

/** `output` without repeatNote at its end: a result that carries it is the same result. */
function withoutNote(output: string): string {
  if (!output.endsWith(NOTE_TAIL)) return output;
  const at = output.lastIndexOf(NOTE_HEAD);
  return at >= 0 && /^\d+$/.test(output.slice(at + NOTE_HEAD.length, -NOTE_TAIL.length)) ? output.slice(0, at) : output;
}

/** `call`'s arguments as calls are compared (Step.args): JSON without spacing, else their raw text. */
function argumentsKey(call: ToolCall): string {
  const read = readCallArguments(call);
  return "args" in read ? JSON.stringify(read.args) : call.arguments;
}

/** `call`, made in `turn`, and its result as a Step. */
export function stepOf(call: ToolCall, output: string, isError: boolean, turn: unknown): Step {
  return { name: call.name, args: argumentsKey(call), output: withoutNote(output), isError, turn };
}

/**
 * For each of one reply's calls, the index of the earlier call of that reply it repeats (the same
 * tool and arguments, compared as steps are), or undefined when it is to run. Such a copy is a
 * degenerate repetition (weak models send 20 of one call), not intent, and is not run again:
 * `echo line >> log.txt` twice would add two lines, `git commit` twice make two commits. A call
 * that `mayChange` (by its index) ends that: an identical call after it may be meant to see what
 * it changed (`npm test`, an edit, `npm test` again), and runs.
 */
export function firstOfSame(calls: readonly ToolCall[], mayChange: (i: number) => boolean): (number | undefined)[] {
  const firsts = new Map<string, number>();
  return calls.map((call, i) => {
    const key = JSON.stringify([call.name, argumentsKey(call)]);
    const first = firsts.get(key);
    if (first !== undefined) return first;
    if (mayChange(i)) firsts.clear();
    firsts.set(key, i);
    return undefined;
  });
}

/** The result a copy gets (firstOfSame): which call it repeats (`first`, from 0), and that it did not run. */
export function sameCallResult(first: number): string {
  return `same call as the ${ordinal(first + 1)} in this reply: not run again; its result is above`;
}

/** A copy's result (sameCallResult): the history holds it in place of a result of its own. */
const isSameCallResult = (text: string) => /^same call as the \d+(st|nd|rd|th) in this reply: not run again; its result is above$/.test(text);

/**
 * Whether `m` is a copy's result message: its call never ran and says nothing of its own, so it is
 * no later call for what compares calls (dedup, "the last call"); the output is its first's.
 */
export const isCopyResult = (m: Message) => m.role === "tool" && isSameCallResult(textOf(m));

/** The tool calls `messages` made, in order, less the copies (isCopyResult): the calls that ran, or were to. */
export function ranCalls(messages: readonly Message[]): ToolCall[] {
  const copies = new Set(messages.flatMap((m) => (isCopyResult(m) ? [m.toolCallId] : [])));
  return messages.flatMap((m) => (m.role === "assistant" ? (m.toolCalls ?? []) : [])).filter((c) => !copies.has(c.id));
}

/** `n` as an ordinal: 1st, 2nd, 3rd, 11th, 22nd. */
function ordinal(n: number): string {
  const tail = n % 100 >= 11 && n % 100 <= 13 ? "th" : (["th", "st", "nd", "rd"][n % 10] ?? "th");
  return `${n}${tail}`;
}

/**
 * The identical calls that end `messages`, oldest first, each with its result: the row of the
 * latest call made since the latest user message or answer (an assistant message without calls),
 * in call order. A call without a result (the turn in progress, one cut off) is left out. Reads
 * back from the end only as far as the row goes: a long run's earlier calls are not read again.
 */
export function callSteps(messages: readonly Message[]): Step[] {
  const results = new Map<string, Message>();
  const row: Step[] = []; // newest first
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role === "user" || (m.role === "assistant" && !m.toolCalls?.length)) break;
    if (m.role === "tool") results.set(m.toolCallId ?? "", m);
    const calls = m.toolCalls ?? [];
    for (let c = calls.length - 1; c >= 0; c--) {
      const call = calls[c]!;
      const r = results.get(call.id);
      if (!r || isCopyResult(r)) continue; // a copy of a call of the same reply: that call is the step
      const last = row[0];
      if (last && call.name !== last.name) return row.reverse();
      const step = stepOf(call, textOf(r), r.isError === true, m);
      if (last && !same(step, last)) return row.reverse();
      row.push(step);
    }
  }
  return row.reverse();
}

/**
 * How many turns in a row `step` has now been made: 1 plus the turns of the identical steps that
 * end `before` (its own turn's count once; a hole, a call of the same turn not finished yet, ends the row).
 */
export function repeatCount(before: readonly (Step | undefined)[], step: Step): number {
  let n = 1;
  let turn = step.turn;
  for (let i = before.length - 1; i >= 0 && same(before[i], step); i--) if (before[i]!.turn !== turn) n++, (turn = before[i]!.turn);
  return n;
}

/** How many turns in a row end `steps` with the identical call (0 for none). */
export function trailingRepeats(steps: readonly Step[]): number {
  const last = steps.at(-1);
  return last ? repeatCount(steps.slice(0, -1), last) : 0;
}

const same = (a: Step | undefined, b: Step) => a !== undefined && a.name === b.name && a.args === b.args && a.isError === b.isError && a.output === b.output;

/**
 * A command that waits for time to pass (`sleep 5; curl …/health`, `until …`, `curl --retry`): the
 * same result turn after turn is a wait not over yet (a dev server starting, a CI run), not a loop —
 * told as any repeat, never stopped (the turn limit bounds it). Only as a command of its own (at the
 * start, after `;`, `&&`, `|`, `(`), outside quotes: `git commit -m "wait for review"` is no wait,
 * nor is `timeout 120 pytest` (a limit, not a wait: a failing test run again is the loop itself).
 */
const WAITS = /(^|[;&|(\n]\s*)(sleep|wait|until|watch|inotifywait)(\s|$)|\s--retry\b/;
/** Quoted text, which names no command. */
const QUOTED = /'[^']*'|"(?:[^"\\]|\\.)*"/g;

/** The `error` message of a run stopped for repeating itself (kind "repeated_calls"), or undefined while it may go on. */
export function repeatStop(messages: readonly Message[]): string | undefined {
  const steps = callSteps(messages);
  const n = trailingRepeats(steps);
  if (n < REPEAT_STOP_AT) return undefined;
  const last = steps.at(-1)!;
  if (last.name === TOOL.bash && WAITS.test(commandOf(last.args).replace(QUOTED, "''").trim())) return undefined;
  const args = last.args.length > 80 ? `${last.args.slice(0, 80)}…` : last.args;
  return `the model made the same call ${n} turns in a row and got the same result each time (${last.name} ${args}); stopped rather than spend the rest of its turns on it: say what to do differently`;
}

/** The `command` of a bash step's arguments (Step.args), or the arguments' text when they are no such JSON. */
function commandOf(args: string): string {
  try {
    const command = (JSON.parse(args) as { command?: unknown }).command;
    return typeof command === "string" ? command : args;
  } catch {
    return args;
  }
}
