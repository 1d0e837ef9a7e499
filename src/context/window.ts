// The model's context window (issue 23): configured (`context_window`), or learned from a
// context-length error. The budget a request is built to never exceeds WINDOW_SHARE of it, and no
// request may exceed HARD_SHARE of it at all (the newest results are cut to fit). Pure.
import type { Message } from "../kernel/ir.ts";
import type { ContextOverflow, ModelRequest, StatedWindow } from "../kernel/provider.ts";
import { estimateTokens } from "./passes.ts";
import { toolsText } from "./tools-text.ts";

export { toolsText } from "./tools-text.ts";

/** Requests fill at most this share of the window: the rest is room for the answer and the estimate's error. */
export const WINDOW_SHARE = 0.8;
/** Past this share of the window even the newest turn's results are cut. */
const HARD_SHARE = 0.9;
/** When a context-length error states no window, the next try is built to this share of what failed. */
const UNSTATED_SHRINK = 0.7;

/** The budget a request is built to: `budget_tokens`, lowered to WINDOW_SHARE of the window when it is known. */
export function effectiveBudget(budgetTokens: number, window: number | undefined): number {
  return window === undefined ? budgetTokens : Math.max(1, Math.min(budgetTokens, Math.floor(WINDOW_SHARE * window)));
}

/**
 * The conversation's room in a request is at least this share of the budget, however much the
 * system prompt and tool schemas take: four MCP servers of ~9k tokens of schemas each filled the
 * 40k budget alone, and every request then held the first and latest messages only — the model
 * lost its work each turn and repeated itself. Over the budget by its fixed part, a request is
 * built to that part plus this share (the start-up warning names the servers that fill it).
 */
export const MESSAGES_FLOOR = 0.5;

/**
 * The tokens a request is built to: `budget` (effectiveBudget), or more when the system prompt and
 * tools (`fixed` tokens) leave the messages less than MESSAGES_FLOOR of it — never past
 * WINDOW_SHARE of a known window.
 */
export function roomyBudget(budget: number, fixed: number, window: number | undefined): number {
  // in steps of a twentieth of the budget: the estimate's correction after each answer moves `fixed` a
  // little, and a budget that moved with it would judge the trim afresh each time (a prompt-cache miss)
  const step = Math.max(1, Math.ceil(budget / 20));
  const wanted = Math.ceil(fixed / step) * step + Math.floor(MESSAGES_FLOOR * budget);
  const cap = window === undefined ? Number.POSITIVE_INFINITY : Math.floor(WINDOW_SHARE * window);
  return Math.max(budget, Math.min(wanted, cap));
}

/** What no request may exceed, when the window is known. */
export function hardTokens(window: number | undefined): number | undefined {
  return window === undefined ? undefined : Math.floor(HARD_SHARE * window);
}

/**
 * The window (in prompt tokens) a context-length error teaches: what it states, less the share of
 * it the server kept for the answer when it says so (unless that share is most of the window: then
 * the answer's limit is the problem, not the prompt); else a guess below what failed (`sent`, in
 * tokens). Never above a window known before.
 */
export function learnWindow(overflow: ContextOverflow, sent: number, known: number | undefined): number {
  const { window, completion } = overflow;
  const stated = window === undefined ? undefined : completion !== undefined && completion < window / 2 ? window - completion : window;
  const guess = stated ?? Math.max(1, Math.floor(UNSTATED_SHRINK * (known === undefined ? sent : Math.min(sent, known))));
  return known === undefined ? guess : Math.min(known, guess);
}

/**
 * A refusal over an endpoint's limit on one request (ContextOverflow.ceiling) with the answer's
 * share split off: Groq counts the max_tokens a request sends (`maxTokens`) into "Requested"
 * (ai_automation_suggester#61: "Limit 6000, Requested 14810" for a small prompt), so the prompt is
 * the rest and the answer keeps that share of the limit (learnWindow). Any other refusal as it is.
 */
export function answerShare(o: ContextOverflow | undefined, maxTokens: number | undefined): ContextOverflow | undefined {
  if (!o?.ceiling || maxTokens === undefined || o.completion !== undefined) return o;
  return { ...o, completion: maxTokens, ...(o.prompt === undefined ? {} : { prompt: Math.max(0, o.prompt - maxTokens) }) };
}

/**
 * The error when the max_tokens the user configured for `provider` (`maxTokens`) leaves too little
 * of a per-request limit (answerShare) for any request: half of it or more, or no more than the
 * system prompt and tools take (`fixed` tokens). No cut of the conversation helps then; a lower
 * max_tokens does. Undefined when a cut can fit the request.
 */
export function answerOverLimit(o: ContextOverflow, maxTokens: number, fixed: number, provider: string): string | undefined {
  const limit = o.window;
  if (!o.ceiling || limit === undefined || (maxTokens < limit / 2 && limit - maxTokens > fixed)) return undefined;
  const n = (x: number) => x.toLocaleString("en-US");
  const left = limit > maxTokens ? `~${n(limit - maxTokens)} tokens` : "nothing";
  const lower = Math.floor(Math.min(limit / 2, limit - fixed / WINDOW_SHARE) / 100) * 100; // leaves the conversation its share beside the fixed part
  return (
    `the endpoint takes at most ${n(limit)} tokens a request (its ${o.ceiling} limit) and counts max_tokens in it: max_tokens = ${n(maxTokens)} ` +
    `leaves ${left} for the request (the system prompt and tools alone take ~${n(fixed)}); lower max_tokens in [provider.${provider}]` +
    `${lower > 0 ? ` (to ${n(lower)} or less)` : ""}, or use a higher tier`
  );
}

/**
 * What a `compaction` event of kind "window" says of the refusal `e` that taught the window: the
 * server's error, and the limit's name when it was the endpoint's on one request (a per-minute
 * token limit one request exceeds: ContextOverflow.ceiling), which the user is told by name, with
 * the max_tokens it counted (answerShare `share`): the window is the limit less that.
 */
export const refusalOf = (e: { message: string; overflow?: ContextOverflow | undefined }, share = e.overflow) => ({
  error: e.message,
  ...(share?.ceiling ? { limit: share.ceiling } : {}),
  ...(share?.ceiling && share.completion ? { max_tokens: share.completion } : {}),
});

/** Where a window a context-length error taught came from, as `/usage` says it. */
export const CONTEXT_ERROR = "a context-length error";

/** Where a window an endpoint's limit on one request taught came from (ContextOverflow.ceiling), as `/usage` says it: no window of the model's. */
const REQUEST_LIMIT = "the endpoint's limit on one request";

/** Where the window `overflow` teaches comes from: a context-length error, or the endpoint's per-request limit it names (less max_tokens: answerShare). */
export function taughtBy(overflow: ContextOverflow | undefined): string {
  if (!overflow?.ceiling) return CONTEXT_ERROR;
  const { window, completion } = overflow;
  const less = completion && window ? ` of ${window.toLocaleString("en-US")}, less max_tokens ${completion.toLocaleString("en-US")}` : "";
  return `${REQUEST_LIMIT}: its ${overflow.ceiling} limit${less}`;
}

/** The per-request limit's name in `from` (a windowFrom of taughtBy's), kept with the session: a resume takes it as a hint, not a window. */
export const limitIn = (from: string | undefined) => (from?.startsWith(`${REQUEST_LIMIT}: its `) ? /: its (.+?) limit/.exec(from)?.[1] : undefined);

/** Whether `from` (a windowFrom) is a refusal's: a window no stated one raises. */
const refusalTaught = (from: string | undefined) => from === CONTEXT_ERROR || from?.startsWith(REQUEST_LIMIT) === true;

/**
 * The window hey goes on with when the endpoint states `stated` (a local model server, the model
 * list), setting `state.windowFrom` when it is the stated one: a server's replaces one resumed
 * before; neither raises one a context-length error taught. Nor does a list's word raise the window
 * the session it continues kept: a context-length error taught it, most likely, and the list said
 * more then too (a request past it would fail again at every `hey -c`).
 */
export function servedWindow(state: { window?: number | undefined; windowFrom?: string | undefined }, stated: StatedWindow): number {
  const taught = refusalTaught(state.windowFrom) || stated.listed ? state.window : undefined;
  if (taught !== undefined && taught < stated.tokens) return taught;
  state.windowFrom = stated.from;
  return stated.tokens;
}

/**
 * Whether hey keeps `learned` (learnWindow) as the model's window: not when it is no larger than
 * the request's fixed part, its system prompt and tools (`fixed` tokens) — no request could be
 * sent in it, so every later message would be refused without being sent, a `context_window`
 * configured in vain. A server that states so small a window is asked again next time (it may
 * have been restarted with more); a guess that small was drawn from an error that was likely not
 * about the window at all (a proxy's error page quoting the words).
 */
export const keepsWindow = (learned: number, fixed: number) => learned > fixed;

/** The error of a context-length refusal whose guessed window (`guess`) hey did not keep: the server's words, and why. */
export function unlearnedWindow(said: string, guess: number, fixed: number): string {
  const n = (x: number) => x.toLocaleString("en-US");
  return (
    `${said} (hey did not take ~${n(guess)} tokens as the model's window: the system prompt and tools alone take ~${n(fixed)}; ` +
    "check the server's context size and its log: the error may not be about the window)"
  );
}

/** The system prompt and tools of `request` as the context estimate counts them (compaction.ts contextOf). */
export const fixedText = (request: Pick<ModelRequest, "system" | "tools">) => `${request.system}\u0000${toolsText(request.tools)}`;

let hashed: { text: string; hash: string } | undefined; // the last text hashed (fixedHash)

/**
 * A short hash of a `fixedText` (FNV-1a, 32 bits, in base 36). The session keeps it with each
 * request's usage, so `hey -c` tells where the system prompt or tool list changed (an MCP server
 * added, CLAUDE.md edited): the provider's cache missed from there, as the run saw (replay-cache.ts).
 */
export function fixedHash(text: string): string {
  if (hashed?.text === text) return hashed.hash; // the same from request to request, but ~0.2 ms a time over 60 KB of MCP schemas
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  hashed = { text, hash: (h >>> 0).toString(36) };
  return hashed.hash;
}

/**
 * The error for a request whose latest user message in `history`, with the system prompt and tools
 * (`fixed`, their text), is alone more than `window` tokens at `tokensPerChar`, or undefined (also
 * when the window is not known). No cut of the conversation can make room for it — the latest
 * message is never cut: the model needs all of it to answer — so no request is sent for it.
 */
export function latestOverWindow(history: readonly Message[], fixed: string, tokensPerChar: number, window: number | undefined): string | undefined {
  const latest = history.findLast((m) => m.role === "user");
  if (latest === undefined || window === undefined) return undefined;
  const own = estimateTokens([latest], tokensPerChar);
  const rest = Math.ceil(fixed.length * tokensPerChar);
  if (own + rest <= window) return undefined;
  const n = (x: number) => x.toLocaleString("en-US");
  return (
    `your latest message alone takes ~${n(own)} tokens (with the system prompt and tools, ~${n(own + rest)}), more than the model's window of ~${n(window)} tokens; ` +
    "no cut of the conversation makes room for it: shorten it (or save it to a file and ask the agent to read the parts it needs), or use a model with a larger window"
  );
}
