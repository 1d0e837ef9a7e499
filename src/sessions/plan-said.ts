// Which plan mode a session was left in, read from the notes its user messages carry
// (permission/plan-mode.ts planNote). The reader looks at each line it passes, those a summary
// stands for too: a summary takes the notes of its range out of the loaded messages, and the
// note kept in the first message then says nothing of the mode since (x103). Pure.
import type { TailLine } from "./lines.ts";
import { PLAN_OFF, PLAN_ON } from "../kernel/user-notes.ts";

const ON = Buffer.from(JSON.stringify({ type: "text", text: PLAN_ON }));
const OFF = Buffer.from(JSON.stringify({ type: "text", text: PLAN_OFF }));
const USER = Buffer.from('"role":"user"');
const ROLE_WITHIN = 80; // `{"type":"message","message":{"id":"…","role":` comes first in a message line

/** true or false when the line is a user message that says plan mode is on or off (its last note), else undefined. */
export function planSaid(line: TailLine): boolean | undefined {
  const { buf, start, end } = line;
  const user = buf.indexOf(USER, start);
  if (user < 0 || user > start + ROLE_WITHIN) return undefined;
  const on = buf.subarray(start, end).lastIndexOf(ON);
  const off = buf.subarray(start, end).lastIndexOf(OFF);
  return on < 0 && off < 0 ? undefined : on > off;
}
