// What a server offers, read from it (SPEC §14): every page of its tools and prompts, as hey keeps
// them. Pure: the client is given (client.ts's SDK client fits `Lister`).
import type { McpTool } from "./names.ts";
import type { McpPrompt } from "./prompts.ts";

/** Pages of tools/list (and prompts/list) read at most (a server that pages forever is not waited on forever). */
const MAX_PAGES = 20;

type Page = { cursor: string } | undefined;
type Limits = { timeout: number; signal: AbortSignal };

/** The part of an MCP client that lists; each call rejects as the client does. */
export interface Lister {
  listTools(page: Page, limits: Limits): Promise<{ tools: { name: string; description?: string; inputSchema: object }[]; nextCursor?: string }>;
  listPrompts(
    page: Page,
    limits: Limits,
  ): Promise<{
    prompts: { name: string; description?: string; arguments?: { name: string; description?: string; required?: boolean }[] }[];
    nextCursor?: string;
  }>;
  getServerCapabilities(): { prompts?: object } | undefined;
}

/** Its tools, and its prompts when it offers prompts. */
export async function listBoth(client: Lister, timeoutMs: number, signal: AbortSignal): Promise<{ tools: McpTool[]; prompts: McpPrompt[] }> {
  const tools = await listTools(client, timeoutMs, signal);
  const prompts = client.getServerCapabilities()?.prompts ? await listPrompts(client, timeoutMs, signal) : [];
  return { tools, prompts };
}

/** Every page of tools/list. */
export async function listTools(client: Lister, timeoutMs: number, signal: AbortSignal): Promise<McpTool[]> {
  const tools: McpTool[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const r = await client.listTools(cursor ? { cursor } : undefined, { timeout: timeoutMs, signal });
    tools.push(...r.tools.map(toolOf));
    cursor = r.nextCursor;
    if (!cursor) break;
  }
  return tools;
}

/** Every page of prompts/list. */
async function listPrompts(client: Lister, timeoutMs: number, signal: AbortSignal): Promise<McpPrompt[]> {
  const prompts: McpPrompt[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const r = await client.listPrompts(cursor ? { cursor } : undefined, { timeout: timeoutMs, signal });
    for (const p of r.prompts)
      prompts.push({
        name: p.name,
        ...(p.description !== undefined ? { description: p.description } : {}),
        arguments: (p.arguments ?? []).map((a) => ({
          name: a.name,
          ...(a.description !== undefined ? { description: a.description } : {}),
          required: a.required === true,
        })),
      });
    cursor = r.nextCursor;
    if (!cursor) break;
  }
  return prompts;
}

function toolOf(t: { name: string; description?: string; inputSchema: object }): McpTool {
  return { name: t.name, ...(t.description !== undefined ? { description: t.description } : {}), inputSchema: t.inputSchema as Record<string, unknown> };
}
