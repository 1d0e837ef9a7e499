// The doctor's judgement of probe outcomes: which checks pass, which quirk needs which flag, and
// when the endpoint is usable. Pure.
import { describe, expect, test } from "bun:test";
import { judge, missingFlags, type Probes, type Streamed } from "../../src/doctor/checks.ts";
import type { Outcome } from "../../src/model-list.ts";
import { renderJson, renderText } from "../../src/doctor/report.ts";

const answer = (text = "ready", calls = 0, thinking = false): Outcome<Streamed> => ({ ok: true, text, calls, thinking });
const rejected = (message: string): Outcome<Streamed> => ({ ok: false, kind: "bad_request", status: 400, message });
const healthy = (): Probes => ({
  protocol: "openai",
  model: "m",
  route: { ok: true, text: "direct: no proxy is set", proxied: false },
  dns: { ok: true, addresses: ["10.0.0.1"] },
  tcp: { ok: true, to: "llm:443", ms: 3 },
  tls: { ok: true, issuer: "Corp CA", validTo: "2027-06-01", daysLeft: 180, insecure: false },
  models: { ok: true, listed: ["m", "n"] },
  answer: answer(),
  developer: answer(),
  maxTokens: answer(),
  maxCompletionTokens: answer(),
  toolCall: answer("", 1, true),
  parallel: answer("", 2),
  afterTool: answer("done"),
  afterToolNoReplay: answer("done"),
  emptyTools: { ok: true },
  rateLimits: [],
});
const status = (p: Probes, id: string) => judge(p, "KEY").checks.find((c) => c.id === id);

describe("judge", () => {
  test("a slow TLS handshake is a note and the endpoint stays usable; a proxy's TLS failure says to fix the proxy setting", () => {
    const slow = judge({ ...healthy(), tls: { ok: true, slow: "no TLS handshake with llm:443 within 15 s: slow" } }, "KEY");
    expect(slow.checks.find((c) => c.id === "tls")).toMatchObject({ status: "quirk", detail: "no TLS handshake with llm:443 within 15 s: slow" });
    expect(slow.usable).toBe(true);
    const proxied = {
      ...healthy(),
      tls: { ok: false as const, kind: "network", message: "the proxy … did not answer CONNECT llm:443 in 15 s", proxy: true as const },
    };
    expect(status(proxied, "tls")).toMatchObject({ status: "fail", fix: "fix the proxy setting it names" });
  });

  test("a healthy endpoint: everything passes, no flags, usable", () => {
    const v = judge(healthy(), "OPENAI_API_KEY");
    expect(v.checks.map((c) => [c.id, c.status])).toEqual([
      ["proxy", "pass"],
      ["dns", "pass"],
      ["tcp", "pass"],
      ["tls", "pass"],
      ["auth", "pass"],
      ["model", "pass"],
      ["answer", "pass"],
      ["system_role", "pass"],
      ["max_tokens", "pass"],
      ["tool_call", "pass"],
      ["parallel_calls", "pass"],
      ["reasoning_replay", "pass"],
      ["empty_tools", "pass"],
      ["retry_after", "skip"],
    ]);
    expect(v).toMatchObject({ flags: {}, usable: true });
  });

  test.each<[string, Partial<Probes>, string, Record<string, unknown>]>([
    ["developer rejected", { developer: rejected("Invalid value: 'developer'") }, "system_role", { system_role: "system" }],
    ["system rejected", { answer: rejected("system role unsupported") }, "system_role", { system_role: "developer" }],
    ["max_tokens rejected", { maxTokens: rejected("Use 'max_completion_tokens'") }, "max_tokens", { max_tokens_field: "max_completion_tokens" }],
    ["max_completion_tokens rejected", { maxCompletionTokens: rejected("unknown field") }, "max_tokens", { max_tokens_field: "max_tokens" }],
    ["one of two parallel calls", { parallel: answer("", 1) }, "parallel_calls", { parallel_tool_calls: false }],
    ["reasoning must be replayed", { afterToolNoReplay: rejected("Missing `reasoning_content`") }, "reasoning_replay", { reasoning_replay: true }],
    ["reasoning must not be sent", { afterTool: rejected("unknown field reasoning_content") }, "reasoning_replay", { reasoning_replay: false }],
  ])("%s: a quirk with its flag, still usable", (_name, change, id, flags) => {
    const v = judge({ ...healthy(), ...change }, "KEY");
    expect(v.checks.find((c) => c.id === id)).toMatchObject({ status: "quirk", fix: expect.any(String) });
    expect(v.flags).toEqual(flags as never);
    expect(v.usable).toBe(true);
  });

  test("a key variable with no value (OPENAI_BASE_URL alone: a keyless local server): no key is claimed accepted; a 401 says to set it", () => {
    expect(judge(healthy(), "OPENAI_API_KEY", false).checks.find((c) => c.id === "auth")).toMatchObject({ status: "pass", detail: "no key needed" });
    const refused = judge({ ...healthy(), models: { ok: false, kind: "auth", status: 401, message: "GET /models: 401" } }, "OPENAI_API_KEY", false);
    expect(refused.checks.find((c) => c.id === "auth")).toMatchObject({ status: "fail", fix: "set OPENAI_API_KEY" });
    // OPENAI_API_KEY= exported: "set OPENAI_API_KEY" would send the user to what they did
    const empty = judge(
      { ...healthy(), models: { ok: false, kind: "auth", status: 401, message: "GET /models: 401" } },
      "OPENAI_API_KEY",
      false,
      "OPENAI_API_KEY is set but empty",
    );
    expect(empty.checks.find((c) => c.id === "auth")).toMatchObject({ status: "fail", fix: "OPENAI_API_KEY is set but empty: give it the key" });
  });

  test("failures that make it unusable: auth, no tool call, the network", () => {
    const auth = judge({ ...healthy(), models: { ok: false, kind: "auth", status: 401, message: "GET /models: 401 bad key" } }, "OPENAI_API_KEY");
    expect(auth.checks.find((c) => c.id === "auth")).toMatchObject({ status: "fail", fix: "check OPENAI_API_KEY" });
    expect(auth.usable).toBe(false);
    // the proxy's refusal says nothing of the key: the fix is the proxy setting
    const byProxy = { ok: false as const, kind: "auth", message: "the proxy http://***@p:3128 (from --proxy) rejected the credentials", proxy: true as const };
    const proxied = judge({ ...healthy(), models: byProxy, answer: byProxy, developer: byProxy }, "OPENAI_API_KEY");
    expect(proxied.checks.find((c) => c.id === "auth")).toMatchObject({ status: "fail", fix: "fix the proxy setting it names" });
    expect(proxied.checks.find((c) => c.id === "answer")).toMatchObject({ status: "fail", fix: "fix the proxy setting it names" });
    const wrongScheme: Probes = {
      ...healthy(),
      tcp: { ok: false, kind: "network", message: "the proxy http://p:1080 (from --proxy) did not answer…", proxy: true },
    };
    expect(status(wrongScheme, "tcp")).toMatchObject({ status: "fail", fix: "fix the proxy setting it names" });
    expect(judge({ ...healthy(), toolCall: answer("I cannot call tools", 0) }, "K").usable).toBe(false);
    expect(status({ ...healthy(), toolCall: answer("I cannot call tools", 0) }, "tool_call")?.detail).toContain("answered in text instead");
    const tcp: Probes = { ...healthy(), tcp: { ok: false, kind: "network", message: "cannot connect to llm:443: ECONNREFUSED" } };
    expect(judge(tcp, "K").usable).toBe(false);
    // no model request was made: nothing is said about 429s during them
    const {
      answer: _a,
      developer: _d,
      maxTokens: _m,
      maxCompletionTokens: _c,
      toolCall: _t,
      parallel: _p,
      afterTool: _f,
      afterToolNoReplay: _n,
      emptyTools: _e,
      ...network
    } = tcp;
    expect(status(network as Probes, "retry_after")?.detail).toBe("not probed");
    expect(status(healthy(), "retry_after")?.detail).toBe("no 429 during the probes");
  });

  test("a tool call the server left in the answer's text: the fix names the server's flags, not another model", () => {
    // the call hey could not run (a tool not offered, broken JSON): the endpoint is unusable until the server parses calls
    const written = status({ ...healthy(), toolCall: answer('<tool_call>\n{"name": "echo"', 0) }, "tool_call");
    expect(written).toMatchObject({ status: "fail", detail: expect.stringContaining("the server does not parse tool calls") });
    expect(written?.fix).toContain("vLLM --enable-auto-tool-choice --tool-call-parser");
    expect(written?.fix).toContain("llama.cpp's server --jinja");
    expect(written?.fix).not.toContain("pick another model");
    // hey ran the written call itself: usable, but the server should still be fixed
    const ran = judge({ ...healthy(), toolCall: { ok: true, text: "", calls: 1, thinking: false, asText: true } }, "K");
    expect(ran.usable).toBe(true);
    expect(ran.checks.find((c) => c.id === "tool_call")).toMatchObject({ status: "quirk", fix: expect.stringContaining("--jinja") });
    // the parser is the one for the syntax the model wrote, or the one hey's notice named when it ran the call
    const qwen3 = "<tool_call>\n<function=echo>\n<parameter=text>\nhi\n</parameter>\n</function>\n</tool_call>";
    expect(status({ ...healthy(), toolCall: answer(qwen3, 0) }, "tool_call")?.fix).toContain("--tool-call-parser qwen3_coder,");
    const glm = "<tool_call>echo\n<arg_key>text</arg_key>\n<arg_value>hi</arg_value>\n</tool_call>";
    expect(status({ ...healthy(), toolCall: answer(glm, 0) }, "tool_call")?.fix).toContain("--tool-call-parser glm45,");
    const named = {
      ok: true as const,
      text: "",
      calls: 1,
      thinking: false,
      asText: true as const,
      serverFix: "have the server parse tool calls: vLLM --tool-call-parser glm45",
    };
    expect(status({ ...healthy(), toolCall: named }, "tool_call")?.fix).toBe(named.serverFix);
    expect(status({ ...healthy(), toolCall: answer("I cannot call tools", 0) }, "tool_call")?.fix).not.toContain("hermes for Qwen");
    // plain prose: the server may not parse calls, or the model makes none
    expect(status({ ...healthy(), toolCall: answer("I cannot call tools", 0) }, "tool_call")?.fix).toContain("--tool-call-parser");
  });

  test("not essential: a model missing from the list, an empty tools list rejected, a 429 without Retry-After", () => {
    const v = judge(
      { ...healthy(), models: { ok: true, listed: ["other"] }, emptyTools: { ok: false, kind: "bad_request", message: "400 too short" }, rateLimits: [null] },
      "K",
    );
    expect(v.checks.filter((c) => c.status === "quirk").map((c) => c.id)).toEqual(["model", "empty_tools", "retry_after"]);
    expect(v.usable).toBe(true);
    expect(v.flags).toEqual({});
  });

  test("a model list that states the model's window: reported, with the key that tells hey before the first request", () => {
    expect(status(healthy(), "window")).toBeUndefined();
    const check = status({ ...healthy(), models: { ok: true, listed: ["m"], window: 32_768 } }, "window");
    expect(check).toMatchObject({ status: "pass", title: "context window" });
    expect(check!.detail).toContain("32,768 tokens, as the model list states");
    expect(check!.detail).toContain("context_window = 32768");
  });

  test("Ollama's list names qwen3 as qwen3:latest: the model is listed, as Ollama runs it", () => {
    const ollama = { ...healthy(), model: "qwen3", models: { ok: true as const, listed: ["qwen3:latest", "llama3.2:latest"] } };
    expect(status(ollama, "model")).toMatchObject({ status: "pass", detail: "qwen3 is in the endpoint's list (as qwen3:latest)" });
  });

  test("the context a local Ollama runs the model with: reported; below what an agent needs, a quirk saying how to raise it", () => {
    expect(status(healthy(), "served")).toBeUndefined();
    expect(status({ ...healthy(), served: { tokens: 32_768, server: "ollama", via: "GET /api/ps" } }, "served")).toMatchObject({
      status: "pass",
      detail: expect.stringContaining("Ollama runs m with 32,768 tokens"),
    });
    const small = status({ ...healthy(), served: { tokens: 4096, server: "ollama", via: "GET /api/ps" } }, "served");
    expect(small).toMatchObject({ status: "quirk", detail: expect.stringContaining("4,096 tokens (GET /api/ps)") });
    expect(small!.fix).toContain("OLLAMA_CONTEXT_LENGTH=32768 ollama serve");
    expect(judge({ ...healthy(), served: { tokens: 4096, server: "ollama", via: "GET /api/ps" } }, "K").usable).toBe(true); // it works, within the small context
  });

  test("LM Studio's and llama-server's context: each named, each with its own way to raise it", () => {
    const lm = status({ ...healthy(), served: { tokens: 4096, server: "lmstudio", via: "GET /api/v1/models" } }, "served");
    expect(lm).toMatchObject({ status: "quirk", detail: expect.stringContaining("LM Studio runs m with 4,096 tokens (GET /api/v1/models)") });
    expect(lm!.fix).toContain("lms load MODEL --context-length 32768");
    const llama = status({ ...healthy(), served: { tokens: 8192, server: "llama.cpp", via: "GET /props" } }, "served");
    expect(llama).toMatchObject({ status: "quirk", detail: expect.stringContaining("llama-server runs m with 8,192 tokens (GET /props)") });
    expect(llama!.fix).toContain("-c 32768");
  });

  test("TLS soon to expire, or not verified, is a quirk saying what to do", () => {
    expect(status({ ...healthy(), tls: { ok: true, issuer: "X", validTo: "2026-12-10", daysLeft: 3, insecure: false } }, "tls")).toMatchObject({
      status: "quirk",
      fix: expect.stringContaining("renew"),
    });
    expect(status({ ...healthy(), tls: { ok: true, issuer: "X", validTo: "2027-12-10", daysLeft: 300, insecure: true } }, "tls")).toMatchObject({
      status: "quirk",
      fix: expect.stringContaining("ca_file"),
    });
  });

  test("a host that does not resolve names the setting it came from, as a run's error does", () => {
    const p: Probes = { ...healthy(), setting: "--base-url (or HEY_BASE_URL)", dns: { ok: false, kind: "network", message: "cannot resolve llm.invalid" } };
    expect(status(p, "dns")).toMatchObject({ status: "fail", fix: "check the host name in --base-url (or HEY_BASE_URL), or this machine's DNS" });
  });

  // a key alone: no one wrote api.openai.com, and there is no [provider.openai] table to check
  test("hey's own address of a built-in provider that does not resolve: the fix is this machine's network, no table", () => {
    const p: Probes = { ...healthy(), dns: { ok: false, kind: "network", message: "cannot resolve api.openai.com (getaddrinfo ENOTFOUND)" } };
    expect(status(p, "dns")).toMatchObject({ status: "fail", fix: "check this machine's network connection, or its DNS" });
  });

  test("a server that took the request and answered nothing: the fix says what a run does and names [retry] idle_timeout_ms", () => {
    const silent: Outcome<Streamed> = { ok: false, kind: "network", message: "no answer from http://llm/v1 in 120 s, not a byte", silent: true };
    const { developer: _, ...rest } = healthy();
    expect(status({ ...rest, answer: silent }, "answer")).toMatchObject({
      status: "fail",
      fix: "the server took the request and answered nothing: check that it is working (a run gives up after 2 such tries; [retry] idle_timeout_ms sets the wait)",
    });
  });

  // the doctor is where a new user looks when nothing works: it says at least what a run's failure says, and what fits the failure
  test("the answer's fix fits its failure: the key for a 401, billing for a spent quota, the base URL or model for a 404 only", () => {
    const failed = (kind: string, status: number, message: string): Probes => {
      const { developer: _, ...rest } = healthy();
      return { ...rest, answer: { ok: false, kind, status, message } };
    };
    const fixOf = (p: Probes) => judge(p, "ANTHROPIC_API_KEY").checks.find((c) => c.id === "answer")?.fix;
    expect(fixOf(failed("auth", 401, "authentication failed (401): invalid x-api-key — check ANTHROPIC_API_KEY"))).toBe("check ANTHROPIC_API_KEY");
    const quota = fixOf(failed("quota_exhausted", 429, "quota exhausted (429): You exceeded your current quota"))!;
    expect(quota).toContain("add credit or raise the limit with the provider");
    expect(fixOf(failed("rate_limit", 429, "rate limited (429): slow down"))).toContain("again in a minute");
    expect(fixOf(failed("overloaded", 503, "the provider is failing (503): busy"))).toContain("try again later");
    expect(fixOf(failed("bad_request", 404, "request rejected (404): no model"))).toBe(
      "the base URL or the model name is wrong: check base_url and the model (-m)",
    );
    for (const fix of [quota, fixOf(failed("auth", 401, "x")), fixOf(failed("bad_request", 400, "request rejected (400): bad"))])
      expect(fix).not.toContain("404");
    // what a run would say after the failure (ui/setup-help.ts) wins over the kind's fix
    const help = "the server has no such path (the model name is not the problem): base_url probably lacks /v1 — set it to http://h:8000/v1";
    expect(fixOf({ ...failed("bad_request", 404, "request rejected (404): not found"), help })).toBe(help);
  });

  test("a spent quota's 429 is no Retry-After quirk: hey never retries it", () => {
    const spent: Outcome<Streamed> = { ok: false, kind: "quota_exhausted", status: 429, message: "quota exhausted (429): insufficient_quota" };
    const { developer: _, ...rest } = healthy();
    const check = status({ ...rest, answer: spent, rateLimits: [null, null] }, "retry_after");
    expect(check?.status).toBe("skip");
    expect(check?.detail).toContain("the quota is spent");
    // a rate limit's 429 without Retry-After is still one
    expect(status({ ...healthy(), rateLimits: [null] }, "retry_after")?.status).toBe("quirk");
  });

  test("nothing listening where the default Ollama should be: the run's setup help, below the verdict, not only the firewall", () => {
    const setup = "With no configuration hey talks to a local Ollama (http://127.0.0.1:11434/v1)…\nor set a key for a hosted model: export OPENAI_API_KEY…";
    const refused: Probes = { ...healthy(), tcp: { ok: false, kind: "network", message: "cannot connect to 127.0.0.1:11434: ECONNREFUSED" }, help: setup };
    const v = judge(refused, undefined);
    expect(v.checks.find((c) => c.id === "tcp")).toMatchObject({ status: "fail", fix: "what to do is below the verdict" });
    expect(v.help).toBe(setup);
    const subject = { provider: "ollama", protocol: "openai", baseUrl: "http://127.0.0.1:11434/v1", model: "qwen3" };
    expect(renderText(subject, v, {}, undefined, "ollama")).toEndWith(`✗ not usable: TCP failed\n\n${setup}\n`);
    expect(JSON.parse(renderJson(subject, v, {}, undefined)).help).toBe(setup);
    // any other endpoint: the network's own fix, no setup help
    const other = judge({ ...refused, help: undefined }, "K");
    expect(other.checks.find((c) => c.id === "tcp")?.fix).toBe("check the host, the port and any firewall");
    expect(other.help).toBeUndefined();
  });

  test("no reasoning shown: the tool result after it passes without a replay check", () => {
    const v = judge({ ...healthy(), toolCall: answer("", 1, false), afterToolNoReplay: undefined }, "K");
    expect(v.checks.find((c) => c.id === "reasoning_replay")).toMatchObject({ status: "pass", detail: expect.stringContaining("no reasoning") });
  });
});

describe("missingFlags and the verdict line", () => {
  test("only flags whose value differs from what hey does now are missing", () => {
    expect(
      missingFlags({ system_role: "system", max_tokens_field: "max_completion_tokens" }, { system_role: "system", max_tokens_field: "max_tokens" }),
    ).toEqual({ max_tokens_field: "max_completion_tokens" });
  });

  // a user pastes the lines the verdict names: `a = 1, b = 2` on one line is no TOML
  test("the flags still to record are printed as TOML lines to paste; for --base-url with the table and its base_url", () => {
    const v = judge({ ...healthy(), developer: rejected("unknown role developer"), parallel: answer("", 1) }, "K");
    const missing = { ...v.flags, max_tokens_field: "max_completion_tokens" as const };
    const subject = { provider: "cli", protocol: "openai", baseUrl: "http://127.0.0.1:8000/v1", model: "m" };
    for (const command of ["lab", "cli"]) {
      const text = renderText({ ...subject, provider: command }, v, missing, undefined, command);
      const pasted = text.slice(text.lastIndexOf(":\n") + 2).replace(/^ {2}/gm, "");
      const table = Bun.TOML.parse(command === "cli" ? pasted : `[provider.lab]\n${pasted}`) as { provider: Record<string, unknown> };
      expect(Object.values(table.provider)[0]).toEqual({
        ...(command === "cli" ? { base_url: "http://127.0.0.1:8000/v1" } : {}),
        system_role: "system",
        parallel_tool_calls: false,
        max_tokens_field: "max_completion_tokens",
      });
    }
  });

  test("text and JSON say the same", () => {
    const v = judge({ ...healthy(), parallel: answer("", 1) }, "K");
    const subject = { provider: "lab", protocol: "openai", baseUrl: "https://llm/v1", model: "m" };
    const text = renderText(subject, v, v.flags, undefined, "lab");
    expect(text).toContain("! parallel calls");
    expect(text).toEndWith(
      "! usable once these lines are in [provider.lab] — run hey doctor lab --write, or add them yourself:\n  parallel_tool_calls = false\n",
    );
    const json = JSON.parse(renderJson(subject, v, v.flags, undefined));
    expect(json).toMatchObject({ usable: false, missing_flags: { parallel_tool_calls: false } });
    const written = JSON.parse(renderJson(subject, v, v.flags, { file: "/c.toml", backup: "/c.toml.bak", flags: v.flags }));
    expect(written.usable).toBe(true);
  });

  test("what grep searches with has its line, in text and JSON: a [tools] rg that cannot be run is marked", () => {
    const v = judge(healthy(), "K");
    const grep = '! grep: [tools] rg "/nonexistent/rg" cannot be run (not found); grep uses the ripgrep inside hey instead';
    const subject = { provider: "lab", protocol: "openai", baseUrl: "https://llm/v1", model: "m", grep };
    expect(renderText(subject, v, v.flags, undefined, "lab").split("\n")[1]).toBe(grep);
    expect(JSON.parse(renderJson(subject, v, v.flags, undefined)).grep).toBe(grep);
  });
});
