// What a message gets from MCP servers before it is sent (issue 27): a `/mcp:SERVER:PROMPT args`
// line becomes the prompt's messages, and each `@SERVER:URI` attaches that resource after the
// message's text (images as image parts). Pure: the servers are reached through the manager.
import type { ContentBlock } from "../kernel/ir.ts";
import type { McpManager } from "./manager.ts";
import { parsePromptCommand, promptArgs, promptContent, type PromptResult, type ResourceResult } from "./prompts.ts";
import { attachResource, resourceMentions } from "./resources.ts";
import { errorText } from "../kernel/errors.ts";

/** A prompt command or a resource that cannot be had; the message says which and why. */
export class McpInputError extends Error {
  override name = "McpInputError";
}

/** The message a `/mcp:SERVER:PROMPT args` line sends. Throws McpInputError. */
export async function promptMessage(mcp: McpManager, line: string, signal: AbortSignal): Promise<ContentBlock[]> {
  const cmd = parsePromptCommand(line);
  if (!cmd) throw new McpInputError(`${line.trim().split(/\s/, 1)[0]} is not a prompt command; it is /mcp:SERVER:PROMPT [args] (/mcp lists the prompts)`);
  const known = mcp.status().find((s) => s.name === cmd.server);
  if (!known)
    throw new McpInputError(
      `no MCP server ${cmd.server}; configured: ${
        mcp
          .status()
          .map((s) => s.name)
          .join(", ") || "none"
      }`,
    );
  // a server still starting is waited for, as a tool call waits
  await mcp.settled(cmd.server, signal);
  const prompts = mcp.prompts().find((p) => p.server === cmd.server)?.prompts;
  if (!prompts) throw new McpInputError(`MCP server ${cmd.server} is ${stateWords(mcp, cmd.server)}; its prompts cannot be used now (/mcp says more)`);
  const prompt = prompts.find((p) => p.name === cmd.prompt);
  if (!prompt) throw new McpInputError(`MCP server ${cmd.server} has no prompt ${cmd.prompt}; it has: ${prompts.map((p) => p.name).join(", ") || "none"}`);
  const args = promptArgs(cmd.server, prompt, cmd.args);
  if ("error" in args) throw new McpInputError(args.error);
  const got = await mcp.get(cmd.server, { prompt: prompt.name, args: args.args }, signal);
  if ("error" in got) throw new McpInputError(got.error);
  const content = promptContent(got.result as PromptResult);
  if (content.every((b) => b.type === "text" && b.text.trim() === ""))
    throw new McpInputError(`prompt ${cmd.prompt} of ${cmd.server} returned no text or image`);
  return content;
}

/**
 * `content` (the message as expandPrompt made it) with every `@SERVER:URI` of `message` attached
 * after its text, each cut at `maxBytes` (`warn` is told what was cut). Throws McpInputError when a
 * resource cannot be read: nothing is sent with a missing attachment, as with a missing `@file`.
 */
export async function withResources(
  mcp: McpManager,
  message: string,
  content: ContentBlock[],
  maxBytes: number,
  signal: AbortSignal,
  warn: (m: string) => void,
): Promise<ContentBlock[]> {
  const mentions = resourceMentions(
    message,
    mcp.status().map((s) => s.name),
  );
  if (mentions.length === 0) return content;
  const texts: string[] = [];
  const images: ContentBlock[] = [];
  for (const m of mentions) {
    const got = await mcp.get(m.server, { resource: m.uri }, signal);
    if ("error" in got) throw new McpInputError(`@${m.token}: ${got.error}`);
    let attached: ReturnType<typeof attachResource>;
    try {
      attached = attachResource(m.token, got.result as ResourceResult, maxBytes);
    } catch (e) {
      throw new McpInputError(errorText(e));
    }
    if (attached.text) texts.push(attached.text);
    images.push(...attached.images);
    if (attached.cut) warn(`@${m.token}: only the first ${attached.cut.shown} of ${attached.cut.of} bytes went into the prompt ([input] max_bytes)`);
  }
  const [first, ...rest] = content;
  const head = first?.type === "text" ? first.text : "";
  const text = [head, ...texts].filter((t) => t !== "").join("\n\n");
  return [{ type: "text", text }, ...(first?.type === "text" ? rest : content), ...images];
}

function stateWords(mcp: McpManager, server: string): string {
  const s = mcp.status().find((x) => x.name === server);
  return s?.state === "auth_required" ? "waiting for a sign-in" : (s?.state ?? "not running");
}
