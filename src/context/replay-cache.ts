// `hey -c` within the prompt cache's lifetime (issue 23): the state of compaction.ts as the run
// before it left it, rebuilt from the session, so the first request after the resume goes on from
// the last request's prefix. Pure.
import { textOf, type Effort, type Message } from "../kernel/ir.ts";
import { keptOf, withoutRefused } from "../kernel/refusal.ts";
import { cutBeforeAnswer, HEY_STOPPED, modelRequest } from "../kernel/turns.ts";
import { seenIn } from "./cut-notice.ts";
import { SUMMARY_ID } from "./passes.ts";
import { callsNote } from "./held-note.ts";
import { answered, asSent, chooseView, contextOf, summaryDue, type CompactionState, type PrepareDeps } from "./compaction.ts";
import type { AnsweredRequest } from "./summary-cached.ts";
import { fixedHash, fixedText } from "./window.ts";

/**
 * Where a resumed session's prompt cache began (sessions/reader.ts LoadedSession.cache): `upTo` messages were judged for
 * rewrites since then (`starts`: by `provider/model`, later for a model whose window changed), its last request made at
 * `at`; `answers`: by each answer's id, when it came, the estimate's ratio its request was built with, its system prompt
 * and tools' hash, whether its summary failed and it went with every rewrite due, the model it was sent to
 * (`provider/model`) and the task note it took anew ("" for none: held-note.ts). Without the models every request is replayed into each model's cache.
 */
export interface ResumedCache {
  upTo: number;
  at: number;
  answers?: ReadonlyMap<
    string,
    { at?: number; made?: number; ratio?: number; fixed?: string; failed?: true; rebuilt?: boolean; model?: string; note?: string }
  >;
  starts?: Record<string, number>;
}

/**
 * The replay of a resumed session for each model it used, made before that model's first request in
 * the run (the run's model, a /model or a fallback to another), so a model goes on from its own last
 * request there as a /model back within one run does (x154 #2: `hey -c -m A` after a run on B
 * started A cold). `messages`: the agent's, the session's and then the run's; `cache`: undefined
 * when the session does not tell. The function replays `model`'s requests into `deps.state` once,
 * the last one as the model answered it (`effort`: the run's), and says whether it did; `peek`: into a
 * state that is not the run's (`/usage` before the first request), not counted as the once.
 */
export function resumedReplay(cache: ResumedCache | undefined, messages: Message[]) {
  const resumed = cache && cache.upTo <= messages.length ? cache : undefined;
  const loaded = withoutRefused(messages).length; // the session's messages as requests carry them
  const replayed = new Set<string>();
  return (model: string, history: readonly Message[], deps: PrepareDeps, effort?: Effort, peek = false): boolean => {
    if (!resumed || replayed.has(model)) return false;
    if (!peek) replayed.add(model);
    // the session counted where the cache began over the whole history, refused exchanges too
    const upTo = keptOf(messages, Math.max(resumed.upTo, resumed.starts?.[model] ?? 0));
    replayCache(history.slice(0, loaded), deps, { ...resumed, upTo, model });
    deps.state.answered = answeredAgain(deps, effort);
    return true;
  };
}

/**
 * The last request replayed as the loop sent it (kernel/turns.ts modelRequest), to `deps.provider`:
 * a summary due before the resumed run's first answer is asked after it, from the provider's cache
 * (summary-cached.ts), as a live run's is after its last request (x163 #3: the first summary after
 * `hey -c` went as a transcript, its whole prompt at full price). None when that request went with
 * another system prompt or tool list than today's (the replay's `sent with` hash): it cannot be rebuilt.
 */
function answeredAgain({ state, provider, tools, system }: PrepareDeps, effort: Effort | undefined): AnsweredRequest | undefined {
  const sent = state.sent;
  const prompt = system();
  if (!sent || sent.fixed !== fixedText({ system: prompt, tools })) return undefined;
  return { request: modelRequest({ system: prompt, messages: sent.messages, tools }, provider, effort), by: provider, at: sent.at };
}

/**
 * A resumed session's prompt cache as its last run left it (LoadedSession.cache): each request to
 * `from.model` since the one that began it (`from.upTo` messages: the session's first, a summary —
 * not each run's start, nor a pause, another model or a changed system prompt or tool list, which the
 * replay rebuilds at as the run did) replayed as `prepare` chose its view, when it was made (its last
 * message's time), what it left out and cut (the hold) included, with the estimate's ratio and the
 * system prompt and tools (their hash) it had then, its summary failed only where its usage says so.
 * Other models' requests are passed over: each model's cache is its own (agent.ts switchModel). Then
 * the first request after the resume repeats the last one before it where nothing forced a change, as
 * the next request of one long run would, and the provider's cached prefix serves it within its lifetime.
 */
export function replayCache(history: readonly Message[], deps: PrepareDeps, from: ResumedCache & { model?: string }): void {
  const { state } = deps;
  const ratio = state.tokensPerChar; // the last response's: the next request's
  let at = from.at; // when the request replayed was made: the time of the message it answered, or its answer's
  let now: { text: string; hash: string } | undefined; // the system prompt and tools of the run going on, and their hash
  let recorded: string | undefined; // the hash the last request that has one was sent with: the session records them
  // the task note each request sent: the one its usage line says it took, held until the next that says so;
  // the file as it is now (read once) for a session whose lines say neither (an older hey's), and before the first
  // that says so where no loaded call names the note: a summary took the agent's write of it, which an older hey's requests
  // sent as the file was (r2 #1), and a hey that records it took it anew where the cache began, which says so
  const today = deps.taskNote(history);
  let note = history.some(callsNote) ? undefined : today;
  const replayed = { ...deps, taskNote: () => note };
  const live = state.seen; // what this run said and its models saw before the replay (x163 #5): kept, not said again
  let failedThen = false; // whether the model's last summary in the session failed
  state.rewriteUpTo = undefined;
  state.sent = undefined;
  state.hold = undefined;
  state.note = undefined;
  state.seen = seenIn();
  for (let h = from.upTo; h < history.length; h++) {
    if (history[h]!.role !== "assistant") continue; // the answer of a request made with the first h messages
    const before = history.slice(0, h);
    const answer = from.answers?.get(history[h]!.id);
    // an interrupted marker alone that no usage entry follows: its request was never answered (Esc in a retry's wait), so it
    // wrote no cache: the run kept the state before it (agent.ts `made`: x158 #2). Not the one a resume puts after a question
    // left without an answer (an empty hand-off's, a killed hey's): whether the provider answered that, no line tells
    if (answer && answer.at === undefined && cutBeforeAnswer(history[h]!) && !textOf(history[h]!).includes(HEY_STOPPED)) continue;
    // another model's request (a fallback's, before a /model back): its cache is its own, this one's state as before it (agent.ts switchModel)
    if (answer?.model !== undefined && from.model !== undefined && answer.model !== from.model) continue;
    state.tokensPerChar = answer?.ratio ?? ratio; // the budget and the cuts as they were reckoned then
    at = Math.min(answer?.made ?? answer?.at ?? at, from.at); // a pause past the cache's lifetime rebuilds the view, as it did then
    // a request sent with another system prompt or tool list stands for it by its hash: where it changed the cache
    // missed, and the run going on misses after one sent with another (an MCP server added, CLAUDE.md edited)
    // (an answer whose usage entry is not read, a hand-off's that only called tools or a crash's marker, was sent as the one before it)
    recorded = answer?.fixed ?? recorded;
    if (answer?.note !== undefined) note = answer.note || undefined;
    else if (recorded === undefined) note = today;
    state.note = { text: note }; // whether the run took it anew there or held it, the request sent this text
    const { fixed: current, build, budgetTokens } = contextOf(before, replayed);
    if (now?.text !== current) now = { text: current, hash: fixedHash(current) };
    const fixed = recorded === undefined || recorded === now.hash ? current : `sent with ${recorded}`;
    const chosen = chooseView(before, replayed, fixed, { build, budgetTokens }, at);
    // a summary that request asked for failed (a summary's line would have begun the cache anew): the trim stood (prepare).
    // Its usage says so; in an older session's, a due one is taken as failed (a hand-off past the token cap asks for none)
    const due = (chosen.view.newlyTrimmed > 0 || chosen.view.overBudget || !!chosen.kept) && summaryDue(chosen.view, before, replayed, current, budgetTokens);
    const failed = recorded === undefined ? due : answer?.failed === true;
    let { view, upTo } = failed && chosen.kept ? chosen.kept : chosen;
    // what the request really sent, where its usage says: a run may have found this model's cache cold where the replay
    // cannot tell (a /model to it in a run resumed on another), and a guess that differs rewrites what it sent (x154 #2)
    if (answer?.rebuilt !== undefined && answer.rebuilt !== (upTo === h)) {
      upTo = answer.rebuilt || state.rewriteUpTo === undefined ? h : state.rewriteUpTo;
      view = build(upTo);
    }
    if (failed) failedThen = true;
    state.rewriteUpTo = upTo;
    state.hold = view.hold;
    state.last = asSent(view);
    state.sent = { messages: view.messages, count: view.messages.length, fixed, at };
    answered(state); // each replayed request is one the model answered
  }
  state.tokensPerChar = ratio;
  // a replay mid-run (a fallback, a /model back to a model the session used) comes after what the run said and learned:
  // a cut notice said before it is not said again, and whether this run's last summary failed is newer than the session's
  state.seen = { ids: new Set([...live.ids, ...state.seen.ids]), told: live.told };
  if (failedThen) state.summaryFailed ??= true;
}

/**
 * What a request's usage entry keeps for the replay (Output `usage`): the hash of the system prompt
 * and tools it was `sent` with, the task note it took anew (held-note.ts), whether its summary `failed`,
 * whether it went with every rewrite due (`rebuilt`: its ContextInput.rewriteUpTo was its whole history), and
 * the message its history began with after the first prompt (`from`: historyFrom).
 */
export const usageFacts = (sent: CompactionState["sent"], failed: boolean, built: { rebuilt: boolean; from?: string }) => ({
  ...(sent ? { fixed_hash: fixedHash(sent.fixed) } : {}),
  ...(sent?.note !== undefined ? { task_note: sent.note } : {}),
  ...(failed ? { summary_failed: true as const } : {}),
  rebuilt: built.rebuilt,
  ...(built.from === undefined ? {} : { history_from: built.from }),
});

/**
 * The id of the message `history` began with after its first prompt, a summary's stand-in passed over (it is no line of
 * the file): a live run's first answer, a resumed run's first message loaded. The next `hey -c` loads from there, so its
 * first request goes on from this run's last one (sessions/reader.ts loadSession).
 */
export const historyFrom = (history: readonly Message[]): string | undefined => history.find((m, i) => i > 0 && !m.id.startsWith(SUMMARY_ID))?.id;
