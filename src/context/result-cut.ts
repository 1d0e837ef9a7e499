// A tool result cut to fit the context budget (budget.ts): its head and tail at line boundaries
// around a note that says what was left out and how to see it again — read_file's offset and limit
// of the lines left out, the full-output file a bash result names, a narrower grep. Pure.
import { textOf, type Message } from "../kernel/ir.ts";
import { TOOL } from "../kernel/tool-names.ts";

/** Of a cut result, this share is its head; the rest its tail (errors and summaries end outputs). */
const HEAD_SHARE = 0.75;

const cuts = new WeakMap<Message, { keep: number; readRoom: number | undefined; out: Message }>();

/**
 * `result` cut to about `keep` characters of text: its head and tail at line boundaries around a
 * note saying what was left out and how to see it again — read_file with the offset and limit of
 * the lines left out (no more than `readRoom` characters hold, when given), the full-output file a
 * bash result names, a narrower grep, else running the call again.
 * Images are kept. `result` itself when it is short enough. Memoized: the same object comes back
 * for the same result and size, so unchanged requests compare cheaply.
 */
export function cutResult(result: Message, keep: number, call?: { name: string; arguments: string }, readRoom?: number): Message {
  const memo = cuts.get(result);
  if (memo?.keep === keep && memo.readRoom === readRoom) return memo.out;
  const text = textOf(result);
  if (text.length <= keep * 1.2) return result; // cutting saves too little to be worth a note
  const lines = text.split("\n");
  let h = 0; // lines kept at the start
  let t = 0; // and at the end
  let room = Math.floor(keep * HEAD_SHARE);
  while (h < lines.length && lines[h]!.length + 1 <= room) room -= lines[h++]!.length + 1;
  room += keep - Math.floor(keep * HEAD_SHARE);
  while (h + t < lines.length && lines[lines.length - 1 - t]!.length + 1 <= room) room -= lines[lines.length - 1 - t++]!.length + 1;
  const head = lines.slice(0, h);
  const tail = lines.slice(lines.length - t);
  let body: string;
  if (head.join("\n").length + tail.join("\n").length < keep / 2) {
    // long lines: cut inside them
    const at = Math.floor(keep * HEAD_SHARE);
    body = `${text.slice(0, at)}\n${cutPointer(`${text.length - keep} characters`, [], text, call)}\n${text.slice(text.length - (keep - at))}`;
  } else {
    const left = lines.slice(h, lines.length - t);
    body = [...head, cutPointer(`${left.length} line${left.length === 1 ? "" : "s"}`, left, text, call, readRoom), ...tail].join("\n");
  }
  const out: Message = { ...result, content: [{ type: "text", text: body }, ...result.content.filter((p) => p.type !== "text")] };
  cuts.set(result, { keep, readRoom, out });
  return out;
}

/**
 * The note in place of what was left out of a result (`amount`; the lines `left`, when whole lines
 * were). `room`: what a read of them may take; a hint for more would be cut again to a new hole,
 * one that fits is sent whole and read_file's `… N more lines; use offset=…` points on. Without it
 * (a cut by the ceiling) all the lines left out: read again they are cut only past the window.
 */
function cutPointer(amount: string, left: string[], text: string, call?: { name: string; arguments: string }, room?: number): string {
  const head = `[… ${amount} left out to fit the context budget`;
  const numbers = left.map((l) => /^\s*(\d+)\t/.exec(l)?.[1]).filter((n) => n !== undefined);
  const path = call?.name === TOOL.readFile ? pathArgument(call.arguments) : undefined;
  if (path !== undefined && numbers.length > 0) {
    const first = Number(numbers[0]);
    const last = Number(numbers.at(-1));
    const limit = room === undefined ? last - first + 1 : Math.max(1, linesIn(left, room));
    const shows = limit < last - first + 1 ? `shows the first ${limit} of them (what fits)` : "shows them";
    return `[… lines ${first}–${last} left out to fit the context budget; read_file ${JSON.stringify(path)} with offset=${first} limit=${limit} ${shows} …]`;
  }
  const saved = /\[full output: (.+)\]\s*$/m.exec(text)?.[1];
  if (saved) return `${head}; the full output is in ${saved} …]`;
  // the same grep again returns the same lines: a narrower one fits
  if (call?.name === "grep") return `${head}; narrow the grep (path, glob, a smaller context or max_results) to see them …]`;
  return `${head}; call the tool again to see them …]`;
}

/** How many of `lines`, from the first, take at most `chars` characters with their line breaks. */
function linesIn(lines: readonly string[], chars: number): number {
  const over = lines.findIndex((l) => (chars -= l.length + 1) < 0);
  return over < 0 ? lines.length : over;
}

/** The `path` argument of a call's JSON arguments (read_file's), or undefined when there is none or they do not parse. */
export function pathArgument(args: string): string | undefined {
  try {
    const v = (JSON.parse(args) as { path?: unknown }).path;
    return typeof v === "string" ? v : undefined;
  } catch {
    return undefined;
  }
}
