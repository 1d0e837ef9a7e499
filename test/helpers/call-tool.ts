// Calls one tool the way the agent does: through the kernel's pipeline (arguments parsed and
// checked against the tool's schema, then run), answering as the tool's own result would.
import { runToolCalls } from "../../src/kernel/tool-calls.ts";
import type { Tool, ToolContext, ToolResult } from "../../src/kernel/tool.ts";
import { textOf } from "../../src/kernel/ir.ts";

export async function callTool(tool: Tool, args: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult> {
  const [message] = await runToolCalls([{ id: "call_1", name: tool.name, arguments: JSON.stringify(args) }], {
    tools: [tool],
    output: { emit: () => {} },
    permission: () => undefined,
    signal: ctx.signal,
    cwd: ctx.cwd,
    parallel: false,
  });
  const images = message!.content.filter((p) => p.type === "image");
  return { output: textOf(message!), ...(message!.isError ? { isError: true } : {}), ...(images.length ? { images } : {}) };
}
