// A scripted Provider for driving the loop without a network (SPEC §21): each model request takes
// the next turn of the script, streams it as deltas, and records the request it was given.
import { emptyUsage, newId, type Message, type StopReason, type ToolCall, type Usage } from "../../src/kernel/ir.ts";
import type { ModelRequest, Provider, StreamEvent } from "../../src/kernel/provider.ts";
import type { ProviderError } from "../../src/kernel/provider.ts";

export interface ScriptedTurn {
  thinking?: string;
  text?: string;
  toolCalls?: { name: string; arguments: unknown; id?: string }[];
  usage?: Partial<Usage>;
  /** counts sent as the answer begins, before its deltas (a `usage` event: Anthropic's message_start, Gemini's first usageMetadata) */
  early?: Usage;
  stop?: StopReason;
  /** the done event's `detail` */
  detail?: string;
  /** thrown after the turn's deltas were streamed (none streamed when the turn is only an error) */
  error?: ProviderError;
  /** waits this long before the first delta, honouring abort */
  delayMs?: number;
}

export type Turn = ScriptedTurn | ((request: ModelRequest) => ScriptedTurn);

export interface FakeProvider extends Provider {
  /** every request received, with a copy of its messages at the time */
  requests: ModelRequest[];
  /** turns left in the script */
  remaining(): number;
}

/** Splits text into word-sized deltas so consumers see streaming, not one lump. */
function pieces(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

/** `cacheLifetimeMs`: how long its prompt cache keeps a prefix (Provider.cacheLifetimeMs); default, an OpenAI-style endpoint's. */
export function fakeProvider(script: Turn[], opts: { model?: string; cacheLifetimeMs?: number } = {}): FakeProvider {
  const queue = [...script];
  const requests: ModelRequest[] = [];
  const model = opts.model ?? "fake-model";
  return {
    protocol: "openai",
    model,
    ...(opts.cacheLifetimeMs === undefined ? {} : { cacheLifetimeMs: opts.cacheLifetimeMs }),
    requests,
    remaining: () => queue.length,
    async *stream(request: ModelRequest, signal: AbortSignal): AsyncGenerator<StreamEvent> {
      requests.push({ ...request, messages: structuredClone(request.messages) });
      const next = queue.shift();
      if (!next) throw new Error(`fake provider: script exhausted at request ${requests.length}`);
      const turn = typeof next === "function" ? next(request) : next;
      if (turn.delayMs) await sleep(turn.delayMs, signal);
      if (turn.early) yield { type: "usage", usage: turn.early };
      if (turn.thinking) for (const p of pieces(turn.thinking)) yield { type: "thinking", delta: p };
      if (turn.text) for (const p of pieces(turn.text)) yield { type: "text", delta: p };
      if (turn.error) throw turn.error;
      if (signal.aborted) throw signal.reason;
      const toolCalls: ToolCall[] = (turn.toolCalls ?? []).map((c) => ({
        id: c.id ?? `call_${newId()}`,
        name: c.name,
        arguments: typeof c.arguments === "string" ? c.arguments : JSON.stringify(c.arguments),
      }));
      for (const call of toolCalls) yield { type: "tool_call", call };
      const message: Message = { id: newId(), role: "assistant", content: [] };
      if (turn.thinking) message.content.push({ type: "thinking", text: turn.thinking, opaque: { protocol: "openai", model } });
      if (turn.text) message.content.push({ type: "text", text: turn.text });
      if (toolCalls.length) message.toolCalls = toolCalls;
      yield {
        type: "done",
        message,
        usage: { ...emptyUsage(), ...turn.usage },
        stop: turn.stop ?? (toolCalls.length ? "tool_calls" : "stop"),
        ...(turn.detail ? { detail: turn.detail } : {}),
      };
    },
  };
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });
}
