// One conversation: its messages, the current provider and the agent's own settings, the context
// state and the loop's dependencies. The one-shot run and the REPL drive it through `send`; the
// runtime changes its model and effort through `switchModel` and `setEffort`. Nothing outside this
// file writes it: the rest of hey sees read-only views. It knows no configuration file: its
// settings are values (runtime.ts makes them from the configuration; lib.ts has defaults).
import {
  answered,
  compactNow,
  correctEstimate,
  cacheOf,
  COLD_CACHE,
  newCompactionState,
  prepare,
  previewContext,
  summaryCost,
  type ModelCache,
  type PrepareDeps,
} from "./context/compaction.ts";
import { historyFrom, resumedReplay, usageFacts } from "./context/replay-cache.ts";
import { cutCounts, offeredPolicy } from "./context/view.ts";
import { uncuttable } from "./mcp/oversize.ts";
import { newOutputCaps, unchangedRequest, windowTaught } from "./context/output-cap.ts";
import { answerOverLimit, answerShare, fixedText, keepsWindow, latestOverWindow, learnWindow, limitIn } from "./context/window.ts";
import { refusalOf, servedWindow, taughtBy, unlearnedWindow } from "./context/window.ts";
import { costedStream } from "./context/request-cost.ts";
import { adaptHistory } from "./kernel/adapt-history.ts";
import { withoutRefused } from "./kernel/refusal.ts";
import { addUsage, emptyUsage, userMessage, type ContentBlock, type Effort, type Message, type ToolSpec, type Usage } from "./kernel/ir.ts";
import { runLoop, type RunResult } from "./kernel/loop.ts";
import { usageCounts, usageOf, type Output } from "./kernel/output.ts";
import { saysNoEffortSent } from "./providers/effort.ts";
import { identityOf, ProviderError, type ModelRequest, type Provider, type StreamEvent } from "./kernel/provider.ts";
import { sleep } from "./kernel/sleep.ts";
import { cutBeforeAnswer } from "./kernel/turns.ts";
import { syncedFirst } from "./sessions/synced-first.ts";
import type { Tool } from "./kernel/tool.ts";
import { keepShown } from "./tools/earlier-reads.ts";
import { fallbackLine, fallbackReason } from "./fallback/reasons.ts";
import type { Agent, AgentParts, AgentSettings, AgentUsage, SendOptions } from "./agent-parts.ts";

export type { Agent, AgentParts, AgentSettings, AgentUsage, Fallback, SendOptions } from "./agent-parts.ts";

export function createAgent(parts: AgentParts): Agent {
  const messages: Message[] = [...(parts.history ?? [])];
  const compaction = newCompactionState(parts.summaries, parts.tokensPerChar);
  compaction.window = parts.window;
  if (parts.window !== undefined) compaction.windowFrom = "the session it continues";
  if (parts.requestLimit) compaction.limitBefore = parts.requestLimit; // a tier may have been raised since: a refusal teaches it again, if it still holds
  const replayResumed = resumedReplay(parts.cache, messages); // each model the session used goes on from its last request there
  let { settings } = parts;
  // every request, the loop's and a summary's, waits for the session file's sync a step's was queued behind: a power cut loses one step at most
  let provider = syncedFirst(parts.provider);
  let effort = settings.effort;
  let effortUnsent: string | undefined;
  /** what each model left this run learned, by `provider/model` (its window; its provider, with what refusals taught it; its prompt cache's state): a return to it goes on with that */
  const learned = new Map<string, { window?: number; windowFrom?: string; provider?: Provider; effortUnsent?: string; cache?: ModelCache }>(
    Object.entries(parts.windows ?? {}).map(([model, window]) => [model, { window, windowFrom: "the session it continues" }]),
  );
  let usage: AgentUsage = { total: emptyUsage(), last: undefined, requests: 0 };
  // the cache state as of the last request the provider answered, as `hey -c` replays it: one that failed wrote no cache, nor one whose
  // interrupted marker no cost follows (Esc in a retry's wait: x158 #2), so a switch away and a run's end go back to this (x150 #2)
  let made = cacheOf(compaction);
  let markerAlone = false; // the last message is an interrupted marker alone: its request was answered if its cost comes next

  /** the input tokens of the request just answered, when its usage sums more requests (StreamEvent done.requestInput); whether the server cut it */
  let requestInput: number | undefined;
  let cutInput = false;
  /** the request being made asked for a summary that failed: the trim stood; it went with every rewrite due, its history from (all in its usage, for `hey -c`) */
  let [summaryFailedNow, builtNow] = [false, { rebuilt: false } as { rebuilt: boolean; from?: string }];
  /** The loop's output: counts usage and corrects the context estimate, then passes everything on. */
  const counted: Output = {
    emit(event) {
      if (event.type === "usage") {
        const u = usageOf(event);
        if (markerAlone) made = cacheOf(compaction);
        usage = { total: addUsage(usage.total, u), last: u, requests: usage.requests + 1 };
        if (!cutInput) correctEstimate(compaction, requestInput ?? u.input); // a cut count is not of what was sent
        requestInput = undefined;
        return parts.output.emit({ ...event, tokens_per_char: compaction.tokensPerChar, ...usageFacts(compaction.sent, summaryFailedNow, builtNow) });
      }
      if (event.type === "compaction" && event.kind === "trim" && event.error) summaryFailedNow = true;
      if (event.type === "message") markerAlone = event.message.role === "assistant" && cutBeforeAnswer(event.message);
      if (event.type === "message" && event.message.role === "assistant" && !markerAlone) made = cacheOf(compaction);
      if (event.type === "notice" && saysNoEffortSent(event.message)) effortUnsent = event.message;
      parts.output.emit(event);
    },
  };
  /** A summary request's tokens: counted like any request's (and saved), but not used to correct the estimate. */
  const spent = (u: Usage) => {
    usage = { ...usage, total: addUsage(usage.total, u), requests: usage.requests + 1 };
    parts.output.emit({ type: "usage", ...usageCounts(u), tokens_per_char: compaction.tokensPerChar });
  };
  /** the note of the request being made (a retry rebuilt after a context-length error keeps it) */
  let extraNote: string | undefined;
  const withNote = (note: string | undefined) => (extraNote && note ? `${extraNote}\n${note}` : (extraNote ?? note));
  const prepareDeps = (output: Output, tools: ToolSpec[]): PrepareDeps => ({
    state: compaction,
    policy: offeredPolicy(settings.context, tools),
    provider,
    output,
    tools,
    system: parts.system,
    taskNote: parts.taskNote,
    now: Date.now,
  });

  /**
   * A resumed session's requests to the model in use replayed, once, before its first request or `/compact` in the run:
   * the view goes on from the last request there, and a summary is asked after it from the provider's cache (x6 #3:
   * `hey -c -p /compact` went as a transcript at full price).
   */
  const goOnFromSession = (history: readonly Message[], deps: PrepareDeps) => {
    if (replayResumed(modelKey(settings.model), history, deps, effort)) made = cacheOf(compaction);
  };
  /** the tools of the request being made, with the MCP server of each (an oversized request names them) */
  let offered: readonly Tool[] = [];
  const outputCaps = newOutputCaps(parts.outputCaps, () => settings.maxTokens); // an endpoint that counts each answer's output limit into the window, once a refusal said so
  /** the provider whose server-stated window is in use: it is taken once, so a context-length error may still lower it */
  let servedBy: Provider | undefined;
  /**
   * The window the endpoint states (a local model server, the model list), once it says: a server's
   * replaces one resumed before; neither raises one a context-length error of this model taught.
   */
  const useServerWindow = async () => {
    if (servedBy === provider || !provider.serverWindow) return;
    const stated = await provider.serverWindow();
    if (stated === undefined) return;
    const window = (compaction.window = servedWindow(compaction, stated));
    servedBy = provider;
    const limit = limitIn(compaction.windowFrom); // a per-request limit kept over the stated window: a hint for `hey -c`, not its window
    parts.output.emit({ type: "model", ...settings.model, window, ...(limit ? { limit } : {}), ...(effort === undefined ? {} : { effort }) }); // kept with the session: `hey -c` starts within it
    parts.output.emit({ type: "debug", message: `the model's window: ${window} tokens, from ${compaction.windowFrom}` });
  };

  /**
   * The provider of the loop's requests: a request refused as too long is sent once more, its answer
   * bounded (context/output-cap.ts) or built again to the window the refusal taught. An answer without
   * usage, or one cut after it began, is counted with an estimate (context/request-cost.ts): the
   * request as the context estimate counted it when it was built, where the provider did not say.
   */
  const windowed = (): Provider => ({
    ...identityOf(provider),
    async *stream(request: ModelRequest, signal: AbortSignal): AsyncGenerator<StreamEvent> {
      // a latest message that alone takes more than a window known before: no request can hold it
      const window = Math.min(compaction.window ?? Number.POSITIVE_INFINITY, settings.context.window ?? Number.POSITIVE_INFINITY);
      const doomed = latestOverWindow(sendable(), fixedText(request), compaction.tokensPerChar, window);
      if (doomed) throw new ProviderError("context_length", doomed);
      let [sent, serverInput] = [request, undefined as number | undefined]; // as sent; the server's count of it, when only its answer's limit changes
      for (let attempt = 1; ; attempt++) {
        try {
          const estimate = { input: compaction.last?.estimate ?? 0, tokensPerChar: compaction.tokensPerChar };
          sent = outputCaps.bound(request, modelKey(settings.model), serverInput ?? estimate.input);
          for await (const event of costedStream(provider.stream(sent, signal), estimate)) {
            // cut notices: seen now; a refused request is no base for a summary request (it would send the refused words again)
            if (event.type === "done")
              (requestInput = event.requestInput),
                (cutInput = event.cut === true),
                answered(compaction, event.stop === "refusal" ? undefined : { request, by: provider });
            if (cutInput) await useServerWindow(); // the window it was cut to, kept with the session now: a run may end with this answer
            yield event.type === "done" && sent.maxTokens !== request.maxTokens ? { ...event, maxTokens: sent.maxTokens } : event; // hey's bound: a length stop says so
          }
          return;
        } catch (e) {
          // one that began, or came back empty, was billed (its usage says what it cost): not built again
          if (!(e instanceof ProviderError) || e.kind !== "context_length" || e.usage) throw e;
          const before = compaction.last?.estimate ?? 0;
          const known = compaction.window ?? settings.context.window;
          const share = answerShare(e.overflow, sent.maxTokens ?? settings.maxTokens); // a per-request limit counts the max_tokens sent
          if (share?.prompt) correctEstimate(compaction, share.prompt);
          // the prompt fits and only the answer's limit overflowed: the same request, its answer bounded, not a cut history
          const fits = outputCaps.learn(share, request, modelKey(settings.model), attempt === 1);
          const cap = outputCaps.of(modelKey(settings.model)); // kept with the session: `hey -c` goes on bounded, not refused again
          if (cap) parts.output.emit({ type: "model", ...settings.model, output_cap: cap });
          if (fits) {
            [compaction.window, compaction.windowFrom, serverInput] = [...windowTaught(compaction, known, fits.window), fits.prompt];
            parts.output.emit({ type: "notice", message: fits.notice });
            continue;
          }
          const fixed = Math.ceil(fixedText(request).length * compaction.tokensPerChar);
          // the user's max_tokens takes so much of the limit that no cut of the conversation fits: lowering it is the way
          const userMax = request.maxTokens === undefined ? settings.maxTokens : undefined;
          const overMax = share && userMax !== undefined ? answerOverLimit(share, userMax, fixed, settings.model.provider) : undefined;
          if (overMax) throw new ProviderError("context_length", overMax, { overflow: share!, cause: e });
          const learned = learnWindow(share ?? {}, before, known);
          if (keepsWindow(learned, fixed)) (compaction.window = learned), (compaction.windowFrom = taughtBy(share));
          else if (e.overflow?.window === undefined) throw new ProviderError("context_length", unlearnedWindow(e.message, learned, fixed), { cause: e });
          if (attempt > 1) throw e;
          // a window the error or the settings state, too small for the tools and system prompt alone, or with the latest message: cutting the history cannot help
          const serverOf = (name: string) => offered.find((t) => t.name === name)?.server;
          const over = (e.overflow?.window ?? known) !== undefined ? uncuttable(request, sendable(), serverOf, compaction.tokensPerChar, learned) : undefined;
          if (over) throw new ProviderError("context_length", over, { ...(e.overflow ? { overflow: e.overflow } : {}), cause: e });
          // its trim is said by the window event below, with the same sizes: not twice
          const quiet: Output = { emit: (event) => event.type !== "compaction" && counted.emit(event) };
          summaryFailedNow = false; // sent as built now, deterministically
          const prepared = await prepare(sendable(), prepareDeps(quiet, request.tools), signal, { deterministic: true });
          builtNow = { ...builtNow, rebuilt: compaction.rewriteUpTo === sendable().length };
          request = {
            ...request,
            system: prepared.system,
            messages: adaptHistory(prepared.messages, provider),
            ...(withNote(prepared.note) ? { note: withNote(prepared.note) } : {}),
          };
          serverInput = undefined; // the same bytes would be refused the same way: not sent again
          if (JSON.stringify(outputCaps.bound(request, modelKey(settings.model), compaction.last?.estimate ?? 0)) === JSON.stringify(sent))
            throw new ProviderError("context_length", unchangedRequest(e.message), { cause: e });
          // a per-request limit states what it counted: a request no smaller would be refused the same way (r6 #1: it was sent again)
          if (share?.ceiling && (compaction.last?.estimate ?? 0) >= (share.prompt ?? before))
            throw new ProviderError("context_length", unchangedRequest(e.message, "did not make the request smaller"), { cause: e });
          parts.output.emit({
            type: "compaction",
            kind: "window",
            window: compaction.window,
            // the size the provider counted, when it said (the estimate before is in other units than the one after, corrected by it)
            tokens_before: share?.prompt ?? before,
            tokens_after: compaction.last?.estimate ?? 0,
            ...cutCounts(compaction.last),
            ...refusalOf(e, share),
          });
        }
      }
    },
  });

  /** the history as requests carry it: no refused exchange (kernel/refusal.ts; the loop leaves it out of its own requests) */
  const sendable = () => withoutRefused(messages);

  /** the model a send began on, while a fallback answers for it: the send's end goes back to it, so the next one tries it again */
  let primary: { provider: Provider; settings: AgentSettings; effort: Effort | undefined } | undefined;
  const modelKey = (m: AgentSettings["model"]) => `${m.provider}/${m.model}`;
  /** LoopDeps.fallback: the next model of parts.fallback not `tried`, switched to and said */
  async function fallBack(error: ProviderError, tried: Set<string>, signal: AbortSignal): Promise<Provider | undefined> {
    const next = await parts.fallback?.(error, tried, signal);
    if (!next || signal.aborted) return undefined;
    const [from, to] = [modelKey(settings.model), modelKey(next.settings.model)];
    tried.add(to);
    primary ??= { provider, settings, effort };
    parts.output.emit({ type: "fallback", from, to, kind: error.kind, message: fallbackLine(from, to, next.why, error.message) });
    self.switchModel(next.provider, next.settings);
    return windowed();
  }
  /** what a failed summary handed on to a fallback cost, until the next context is built */
  let handedOn: Usage | undefined;
  /** a failed summary that a fallback may summarize instead: one that gave up for a reason of this model or its endpoint */
  const canHandOn = (e: unknown) => e instanceof ProviderError && fallbackReason(e) !== undefined;
  const backToPrimary = () => {
    if (!primary) return;
    const { effort: _, ...rest } = primary.settings;
    self.switchModel(primary.provider, primary.effort === undefined ? rest : { ...rest, effort: primary.effort });
    primary = undefined;
  };

  /** one run of send: the user's message, then the loop */
  function runOne(content: string | ContentBlock[], signal: AbortSignal, opts: SendOptions = {}): Promise<RunResult> {
    const message = userMessage(content);
    messages.push(message);
    parts.output.emit({ type: "message", message });
    const tried = new Set([modelKey(settings.model)]); // the models this run has used: a fallback is never asked twice
    const run = runLoop(messages, {
      ...(parts.fallback ? { fallback: (error: ProviderError, s: AbortSignal) => fallBack(error, tried, s) } : {}),
      ...(opts.keepHandOff ? { keepHandOff: opts.keepHandOff } : {}),
      provider: windowed(),
      output: counted,
      context: async (history, s, handOff, summary) => {
        const tools = await parts.tools(s);
        offered = tools;
        await useServerWindow();
        goOnFromSession(history, prepareDeps(counted, tools));
        summaryFailedNow = false;
        // past the run's token cap the hand-off is trimmed to fit, never summarized: the cap is not overshot by a request the run does not need
        const failing = summary && "failed" in summary ? { failed: summary.failed } : summary ? { handOn: canHandOn } : {}; // LoopDeps.context
        const prepared = await prepare(history, prepareDeps(counted, tools), s, { deterministic: handOff === "max_run_tokens", ...failing }).catch(
          (e: unknown) => {
            const cost = summaryCost(e); // a summary request interrupted with the run: the run counts it too (LoopDeps.context)
            // one handed on is counted with the context built next (the fallback's, or the trim's): after what that says, as a failed summary's cost always is
            if (cost && !s.aborted && "handOn" in failing) handedOn = addUsage(handedOn ?? emptyUsage(), cost);
            else if (cost) spent(cost);
            throw e;
          },
        );
        builtNow = { rebuilt: compaction.rewriteUpTo === history.length, from: historyFrom(history) };
        if (handedOn) spent(handedOn);
        handedOn = undefined;
        if (prepared.usage) spent(prepared.usage);
        if (parts.seen) keepShown(parts.seen, prepared.messages);
        extraNote = parts.note?.(tools);
        const note = withNote(prepared.note);
        return { ...prepared, ...(note ? { note } : {}), tools };
      },
      signal,
      cwd: parts.cwd,
      ...(parts.pathOf ? { pathOf: parts.pathOf } : {}),
      ...(parts.unlisted ? { unlisted: parts.unlisted } : {}),
      ...(parts.alias ? { alias: parts.alias } : {}),
      ...(parts.modelSwitch ? { modelSwitch: parts.modelSwitch } : {}),
      limits: settings.limits,
      retry: settings.retry,
      permission: parts.permission,
      effort,
      clock: { sleep, random: Math.random },
    });
    return run.finally(() => (Object.assign(compaction, made), backToPrimary())); // a last request that failed is forgotten, as the replay never saw it
  }
  /** the last send's run, until it settles */
  let busy: Promise<void> | undefined;

  const self: Agent = {
    get messages() {
      return messages;
    },
    get settings() {
      return settings;
    },
    get provider() {
      return provider;
    },
    get effort() {
      return effort;
    },
    get effortUnsent() {
      return effortUnsent;
    },
    get usage() {
      return usage;
    },
    context: compaction,
    send(content, signal, opts) {
      // the history holds one conversation: a second run beside the first would put its message between a call and its result
      // (when none is going it starts at once, the message in `messages` before send returns)
      const run = busy ? busy.then(() => runOne(content, signal, opts)) : runOne(content, signal, opts);
      const idle = () => {
        if (busy === settled) busy = undefined;
      };
      const settled = run.then(idle, idle);
      busy = settled;
      return run;
    },

    async preview(signal) {
      const [history, deps] = [sendable(), { ...prepareDeps(counted, await parts.tools(signal, true)), state: { ...compaction } }];
      // after `hey -c` the next request goes on from the session's, rewrites still held included: replayed on a copy, as the
      // tools asked for a look may lack a server still starting, and the request's own replay must see them all
      replayResumed(modelKey(settings.model), history, deps, effort, true);
      return previewContext(history, deps); // what the next request holds
    },
    async compact(instructions, signal) {
      try {
        // a refused exchange is not summarized: the summary request would carry the words that drew the refusal
        const [history, deps] = [sendable(), prepareDeps(parts.output, await parts.tools(signal))];
        goOnFromSession(history, deps);
        const done = await compactNow(history, deps, signal, instructions);
        if (!done) return false;
        made = cacheOf(compaction); // a summary begins the cache anew (compactNow), as the replay begins at its line
        spent(done.usage);
      } catch (e) {
        const cost = summaryCost(e); // an empty, cut or interrupted summary still cost its tokens
        if (cost) spent(cost);
        throw e;
      }
      return true;
    },
    switchModel(nextProvider, next) {
      const changed = next.model.provider !== settings.model.provider || next.model.model !== settings.model.model;
      const now = { window: compaction.window, windowFrom: compaction.windowFrom, provider, effortUnsent, cache: made };
      if (changed) learned.set(modelKey(settings.model), now);
      const back = changed ? learned.get(modelKey(next.model)) : now; // what the old model's errors taught says nothing about this one: its own did
      [compaction.window, compaction.windowFrom] = [back?.window, back?.windowFrom];
      if (changed) compaction.limitBefore = undefined; // the resumed model's limit says nothing of this one
      // each model's prompt cache is its own (x146 #2), as `hey -c` replays it: a new one is cold, so its first request rewrites what was deferred,
      // for free; a return goes on from the last request it answered (a summary due reads that: x150 #3), cached within the lifetime, else rebuilt
      if (changed) made = cacheOf(Object.assign(compaction, back?.cache ?? COLD_CACHE));
      const synced = syncedFirst(nextProvider);
      effortUnsent = back?.provider === synced ? back.effortUnsent : undefined; // a new provider has not refused it yet
      settings = next;
      provider = synced;
      if (changed || next.effort !== effort) parts.output.emit({ type: "model", ...next.model, ...(next.effort === undefined ? {} : { effort: next.effort }) });
      effort = next.effort;
    },
    setEffort(next) {
      if (next === effort) return;
      effort = next;
      parts.output.emit({ type: "model", ...settings.model, ...(next === undefined ? {} : { effort: next }) }); // kept with the session: `hey -c` goes on with it
    },
  };
  return self;
}
