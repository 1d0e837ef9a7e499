// `hey doctor`'s model probes: small requests through hey's own adapters (so a probe sees what a
// run would send, compatibility flags included) and two raw ones the adapters never make (the
// model list, an empty tools list). Each outcome goes to checks.ts to be judged.
import type { ProviderSettings } from "../config/settings.ts";
import { textOf, type Effort, type Message, type ToolSpec } from "../kernel/ir.ts";
import { ProviderError, type ModelRequest, type Provider } from "../kernel/provider.ts";
import type { Compat } from "../providers/common.ts";
import { probeHeaders, providerFor } from "../endpoint.ts";
import { withServerWindow } from "../providers/server-window.ts";
import { CALLS_AS_TEXT, fixIn } from "../providers/text-call-stream.ts";
import { NOT_STREAMED } from "../providers/create.ts";
import type { Probes, Streamed } from "./checks.ts";
import { errorText } from "../kernel/errors.ts";
import { NetError } from "../net/errors.ts";
import { bodyText } from "../net/body-text.ts";
import { LIST_TIMEOUT_MS, listModels, rawTarget, shortBody, thrown, type Outcome } from "../model-list.ts";

export const PROBE_TIMEOUT_MS = 90_000; // a reasoning model may think a while even about "say ready"
const LIMITS = {
  listMs: LIST_TIMEOUT_MS,
  answerMs: PROBE_TIMEOUT_MS,
  /** after a model list that got not a byte in its time, the answer is given up on sooner: that server looks stuck */
  afterSilentListMs: 30_000,
};
const MAX_RETRY_AFTER_MS = 10_000; // a 429 asking for longer is reported, not waited out
const PROBE_LIMIT_TOKENS = 256; // the output limit of the max_tokens probes: room for a short reasoning

const SYSTEM = "You are a connectivity probe run by `hey doctor`. Follow the user's instruction exactly.";
const ECHO: ToolSpec = {
  name: "echo",
  description: "Echo the given text back.",
  parameters: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
};
const ASK = {
  answer: "Reply with the single word: ready",
  call: 'Call the echo tool once with text "ping". Do not reply in text.',
  parallel: 'Call the echo tool twice in this one turn, in parallel: once with text "a" and once with text "b". Do not reply in text.',
};

export interface EndpointOptions {
  settings: ProviderSettings;
  model: string;
  effort?: Effort;
  /** the run's fetch (net/fetch.ts: proxy and CAs) */
  fetch: typeof fetch;
  /** `[retry] idle_timeout_ms`, as a run's requests have it */
  idleTimeoutMs?: number;
  /** the waits, when not the defaults (tests) */
  limits?: Partial<typeof LIMITS>;
  /** told before each request what it checks ("streamed answer", "tool call"…), for a progress line */
  onProbe?: (what: string) => void;
}

type ModelProbes = Omit<Probes, "protocol" | "route" | "dns" | "tcp" | "tls">;

/** Runs every model probe in order; a failed answer stops the ones that build on it. Never throws. */
export async function probeEndpoint(opts: EndpointOptions): Promise<ModelProbes> {
  const rateLimits: (string | null)[] = [];
  const recording = recordRateLimits(opts.fetch, rateLimits);
  const openai = opts.settings.protocol === "openai";
  const current = opts.settings.compat ?? {};
  const provider = (compat: Compat, maxTokens?: number) =>
    providerFor({ ...opts.settings, compat: { ...current, ...compat }, maxTokens }, opts.model, opts.effort, recording, opts.idleTimeoutMs);
  const out: ModelProbes = { model: opts.model, rateLimits };
  const base = opts.settings.baseUrl;

  // a run's requests are given up on after idle_timeout_ms of silence: so is the list, when that is shorter than its limit
  const limits = { ...LIMITS, ...opts.limits };
  const probing = opts.onProbe ?? (() => {});
  probing("model list");
  out.models = await listModels(opts.settings, opts.model, recording, undefined, Math.min(limits.listMs, opts.idleTimeoutMs ?? Infinity));
  const listSilent = !out.models.ok && out.models.silent === true;
  const answerMs = listSilent ? limits.afterSilentListMs : limits.answerMs;
  probing("streamed answer");
  // a local server is asked, after the answer that loaded the model, what context it runs it with (context_window or not)
  const asked = { name: opts.settings.name, baseUrl: opts.settings.baseUrl, configured: undefined, headers: probeHeaders(opts.settings) };
  const answering = provider(openai ? { systemRole: "system" } : {}).then((p) =>
    withServerWindow(
      p,
      asked,
      recording,
      () => {},
      (served) => {
        out.served = served;
      },
    ),
  );
  out.answer = await stream(answering, request(ASK.answer), base, answerMs, listSilent);
  await answering.then((p) => p.serverWindow?.()).catch(() => undefined);
  if (!out.answer.ok && out.answer.silent) return out; // another role would be asked into the same silence
  if (openai) {
    probing("developer role");
    out.developer = await stream(provider({ systemRole: "developer" }), request(ASK.answer), base);
  }
  if (!out.answer.ok && !out.developer?.ok) return out;
  const role: Compat = openai ? { systemRole: out.answer.ok ? "system" : "developer" } : {};
  if (openai) {
    probing("output limit");
    out.maxTokens = await stream(provider({ ...role, maxTokensField: "max_tokens" }, PROBE_LIMIT_TOKENS), request(ASK.answer), base);
    out.maxCompletionTokens = await stream(provider({ ...role, maxTokensField: "max_completion_tokens" }, PROBE_LIMIT_TOKENS), request(ASK.answer), base);
  }

  probing("tool call");
  const called = await streamTurn(provider(role), request(ASK.call, [ECHO]), base);
  out.toolCall = called.outcome;
  probing("parallel tool calls");
  out.parallel = (await streamTurn(provider(role), request(ASK.parallel, [ECHO]), base)).outcome;
  if (called.message?.toolCalls?.length) {
    const history = [user(ASK.call), called.message, ...called.message.toolCalls.map((c): Message => toolResult(c.id, c.name))];
    const followUp: ModelRequest = { system: SYSTEM, messages: history, tools: [ECHO] };
    probing("answer after a tool result");
    out.afterTool = await stream(provider({ ...role, reasoningReplay: true }), followUp, base);
    if (openai && called.outcome.ok && called.outcome.thinking)
      out.afterToolNoReplay = await stream(provider({ ...role, reasoningReplay: false }), followUp, base);
  }
  probing("empty tools list");
  out.emptyTools = await postEmptyTools(opts.settings, opts.model, recording);
  return out;
}

function request(text: string, tools: ToolSpec[] = []): ModelRequest {
  return { system: SYSTEM, messages: [user(text)], tools };
}

function user(text: string): Message {
  return { id: `probe-${text.length}`, role: "user", content: [{ type: "text", text }] };
}

function toolResult(id: string, name: string): Message {
  return { id: `probe-result-${id}`, role: "tool", toolCallId: id, toolName: name, content: [{ type: "text", text: "ping" }] };
}

async function stream(
  provider: Promise<Provider>,
  req: ModelRequest,
  baseUrl: string,
  limitMs?: number,
  afterSilentList?: boolean,
): Promise<Outcome<Streamed>> {
  return (await streamTurn(provider, req, baseUrl, limitMs, afterSilentList)).outcome;
}

/** One streamed turn to `baseUrl`, retried once after a short Retry-After; the outcome and the assistant message. */
async function streamTurn(
  provider: Promise<Provider>,
  req: ModelRequest,
  baseUrl: string,
  limitMs = PROBE_TIMEOUT_MS,
  afterSilentList = false,
): Promise<{ outcome: Outcome<Streamed>; message?: Message }> {
  for (let attempt = 1; ; attempt++) {
    const signal = AbortSignal.timeout(limitMs);
    let heard = false;
    try {
      let message: Message | undefined;
      let text = "";
      let thinking = false;
      let asText = false;
      let fix: string | undefined;
      let whole = false;
      for await (const event of (await provider).stream(req, signal)) {
        heard = true;
        if (event.type === "text") text += event.delta;
        else if (event.type === "thinking") thinking = true;
        else if (event.type === "notice" && event.message.startsWith(CALLS_AS_TEXT)) (asText = true), (fix = fixIn(event.message));
        else if (event.type === "notice" && event.message.includes(NOT_STREAMED)) whole = true;
        else if (event.type === "done") message = event.message;
      }
      const calls = message?.toolCalls?.length ?? 0;
      if (asText && calls === 0 && message) text = textOf(message); // the written call hey could not run, held back while it streamed
      thinking ||= message?.content.some((p) => p.type === "thinking") ?? false;
      return {
        outcome: {
          ok: true,
          text,
          calls,
          thinking,
          ...(asText ? { asText: true as const } : {}),
          ...(fix ? { serverFix: fix } : {}),
          ...(whole ? { whole: true as const } : {}),
        },
        ...(message ? { message } : {}),
      };
    } catch (e) {
      // the probe's own limit, before the idle timeout: said as a run's silent try would be
      if (signal.aborted && !heard)
        return {
          outcome: {
            ok: false,
            kind: "network",
            message: `no answer from ${baseUrl} in ${limitMs / 1000} s (hey doctor's limit for one request${afterSilentList ? " once the model list got no answer either" : ""})`,
            silent: true,
          },
        };
      const err = e instanceof ProviderError ? e : new ProviderError("network", errorText(e));
      const wait = err.retryAfterMs ?? (err.kind === "rate_limit" ? 2_000 : undefined);
      if (attempt === 1 && err.kind === "rate_limit" && wait !== undefined && wait <= MAX_RETRY_AFTER_MS) {
        await Bun.sleep(wait);
        continue;
      }
      const status = err.status !== undefined ? { status: err.status } : {};
      const marks = { ...(err.cause instanceof NetError ? { proxy: true as const } : {}), ...(err.silent ? { silent: true as const } : {}) };
      return { outcome: { ok: false, kind: err.kind, ...status, message: err.message, ...marks } };
    }
  }
}

/** `fetch` that notes each 429's Retry-After (null when absent) in `seen`. */
function recordRateLimits(base: typeof fetch, seen: (string | null)[]): typeof fetch {
  const recording = async (input: string | URL | Request, init?: BunFetchRequestInit) => {
    const res = await base(input, init);
    if (res.status === 429) seen.push(res.headers.get("retry-after"));
    return res;
  };
  return Object.assign(recording, { preconnect: base.preconnect });
}

// ---- raw requests ----

/** A non-streaming request with `tools: []` in the protocol's shape. */
async function postEmptyTools(s: ProviderSettings, model: string, fetchImpl: typeof fetch): Promise<Outcome> {
  const prompt = ASK.answer;
  const [path, body] = ((): [string, unknown] => {
    switch (s.protocol) {
      case "openai":
        return ["chat/completions", { model, messages: [{ role: "user", content: prompt }], tools: [] }];
      case "responses":
        return ["responses", { model, input: prompt, tools: [], store: false }];
      case "anthropic":
        return ["messages", { model, max_tokens: 64, messages: [{ role: "user", content: prompt }], tools: [] }];
      case "google":
        return [`models/${model}:generateContent`, { contents: [{ role: "user", parts: [{ text: prompt }] }], tools: [] }];
    }
  })();
  const { url, headers } = rawTarget(s, path);
  try {
    const res = await fetchImpl(url, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
    });
    const { text } = await bodyText(res); // a body past the cap says nothing more than its status
    if (res.ok) return { ok: true };
    const kind = res.status === 429 ? "rate_limit" : res.status >= 500 ? "overloaded" : res.status === 401 || res.status === 403 ? "auth" : "bad_request";
    return { ok: false, kind, status: res.status, message: `${res.status} ${shortBody(text)}` };
  } catch (e) {
    return thrown(e);
  }
}
