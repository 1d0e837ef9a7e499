// What the rest of hey asks of the MCP servers of a run (manager.ts makes it): the tools of each
// request, the servers' states for /mcp, the calls by a name no request offered, /reload. Pure.
import type { Reloadable } from "../config/reload.ts";
import type { Tool } from "../kernel/tool.ts";
import type { ToolOrigin } from "../kernel/tool-calls.ts";
import type { Offer } from "./offer.ts";
import type { McpPrompt, PromptResult, ResourceResult } from "./prompts.ts";
import type { Get, ServerStatus } from "./server.ts";

export interface McpManager {
  /**
   * `builtins` with every offered MCP tool added (an MCP tool named like a built-in replaces it).
   * Waits, abortably, only for servers without a tool list yet whose start-up wait is not over.
   * The first request says the servers it goes without, however late it comes; `look`: no request
   * goes with them (`/mcp`, `/context`), so nothing is said yet.
   */
  tools(builtins: Tool[], signal: AbortSignal, look?: boolean): Promise<Tool[]>;
  /** every server, in configuration order (`/mcp`) */
  status(): ServerStatus[];
  /** what the next request offers of the servers' tools, and what it leaves out and why (`/mcp`) */
  offer(): Offer;
  /** a call by `name` to a tool left to find_tools (deferred.ts): it loads, then runs; undefined for any other name */
  deferred(name: string): Tool | undefined;
  /** a new session (`/clear`, `/resume`): the tools loaded are `loaded` (a resumed session's, deferred.ts loadedIn) */
  resume(loaded: string[]): void;
  /** the MCP tool a request offered as `name`, for the permission rules (they name it by its server's names too); undefined: none */
  origin(name: string): ToolOrigin | undefined;
  /** the system prompt's part: the instructions of the servers connected at its first build (guidance.ts) */
  instructions(): string;
  /** the next request's note of the servers: the MCP tools changed since the last request answered, a late server's instructions (`answered`: the run's requests answered so far) */
  note(answered: number): string | undefined;
  /** settles once `server` has connected or failed (at once when it is not starting); rejects only when `signal` aborts */
  settled(server: string, signal: AbortSignal): Promise<void>;
  /** the prompts of the connected servers (`/mcp:SERVER:PROMPT`, Tab completion) */
  prompts(): { server: string; prompts: McpPrompt[] }[];
  /** a prompt or resource of `server`, waiting for it when it is starting; the error text when it cannot be had */
  get(server: string, what: Get, signal: AbortSignal): Promise<{ result: PromptResult | ResourceResult } | { error: string }>;
  /** starts `server` again (after a sign-in); false when no running server has that name */
  restart(server: string): Promise<boolean>;
  /** starts again each server waiting for a sign-in that was made since outside this hey (a stat each): before a call by a name not offered, and /mcp */
  pickUpSignIns(): void;
  /**
   * `/reload`: a server to run whose command is not found is an error (SPEC §23: nothing switches,
   * the current servers are kept); apply closes all and starts the new set
   */
  reloadable: Reloadable;
  /** closes every server; never throws */
  close(): Promise<void>;
}
