// What an agent is made of (agent.ts): its settings and the parts its caller builds for it — the
// provider, the tools, the output, the prompt — and, for a run whose model gives up, the next model
// to go on with; and what the agent offers its caller (Agent). Types only.
import type { ResumedCache } from "./context/replay-cache.ts";
import type { OutputCap } from "./context/output-cap.ts";
import type { CompactionState } from "./context/compaction.ts";
import type { ContextPolicy, ContextView, Summary } from "./context/view.ts";
import type { ContentBlock, Effort, Message, ToolSpec, Usage } from "./kernel/ir.ts";
import type { LoopDeps, RunResult } from "./kernel/loop.ts";
import type { HandOffLimit, Output } from "./kernel/output.ts";
import type { Provider, ProviderError } from "./kernel/provider.ts";
import type { RetryPolicy } from "./kernel/retry.ts";
import type { Tool } from "./kernel/tool.ts";
import type { PermissionCheck } from "./kernel/tool-calls.ts";
import type { SeenFiles } from "./tools/seen-files.ts";

/** What the agent runs with, besides its provider: resolved values, not the configuration. */
export interface AgentSettings {
  /** the model in use as `-m` names it (`[provider.NAME]` and model): what the `model` event and the session record */
  model: { provider: string; model: string };
  /** `[agent]`: requests per run, parallel calls, the run's token cap */
  limits: LoopDeps["limits"];
  retry: RetryPolicy;
  /** how each request's context is built (context/policy.ts makes it from the settings) */
  context: ContextPolicy;
  /** the effort sent with each request; undefined = the provider's configured default */
  effort?: Effort;
  /** the provider's configured `max_tokens`: the user's own output limit, which hey never lowers to fit a window (context/output-cap.ts) */
  maxTokens?: number;
}

export interface AgentParts {
  settings: AgentSettings;
  provider: Provider;
  /**
   * the tools of the next request, asked before each one: `/reload` and MCP servers that connect
   * meanwhile change them; may wait (abortably, bounded) for MCP servers still starting. `look`:
   * asked for `/context`, not for a request (McpManager.tools)
   */
  tools(signal: AbortSignal, look?: boolean): Tool[] | Promise<Tool[]>;
  /** a tool a call names that its request did not offer, still to be had (LoopDeps.unlisted) */
  unlisted?(name: string, offered: readonly string[]): Tool | undefined;
  /** the name a call means in another spelling of a tool not offered (LoopDeps.alias) */
  alias?(name: string): string | undefined;
  output: Output;
  cwd: string;
  /** how the user picks another model (LoopDeps.modelSwitch): `/model` at hey's prompt, `-m` on the next command line */
  modelSwitch?: LoopDeps["modelSwitch"];
  /** what the file tools saw (their `seen`): each request forgets the read_file results it does not show whole (SeenFile.reads) */
  seen?: SeenFiles;
  /** which file a tool call's `path` names (`~` is the home directory, links resolved), to run calls on one file in order; undefined: it cannot be told (ToolRunDeps.pathOf) */
  pathOf?(path: string): string | undefined;
  /** the system prompt without the per-request context line, asked before every request with the messages it carries (PrepareDeps.system) */
  system(sent?: readonly Message[]): string;
  permission: PermissionCheck;
  /** `.hey/task.md` as it is now when it is this conversation's (`history`), re-read before every request (context/task-note.ts) */
  taskNote(history: readonly Message[]): string | undefined;
  /**
   * a line for the next request only, sent after the last message with the context line
   * (ModelRequest.note): what `/reload` did (runtime.ts); asked with the request's tools
   */
  note?(tools: readonly ToolSpec[]): string | undefined;
  /** the conversation so far, when a session is resumed, and its compactions */
  history?: Message[];
  summaries?: Summary[];
  /** the model's context window a context-length error taught the session being resumed, with the same model */
  window?: number;
  /** the limit on one request (Groq's TPM tier) a refusal taught the resumed session, same model: `/usage` names it, no request is built under it */
  requestLimit?: { window: number; limit: string };
  /** the windows it taught the session's other models, by `provider/model`: a `/model` back to one starts within it */
  windows?: Record<string, number>;
  /** the output caps its refusals taught the resumed session's models, by `provider/model` (context/output-cap.ts): none is refused again for them */
  outputCaps?: Record<string, OutputCap>;
  /** the resumed session's corrected token estimate (CompactionState.tokensPerChar), when it saved one */
  tokensPerChar?: number;
  /**
   * where the resumed session's prompt cache began (sessions/reader.ts LoadedSession.cache): within
   * the cache's lifetime the first request to each model it used judges rewrites as that model's last
   * request before it did, so the provider's cached prefix still serves (context/replay-cache.ts resumedReplay)
   */
  cache?: ResumedCache;
  /**
   * the next model to go on with when the one in use gave up on a request (LoopDeps.fallback): its
   * provider, its settings and why the failure is one another model may not share (words after the
   * model's name); undefined when none is left that `tried` (each `provider/model` this run has
   * used) leaves out, or when no other model can help. One it passes over (it cannot be used) is
   * added to `tried`, so a run says so once. Never rejects.
   */
  fallback?(error: ProviderError, tried: Set<string>, signal: AbortSignal): Promise<Fallback | undefined>;
}

/** A model to go on with (AgentParts.fallback). */
export interface Fallback {
  provider: Provider;
  settings: AgentSettings;
  /** why the model in use gave up, in words that follow its name: "is rate-limited" */
  why: string;
}

export interface AgentUsage {
  total: Usage;
  last: Usage | undefined;
  requests: number;
}

/** What one send may add: `keepHandOff` saves a run's hand-off before its `done` (LoopDeps.keepHandOff). */
export type SendOptions = { keepHandOff?: (limit: HandOffLimit) => Promise<void> };

export interface Agent {
  readonly messages: readonly Message[];
  readonly settings: AgentSettings;
  readonly provider: Provider;
  /** the effort sent with each request; undefined = the provider's configured default */
  readonly effort: Effort | undefined;
  /** what the provider said when it stopped sending any effort (its notice), so /effort says it too; undefined while it sends it */
  readonly effortUnsent: string | undefined;
  readonly usage: Readonly<AgentUsage>;
  readonly context: Readonly<CompactionState>;
  /**
   * appends a user message and runs the loop until it stops; never throws for provider or tool failures. A send made while a run is going
   * waits for it, then runs (sends run in call order). An abort ends it "interrupted", in its reason's words (kernel/tool.ts abortReason)
   */
  send(content: string | ContentBlock[], signal: AbortSignal, opts?: SendOptions): Promise<RunResult>;
  /**
   * the context the next request would hold were it sent now — system prompt, tools and history,
   * estimated as `send` estimates them (`/usage`; after `hey -c`, from the session's last request, as the
   * first request goes on); changes nothing. Asks for the
   * tools as a request does (it may wait for MCP servers still starting); rejects when `signal` aborts
   */
  preview(signal: AbortSignal): Promise<ContextView>;
  /** summarizes everything that may be summarized now (`/compact`); false when there is nothing to */
  compact(instructions: string | undefined, signal: AbortSignal): Promise<boolean>;
  /**
   * goes on with this provider and these settings (`/model`, `/reload`), keeping the conversation;
   * emits a `model` event when the model changed
   */
  switchModel(provider: Provider, settings: AgentSettings): void;
  setEffort(effort: Effort | undefined): void;
}
