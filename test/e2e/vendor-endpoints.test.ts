// Where a user's key goes, as someone switching from another agent sets it up: OPENAI_BASE_URL,
// ANTHROPIC_BASE_URL (with ANTHROPIC_AUTH_TOKEN, Claude Code's gateway setup) and
// GOOGLE_GEMINI_BASE_URL move the built-in provider, as the vendors' SDKs do; a `base_url` in a
// table named after a built-in provider moves only its address (protocol and key stay); an
// untagged open-weight model name stays with the local Ollama; and errors say which setting to fix.
import { expect, test } from "bun:test";
import { runHey } from "../helpers/e2e.ts";
import { fileReplayServer, fileTempDir, writeUserConfig } from "../helpers/fixtures.ts";
import { textReply } from "../helpers/protocol-streams.ts";
import { jsonReply } from "../helpers/replay-server.ts";

const server = fileReplayServer();
const home = fileTempDir("hey-vendor-endpoints-");
/** A loopback port nothing listens on: a request that went there would fail to connect. */
const NOWHERE = "http://127.0.0.1:9";

test("OPENAI_API_KEY with OPENAI_BASE_URL: the request and its key go to that URL, not api.openai.com", async () => {
  server.enqueue(textReply("openai", "Hello from the gateway."));
  const run = await runHey(["-p", "hi"], { cwd: home.path, env: { OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: `${server.url}/v1` } });
  expect(run.stderr).toBe("");
  expect(run.stdout).toBe("Hello from the gateway.\n");
  const sent = server.requests.at(-1)!;
  expect(sent.path).toBe("/v1/chat/completions");
  expect(sent.headers.authorization).toBe("Bearer sk-test");
});

test.each([
  ["ANTHROPIC_API_KEY", "x-api-key", "sk-ant"],
  // Claude Code's setup for DeepSeek, Kimi or GLM: a gateway's token, sent as a Bearer
  ["ANTHROPIC_AUTH_TOKEN", "authorization", "Bearer sk-ant"],
])("%s with ANTHROPIC_BASE_URL (no /v1, as Claude Code takes it): Messages at that URL, with the key", async (keyVar, header, value) => {
  server.enqueue(textReply("anthropic", "Hello from Messages."));
  const run = await runHey(["-p", "hi"], { cwd: home.path, env: { [keyVar]: "sk-ant", ANTHROPIC_BASE_URL: server.url } });
  expect(run.stdout).toBe("Hello from Messages.\n");
  const sent = server.requests.at(-1)!;
  expect(sent.path).toBe("/v1/messages");
  expect(sent.headers[header]).toBe(value);
});

test("Claude Code's gateway setup with ANTHROPIC_MODEL: the request asks for that model (the gateway's only one); -m still wins", async () => {
  const env = { ANTHROPIC_AUTH_TOKEN: "sk-gw", ANTHROPIC_BASE_URL: server.url, ANTHROPIC_MODEL: "gw-sonnet" };
  server.enqueue(textReply("anthropic", "From the gateway's model."));
  const run = await runHey(["-p", "hi"], { cwd: home.path, env });
  expect(run.stdout).toBe("From the gateway's model.\n");
  expect((server.requests.at(-1)!.body as { model: string }).model).toBe("gw-sonnet"); // before: claude-sonnet-4-5, which the gateway answers with a 404
  server.enqueue(textReply("anthropic", "From the named model."));
  await runHey(["-m", "claude-haiku-4-5", "-p", "hi"], { cwd: home.path, env });
  expect((server.requests.at(-1)!.body as { model: string }).model).toBe("claude-haiku-4-5");
});

test("hey doctor names ANTHROPIC_MODEL as where the model came from", async () => {
  const env = { ANTHROPIC_API_KEY: "ak", ANTHROPIC_BASE_URL: NOWHERE, ANTHROPIC_MODEL: "gw-sonnet" };
  const json = JSON.parse((await runHey(["doctor", "--output", "json"], { cwd: home.path, env })).stdout) as Record<string, unknown>;
  expect(json).toMatchObject({ provider: "anthropic", model: "gw-sonnet", model_from: "ANTHROPIC_MODEL", base_url_from: "ANTHROPIC_BASE_URL" });
  const text = await runHey(["doctor"], { cwd: home.path, env });
  expect(text.stdout.split("\n")[0]).toBe(`hey doctor: anthropic (anthropic) ${NOWHERE} (from ANTHROPIC_BASE_URL), model gw-sonnet (from ANTHROPIC_MODEL)`);
});

test("GEMINI_API_KEY with GOOGLE_GEMINI_BASE_URL: Gemini's API at that URL, with the key", async () => {
  server.enqueue(textReply("google", "Hello from Gemini."));
  const run = await runHey(["-p", "hi"], { cwd: home.path, env: { GEMINI_API_KEY: "g-key", GOOGLE_GEMINI_BASE_URL: server.url } });
  expect(run.stdout).toBe("Hello from Gemini.\n");
  const sent = server.requests.at(-1)!;
  expect(sent.path).toStartWith("/v1beta/models/gemini-3.5-flash:streamGenerateContent");
  expect(sent.headers["x-goog-api-key"]).toBe("g-key");
});

test("HEY_BASE_URL wins over OPENAI_BASE_URL, as HEY_* variables win", async () => {
  server.enqueue(textReply("openai", "From HEY_BASE_URL."));
  const env = { OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: NOWHERE, HEY_BASE_URL: `${server.url}/v1`, HEY_MODEL: "m" };
  const run = await runHey(["-p", "hi"], { cwd: home.path, env });
  expect(run.stdout).toBe("From HEY_BASE_URL.\n");
});

test("an OPENAI_BASE_URL that is no URL is an error naming it (exit 2), before anything is sent", async () => {
  const run = await runHey(["-p", "hi"], { cwd: home.path, env: { OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: "api.example.com/v1" } });
  expect(run.code).toBe(2);
  expect(run.stderr).toContain('OPENAI_BASE_URL must be an http:// or https:// URL, got "api.example.com/v1"');
});

test("a refused connection to the address OPENAI_BASE_URL gave names it: what to unset", async () => {
  const run = await runHey(["-p", "hi"], { cwd: home.path, env: { OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: `${NOWHERE}/v1` } });
  expect(run.code).toBe(1);
  expect(run.stderr).toBe(`error: cannot connect to ${NOWHERE}/v1, set by OPENAI_BASE_URL: connection refused (is the server running?)\n`);
});

test("hey doctor names OPENAI_BASE_URL as where the address came from", async () => {
  const run = await runHey(["doctor", "--output", "json"], { cwd: home.path, env: { OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: `${NOWHERE}/v1` } });
  const report = JSON.parse(run.stdout) as Record<string, unknown>;
  expect(report).toMatchObject({ provider: "openai", base_url: `${NOWHERE}/v1`, base_url_from: "OPENAI_BASE_URL" });
});

test.each([
  ["anthropic", "/v1", { ANTHROPIC_API_KEY: "ak" }, "/v1/messages", "x-api-key", "ak"],
  ["google", "/v1beta", { GEMINI_API_KEY: "gk" }, "/v1beta/models/m:streamGenerateContent?alt=sse", "x-goog-api-key", "gk"],
  ["openai", "/v1", { OPENAI_API_KEY: "ok" }, "/v1/chat/completions", "authorization", "Bearer ok"],
] as const)("[provider.%s] with base_url (%s): its own protocol, and its key variable's key, go there", async (name, version, env, path, header, value) => {
  const dir = fileTempDir(`hey-table-${name}-`).path;
  writeUserConfig(dir, `[provider.${name}]\nbase_url = "${server.url}${version}"\nmodels = ["m"]\n`);
  server.enqueue(textReply(name, `Hello from ${name}.`));
  const run = await runHey(["-m", `${name}/m`, "-p", "hi"], { cwd: dir, env: { HOME: dir, ...env } });
  expect(run.stdout).toBe(`Hello from ${name}.\n`);
  const sent = server.requests.at(-1)!;
  expect(sent.path).toBe(path);
  expect(sent.headers[header]).toBe(value);
});

test("-m llama3.2 with OPENAI_API_KEY set goes to the local Ollama, as -m qwen3:8b does, with no key", async () => {
  server.enqueue(textReply("openai", "Hello from Ollama."));
  const env = { OPENAI_API_KEY: "sk-o", OLLAMA_HOST: server.url.replace("http://", "") };
  const run = await runHey(["-m", "llama3.2", "-p", "hi"], { cwd: home.path, env });
  expect(run.stdout).toBe("Hello from Ollama.\n");
  const sent = server.requests.at(-1)!;
  expect((sent.body as { model: string }).model).toBe("llama3.2");
  expect(sent.headers.authorization).toBeUndefined();
});

test("with only OPENROUTER_API_KEY set and no Ollama running, the error says hey does not read it, and the table that uses it", async () => {
  const run = await runHey(["-p", "hi"], { cwd: home.path, env: { OPENROUTER_API_KEY: "sk-or", OLLAMA_HOST: "127.0.0.1:9" } });
  expect(run.code).toBe(1);
  expect(run.stderr).toContain("OPENROUTER_API_KEY is set, but hey has no built-in provider that reads it");
  expect(run.stderr).toContain('  api_key = "${OPENROUTER_API_KEY}"');
});

test("a 401 from --base-url with no key names HEY_API_KEY beside --api-key", async () => {
  server.enqueue(jsonReply(401, { error: { message: "missing key", type: "invalid_request_error" } }));
  const run = await runHey(["--base-url", `${server.url}/v1`, "-m", "m", "-p", "hi"], { cwd: home.path });
  expect(run.code).toBe(1);
  expect(run.stderr).toContain(`no API key was sent to ${server.url}/v1; set one (--api-key or HEY_API_KEY)`);
});

test("OPENAI_BASE_URL with no key anywhere (a local vLLM, LM Studio, llama.cpp): the request goes there, with no key, not to Ollama", async () => {
  server.enqueue(textReply("openai", "Hello from vLLM."));
  const run = await runHey(["-m", "qwen-coder", "-p", "hi"], { cwd: home.path, env: { OPENAI_BASE_URL: `${server.url}/v1`, OLLAMA_HOST: "127.0.0.1:9" } });
  expect(run.stdout).toBe("Hello from vLLM.\n");
  const sent = server.requests.at(-1)!;
  expect(sent.path).toBe("/v1/chat/completions");
  expect((sent.body as { model: string }).model).toBe("qwen-coder");
  expect(sent.headers.authorization).toBeUndefined();
  // hey doctor says the same: that provider, that address, from that variable
  const doctor = await runHey(["doctor", "--output", "json"], { cwd: home.path, env: { OPENAI_BASE_URL: `${NOWHERE}/v1`, OLLAMA_HOST: "127.0.0.1:9" } });
  expect(JSON.parse(doctor.stdout)).toMatchObject({ provider: "openai", base_url: `${NOWHERE}/v1`, base_url_from: "OPENAI_BASE_URL" });
});

test("OPENAI_BASE_URL set to OpenAI's own address (as dotfiles often have it) is no gateway: -m llama3.2 still goes to the local Ollama", async () => {
  server.enqueue(textReply("openai", "Hello from Ollama."));
  const env = { OPENAI_API_KEY: "sk-o", OPENAI_BASE_URL: "https://api.openai.com/v1", OLLAMA_HOST: server.url.replace("http://", "") };
  const run = await runHey(["-m", "llama3.2", "-p", "hi"], { cwd: home.path, env });
  expect(run.stdout).toBe("Hello from Ollama.\n");
  expect(server.requests.at(-1)!.headers.authorization).toBeUndefined();
});
