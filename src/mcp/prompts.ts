// A server's prompts as commands (issue 27): `/mcp:SERVER:PROMPT args` fetches the prompt with its
// arguments (`name=value`, or given in the prompt's order) and sends what it returns as the next
// user message. Pure: the server is asked by the caller.
import type { ContentBlock, ImagePart } from "../kernel/ir.ts";
import { fence } from "../prompt/mentions.ts";

export const PROMPT_COMMAND = "/mcp:";

export interface PromptArgument {
  name: string;
  description?: string;
  required: boolean;
}

/** A prompt as a server lists it (the part hey uses). */
export interface McpPrompt {
  name: string;
  description?: string;
  arguments: PromptArgument[];
}

/** What `prompts/get` returns (read defensively: a server may send anything). */
export interface PromptResult {
  messages?: unknown;
}

/** What `resources/read` returns. */
export interface ResourceResult {
  contents?: unknown;
}

/** `/mcp:SERVER:PROMPT rest…` → its parts; undefined for any other line (`/mcp` itself included). */
export function parsePromptCommand(line: string): { server: string; prompt: string; args: string } | undefined {
  const m = /^\/mcp:([^:\s]+):(\S+)(?:\s+([\s\S]*))?$/.exec(line.trim());
  return m ? { server: m[1]!, prompt: m[2]!, args: (m[3] ?? "").trim() } : undefined;
}

/** `/mcp:everything:args-prompt city=… [state=…]` */
export function promptUsage(server: string, p: McpPrompt): string {
  const args = p.arguments.map((a) => (a.required ? `${a.name}=…` : `[${a.name}=…]`));
  return [`${PROMPT_COMMAND}${server}:${p.name}`, ...args].join(" ");
}

/** Words split at spaces; "double" or 'single' quotes keep spaces in one word. */
function words(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/(?:[^\s"']+|"[^"]*"|'[^']*')+/g))
    out.push(m[0].replace(/"([^"]*)"|'([^']*)'/g, (_, a: string | undefined, b: string | undefined) => a ?? b ?? ""));
  return out;
}

/**
 * The arguments of a prompt command: `name=value` words by name, other words in the prompt's
 * argument order (the last argument takes the rest of the line, so `/mcp:s:ask how do I x`
 * works). An unknown name or a missing required argument is an error naming the usage.
 */
export function promptArgs(server: string, p: McpPrompt, text: string): { args: Record<string, string> } | { error: string } {
  const args: Record<string, string> = {};
  const positional: string[] = [];
  const usage = `usage: ${promptUsage(server, p)}`;
  for (const w of words(text)) {
    const eq = /^([A-Za-z_][\w-]*)=([\s\S]*)$/.exec(w);
    if (eq && p.arguments.some((a) => a.name === eq[1])) args[eq[1]!] = eq[2]!;
    else if (eq && p.arguments.length > 0 && !p.arguments.some((a) => a.name === eq[1]))
      return { error: `${PROMPT_COMMAND}${server}:${p.name} has no argument ${eq[1]}; ${usage}` };
    else positional.push(w);
  }
  const open = p.arguments.filter((a) => !(a.name in args));
  if (positional.length > 0 && open.length === 0)
    return {
      error: `${PROMPT_COMMAND}${server}:${p.name} takes ${p.arguments.length === 0 ? "no arguments" : "no more arguments"}, got "${positional.join(" ")}"; ${usage}`,
    };
  open.forEach((a, i) => {
    if (i >= positional.length) return;
    args[a.name] = i === open.length - 1 ? positional.slice(i).join(" ") : positional[i]!;
  });
  const missing = p.arguments.filter((a) => a.required && !(a.name in args));
  if (missing.length > 0)
    return {
      error: `${PROMPT_COMMAND}${server}:${p.name} needs ${missing.map((a) => `${a.name}${a.description ? ` (${a.description})` : ""}`).join(", ")}; ${usage}`,
    };
  return { args };
}

type Part = { type?: unknown; text?: unknown; data?: unknown; mimeType?: unknown; resource?: unknown; uri?: unknown };

/**
 * The prompt's messages as one user message: their text in order (an assistant message's marked
 * as such), images as image parts, embedded text resources fenced with their URI.
 */
export function promptContent(result: PromptResult): ContentBlock[] {
  const texts: string[] = [];
  const images: ImagePart[] = [];
  const messages = Array.isArray(result.messages) ? (result.messages as { role?: unknown; content?: unknown }[]) : [];
  for (const m of messages) {
    if (typeof m !== "object" || m === null) continue;
    const parts = (Array.isArray(m.content) ? m.content : [m.content]) as Part[];
    const text: string[] = [];
    for (const p of parts) {
      if (typeof p !== "object" || p === null) continue;
      if (p.type === "text" && typeof p.text === "string") text.push(p.text);
      else if (p.type === "image" && typeof p.data === "string")
        images.push({ type: "image", mediaType: typeof p.mimeType === "string" ? p.mimeType : "image/png", data: p.data });
      else if (p.type === "resource" && typeof p.resource === "object" && p.resource !== null) {
        const r = p.resource as { uri?: unknown; text?: unknown; mimeType?: unknown };
        text.push(
          typeof r.text === "string"
            ? fence(String(r.uri ?? ""), r.text)
            : `[resource ${String(r.uri ?? "")} (${typeof r.mimeType === "string" ? r.mimeType : "binary"}) omitted]`,
        );
      } else if (p.type === "resource_link") text.push(`[resource ${String(p.uri ?? "")}]`);
      else text.push(`[${String(p.type ?? "unknown")} content omitted]`);
    }
    const joined = text.join("\n\n");
    if (joined !== "") texts.push(m.role === "assistant" ? `(the prompt has the assistant say:)\n${joined}` : joined);
  }
  return [{ type: "text", text: texts.join("\n\n") }, ...images];
}

/** Tab completions for a line that starts a prompt command. */
export function promptCompletions(word: string, servers: readonly { server: string; prompts: readonly McpPrompt[] }[]): string[] {
  return servers.flatMap((s) => s.prompts.map((p) => `${PROMPT_COMMAND}${s.server}:${p.name}`)).filter((c) => c.startsWith(word));
}
