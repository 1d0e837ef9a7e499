// The one pipeline every tool call goes through (SPEC §9, STYLE "One pipeline"):
// find → parse arguments → permission → run. Unknown tools, bad arguments, refusals and thrown
// errors all become error results for the model; only an abort ends the turn early.
import { resolve as resolvePath } from "node:path";
import { newId, type Message, type ToolCall } from "./ir.ts";
import type { Output } from "./output.ts";
import type { Tool, ToolResult } from "./tool.ts";

/** A refusal reason, or undefined when the call may run. */
export type PermissionCheck = (tool: string, args: Record<string, unknown>) => string | undefined;

export interface ToolRunDeps {
  tools: Tool[];
  output: Output;
  permission: PermissionCheck;
  signal: AbortSignal;
  cwd: string;
  parallel: boolean;
}

export const INTERRUPTED = "interrupted by user";

/** Tools that must not run concurrently with anything else (they rewrite the context). */
const RUNS_ALONE = new Set(["compress"]);

/**
 * Runs one turn's calls and returns their result messages in call order. All `tool_call`
 * events are emitted first, in call order; `tool_result` events follow in call order, each as
 * soon as it and every earlier call are done. With `parallel`, calls run concurrently, except
 * that calls naming the same `path` run one after another in call order and a RUNS_ALONE tool
 * waits for everything before it.
 */
export async function runToolCalls(calls: ToolCall[], deps: ToolRunDeps): Promise<Message[]> {
  for (const c of calls) deps.output.emit({ type: "tool_call", id: c.id, name: c.name, arguments: c.arguments });
  const started: Promise<ToolResult>[] = [];
  const lastOnPath = new Map<string, Promise<unknown>>();
  let barrier: Promise<unknown> = Promise.resolve();
  for (const call of calls) {
    const args = parseArguments(call.arguments);
    // one file named two ways (`a.txt`, `./a.txt`, absolute) is one file: order by where it is
    const path = typeof args?.path === "string" ? resolvePath(deps.cwd, args.path) : undefined;
    let before: Promise<unknown> = barrier;
    if (!deps.parallel) before = Promise.allSettled(started);
    else if (RUNS_ALONE.has(call.name)) before = Promise.allSettled(started);
    else if (path !== undefined && lastOnPath.has(path)) before = Promise.allSettled([barrier, lastOnPath.get(path)]);
    const task = before.then(() => runOne(call, args, deps));
    started.push(task);
    if (path !== undefined) lastOnPath.set(path, task);
    if (RUNS_ALONE.has(call.name)) barrier = task.catch(() => {});
  }
  const messages: Message[] = [];
  for (const [i, call] of calls.entries()) {
    const result = await started[i]!;
    deps.output.emit({ type: "tool_result", id: call.id, name: call.name, ok: !result.isError, output: result.output });
    messages.push(toolMessage(call, result));
  }
  return messages;
}

function toolMessage(call: ToolCall, result: ToolResult): Message {
  return {
    id: newId(),
    role: "tool",
    toolCallId: call.id,
    toolName: call.name,
    isError: Boolean(result.isError),
    content: [{ type: "text", text: result.output }, ...(result.images ?? [])],
  };
}

function parseArguments(text: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(text.trim() === "" ? "{}" : text);
    return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

async function runOne(call: ToolCall, args: Record<string, unknown> | undefined, deps: ToolRunDeps): Promise<ToolResult> {
  if (deps.signal.aborted) return { output: INTERRUPTED, isError: true };
  const tool = deps.tools.find((t) => t.name === call.name);
  if (!tool) return { output: `unknown tool "${call.name}"; available: ${deps.tools.map((t) => t.name).join(", ")}`, isError: true };
  if (!args) return { output: `invalid arguments for ${call.name}: expected a JSON object, got ${JSON.stringify(call.arguments.slice(0, 200))}`, isError: true };
  const refusal = deps.permission(call.name, args);
  if (refusal !== undefined) return { output: refusal, isError: true };
  try {
    const result = await tool.run(args, { signal: deps.signal, cwd: deps.cwd });
    return result;
  } catch (e) {
    if (deps.signal.aborted) return { output: INTERRUPTED, isError: true };
    return { output: `${call.name} failed: ${e instanceof Error ? e.message : String(e)}`, isError: true };
  }
}
