// `/last` (issue 28): the previous tool call's whole output, for the person at the terminal — the
// screen shows a few lines of it, the model saw it filtered and cut. Pure: the messages in, the
// call's line, what the model saw and the full-output file bash kept (when it kept one) out; the
// command (commands.ts) reads that file.
import { sep } from "node:path";
import { textOf, type Message } from "../kernel/ir.ts";
import { TOOL } from "../kernel/tool-names.ts";
import { isCopyResult } from "../kernel/repeats.ts";
import { toolLine } from "./tool-lines.ts";

export interface LastCall {
  /** the call as its tool line shows it: `$ npm test`, `read src/cli.ts` */
  line: string;
  /** the result as the model saw it */
  output: string;
  /** the file holding bash's whole output, when the result was filtered or cut */
  fullOutput?: string;
}

/** bash's last line when it kept the whole output (tools/bash.ts saveFullOutput) */
const FULL_OUTPUT = /\n\[full output: ([^\n]+)\]$/;

/**
 * The last tool call that has a result, or undefined when none has. A full-output file is taken
 * only from bash's own last line, and only inside `outputsDir`: no other text names a file to show.
 */
export function lastCall(messages: readonly Message[], outputsDir: string): LastCall | undefined {
  // a call the model repeated in its reply was not run again: the one that ran has the output
  const result = messages.findLast((m) => m.role === "tool" && !isCopyResult(m));
  if (!result) return undefined;
  const call = messages.flatMap((m) => m.toolCalls ?? []).findLast((c) => c.id === result.toolCallId);
  const output = textOf(result);
  const named = call?.name === TOOL.bash ? FULL_OUTPUT.exec(output)?.[1] : undefined;
  const file = named?.startsWith(outputsDir + sep) && !named.includes(`${sep}..`) ? named : undefined;
  return {
    line: call ? toolLine(call.name, call.arguments) : (result.toolName ?? "tool"),
    output,
    ...(file ? { fullOutput: file } : {}),
  };
}
