// Calls the grep tool the way the agent does, through the kernel's pipeline with a permission
// check, so the files the rules keep from grep reach it (ToolContext.refusedFile). Returns its text.
import { textOf } from "../../src/kernel/ir.ts";
import type { Tool } from "../../src/kernel/tool.ts";
import { type PermissionCheck, runToolCalls } from "../../src/kernel/tool-calls.ts";

export async function grepWith(tool: Tool, permission: PermissionCheck, cwd: string, args: Record<string, unknown>): Promise<string> {
  const [message] = await runToolCalls([{ id: "c1", name: "grep", arguments: JSON.stringify(args) }], {
    tools: [tool],
    output: { emit: () => {} },
    permission,
    signal: new AbortController().signal,
    cwd,
    parallel: false,
  });
  return textOf(message!);
}
