// `hey doctor` (SPEC §23): what the probes of an endpoint found, judged into one check per line —
// passed, a quirk hey handles with a compatibility flag, a failure, or nothing to check — and the
// flags to record. Pure: probe.ts and network.ts gather the outcomes, report.ts renders them.
import { listedAs } from "../providers/ollama-context.ts";
import { AGENT_MIN_CONTEXT, raiseContext, SERVER_NAMES, type Served } from "../providers/served-context.ts";
import type { Protocol } from "../kernel/ir.ts";
import { openerAt, textCallFormat } from "../providers/text-tool-calls.ts";
import { serverFix } from "../providers/text-call-stream.ts";

import type { Outcome } from "../model-list.ts";

/** A streamed model answer: its text, its tool calls (names only), and whether it reasoned. */
export interface Streamed {
  text: string;
  calls: number;
  thinking: boolean;
  /** the calls came as text in the answer, which hey ran as calls (providers/text-call-stream.ts) */
  asText?: true;
  /** the server's fix its notice named then (providers/text-call-stream.ts serverFix) */
  serverFix?: string;
  /** the answer came whole, not streamed: the server ignores `stream: true` (providers/create.ts NOT_STREAMED) */
  whole?: true;
}

/** Everything the probes found; an undefined field was not probed (an earlier failure, or not this protocol). */
export interface Probes {
  protocol: Protocol;
  /** where base_url was set (endpoint.ts baseUrlSettingOf), named in the DNS failure's fix; undefined: hey's own address of a built-in provider */
  setting?: string;
  /** `direct: …` or `through the proxy …` (net/proxy.ts describeRoute), or the proxy setting's error; kind "approval": a `[proxy] url` not approved yet (net/proxy.ts unapprovedRoute) */
  route: Outcome<{ text: string; proxied: boolean }>;
  /** the addresses of the host, or why it was not looked up here */
  dns?: Outcome<{ addresses: string[] }> | { ok: true; skipped: string };
  /** the first hop: the server, or the proxy */
  tcp?: Outcome<{ to: string; ms: number }>;
  /** https only; `insecure` when the provider skips verification; kind "ca": the CA file set could not be used */
  tls?: Outcome<{ issuer: string; validTo: string; daysLeft: number; insecure: boolean }> | { ok: true; slow: string };
  /** GET <base>/models; `listed` undefined when the endpoint has no list (404); `window`: the model's context window, when its entry states one */
  models?: Outcome<{ listed?: string[]; window?: number }>;
  model: string;
  /** a plain answer with the system prompt in the `system` role, and (openai) in `developer` */
  answer?: Outcome<Streamed>;
  developer?: Outcome<Streamed>;
  /** (openai) an answer with an output limit in each of the two fields */
  maxTokens?: Outcome<Streamed>;
  maxCompletionTokens?: Outcome<Streamed>;
  /** one tool call asked for */
  toolCall?: Outcome<Streamed>;
  /** two calls asked for in one turn */
  parallel?: Outcome<Streamed>;
  /** the tool result sent back after the tool-call turn, its reasoning replayed, and (openai, when it reasoned) not */
  afterTool?: Outcome<Streamed>;
  afterToolNoReplay?: Outcome<Streamed>;
  /** a request with `tools: []` */
  emptyTools?: Outcome;
  /** the context the model's server (Ollama, llama-server, LM Studio) runs it with after the answer (providers/server-window.ts) */
  served?: Served;
  /** every 429 seen during the probes, with its Retry-After header (null when it had none) */
  rateLimits: (string | null)[];
  /** what a run says after the failure these probes end with (ui/setup-help.ts setupHint): the default Ollama's setup help, a base_url's missing /v1… */
  help?: string;
}

/** `[provider.NAME]` keys, as TOML would hold them. */
export interface Flags {
  max_tokens_field?: "max_tokens" | "max_completion_tokens";
  system_role?: "system" | "developer";
  reasoning_replay?: boolean;
  parallel_tool_calls?: boolean;
}

export type Status = "pass" | "quirk" | "fail" | "skip";

export interface Check {
  id: string;
  /** a short name, the report's left column */
  title: string;
  status: Status;
  /** what was found */
  detail: string;
  /** what to do, when something is to be done */
  fix?: string;
}

export interface Verdict {
  checks: Check[];
  /** what this endpoint needs, where only one choice works */
  flags: Flags;
  /** the endpoint answers, streams and calls tools (with `flags`) */
  usable: boolean;
  /** help of more than one line, shown after the verdict (a failed check's fix points to it) */
  help?: string;
}

/** The checks whose failure makes the endpoint unusable for hey. */
const ESSENTIAL = new Set(["dns", "tcp", "proxy", "tls", "auth", "answer", "tool_call"]);

const FIX_PROXY = "fix the proxy setting it names";

const pass = (id: string, title: string, detail: string): Check => ({ id, title, status: "pass", detail });
const skip = (id: string, title: string, detail: string): Check => ({ id, title, status: "skip", detail });
const fail = (id: string, title: string, detail: string, fix?: string): Check => ({ id, title, status: "fail", detail, ...(fix ? { fix } : {}) });
const quirk = (id: string, title: string, detail: string, fix: string): Check => ({ id, title, status: "quirk", detail, fix });

/**
 * The checks and flags of `p`. `keyVar` names the key for auth advice; `sent`: false when it has no
 * value, so none was sent; `empty`: why, when it was given empty (ProviderSettings.apiKeyEmpty).
 */
export function judge(p: Probes, keyVar: string | undefined, sent = true, empty?: string): Verdict {
  const flags: Flags = {};
  // help of several lines (the setup help) goes below the report, its check's fix pointing there
  const block = p.help?.includes("\n") ? p.help : undefined;
  const help = block ? "what to do is below the verdict" : p.help;
  const checks: Check[] = [...networkChecks(p, help), ...endpointChecks(p, keyVar, sent, help, empty)];
  const role = judgeRole(p, flags);
  if (role) checks.push(role);
  const limit = judgeMaxTokens(p, flags);
  if (limit) checks.push(limit);
  checks.push(...toolChecks(p, flags), judgeEmptyTools(p), judgeRetryAfter(p));
  const usable = checks.every((c) => c.status !== "fail" || !ESSENTIAL.has(c.id));
  return { checks, flags, usable, ...(block && !usable ? { help: block } : {}) };
}

/** `help`: what a run says after a failed connection, when it says more than the network's fix (the default Ollama's setup help). */
function networkChecks(p: Probes, help?: string): Check[] {
  const out: Check[] = [];
  // kind "approval": a [proxy] url waiting for the user's yes, which the message says how to give
  out.push(p.route.ok ? pass("proxy", "proxy", p.route.text) : fail("proxy", "proxy", p.route.message, p.route.kind === "approval" ? undefined : FIX_PROXY));
  if (p.dns) {
    // hey's own address of a built-in provider is no typo: this machine's network or DNS is what fails
    const fix = p.setting ? `check the host name in ${p.setting}, or this machine's DNS` : "check this machine's network connection, or its DNS";
    if (!p.dns.ok) out.push(fail("dns", "DNS", p.dns.message, fix));
    else out.push("skipped" in p.dns ? skip("dns", "DNS", p.dns.skipped) : pass("dns", "DNS", `resolves to ${p.dns.addresses.join(", ")}`));
  }
  if (p.tcp)
    out.push(
      p.tcp.ok
        ? pass("tcp", "TCP", `connected to ${p.tcp.to} in ${p.tcp.ms} ms`)
        : fail("tcp", "TCP", p.tcp.message, p.tcp.proxy ? FIX_PROXY : (help ?? "check the host, the port and any firewall")),
    );
  if (p.tls) {
    if (!p.tls.ok) out.push(fail("tls", "TLS", p.tls.message, p.tls.kind === "ca" ? "fix the CA file it names" : p.tls.proxy ? FIX_PROXY : undefined));
    else if ("slow" in p.tls) out.push(quirk("tls", "TLS", p.tls.slow, "a slow first hop costs every request its wait"));
    else if (p.tls.insecure)
      out.push(
        quirk(
          "tls",
          "TLS",
          `certificate from ${p.tls.issuer} NOT verified (insecure = true)`,
          "trust the server's CA with [network] ca_file and remove insecure",
        ),
      );
    else if (p.tls.daysLeft < 14)
      out.push(
        quirk(
          "tls",
          "TLS",
          `issued by ${p.tls.issuer}, expires ${p.tls.validTo} (in ${p.tls.daysLeft} days)`,
          "the server's operator must renew the certificate soon",
        ),
      );
    else out.push(pass("tls", "TLS", `issued by ${p.tls.issuer}, valid until ${p.tls.validTo}`));
  }
  return out;
}

/** `help`: what a run says after the answer's failure, when it has more to say than its kind's fix. */
function endpointChecks(p: Probes, keyVar: string | undefined, sent: boolean, help?: string, empty?: string): Check[] {
  const out: Check[] = [];
  const keyFix = sent ? `check ${keyVar ?? "the provider's api_key"}` : empty ? `${empty}: give it the key` : `set ${keyVar ?? "the provider's api_key"}`;
  // the proxy's refusal is no verdict on the key: the endpoint never saw it
  const authFix = (o: Outcome) => (!o.ok && o.proxy ? FIX_PROXY : keyFix);
  const answerAuthFailed = p.answer && !p.answer.ok && p.answer.kind === "auth";
  if (p.models && !p.models.ok && p.models.kind === "auth") out.push(fail("auth", "auth", p.models.message, authFix(p.models)));
  else if (answerAuthFailed) out.push(fail("auth", "auth", (p.answer as { message: string }).message, authFix(p.answer!)));
  else if (p.answer?.ok || p.models?.ok) out.push(pass("auth", "auth", keyVar && sent ? `${keyVar} is accepted` : "no key needed"));

  const as = p.models?.ok && p.models.listed ? listedAs(p.models.listed, p.model) : undefined; // Ollama's qwen3 is its qwen3:latest
  if (p.models?.ok && p.models.listed === undefined) out.push(skip("model", "model listed", "the endpoint has no model list"));
  else if (as) out.push(pass("model", "model listed", `${p.model} is in the endpoint's list${as === p.model ? "" : ` (as ${as})`}`));
  else if (p.models?.ok) {
    const some = p.models.listed!.slice(0, 5).join(", ");
    out.push(
      quirk(
        "model",
        "model listed",
        `${p.model} is not in the list of ${p.models.listed!.length} models${some ? ` (${some}…)` : ""}`,
        "check the model name (-m, models = [...])",
      ),
    );
  } else if (p.models && p.models.kind !== "auth") out.push(skip("model", "model listed", `no model list: ${p.models.message}`));
  if (p.models?.ok && p.models.window !== undefined)
    out.push(
      pass(
        "window",
        "context window",
        `${p.models.window.toLocaleString("en-US")} tokens, as the model list states; a run reads it after its first answer and builds the later requests to at most 80 % of it (context_window = ${p.models.window} in [provider.NAME] tells it before the first request)`,
      ),
    );

  if (p.served !== undefined) out.push(servedContext(p.served, p.model));

  if (p.answer) {
    const ok = p.answer.ok || p.developer?.ok;
    const streamed = p.answer.ok ? p.answer : p.developer;
    if (ok && streamed?.ok) out.push(pass("answer", "streamed answer", answerLine(streamed)));
    else if (!p.answer.ok) out.push(fail("answer", "streamed answer", p.answer.message, answerFix(p.answer, authFix(p.answer), help)));
  }
  return out;
}

/** The answer's start; an answer sent whole says so, for a run shows nothing of it before it is complete. */
function answerLine(s: Streamed): string {
  const said = s.text ? `"${clip(s.text)}"` : s.whole ? "an empty answer" : "an empty answer, streamed";
  return s.whole ? `${said}, sent whole: the server ignores "stream": true, so a run shows each answer once it is complete` : said;
}

/** What to do about a failed answer, by what failed: the key for a refused key, billing for a spent quota, the URL or model for a 404. */
function answerFix(o: Extract<Outcome, { ok: false }>, keyFix: string, help?: string): string {
  if (o.proxy) return FIX_PROXY;
  if (o.silent) return FIX_SILENT;
  if (help) return help;
  switch (o.kind) {
    case "auth":
      return keyFix;
    case "quota_exhausted":
      return "the account's quota or credit is spent, and waiting does not bring it back: add credit or raise the limit with the provider, or pick another model or provider (-m)";
    case "rate_limit":
      return "the provider is limiting requests: run hey doctor again in a minute (a run waits and retries a 429 by itself)";
    case "overloaded":
      return "the provider is failing: try again later (a run retries it by itself)";
    case "context_length":
      return "the model's context is too small for even a short request: give it more in the server, or pick another model (-m)";
    case "network":
      return "the connection was made but the request failed: check that the server is working, and any proxy or firewall between";
  }
  if (o.status === 404) return "the base URL or the model name is wrong: check base_url and the model (-m)";
  return "the server refused the request as hey sends it: its words above say why";
}

/** system vs developer (openai chat): the role that works, when only one does. */
function judgeRole(p: Probes, flags: Flags): Check | undefined {
  if (!p.answer || !p.developer) return undefined;
  const title = "system role";
  if (p.answer.ok && p.developer.ok) return pass("system_role", title, "both system and developer are accepted");
  if (p.answer.ok && isRejection(p.developer)) {
    flags.system_role = "system";
    return quirk("system_role", title, `the developer role is rejected (${failure(p.developer)})`, 'system_role = "system"');
  }
  if (p.developer.ok && isRejection(p.answer)) {
    flags.system_role = "developer";
    return quirk("system_role", title, `the system role is rejected (${failure(p.answer)})`, 'system_role = "developer"');
  }
  return skip("system_role", title, "no answer with either role");
}

/** max_tokens vs max_completion_tokens (openai chat). */
function judgeMaxTokens(p: Probes, flags: Flags): Check | undefined {
  const [a, b] = [p.maxTokens, p.maxCompletionTokens];
  if (!a || !b) return undefined;
  const title = "output limit";
  if (a.ok && b.ok) return pass("max_tokens", title, "max_tokens and max_completion_tokens are both accepted");
  if (b.ok && isRejection(a)) {
    flags.max_tokens_field = "max_completion_tokens";
    return quirk("max_tokens", title, `max_tokens is rejected (${failure(a)})`, 'max_tokens_field = "max_completion_tokens"');
  }
  if (a.ok && isRejection(b)) {
    flags.max_tokens_field = "max_tokens";
    return quirk("max_tokens", title, `max_completion_tokens is rejected (${failure(b)})`, 'max_tokens_field = "max_tokens"');
  }
  return skip("max_tokens", title, "no answer with either field");
}

function toolChecks(p: Probes, flags: Flags): Check[] {
  const out: Check[] = [];
  const call = p.toolCall;
  if (!call) return out;
  // the fix for a server that leaves tool calls in the answer's text: the parser for the syntax the model wrote
  const serverParses = call.ok ? (call.serverFix ?? serverFix(textCallFormat(call.text))) : "";
  if (!call.ok) out.push(fail("tool_call", "tool call", failure(call), "hey needs a model that calls tools; pick another model"));
  else if (call.calls === 0 && (call.asText || openerAt(call.text) !== -1))
    out.push(
      fail("tool_call", "tool call", `the model wrote its tool call as text ("${clip(call.text)}"): the server does not parse tool calls`, serverParses),
    );
  else if (call.calls === 0)
    out.push(
      fail(
        "tool_call",
        "tool call",
        `the model answered in text instead of calling the tool ("${clip(call.text)}")`,
        `${serverParses}; or the model does not call tools: pick another model`,
      ),
    );
  else if (call.asText)
    out.push(
      quirk("tool_call", "tool call", "the server sent the tool call as text in the answer, not as a tool call (hey runs such calls itself)", serverParses),
    );
  else out.push(pass("tool_call", "tool call", "a tool call streamed and parsed"));

  const par = p.parallel;
  if (par && !par.ok) out.push(fail("parallel_calls", "parallel calls", failure(par)));
  else if (par?.ok && par.calls >= 2) out.push(pass("parallel_calls", "parallel calls", `${par.calls} calls in one turn`));
  else if (par?.ok && par.calls === 1) {
    flags.parallel_tool_calls = false;
    out.push(
      quirk(
        "parallel_calls",
        "parallel calls",
        "two calls were asked for, one arrived: the endpoint drops parallel calls",
        "parallel_tool_calls = false (one call per turn)",
      ),
    );
  } else if (par?.ok) out.push(skip("parallel_calls", "parallel calls", "the model made no call"));

  out.push(judgeAfterTool(p, flags));
  return out;
}

/** A tool result sent back after the tool-call turn, with the turn's reasoning replayed or not. */
function judgeAfterTool(p: Probes, flags: Flags): Check {
  const id = "reasoning_replay";
  const title = "tool result after reasoning";
  const after = p.afterTool;
  if (!after) return skip(id, title, "no tool call to answer");
  const reasoned = p.toolCall?.ok && p.toolCall.thinking;
  const without = p.afterToolNoReplay;
  if (after.ok && without && !without.ok) {
    flags.reasoning_replay = true;
    return quirk(
      id,
      title,
      `requires its reasoning replayed with the tool-call turn (without it: ${failure(without)})`,
      "reasoning_replay = true (the field on every tool-call turn, empty on one another model made)",
    );
  }
  if (!after.ok && without?.ok) {
    flags.reasoning_replay = false;
    return quirk(id, title, `rejects reasoning sent back (${failure(after)})`, "reasoning_replay = false");
  }
  if (!after.ok) return fail(id, title, failure(after), "the conversation cannot continue after a tool call");
  return pass(id, title, reasoned ? "the answer continues with the reasoning replayed" : "the answer continues (the model showed no reasoning to replay)");
}

function judgeEmptyTools(p: Probes): Check {
  const title = "empty tools list";
  if (!p.emptyTools) return skip("empty_tools", title, "not probed");
  if (p.emptyTools.ok) return pass("empty_tools", title, "tools: [] is accepted");
  if (isRejection(p.emptyTools))
    return quirk("empty_tools", title, `tools: [] is rejected (${failure(p.emptyTools)})`, "none: hey never sends an empty tools list");
  return skip("empty_tools", title, failure(p.emptyTools));
}

/** What the 429s of the probes said about waiting; a spent quota's 429 says nothing: hey never retries it. */
function judgeRetryAfter(p: Probes): Check {
  const title = "Retry-After on 429";
  const seen = p.rateLimits;
  const spent = [p.answer, p.developer, p.toolCall].some((o) => o && !o.ok && o.kind === "quota_exhausted");
  if (spent) return skip("retry_after", title, "the quota is spent: hey does not retry that 429, so its Retry-After does not matter");
  if (seen.length === 0) return skip("retry_after", title, p.answer !== undefined ? "no 429 during the probes" : "not probed");
  const given = seen.filter((v): v is string => v !== null);
  if (given.length === seen.length) return pass("retry_after", title, `429 came with Retry-After: ${given[0]} (hey waits that long)`);
  return quirk("retry_after", title, "a 429 came without Retry-After", "none: hey backs off exponentially ([retry] base_delay_ms)");
}

/** A flag's value differs from what hey would do without it: it must be recorded for hey to work. */
export function missingFlags(found: Flags, current: Flags): Flags {
  const out: Flags = {};
  for (const key of Object.keys(found) as (keyof Flags)[]) if (found[key] !== current[key]) Object.assign(out, { [key]: found[key] });
  return out;
}

/** A 400/404/422: the server refused this request's shape, not the network or the key. */
function isRejection(o: Outcome<object>): boolean {
  return !o.ok && o.kind === "bad_request";
}

/** The fix for a server that takes requests and answers nothing: what a run does about it, and its key. */
const FIX_SILENT =
  "the server took the request and answered nothing: check that it is working (a run gives up after 2 such tries; [retry] idle_timeout_ms sets the wait)";

/** What the model's server runs it with: a quirk with how to raise it when it is too small for an agent. */
function servedContext(served: Served, model: string): Check {
  const found = `${SERVER_NAMES[served.server]} runs ${model} with ${served.tokens.toLocaleString("en-US")} tokens (${served.via}); hey builds requests to at most 80 % of it unless context_window says otherwise`;
  if (served.tokens >= AGENT_MIN_CONTEXT) return pass("served", "server context", found);
  return quirk("served", "server context", `${found}: too small for an agent`, `raise it: ${raiseContext("NAME", served.server)}`);
}

function failure(o: Outcome<object>): string {
  return o.ok ? "" : o.message;
}

function clip(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 60 ? `${line.slice(0, 57)}…` : line;
}
