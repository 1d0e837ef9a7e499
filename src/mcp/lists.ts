// What a server offers, read from it (SPEC §14): every page of its tools and prompts, as hey keeps
// them. Pure: the client is given (client.ts's SDK client fits `Lister`).
import type { McpTool } from "./names.ts";
import type { McpPrompt } from "./prompts.ts";

type ListedTool = { name: string; description?: string; inputSchema: object; execution?: { taskSupport?: string }; annotations?: { readOnlyHint?: unknown } };

/** Pages of tools/list (and prompts/list) read at most (a server that pages forever is not waited on forever). */
const MAX_PAGES = 20;

type Page = { cursor: string } | undefined;
type Limits = { timeout: number; signal: AbortSignal };

/** The part of an MCP client that lists; each call rejects as the client does. */
export interface Lister {
  listTools(page: Page, limits: Limits): Promise<{ tools: ListedTool[]; nextCursor?: string }>;
  listPrompts(
    page: Page,
    limits: Limits,
  ): Promise<{
    prompts: { name: string; description?: string; arguments?: { name: string; description?: string; required?: boolean }[] }[];
    nextCursor?: string;
  }>;
  getServerCapabilities(): { prompts?: object } | undefined;
  /** what the server's `initialize` result said to the model */
  getInstructions(): string | undefined;
}

/** Its tools, its prompts when it offers prompts, and its instructions when it gave any. */
export async function listBoth(
  client: Lister,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<{ tools: McpTool[]; prompts: McpPrompt[]; instructions?: string }> {
  const tools = await listTools(client, timeoutMs, signal);
  const prompts = client.getServerCapabilities()?.prompts ? await listPrompts(client, timeoutMs, signal) : [];
  const instructions = client.getInstructions();
  return { tools, prompts, ...(typeof instructions === "string" && instructions.trim() ? { instructions } : {}) };
}

/** Every page of tools/list. */
export function listTools(client: Lister, timeoutMs: number, signal: AbortSignal): Promise<McpTool[]> {
  return allPages(async (page) => {
    const r = await client.listTools(page, { timeout: timeoutMs, signal });
    return { items: r.tools.map(toolOf), nextCursor: r.nextCursor };
  });
}

/** Every page of prompts/list. */
function listPrompts(client: Lister, timeoutMs: number, signal: AbortSignal): Promise<McpPrompt[]> {
  return allPages(async (page) => {
    const r = await client.listPrompts(page, { timeout: timeoutMs, signal });
    const items = r.prompts.map(
      (p): McpPrompt => ({
        name: p.name,
        ...(p.description !== undefined ? { description: p.description } : {}),
        arguments: (p.arguments ?? []).map((a) => ({
          name: a.name,
          ...(a.description !== undefined ? { description: a.description } : {}),
          required: a.required === true,
        })),
      }),
    );
    return { items, nextCursor: r.nextCursor };
  });
}

/** The items of every page `list` gives, following its cursor (at most MAX_PAGES pages). */
async function allPages<T>(list: (page: Page) => Promise<{ items: T[]; nextCursor?: string | undefined }>): Promise<T[]> {
  const all: T[] = [];
  let cursor: string | undefined;
  for (let n = 0; n < MAX_PAGES; n++) {
    const { items, nextCursor } = await list(cursor ? { cursor } : undefined);
    all.push(...items);
    cursor = nextCursor;
    if (!cursor) break;
  }
  return all;
}

function toolOf(t: ListedTool): McpTool {
  return {
    name: t.name,
    ...(t.description !== undefined ? { description: t.description } : {}),
    inputSchema: t.inputSchema as Record<string, unknown>,
    ...(t.execution?.taskSupport === "required" ? { tasksOnly: true as const } : {}),
    ...(t.annotations?.readOnlyHint === true ? { readOnly: true as const } : {}),
  };
}
