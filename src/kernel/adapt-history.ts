// What of a conversation may be sent to a given protocol and model (SPEC §5.6). The one place
// that decides: adapters then send everything they are given, the way their protocol wants it.
import { readCallArguments } from "./call-arguments.ts";
import type { Message, Opaque, Protocol, ToolCall } from "./ir.ts";
import { syntheticResult } from "./tool-calls.ts";

export interface Target {
  protocol: Protocol;
  model: string;
  /** the configured provider's name (Provider.name); undefined: a provider without one */
  name?: string;
}

/**
 * Whether `o` goes back to `target`: the same protocol and model, and the same provider — an
 * encrypted reasoning item or a signature sent to another account is refused ("The encrypted content
 * for item rs_… could not be verified"). Opaque data that names no provider (a session written before
 * hey recorded it) goes by protocol and model, as it did then.
 */
export function producedBy(o: Opaque | undefined, target: Target): boolean {
  return o !== undefined && o.protocol === target.protocol && o.model === target.model && (o.provider === undefined || o.provider === target.name);
}

/**
 * The history adapted for `target`, without changing `messages`:
 * - a reply without an answer (no tool call, no text but blanks: Claude ending a task, or cut off by
 *   the output limit, while still thinking) sends none of its thinking: the API refuses a turn that
 *   ends in thinking (Anthropic: "The final block in an assistant message cannot be `thinking`";
 *   Responses: a reasoning item "without its required following item"), so each adapter sends such
 *   a turn as it sends one that came empty (chat: an empty assistant message, keeping the roles
 *   alternating; the others leave it out);
 * - thinking is kept only where the model that produced it will read it: same provider, protocol
 *   and model (producedBy); and, of that, what went out once keeps going out, so a new prompt extends
 *   the cached prefix instead of rewriting it: the current turn's (after the last user message),
 *   and every tool-call turn's in every later request, on every protocol — it went out with the
 *   turn's results (DeepSeek requires it back; Anthropic with thinking on rejects a tool loop's
 *   turn without its thinking block, as when a line typed after Esc, a hand-off request or `-c`
 *   after a crash follows the results; left out at the next prompt on chat completions and Gemini,
 *   the prefix broke there and the whole previous turn was billed again uncached). Anthropic and
 *   Responses also get every earlier final answer's thinking back, as Claude Code and Codex send it
 *   (Claude from Opus 4.5 on keeps it in context; a Responses reasoning item goes back in its place,
 *   before the message that followed it); on chat completions and Gemini a final answer's thinking
 *   never went out (the next request is the next prompt's), so it stays out: nothing cached holds
 *   it, and it would be paid for in every later request. What ends all this is what loses the cache
 *   anyway: a summary or `/compact` replaces the turns, and `/model` to another model sends none of
 *   this model's (producedBy). With thinking off the Anthropic and Responses adapters leave earlier
 *   prompts' thinking out themselves (they know the effort);
 * - opaque data on tool calls (Gemini thought signatures) survives only for its own provider and model;
 * - tool-call ids are made acceptable to every protocol (`[A-Za-z0-9_-]`, ≤ 40 characters),
 *   the same way on the call and on its result;
 * - arguments with a slip that has one meaning (call-arguments.ts: a code fence, Python's True…) go
 *   as the JSON object they were read as, the call that ran; those that are not a JSON object even
 *   so (a call the output limit cut off mid-way) go as `{}`, and their result quotes what was sent:
 *   chat-completions servers that parse them answer 400 to half a JSON text, and Anthropic, Gemini
 *   and Responses take only an object there;
 * - every tool call gets exactly one result (a synthetic error result when it has none) and
 *   results without a call are dropped, so no request is ever rejected for a broken pair;
 * - a message's results go in the order of its calls, whatever order they finished (and were
 *   saved) in: Gemini pairs function responses with calls by position.
 * Returns `messages` itself when nothing had to change (the common case, every turn).
 */
export function adaptHistory(messages: readonly Message[], target: Target): readonly Message[] {
  const lastUser = messages.findLastIndex((m) => m.role === "user");
  let changed = false;
  const out: Message[] = [];
  const open = new Map<string, ToolCall>(); // calls of the latest assistant message, in call order
  const results = new Map<string, Message>(); // their results so far, in the order they came
  for (const [i, m] of messages.entries()) {
    if (m.role === "tool") {
      if (m.toolCallId === undefined || !open.has(m.toolCallId) || results.has(m.toolCallId))
        changed = true; // an orphaned or duplicate result
      else results.set(m.toolCallId, m);
      continue;
    }
    closeOpen();
    if (m.role !== "assistant") {
      out.push(m);
      continue;
    }
    const adapted = adaptAssistant(m, target, i > lastUser);
    if (adapted !== m) changed = true;
    out.push(adapted);
    for (const c of m.toolCalls ?? []) open.set(c.id, c);
  }
  closeOpen();
  return changed ? out : messages;

  function closeOpen(): void {
    if (open.size === 0) return; // most messages: no call waits (nothing to allocate, every request)
    const came = [...results.values()];
    for (const [k, call] of [...open.values()].entries()) {
      const id = safeId(call.id);
      const result = results.get(call.id);
      if (!result || result !== came[k] || id !== call.id) changed = true; // missing, out of call order, or an id to make safe
      if (!result) out.push(syntheticResult({ id, name: call.name }, `${id}-result`));
      else out.push(id === call.id ? result : { ...result, toolCallId: id });
    }
    open.clear();
    results.clear();
  }
}

/** Protocols whose own thinking goes back in every later request, earlier prompts' final answers included (adaptHistory). */
const EVERY_TURN: ReadonlySet<Protocol> = new Set(["anthropic", "responses"]);

function adaptAssistant(m: Message, target: Target, currentTurn: boolean): Message {
  const mine = (o: Opaque | undefined) => producedBy(o, target);
  // a tool-call turn's thinking went out with its results: it goes in every later request
  const keepThinking = answers(m) && (currentTurn || (m.toolCalls?.length ?? 0) > 0 || EVERY_TURN.has(target.protocol));
  const content = m.content.filter((p) => p.type !== "thinking" || (keepThinking && mine(p.opaque)));
  let calls = m.toolCalls;
  if (calls?.some((c) => safeId(c.id) !== c.id || (c.opaque && !mine(c.opaque)) || sentArguments(c) !== c.arguments)) {
    calls = calls.map((c): ToolCall => {
      const { opaque, ...rest } = c;
      return { ...rest, id: safeId(c.id), arguments: sentArguments(c), ...(opaque && mine(opaque) ? { opaque } : {}) };
    });
  }
  if (content.length === m.content.length && calls === m.toolCalls) return m;
  return { ...m, content, ...(calls ? { toolCalls: calls } : {}) };
}

/**
 * Whether assistant message `m` holds something besides thinking for the model to read back: a tool
 * call, text that is not blank, an image or a PDF. A reply without any ended without an answer; it
 * is sent without its thinking (adaptHistory), so Anthropic leaves it out.
 */
export function answers(m: Message): boolean {
  return (m.toolCalls?.length ?? 0) > 0 || m.content.some((p) => (p.type === "text" ? p.text.trim() !== "" : p.type !== "thinking"));
}

/**
 * A call's arguments as every protocol takes them back: a JSON object's text — the model's own, or
 * the object read from its slips (call-arguments.ts), which is the call that ran — else `{}` (blank,
 * cut off, not JSON, not an object: its error result quotes what the model sent).
 */
function sentArguments(c: ToolCall): string {
  const read = readCallArguments(c);
  if (!("args" in read) || c.arguments.trim() === "") return "{}";
  return read.repaired ? JSON.stringify(read.args) : c.arguments;
}

/** Longest tool-call id every protocol accepts (OpenAI chat rejects ids over 40 characters). */
const MAX_ID = 40;

/** An id every protocol accepts; deterministic, so a call and its result map to the same id. */
export function safeId(id: string): string {
  if (/^[A-Za-z0-9_-]{1,40}$/.test(id)) return id;
  const clean = id.replace(/[^A-Za-z0-9_-]/g, "_");
  if (clean.length > 0 && clean.length <= MAX_ID) return clean;
  return `${clean.slice(0, MAX_ID - 9)}_${hash(id)}`;
}

/** 8 base36 characters of FNV-1a: enough to keep two long ids apart within one conversation. */
function hash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(36).padStart(8, "0").slice(-8);
}

/**
 * Whether a request to `target` must go with thinking off: Anthropic keeps one thinking setting
 * per assistant turn — a tool loop is one turn — and with thinking on rejects a request whose turn
 * in progress does not start with a thinking block ("a final `assistant` message must start with a
 * thinking block", https://platform.claude.com/docs/en/build-with-claude/thinking#thinking-with-tool-use).
 * The turn is in progress while the last assistant message called tools; it starts at the first of
 * the tool-calling assistant messages that lead to it, each answered only by tool results (a line the
 * user typed after the results goes with them). It is blocked when that first message holds no
 * thinking of `target` to send back: it came from another provider, model or protocol (`/model`, a session
 * resumed with another model), or was made with thinking off — then the whole loop goes without,
 * and once it ends with an answer the next request thinks again. Later messages of the loop need
 * no thinking of their own (Claude may not think between calls). A reply without an answer after
 * the loop (thinking alone) does not end it: the request leaves it out.
 */
export function thinkingBlocked(messages: readonly Message[], target: Target): boolean {
  if (target.protocol !== "anthropic") return false;
  const mine = (p: Message["content"][number]) => p.type === "thinking" && producedBy(p.opaque, target) && p.opaque?.data !== undefined;
  // an assistant message without an answer (thinking alone, a blank text: a reply that ended a loop without one)
  // is left out of the request, so the loop before it is still the turn in progress
  let first = messages.findLastIndex((m) => m.role === "assistant" && answers(m));
  if (first < 0 || !messages[first]!.toolCalls?.length) return false;
  for (;;) {
    let before = first - 1;
    while (before >= 0 && messages[before]!.role === "tool") before--;
    if (before < 0 || before === first - 1 || messages[before]!.role !== "assistant" || !messages[before]!.toolCalls?.length) break;
    first = before;
  }
  return !messages[first]!.content.some(mine);
}
