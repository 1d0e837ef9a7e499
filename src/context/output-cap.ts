// Endpoints that count the answer's output limit into the model's window: OpenRouter's free models
// and vLLM reserve the model's whole output limit when a request sets none, and refuse a 10k-token
// prompt beside a 131k-token answer in a 131k window (Aider-AI/aider#3721, OpenHands/OpenHands#9937).
// Cutting the history cannot help there; bounding the answer does. Pure, but for the cap it keeps.
import type { ContextOverflow, ModelRequest } from "../kernel/provider.ts";
import { CONTEXT_ERROR, WINDOW_SHARE } from "./window.ts";

/** Fewest output tokens worth bounding an answer to: with less, the prompt is what must shrink. */
export const OUTPUT_FLOOR = 1024;
/** Left free of prompt and answer both, a share of the window: room for the input estimate's error. */
const OUTPUT_MARGIN_SHARE = 0.02;

/** An endpoint's window that holds the answer's output limit too: what hey bounds each answer to fit. */
export interface OutputCap {
  window: number;
  /** the output limit the server counted when it refused: no answer is bounded above it */
  asked: number;
}

/**
 * The output limit that fits a request of `input` tokens and its answer in `window`: what is left
 * after the input and a margin, at most `asked`. Undefined when less than OUTPUT_FLOOR (or `asked`,
 * if lower) would be left: the prompt itself is too large then.
 */
export function outputRoom(window: number, input: number, asked: number): number | undefined {
  const room = window - input - Math.ceil(OUTPUT_MARGIN_SHARE * window);
  return room >= Math.min(OUTPUT_FLOOR, asked) ? Math.min(asked, room) : undefined;
}

/**
 * When a context-length refusal is about the answer's share, not the prompt: the server counted a
 * prompt that fits its window with room for an answer, and an output limit on top that does not.
 * Not when the prompt is past the share of the window hey builds requests to (WINDOW_SHARE): cut
 * to that share first, it leaves the answer more room than bounding it now would.
 */
export function outputOverflow(o: ContextOverflow): { window: number; prompt: number; completion: number } | undefined {
  const { window, prompt, completion } = o;
  if (window === undefined || prompt === undefined || completion === undefined || prompt > WINDOW_SHARE * window) return undefined;
  return outputRoom(window, prompt, completion) === undefined ? undefined : { window, prompt, completion };
}

/**
 * The cap a context-length refusal teaches, or undefined: when its output limit is what overflowed
 * (outputOverflow), or is most of the window (the server reserved the model's whole output limit:
 * a request cut to any size would be refused again unless its answer is bounded too).
 */
export function capOf(o: ContextOverflow): OutputCap | undefined {
  const { window, completion } = o;
  if (window === undefined || completion === undefined) return undefined;
  return outputOverflow(o) || completion >= window / 2 ? { window, asked: completion } : undefined;
}

/** `request` with its output limit bounded to fit `cap.window` beside `input` tokens (outputRoom; OUTPUT_FLOOR when nothing fits). */
export function boundOutput(request: ModelRequest, cap: OutputCap, input: number): ModelRequest {
  const asked = Math.min(request.maxTokens ?? cap.asked, cap.asked);
  return { ...request, maxTokens: outputRoom(cap.window, input, asked) ?? Math.min(asked, OUTPUT_FLOOR) };
}

/** What the user is told when hey bounds the answers to fit (`room` tokens for a request of `input`) and sends the request again. */
export function outputCapNotice(cap: OutputCap, input: number, room: number): string {
  const n = (x: number) => x.toLocaleString("en-US");
  return (
    `context: the model's window is about ${n(cap.window)} tokens and the server counts an answer of up to ${n(cap.asked)} tokens in it; ` +
    `the request (~${n(input)} tokens) fits, so answers are now limited to the room left (${n(room)} tokens this time) and it was sent again`
  );
}

/**
 * What one conversation learnt of its endpoints' output caps, by `provider/model` (`key`): the
 * agent holds one, and the session keeps each cap (`hey -c` starts with them, `kept`). `userMax`:
 * the max_tokens the user configured for the provider in use, which hey never lowers — a refusal
 * that counts it is about the prompt, and the history is cut as for any other.
 */
export interface OutputCaps {
  /** `request` as it goes to `key`, its tokens `input`: its answer bounded to fit once a refusal of `key` taught a cap */
  bound(request: ModelRequest, key: string, input: number): ModelRequest;
  /**
   * Learns from `key`'s context-length refusal of `request`: when only the answer's limit overflowed
   * (and `again` allows one more try), the window and the prompt's tokens to send it again with,
   * bounded, and the line that says so; undefined when the history must be cut instead.
   */
  learn(
    overflow: ContextOverflow | undefined,
    request: ModelRequest,
    key: string,
    again: boolean,
  ): { window: number; prompt: number; notice: string } | undefined;
  /** the cap `key` is bounded to, kept with the session; undefined before a refusal taught one */
  of(key: string): OutputCap | undefined;
}

export function newOutputCaps(kept: Readonly<Record<string, OutputCap>> = {}, userMax: () => number | undefined = () => undefined): OutputCaps {
  const caps = new Map(Object.entries(kept));
  // a request with its own limit (a summary's) or none set by the user: the server's reservation is what a cap bounds
  const ownLimit = (request: ModelRequest) => request.maxTokens === undefined && userMax() !== undefined;
  return {
    bound(request, key, input) {
      const cap = caps.get(key);
      return cap && !ownLimit(request) ? boundOutput(request, cap, input) : request;
    },
    learn(overflow, request, key, again) {
      const taught = overflow && !ownLimit(request) ? capOf(overflow) : undefined;
      if (!taught) return undefined;
      // a refusal of a request hey bounded itself states that bound: the answers may have more again once the prompt shrinks
      const cap = { ...taught, asked: Math.max(taught.asked, caps.get(key)?.window === taught.window ? (caps.get(key)?.asked ?? 0) : 0) };
      caps.set(key, cap);
      const fits = again && overflow ? outputOverflow(overflow) : undefined;
      if (!fits) return undefined;
      const room = boundOutput(request, cap, fits.prompt).maxTokens ?? 0;
      return { window: fits.window, prompt: fits.prompt, notice: outputCapNotice(cap, fits.prompt, room) };
    },
    of: (key) => caps.get(key),
  };
}

/**
 * The window and its source after a refusal that stated `stated` where `known` was known: a
 * smaller one is the error's; the same or a larger one leaves the window and its source as they
 * were, so a model list or server that states a larger window later is still taken (servedWindow).
 */
export function windowTaught(state: { windowFrom?: string | undefined }, known: number | undefined, stated: number): [number, string | undefined] {
  return known === undefined || stated < known ? [stated, CONTEXT_ERROR] : [known, state.windowFrom];
}

/** The error of a refusal whose request, cut again, came out the same (or, `how`, no smaller): sent again it would be refused the same way. */
export const unchangedRequest = (said: string, how = "left the request unchanged") => `${said} (cutting the conversation ${how}, so it was not sent again)`;
