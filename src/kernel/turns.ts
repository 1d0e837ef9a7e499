// One request of a run and its tally (SPEC §6): a `turn_start`, the context built for it, the
// request with its retries (retried-request.ts) and the reply appended. The loop (loop.ts) and the
// hand-off (hand-off.ts) make their requests through it. Every dependency is passed in.
import { adaptHistory, thinkingBlocked } from "./adapt-history.ts";
import { withToolNames } from "./call-names.ts";
import { addUsage, emptyUsage, newId, textOf, type Effort, type Message, type StopReason, type Usage } from "./ir.ts";
import { usageCounts, type ErrorKind, type HandOffLimit, type Output, type RunStop } from "./output.ts";
import { ProviderError, type ModelRequest, type Provider } from "./provider.ts";
import { FILTERED, promptRefused, refusedAnswer, withoutRefused } from "./refusal.ts";
import { partialMessage, requestWithRetry, retryOrGiveUp, type Reply } from "./retried-request.ts";
import { countStuckTries, type RetryPolicy, type StuckTries } from "./retry.ts";
import { abortReason, INTERRUPTED, type Tool } from "./tool.ts";
import { withUniqueCallIds, type PermissionCheck } from "./tool-calls.ts";

export interface LoopDeps {
  provider: Provider;
  output: Output;
  /**
   * The system prompt, the messages and the tools of the next request, built fresh each time from
   * the full history (pruning, compaction and the context-usage line live there; tools of MCP
   * servers that connected meanwhile join). `handOff`: the request is the hand-off at that limit;
   * past the run's token cap it must not cost a summary request (a trim stands in). `summary`: with
   * `handOn`, a summary that failed for a reason another model may not share ends the building (its
   * ProviderError), older messages not dropped, for the request to go to a fallback, which summarizes
   * again; with `failed`, the summary failed so and no fallback is left: the trim stands, no summary
   * asked again. Throws only on abort or that hand-on: a ProviderError whose `usage` is what a summary
   * request it began cost, counted in the run's total.
   */
  context(history: Message[], signal: AbortSignal, handOff?: HandOffLimit, summary?: { handOn: true } | { failed: ProviderError }): Promise<RequestContext>;
  signal: AbortSignal;
  cwd: string;
  /** where a tool call's `path` points (ToolRunDeps.pathOf); undefined: it cannot be told */
  pathOf?(path: string): string | undefined;
  /**
   * a tool no request offered that a call names and that may still come: an MCP server's, whose
   * server is starting (ToolRunDeps.unlisted); its run waits for it, bounded
   */
  unlisted?(name: string, offered: readonly string[]): Tool | undefined;
  /**
   * the name a call means when it names no tool its request offered in another spelling of one not
   * offered (Claude Code's `mcp__SERVER__TOOL` for an MCP tool: mcp/tool-aliases.ts); the call runs, is judged and kept under it
   */
  alias?(name: string): string | undefined;
  /** maxRunTokens: input + output tokens of the run's model responses after which it hands off; undefined = no cap */
  limits: { maxTurns: number; parallelTools: boolean; maxRunTokens?: number };
  retry: RetryPolicy;
  permission: PermissionCheck;
  /** sent with every request; undefined = the provider's configured default */
  effort: Effort | undefined;
  /** waits `ms` or rejects when `signal` aborts; and [0,1) randomness for jitter — injected for tests */
  clock: { sleep(ms: number, signal: AbortSignal): Promise<void>; random(): number };
  /** keeps the hand-off (the run's last message) before the run's `done`: what saving it said is heard first */
  keepHandOff?(limit: HandOffLimit): Promise<void>;
  /**
   * the provider the same request goes to when the one in use gave up on it (after its retries)
   * before a word of the answer came: the next fallback model, already switched to and said
   * (a `fallback` event), and every later request of the run goes there too; undefined when there is
   * none left or no other model can help (a bad key, a request to fix). Never asked after an abort, a
   * partial answer or an empty one after tool results (the model's way to end its task). Never rejects.
   */
  fallback?(error: ProviderError, signal: AbortSignal): Promise<Provider | undefined>;
  /**
   * how the run's user picks another model, which the advice after a model's refusal names: at hey's prompt
   * (`/model`, at once), or on the next run's command line (`-m`, `--fallback-model`); undefined: neither (an embedder's run)
   */
  modelSwitch?: "prompt" | "command line";
}

/** What one request is built from; its tools are also the ones its calls run against. */
export interface RequestContext {
  system: string;
  messages: readonly Message[];
  tools: Tool[];
  /** ModelRequest.note: the context use, sent after the last message */
  note?: string;
  /** ModelRequest.onceTail: the request's tail goes this once (no cache write for it) */
  onceTail?: true;
  /** ModelRequest.unchangedThrough: the last message as the previous request to this model sent it, where its cached prefix ends */
  unchangedThrough?: string;
  /** what building it cost (a summary request): part of the run's tokens, for its cap and its total */
  usage?: Usage;
}

export interface RunResult {
  stop: RunStop;
  turns: number;
  usage: Usage;
  /**
   * the `error` event that ended the run, for a caller with no Output: why it stopped with "error"
   * or "interrupted", or the cut-off final answer of "length"; absent otherwise
   */
  error?: { kind: ErrorKind; message: string };
}

/** One answered request: its message (already appended, unless it is a hand-off without text), whether it has text, why it stopped (and the provider's words on it, and the output limit it went with), the tools it was offered. */
export interface Answer {
  message: Message;
  answered: boolean;
  stop: StopReason;
  detail?: string;
  maxTokens?: number;
  tools: Tool[];
}

/** The requests of one run and their tally: what the loop and the hand-off both make requests with. */
export interface Turns {
  /** the limit the run has reached (turns, or run tokens), if any */
  limitReached(): HandOffLimit | undefined;
  /**
   * One request (a `turn_start`, its context, the request with retries) and its reply appended;
   * `handOff`: no tool may be called (the calls a model makes anyway are dropped). An unrecoverable
   * error or an abort ends the run: its RunResult (an error during a hand-off ends it at its limit).
   */
  request(handOff: boolean, limit?: HandOffLimit): Promise<Answer | RunResult>;
  append(...added: Message[]): void;
  count(): number;
  /** emits `done` */
  finish(stop: RunStop): RunResult;
  /** emits the `error` event (with the output limit a `length` stop went with), then `done`: a RunResult that carries the error */
  fail(kind: ErrorKind, message: string, stop: RunStop, maxTokens?: number): RunResult;
  interrupted(): RunResult;
}

export function turnsOf(messages: Message[], deps: LoopDeps): Turns {
  const { output } = deps;
  let provider = deps.provider; // a fallback's, once the one before it gave up (LoopDeps.fallback)
  /** empty again after its retries, after tool results (not in a hand-off): how the model ends its task, not a failure */
  const endsTask = (error: ProviderError, handOff: boolean) => error.kind === "empty_answer" && messages.at(-1)?.role === "tool" && !handOff;
  let turns = 0;
  let usage = emptyUsage();
  /** one response's tokens, reported or estimated (Usage.estimated): the run's, for its cap and its total */
  const spend = (u: Usage) => {
    usage = addUsage(usage, u);
    output.emit({ type: "usage", ...usageCounts(u) });
  };
  /**
   * The run stopped before the model said a word to the last message — the user's, or the tool
   * results it was about to read: the marker alone stands for the answer, so the next message is
   * not read as a second request on top of the cancelled one, nor as the model going on with its
   * work unstopped (every protocol takes an assistant message there: after a user's, or after tool
   * results and before the next user message).
   */
  const unanswered = (): RunResult => (markUnanswered(abortReason(deps.signal)), self.interrupted());
  /**
   * The same marker when the run ends in a failure before an answer (an error after the retries, a
   * rejection): the roles still alternate, for the next message of the session (REPL, `hey -c`) goes
   * to servers that refuse two user messages in a row (the chat templates of Gemma, Mistral-Instruct,
   * Llama 2: "Conversation roles must alternate") as to Anthropic, which wants them alternating too;
   * and the model reads that the message before had no answer, rather than two merged as one. It is
   * kept in the history as Esc's is, so every later request (and a resumed session) sends the same prefix.
   */
  const markUnanswered = (reason: string) => {
    const last = messages.at(-1)?.role;
    if (last === "user" || last === "tool") self.append(interruptedAnswer(partialMessage({ text: "" }, true)!, reason));
  };
  const self: Turns = {
    limitReached() {
      if (turns >= deps.limits.maxTurns) return "max_turns";
      const cap = deps.limits.maxRunTokens;
      return cap !== undefined && usage.input + usage.output > cap ? "max_run_tokens" : undefined;
    },
    append(...added) {
      for (const m of added) {
        messages.push(m);
        output.emit({ type: "message", message: m });
      }
    },
    count: () => turns,
    finish(stop) {
      output.emit({ type: "done", stop_reason: stop, turns, usage: usageCounts(usage) });
      return { stop, turns, usage };
    },
    fail(kind, message, stop, maxTokens) {
      output.emit({ type: "error", kind, message, ...(maxTokens ? { max_tokens: maxTokens } : {}) });
      return { ...self.finish(stop), error: { kind, message } };
    },
    interrupted: () => self.fail("interrupted", abortReason(deps.signal), "interrupted"),
    async request(handOff, limit) {
      turns++;
      output.emit({ type: "turn_start", turn: turns });
      let sent = await send(handOff, limit);
      // given up on for a reason another model may not share: the same request, built again for the next model (its window may differ)
      while ("reply" in sent && deps.fallback && !deps.signal.aborted && sent.reply.error && !sent.reply.partial && !endsTask(sent.reply.error, handOff)) {
        const next = await deps.fallback(sent.reply.error, deps.signal);
        if (!next) break;
        provider = next;
        sent = await send(handOff, limit);
      }
      // its summary failed and no model is left to ask: the trim stands, as without fallbacks
      if ("reply" in sent && !sent.context) sent = await send(handOff, limit, sent.reply.error);
      if (!("reply" in sent)) return sent;
      const { context, reply } = sent;
      if (!context) {
        markUnanswered(REQUEST_FAILED);
        return self.fail(reply.error.kind, reply.error.message, limit ?? "error"); // not built twice: `failed` trims
      }
      // an answer cut short (by the user, a signal or the connection) is kept, marked, so the model reads it as unfinished
      if (reply.partial) self.append(interruptedAnswer(reply.partial, deps.signal.aborted ? abortReason(deps.signal) : BROKE_OFF));
      else if (reply.error && deps.signal.aborted) markUnanswered(abortReason(deps.signal));
      // a prompt the content filter refused would be refused again: the exchange is kept marked as refused, and never sent again
      else if (reply.error?.refusedPrompt) self.append(refusedAnswer({ id: newId(), role: "assistant", content: [] }, FILTERED));
      else if (reply.error && !endsTask(reply.error, handOff)) markUnanswered(REQUEST_FAILED);
      // a stream cut after it began was billed all the same: its cost after its marker, as an answer's after the answer (a resumed
      // session tells by it that the provider had answered, so the request wrote its prompt cache; a marker alone, that it was not)
      if (reply.error?.usage) spend(reply.error.usage);
      if (reply.error) {
        if (deps.signal.aborted) return self.interrupted();
        // empty again after its retries, after tool results: the model's way to end the task (Claude's
        // empty end_turn, reached through a gateway that speaks another protocol), its work the result
        if (endsTask(reply.error, handOff)) {
          const ended: Message = { id: newId(), role: "assistant", content: [] };
          self.append(ended);
          return { message: ended, answered: false, stop: "stop", tools: context.tools };
        }
        if (reply.error.refusedPrompt) return self.fail("refusal", promptRefused(reply.error.message), limit ?? "error");
        return self.fail(reply.error.kind, reply.error.message + advice(reply.error, deps.fallback !== undefined, deps.modelSwitch), limit ?? "error"); // past the limit the run still ends there (the caller writes a hand-off of its own)
      }
      const answered = textOf(reply.message).trim() !== "";
      // calls made anyway in the hand-off will never run: left out of a copy, as a message is never edited once made (the reply was weighed and shown already)
      const made = handOff ? withoutCalls(reply.message) : reply.message;
      const refusal = reply.stop === "refusal" && !made.toolCalls?.length;
      // two calls with one id keep both results; a call by another agent's name for a tool keeps the tool's; a refused answer is kept as its marker alone
      const named = withToolNames(
        made,
        context.tools.map((t) => t.name),
        deps.alias,
      );
      const message = refusal ? refusedAnswer(made, reply.detail) : withUniqueCallIds(named, messages);
      if (!handOff || answered) self.append(message); // an empty hand-off is not kept: it is asked for again
      spend(reply.usage);
      const { stop, detail, maxTokens } = reply;
      return { message, answered, stop, ...(detail ? { detail } : {}), ...(maxTokens ? { maxTokens } : {}), tools: context.tools };
    },
  };
  /**
   * The request's context, built for the provider in use, and its reply; its summary's failure alone
   * (no context) when a fallback may summarize instead; or the run's end, when building it was
   * interrupted. `failed`: that failure, when no fallback was left (the trim stands).
   */
  async function send(handOff: boolean, limit: HandOffLimit | undefined, failed?: ProviderError): Promise<RunResult | Sent> {
    let context: RequestContext | undefined;
    let stuck: StuckTries = { silent: 0, answerless: 0 };
    // a summary handed on is tried again as the request would be, and handed to the fallback once its retries are spent
    for (let attempt = 1; !context; attempt++) {
      try {
        // a refused exchange is never sent again (refusal.ts), nor summarized or counted
        const summary = failed ? { failed } : deps.fallback ? { handOn: true as const } : undefined;
        context = await deps.context(withoutRefused(messages), deps.signal, handOff ? limit : undefined, summary);
      } catch (e) {
        if (e instanceof ProviderError && e.usage) usage = addUsage(usage, e.usage); // a summary request it began was billed all the same
        if (deps.signal.aborted) return unanswered();
        if (!(e instanceof ProviderError) || failed || !deps.fallback) throw e;
        e.usage = undefined; // counted once
        stuck = countStuckTries(stuck, e);
        const next = retryOrGiveUp(e, attempt, stuck, deps);
        if ("error" in next) return { reply: next };
        await deps.clock.sleep(next.delayMs, deps.signal).catch(() => {});
        if (deps.signal.aborted) return unanswered();
      }
    }
    if (context.usage) usage = addUsage(usage, context.usage);
    const request = modelRequest(context, provider, deps.effort, handOff);
    if (request.effort !== deps.effort) output.emit({ type: "debug", message: `effort ${deps.effort} → off for this request: ${THINKING_BLOCKED}` });
    return { context, reply: await requestWithRetry(request, { ...deps, provider }, spend) };
  }
  return self;
}

/**
 * The request the loop sends of `context` to `provider`: its history adapted (adapt-history.ts),
 * `effort` off for this request alone where the tool loop in progress has no thinking of this model
 * (thinkingBlocked), the hand-off's tool choice. Also how `hey -c` rebuilds the last request of the
 * run before it (context/replay-cache.ts), so a summary can be asked after it from the cache. Pure.
 */
export function modelRequest(
  context: Pick<RequestContext, "system" | "messages" | "note" | "onceTail" | "unchangedThrough"> & { tools: ModelRequest["tools"] },
  provider: Provider,
  effort: Effort | undefined,
  handOff = false,
): ModelRequest {
  const sent = adaptHistory(context.messages, provider);
  const blocked = effort !== undefined && effort !== "off" && thinkingBlocked(sent, provider);
  return {
    system: context.system,
    messages: sent,
    tools: context.tools,
    // the hand-off must be text, but the tools stay described: some APIs reject a history with
    // tool calls when no tools are defined
    ...(handOff ? { toolChoice: "none" as const } : {}),
    ...(context.note ? { note: context.note } : {}),
    ...(context.onceTail ? { onceTail: true as const } : {}),
    ...(context.unchangedThrough ? { unchangedThrough: context.unchangedThrough } : {}),
    ...(effort !== undefined ? { effort: blocked ? ("off" as const) : effort } : {}), // off this request only: the next turn thinks again
  };
}

/**
 * What the user can do about the error that ends the run, after its words; not in the error a fallback is told by (it just
 * switched models). `fallbacks`: some are set, so the run has tried them; `how`: LoopDeps.modelSwitch.
 */
function advice(error: ProviderError, fallbacks: boolean, how: LoopDeps["modelSwitch"]): string {
  // at the prompt `/model` works at once (`-m` and `--fallback-model` only after a restart); a -p run has no prompt
  const ways = how === "prompt" ? "/model" : how === "command line" ? (fallbacks ? "-m" : "-m or --fallback-model") : undefined;
  if (error.kind === "quota_exhausted") return how === "prompt" ? " (switch models with /model)" : ways ? ` (run again with another model: ${ways})` : "";
  if (!error.waitTooLong) return "";
  return `; raise max_delay_ms to wait, or use another model${ways ? ` (${ways})` : ""}`;
}

/** Why a request goes with thinking off (the debug log's line). */
const THINKING_BLOCKED =
  "the tool-calling message in progress has no thinking block of this model (another model's, or made with thinking off), and Anthropic keeps one thinking setting per tool loop";

/** A request made (its context and reply), or its summary's failure before it, for a fallback to summarize (no context). */
type Sent = { context: RequestContext; reply: Reply } | { context?: undefined; reply: { error: ProviderError; partial?: undefined } };

/** The end of an answer the user interrupted, as the session keeps it and every later request sends it. */
export const INTERRUPTED_ANSWER = "[interrupted by the user]";

/** How the marker of an answer cut short by anything but the user starts. */
const OTHER_MARKER = "[interrupted: ";

/**
 * Whether `m` is an answer cut before its first word: the marker alone, which stands in the
 * conversation for no answer (the session writer saves no conversation for it). Never throws.
 */
export function cutBeforeAnswer(m: Message): boolean {
  if (m.role !== "assistant" || m.toolCalls?.length || m.content.length !== 1) return false;
  const only = m.content[0]!;
  if (only.type !== "text") return false;
  return only.text === INTERRUPTED_ANSWER || (only.text.startsWith(OTHER_MARKER) && only.text.endsWith("]") && !only.text.includes("\n"));
}

/** Why a stream that broke off after partial output is unfinished, in its marker. */
const BROKE_OFF = "the response broke off";

/** Why a request that failed (an error after its retries, a rejection) has no answer, in its marker: `[interrupted: the request failed]`. */
export const REQUEST_FAILED = "the request failed";

/**
 * Whether `m` is the marker a failed request leaves for the model (REQUEST_FAILED): hey's words, not
 * the model's, so no final answer (`--output json`'s `result.text` stays what the model said last).
 */
export const failedRequestMarker = (m: Message) =>
  cutBeforeAnswer(m) && m.content[0]!.type === "text" && m.content[0]!.text === `${OTHER_MARKER}${REQUEST_FAILED}]`;

/**
 * Why a saved question has no answer when its session is resumed, or only the words that had
 * streamed (MIDWAY): hey was killed (kill -9, a power cut) before it could mark the answer cut, or
 * the run failed; the resume marks it so (sessions/open-ends.ts), and the next message is not taken
 * as part of the question.
 */
export const HEY_STOPPED = "hey stopped before it answered";
export const HEY_STOPPED_MIDWAY = "hey stopped in the middle of this answer";

/**
 * `partial` with a marker after its text: INTERRUPTED_ANSWER, or the reason of another abort
 * (`[interrupted: terminated (SIGTERM)]`), of a broken stream (`[interrupted: the response broke off]`)
 * or of a hey that stopped (HEY_STOPPED). Never throws.
 */
export function interruptedAnswer(partial: Message, reason: string): Message {
  const marker = reason === INTERRUPTED ? INTERRUPTED_ANSWER : `${OTHER_MARKER}${reason}]`;
  const marked = (text: string) => (text.trim() === "" ? marker : `${text.trimEnd()}\n\n${marker}`);
  return { ...partial, content: partial.content.map((b) => (b.type === "text" ? { ...b, text: marked(b.text) } : b)) };
}

/** `m` without its tool calls, as a new message: `m` itself is left as it was */
function withoutCalls(m: Message): Message {
  const { toolCalls: _, ...rest } = m;
  return rest;
}
