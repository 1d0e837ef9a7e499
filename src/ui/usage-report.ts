// `/usage` (SPEC §10): what the session and this run spent, the last request, the context against
// the budget and what was pruned. Pure: the caller gathers the counts.
import type { Agent } from "../agent.ts";
import { addUsage, emptyUsage, type Usage } from "../kernel/ir.ts";
import { cacheHitShare } from "../kernel/output.ts";
import { SUMMARIZED_BELOW, type ContextView } from "../context/view.ts";
import { estimateTokens } from "../context/passes.ts";
import { effectiveBudget, limitIn, roomyBudget } from "../context/window.ts";

/**
 * Why counts are marked `~`: a sum with any estimated part. A cut or interrupted response whose
 * provider had sent its input counts (Anthropic, Gemini) has only its output estimated; one with
 * nothing sent, or a provider that reports no usage at all, has both.
 */
const ESTIMATED = "~: estimated where a response was cut or interrupted, or came without usage";

/** Tokens and requests. */
export interface Spent {
  usage: Usage;
  requests: number;
}

/**
 * Tokens of the whole session (`earlier` runs and this one), of this run (`left`: what it sent in
 * sessions it left by `/resume` or `/clear`, and this session's) — one line when the two are the
 * same — and of the last request as sent, the context against the budget, the session's messages
 * (and this run's history, when a resume loaded fewer), and pruning counts. Before this run's first
 * request the last request is the session's (`earlier.last`), marked as the previous run's. `view`: the context
 * the next request would hold (Agent.preview); none: the budget alone.
 */
export function usageReport(
  agent: Agent,
  earlier?: Spent & { messages: number; loaded: number; last?: Usage },
  view: ContextView | undefined = agent.context.last,
  left?: Spent,
): string {
  const n = (x: number) => x.toLocaleString("en-US");
  const { total, requests } = agent.usage;
  // right after `hey -c` the last request is in the session file: what a user resumes to check
  const last = agent.usage.last ?? earlier?.last;
  const before = agent.usage.last ? "" : " (previous run)";
  /** what the provider's prompt cache served, when it served anything */
  const share = (u: Usage) => (u.cacheRead > 0 ? ` = ${Math.round(cacheHitShare(u) * 100)}%` : "");
  /** "~" before counts with hey's estimates in them (a response cut or interrupted, or a provider that reported no usage: context/request-cost.ts) */
  const est = (u: Usage) => (u.estimated ? "~" : "");
  const tokens = (u: Usage, count: number) =>
    `${est(u)}${n(u.input)} in (${n(u.cacheRead)} cached${share(u)}, ${n(u.cacheWrite)} cache writes) · ${est(u)}${n(u.output)} out (${n(u.reasoning)} reasoning) · ${count} request${count === 1 ? "" : "s"}${u.estimated ? ` (${ESTIMATED})` : ""}`;
  const policy = agent.settings.context;
  const window = [agent.context.window, policy.window]
    .filter((w) => w !== undefined)
    .reduce<number | undefined>((a, w) => (a === undefined ? w : Math.min(a, w)), undefined);
  const budget = effectiveBudget(policy.budgetTokens, window);
  // the system prompt and tools fill most of the budget: requests are built past it by them (context/window.ts roomyBudget)
  const built = (v: ContextView) => roomyBudget(budget, v.estimate - estimateTokens(v.messages, agent.context.tokensPerChar), window);
  const raised = (v: ContextView) => (built(v) > budget ? `; built to what the system prompt and tools take plus half the ${n(budget)}-token budget` : "");
  const learned = agent.context.window !== undefined && (policy.window === undefined || agent.context.window < policy.window);
  const windowNote =
    window === undefined
      ? ""
      : ` · the model's window ${n(window)} tokens (${learned ? `from ${agent.context.windowFrom ?? "the server"}` : "context_window"})`;
  // a resumed session's per-request limit, not applied (agent.ts): said until a refusal of this run teaches it again
  const hint = agent.context.limitBefore;
  const limitNote =
    hint && !limitIn(agent.context.windowFrom)
      ? ` · an earlier run of this session kept requests under ~${n(hint.window)} tokens for the endpoint's limit on one request (its ${hint.limit} limit); not applied now: a refusal over it teaches it again`
      : "";
  const count = (k: number, what: string) => `${n(k)} ${what}${k === 1 ? "" : "s"}`;
  const made = agent.context.summaries.filter((s) => s.text !== SUMMARIZED_BELOW).length; // a summary's pointer past a user message is part of it
  // what was pruned, the kinds that were: seven zeros wrapped over two lines said nothing
  const st = view && agent.messages.length > 0 ? view.stats : undefined;
  const pruned = [
    st?.deduped && count(st.deduped, "duplicate output"),
    st?.purged && count(st.purged, "failed-call argument"),
    st?.summarized && `${count(st.summarized, "message")} summarized`,
    st?.compressed && count(st.compressed, "compressed range"),
    st?.pending && `${count(st.pending, "compressed range")} pending (kept until the prompt cache is rebuilt)`,
    st?.trimmed && `${count(st.trimmed, "message")} left out`,
    st?.cut && `${count(st.cut, "result")} cut`,
    st?.calls && `${count(st.calls, "long tool call")} cut to start and end`,
    st?.texts && `${count(st.texts, "long message")} cut to start and end`,
    made && `${n(made)} summar${made === 1 ? "y" : "ies"}`,
  ].filter((x): x is string => typeof x === "string");
  // a resume loads the latest 500 messages or more (summaries as one; sessions/window-stride.ts): the session's are the file's and this run's
  const held = agent.messages.length;
  const all = earlier ? earlier.messages + held - earlier.loaded : held;
  const inSession = `${n(all)} messages in the session${all === held ? "" : ` (${n(held)} in this run's history)`}`;
  const session = tokens(addUsage(earlier?.usage ?? emptyUsage(), total), (earlier?.requests ?? 0) + requests);
  const run = tokens(addUsage(left?.usage ?? emptyUsage(), total), (left?.requests ?? 0) + requests);
  const lines = [
    `session: ${session}`,
    ...(run === session ? [] : [`this run: ${run}`]), // a fresh session of a fresh run: said once
    last
      ? `last request${before}: ${est(last)}${n(last.input)} in (${n(last.cacheRead)} cached${share(last)}${last.cacheWrite ? `, ${n(last.cacheWrite)} cache writes` : ""}) · ${est(last)}${n(last.output)} out`
      : "last request: none yet",
    view
      ? `context: ~${n(view.estimate)} of ${n(built(view))} tokens (${Math.round((view.estimate / built(view)) * 100)}%${raised(view)})${windowNote}${limitNote} · ${inSession}`
      : `context: budget ${n(budget)} tokens${windowNote}${limitNote} · ${inSession}`,
    `pruned: ${pruned.join(" · ") || "nothing yet"}`,
  ];
  return lines.join("\n");
}
