// Agent events and the Output interface (SPEC §18). Renderers, the JSON stream and the session
// writer are all Outputs: the loop emits, it never prints or persists.

import type { Effort, Message, Usage } from "./ir.ts";
import type { ProviderErrorKind } from "./provider.ts";

/** What refused a tool call: the permission rules, or plan mode (its reason starts with tool-calls.ts PLAN_PREFIX), which a script counts apart. */
export type Refuser = "permission" | "plan";

export interface UsageCounts {
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
  reasoning_tokens: number;
  /** cache_read_tokens / input_tokens (0 when nothing was sent), to 3 decimals: what the prompt cache saved */
  cache_hit_share: number;
  /** present (true) when the provider reported no counts for some of them: those are hey's estimates (Usage.estimated) */
  estimated?: true;
}

/**
 * Why a run ended, as reported in `done.stop_reason`: "length" = the final answer was cut at
 * the model's output token limit; "max_run_tokens" = the run passed `--max-run-tokens`.
 */
export type RunStop = "end" | "length" | "max_turns" | "max_run_tokens" | "interrupted" | "error";
/** The limits a run hands off at (kernel/hand-off.ts). */
export type HandOffLimit = Extract<RunStop, "max_turns" | "max_run_tokens">;

/** `error.kind` values: the provider kinds plus those raised by hey itself. */
export type ErrorKind =
  | ProviderErrorKind
  | "config"
  | "usage"
  | "busy"
  | "tool"
  | "interrupted"
  | "internal"
  | "empty_answer"
  | "length"
  | "refusal"
  | "repeated_calls"
  /** a reply stopped for a reason no protocol lists (stop "other"): its answer may be incomplete, its calls were not run */
  | "unknown_stop";

/**
 * Everything the loop and the agent report, in order. All but `message`, `model`, `tool_start`,
 * `tool_progress`, `tool_output`, `summarizing` and `debug` are the JSON events of SPEC §18 (field names are the wire format); `message` carries
 * each message appended to the history (a tool result as soon as its call finishes, so in the order
 * the calls finished, as the history keeps them) and `model` each switch of model (`/model`), for the
 * session writer; `tool_start` marks the moment a call's tool begins to run (its arguments checked
 * and permitted), for the terminal's write diff against the file as it was then; `tool_progress`
 * is for the terminal's spinner and `tool_output` for the live lines under it; `summarizing` marks the start
 * of a summary request before a turn's request, for the spinner (its `compaction` event follows); `debug` is a line
 * for the debug log only (`--verbose`). They are not part of the JSON stream.
 */
export type AgentEvent =
  | { type: "message"; message: Message }
  /**
   * `window`: the context the model's server says it runs it with (Provider.serverWindow), kept with the session;
   * `limit`: that window is an endpoint's limit on one request (its name), which a resume does not apply;
   * `effort`: the effort sent with its requests (undefined: the provider's default), kept with the session too (`/effort`)
   */
  | { type: "model"; provider: string; model: string; window?: number; limit?: string; effort?: Effort; output_cap?: { window: number; asked: number } }
  /** `resumed`: the run continues a saved session (`-c`, `--resume`), which the id names from the start */
  | { type: "session"; id: string; provider: string; model: string; cwd: string; resumed?: true }
  | { type: "turn_start"; turn: number }
  | { type: "text_delta"; text: string }
  | { type: "thinking_delta"; text: string }
  /**
   * `server`: the MCP server whose tool this is (absent for hey's own tools); `same_as`: the id of
   * the reply's earlier call with the same tool and arguments, which this one repeats — it does not
   * run, and its result says so (repeats.ts firstOfSame)
   */
  | { type: "tool_call"; id: string; name: string; arguments: string; server?: string; same_as?: string }
  | { type: "tool_start"; id: string }
  /** how far a running call has come, in a few words (an MCP server's progress notice) */
  | { type: "tool_progress"; id: string; note: string }
  /** the last lines of a running command's output as it comes (the bash tool), for the terminal */
  | { type: "tool_output"; id: string; lines: string[] }
  | { type: "summarizing" }
  | { type: "debug"; message: string }
  /** `refused`: who refused the call, which never ran (`output` says why): `permission` (the rules) or `plan` (plan mode); only `permission` is listed in permission_denials; absent when it ran */
  | { type: "tool_result"; id: string; name: string; ok: boolean; output: string; refused?: Refuser }
  /** `retries`: how many retries this failure gets in all, when fewer than `[retry] max_retries` (an empty answer) */
  | { type: "retry"; attempt: number; delay_ms: number; error: string; retries?: number }
  /**
   * the model gave up on a request another model may answer (LoopDeps.fallback): the same request goes
   * to `to` at once, and the rest of the run stays there; `from`, `to` as `-m` names them, `kind` the
   * error's, `message` the line for the user (naming both, and why)
   */
  | { type: "fallback"; from: string; to: string; kind: ProviderErrorKind; message: string }
  /** how the provider adapted the request to go on, said once (StreamEvent `notice`): an effort level the model refused, replaced */
  | { type: "notice"; message: string }
  /**
   * `tokens_per_char`: the context estimate's ratio after this response corrected it (the agent adds
   * it, for the session writer: `hey -c` starts from it); `fixed_hash`: the request's system prompt
   * and tools (context/window.ts fixedHash); `summary_failed`: its summary was asked for and failed,
   * so the trim stood; `rebuilt`: its earlier messages were sent with every rewrite due (dedup, error purge) up to
   * it, false when as the request before to the same model sent them; `task_note`: the `.hey/task.md` text it took
   * anew, held by the requests after it ("" for none); `history_from`: the message its history began with after the
   * first prompt, where the next resume loads from — all for `hey -c`'s replay of the prompt cache,
   * which follows them rather than guessing; `system_prompt`: what the system prompt was built from,
   * when it changed in the run (prompt/prompt-record.ts), for `hey -c` to send it again. Not part of the JSON stream
   */
  | ({
      type: "usage";
      tokens_per_char?: number;
      fixed_hash?: string;
      summary_failed?: true;
      rebuilt?: boolean;
      task_note?: string;
      history_from?: string;
      system_prompt?: unknown;
    } & UsageCounts)
  | {
      type: "compaction";
      /**
       * summary: a stretch summarized by the provider; trim: older messages dropped to fit the budget;
       * window: the model answered that the request exceeds its context window, and the request was
       * built again to the window it stated (or below what failed) and sent once more
       */
      kind: "summary" | "trim" | "window";
      from_id?: string;
      to_id?: string;
      summary?: string;
      /**
       * kind "summary": earlier stretches the same summary covers, parted from `from_id`…`to_id` by
       * the latest user message; each is replaced in what is sent by its `summary`, a line saying
       * the work is summarized after that message
       */
      before?: { from_id: string; to_id: string; summary: string }[];
      /** kind "window": the window hey now builds requests for, in tokens */
      window?: number;
      /** kind "window": the limit was the endpoint's on one request, not the model's window: its name ("tokens per minute (TPM)") */
      limit?: string;
      /** kind "window" with `limit`: the max_tokens the endpoint counted into the limit; `window` is the limit less it */
      max_tokens?: number;
      /** kinds "trim" and "window": messages the request leaves out, when any */
      left_out?: number;
      /** kinds "trim" and "window": messages never left out (the first, the newest answer) whose text is cut to its start and end, when any */
      texts_cut?: number;
      /**
       * every kind: the estimated context (system prompt, tools, messages) the request would have
       * held before this step — untrimmed for a trim or summary, the refused request for a window —
       * and the one it holds after it
       */
      tokens_before: number;
      tokens_after: number;
      /** why a summary could not be made (the trim stood in for it); kind "window": the server's error */
      error?: string;
      /**
       * kind "trim", when the system prompt and tool schemas (`fixed_tokens`, of which the tools
       * `tool_tokens`) leave the messages less than half of the budget (`budget_tokens`): the
       * request is built past the budget by that part (context/window.ts MESSAGES_FLOOR)
       */
      budget_tokens?: number;
      fixed_tokens?: number;
      tool_tokens?: number;
    }
  /**
   * an MCP server connected (with its tool count), failed to start or stopped (with why), or was
   * not ready at the first request, within the start-up wait or after it (not_ready: that request went without its tools); each
   * is reported once, as it happens, in the background
   */
  | {
      type: "mcp";
      server: string;
      state: "connected" | "failed" | "auth_required" | "stopped" | "not_ready";
      /** connected: how many tools the server lists */
      tools?: number;
      /** connected: how many of them the model is offered, when `tools` / `exclude_tools` or the permission lists leave some out */
      offered?: number;
      error?: string;
    }
  /** `/reload`: ok with what changed, or the errors (each naming file and line) and nothing changed */
  | { type: "reload"; ok: boolean; changes: string[]; errors: string[]; warnings: string[] }
  /** a slash command's outcome (`hey -p /usage`): `ok` false for a refused or unknown one */
  | { type: "command"; name: string; ok: boolean; output: string }
  /** `max_tokens`: of a `length` error, the output token limit the request went with, where hey chose it (StreamEvent `done.maxTokens`) */
  | { type: "error"; kind: ErrorKind; message: string; max_tokens?: number }
  | { type: "done"; stop_reason: RunStop; turns: number; usage: UsageCounts };

/**
 * Receives every agent event in order. `emit` must not throw and must not block the loop: the loop
 * does not wait for it. An `async emit` (a socket write) may: through fanOut, its rejection is dropped.
 */
export interface Output {
  emit(event: AgentEvent): void;
}

/**
 * Sends each event to every output, in the given order. One output that throws (a closed pipe), or
 * whose `async emit` rejects (a closed socket), loses that event only: the others (the session
 * writer) still get it and the loop goes on — a rejection left unhandled would end the program.
 */
export function fanOut(outputs: Output[]): Output {
  return {
    emit: (event) => {
      for (const o of outputs) {
        try {
          const returned: unknown = o.emit(event);
          if (isThenable(returned)) returned.then(undefined, () => {});
        } catch {
          // an Output must not throw; if one does anyway, the others still get the event
        }
      }
    },
  };
}

const isThenable = (v: unknown): v is PromiseLike<unknown> => typeof v === "object" && v !== null && typeof (v as { then?: unknown }).then === "function";

export function usageCounts(u: Usage): UsageCounts {
  return {
    input_tokens: u.input,
    output_tokens: u.output,
    cache_read_tokens: u.cacheRead,
    cache_write_tokens: u.cacheWrite,
    reasoning_tokens: u.reasoning,
    cache_hit_share: cacheHitShare(u),
    ...(u.estimated ? { estimated: true as const } : {}),
  };
}

/** The token counts of a usage event, or of a session's usage line (the same fields): usageCounts read back. */
export function usageOf(c: Omit<UsageCounts, "cache_hit_share">): Usage {
  return {
    input: c.input_tokens,
    output: c.output_tokens,
    cacheRead: c.cache_read_tokens,
    cacheWrite: c.cache_write_tokens,
    reasoning: c.reasoning_tokens,
    ...(c.estimated ? { estimated: true as const } : {}),
  };
}

/** The share of the input tokens read from the provider's prompt cache, to 3 decimals; 0 when none were sent. */
export function cacheHitShare(u: { input: number; cacheRead: number }): number {
  return u.input > 0 ? Math.round((Math.min(u.cacheRead, u.input) / u.input) * 1000) / 1000 : 0;
}
