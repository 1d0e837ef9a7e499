// `hey doctor` (dist/hey) against local mocks of the four protocols, through a real proxy to an
// HTTPS endpoint with a private CA, and against quirky OpenAI-compatible servers: the report names
// each quirk, `--write` records the flags (after a backup), and a following `hey -p` task works.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, lstatSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { jsonEvents, runHey, tempDir } from "../helpers/e2e.ts";
import { startProtocolMock, startQuirkyServer, type MockServer, type Quirks } from "../helpers/doctor-mocks.ts";
import { baseUrlFor } from "../helpers/protocol-streams.ts";
import { freePort, PROXIED_HOST, startTinyproxy, type RealProxy } from "../helpers/real-proxies.ts";
import { makeTestCa, type TestCa } from "../helpers/test-ca.ts";
import { describeNeeding, missingTools, testNeeding } from "../helpers/tools.ts";

let work: ReturnType<typeof tempDir>;
const servers: MockServer[] = [];
beforeAll(() => {
  work = tempDir();
  writeFileSync(join(work.path, "notes.txt"), "the answer is 42\n");
});
afterAll(() => {
  for (const s of servers) s.stop();
  work.remove();
});
const track = (server: MockServer) => (servers.push(server), server);

/** The report's line for a check, by its title. */
const line = (stdout: string, title: string) => stdout.split("\n").find((l) => l.slice(2).startsWith(title)) ?? `(no "${title}" line)`;

describe.each(["openai", "responses", "anthropic", "google"] as const)("%s mock", (protocol) => {
  test("every check passes or has nothing to check; exit 0", async () => {
    const mock = track(startProtocolMock(protocol, "mock-model"));
    const run = await runHey(["doctor", "--base-url", baseUrlFor(protocol, mock.url), "--protocol", protocol, "-m", "mock-model", "--api-key", "k-1"], {
      cwd: work.path,
    });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    for (const title of [
      "proxy",
      "TCP",
      "auth",
      "model listed",
      "context window",
      "streamed answer",
      "tool call",
      "parallel calls",
      "tool result after reasoning",
      "empty tools list",
    ])
      expect(line(run.stdout, title)).toStartWith("✓");
    expect(line(run.stdout, "Retry-After on 429")).toStartWith("–");
    expect(run.stdout).toContain("\n✓ usable\n");
    if (protocol === "openai") {
      expect(line(run.stdout, "system role")).toBe("✓ system role                  both system and developer are accepted");
      expect(line(run.stdout, "output limit")).toStartWith("✓");
    }
  });
});

test.each(["anthropic", "google"] as const)(
  "%s with signed reasoning: the tool result goes back with its signature (Anthropic thinking, Gemini thought signature)",
  async (protocol) => {
    const mock = track(startProtocolMock(protocol, "thinker", { signedReasoning: true }));
    const run = await runHey(["doctor", "--base-url", baseUrlFor(protocol, mock.url), "--protocol", protocol, "-m", "thinker"], { cwd: work.path });
    expect(run.code).toBe(0);
    expect(line(run.stdout, "tool result after reasoning")).toBe("✓ tool result after reasoning  the answer continues with the reasoning replayed");
    const followUp = mock.requests.filter((r) => r.method === "POST" && JSON.stringify(r.body).includes("sig-made-by-the-mock"));
    expect(followUp.length).toBeGreaterThan(0);
  },
);

test("the permission lists in force, each with its file (a --config file's allow list), or that there is none", async () => {
  const mock = track(startProtocolMock("openai", "m"));
  const config = join(work.path, "ro.toml");
  writeFileSync(config, '[permission]\nallow = ["read_file", "grep"]\n');
  const run = await runHey(["doctor", "--config", config, "--base-url", `${mock.url}/v1`, "-m", "m"], { cwd: work.path });
  expect(run.stdout).toContain(`\npermission: allow read_file, grep (${config})\n`);
  const none = await runHey(["doctor", "--base-url", `${mock.url}/v1`, "-m", "m"], { cwd: work.path });
  expect(none.stdout).toContain("\npermission: no allow or deny list: every tool call runs\n");
});

test("--output json: the same checks as data", async () => {
  const mock = track(startProtocolMock("anthropic", "claude-x"));
  const run = await runHey(["doctor", "--base-url", `${mock.url}/v1`, "--protocol", "anthropic", "-m", "claude-x", "--output", "json"], { cwd: work.path });
  expect(run.code).toBe(0);
  const [report] = jsonEvents(run.stdout);
  expect(report).toMatchObject({ type: "doctor", provider: "cli", protocol: "anthropic", model: "claude-x", usable: true, flags: {}, missing_flags: {} });
  const checks = report!.checks as { id: string; status: string }[];
  expect(checks.map((c) => c.id)).toEqual([
    "proxy",
    "dns",
    "tcp",
    "auth",
    "model",
    "window",
    "answer",
    "tool_call",
    "parallel_calls",
    "reasoning_replay",
    "empty_tools",
    "retry_after",
  ]);
  expect(checks.find((c) => c.id === "tool_call")?.status).toBe("pass");
});

// openssl makes the CA; tinyproxy (a Debian tool, .ci/run installs it) is the real proxy
describeNeeding(["openssl"], "through a real proxy to HTTPS with a private CA", () => {
  let ca: TestCa;
  let proxy: RealProxy | undefined;
  beforeAll(async () => {
    ca = makeTestCa();
    if (!missingTools(["tinyproxy"])) proxy = await startTinyproxy();
  });
  afterAll(() => {
    proxy?.close();
    ca.remove();
  });

  testNeeding(["tinyproxy"])("the proxy and why, TCP to the proxy, the certificate's issuer and expiry", async () => {
    const mock = track(startProtocolMock("openai", "m", { tls: ca.valid }));
    const base = `https://${PROXIED_HOST}:${new URL(mock.url).port}/v1`;
    const run = await runHey(["doctor", "--base-url", base, "-m", "m"], { cwd: work.path, env: { HTTPS_PROXY: proxy!.url, SSL_CERT_FILE: ca.caFile } });
    expect(run.code).toBe(0);
    expect(line(run.stdout, "proxy")).toContain(`✓ proxy`);
    expect(line(run.stdout, "proxy")).toContain(`through the proxy ${proxy!.url} (from HTTPS_PROXY)`);
    expect(line(run.stdout, "DNS")).toContain("0.0.0.0 is an address: nothing to look up");
    expect(line(run.stdout, "TCP")).toContain(`connected to the proxy ${proxy!.url}`);
    expect(line(run.stdout, "TLS")).toMatch(/^! TLS +issued by hey test CA, expires \d{4}-\d\d-\d\d \(in [01] days\) → the server's operator must renew/);
  });

  test("an untrusted certificate: ✗ TLS naming the host and the CA settings, nothing else probed, exit 1", async () => {
    const mock = track(startProtocolMock("openai", "m", { tls: ca.valid }));
    const run = await runHey(["doctor", "--base-url", `${mock.url}/v1`, "-m", "m"], { cwd: work.path });
    expect(run.code).toBe(1);
    expect(line(run.stdout, "TLS")).toContain("✗ TLS");
    expect(line(run.stdout, "TLS")).toContain("the TLS certificate of 127.0.0.1 is not signed by a CA hey trusts");
    expect(line(run.stdout, "TLS")).toContain("[network] ca_file, SSL_CERT_FILE or NODE_EXTRA_CA_CERTS");
    expect(run.stdout).toContain("✗ not usable: TLS failed");
    expect(mock.requests).toEqual([]);
  });

  test("a ca_file that cannot be read: ✗ TLS naming the file and the setting (the proxy passes), nothing sent, exit 1", async () => {
    const mock = track(startProtocolMock("openai", "m", { tls: ca.valid }));
    const config = join(work.path, "missing-ca.toml");
    writeFileSync(config, '[network]\nca_file = "/nonexistent/ca.pem"\n');
    const run = await runHey(["doctor", "--config", config, "--base-url", `${mock.url}/v1`, "-m", "m"], { cwd: work.path });
    expect(run.code).toBe(1);
    expect(line(run.stdout, "proxy")).toStartWith("✓ proxy");
    expect(line(run.stdout, "TLS")).toContain(`✗ TLS`);
    expect(line(run.stdout, "TLS")).toContain(`[network] ca_file in ${config}: cannot read /nonexistent/ca.pem (ENOENT) → fix the CA file it names`);
    expect(run.stdout).toContain("✗ not usable: TLS failed");
    expect(mock.requests).toEqual([]);
  });

  test("a proxy that is not running: ✗ TCP naming it", async () => {
    const dead = freePort();
    const run = await runHey(["doctor", "--base-url", `https://${PROXIED_HOST}:9/v1`, "-m", "m", "--proxy", `http://u:secret-1@127.0.0.1:${dead}`], {
      cwd: work.path,
    });
    expect(run.code).toBe(1);
    expect(line(run.stdout, "TCP")).toStartWith(`✗ TCP`);
    expect(line(run.stdout, "TCP")).toContain(`cannot connect to the proxy http://***@127.0.0.1:${dead}`);
    expect(run.stdout).not.toContain("secret-1");
  });
});

// a new user with no key hey reads and no Ollama running: the doctor says what a run says, not only "check the firewall"
test("nothing at the default Ollama: ✗ TCP, then the setup help a run prints (ollama serve, the keys, the table for the key it saw)", async () => {
  const dead = freePort();
  const run = await runHey(["doctor"], { cwd: work.path, env: { OLLAMA_HOST: `127.0.0.1:${dead}`, OPENROUTER_API_KEY: "sk-or-v1-x" } });
  expect(run.code).toBe(1);
  expect(line(run.stdout, "TCP")).toStartWith("✗ TCP");
  expect(line(run.stdout, "TCP")).toEndWith("→ what to do is below the verdict");
  const after = run.stdout.slice(run.stdout.indexOf("✗ not usable: TCP failed"));
  expect(after).toContain(`start it there with \`ollama serve\` and \`ollama pull qwen3\``);
  expect(after).toContain("export OPENAI_API_KEY, ANTHROPIC_API_KEY");
  expect(after).toContain(`hey --base-url http://127.0.0.1:${dead}/v1 -m MODEL`);
  expect(after).toContain('  [provider.openrouter]\n  base_url = "https://openrouter.ai/api/v1"\n  api_key = "${OPENROUTER_API_KEY}"');
});

test("a rejected key: ✗ auth naming the key's variable, exit 1", async () => {
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: () => Response.json({ error: { message: "Incorrect API key provided" } }, { status: 401 }),
  });
  try {
    const run = await runHey(["doctor", "--base-url", `http://127.0.0.1:${server.port}/v1`, "-m", "m"], { cwd: work.path, env: { HEY_API_KEY: "sk-wrong" } });
    expect(run.code).toBe(1);
    expect(line(run.stdout, "auth")).toMatch(/^✗ auth .*401.*Incorrect API key provided → check HEY_API_KEY$/);
    // the answer's fix is the key's too: no word of a 404
    expect(line(run.stdout, "streamed answer")).toMatch(/^✗ streamed answer .*401.* → check HEY_API_KEY$/);
  } finally {
    server.stop(true);
  }
});

describe("quirky servers: each quirk is named", () => {
  test.each<[string, Quirks, string, string]>([
    [
      "rejects the developer role",
      { rejectsDeveloper: true },
      "system role",
      `! system role                  the developer role is rejected (request rejected (400): Invalid value: 'developer'.`,
    ],
    [
      "wants max_completion_tokens",
      { wantsMaxCompletionTokens: true },
      "output limit",
      "! output limit                 max_tokens is rejected (request rejected (400): Unsupported parameter: 'max_tokens'",
    ],
    [
      "400s on an empty tools list",
      { rejectsEmptyTools: true },
      "empty tools list",
      "! empty tools list             tools: [] is rejected (400 [] is too short - 'tools') → none: hey never sends an empty tools list",
    ],
    [
      "requires reasoning replay",
      { requiresReasoningReplay: true },
      "tool result after reasoning",
      "! tool result after reasoning  requires its reasoning replayed with the tool-call turn (without it: request rejected (400): Missing `reasoning_content` field",
    ],
    [
      "drops parallel calls",
      { dropsParallelCalls: true },
      "parallel calls",
      "! parallel calls               two calls were asked for, one arrived: the endpoint drops parallel calls → parallel_tool_calls = false",
    ],
    [
      "sends tool calls as text (vLLM without a tool-call parser): the fix is the server's flags",
      { callsAsText: true },
      "tool call",
      "! tool call                    the server sent the tool call as text in the answer, not as a tool call (hey runs such calls itself) → have the server parse tool calls: vLLM --enable-auto-tool-choice --tool-call-parser",
    ],
    ["streams parallel calls whole at index 0 (Ollama)", { callsAtIndexZero: true }, "parallel calls", "✓ parallel calls               2 calls in one turn"],
    [
      "sends Retry-After on a 429",
      { rateLimitOnce: true },
      "Retry-After on 429",
      "✓ Retry-After on 429           429 came with Retry-After: 1 (hey waits that long)",
    ],
  ])("%s", async (_name, quirks, title, expected) => {
    const server = track(startQuirkyServer("qm", quirks));
    const run = await runHey(["doctor", "--base-url", `${server.url}/v1`, "-m", "qm"], { cwd: work.path });
    expect(line(run.stdout, title)).toStartWith(expected);
    expect(line(run.stdout, "streamed answer")).toStartWith("✓");
  });
});

test("--write records the flags a quirky server needs (after a backup), and then a hey -p task succeeds", async () => {
  const server = track(
    startQuirkyServer("qm", {
      rejectsDeveloper: true,
      wantsMaxCompletionTokens: true,
      rejectsEmptyTools: true,
      requiresReasoningReplay: true,
      dropsParallelCalls: true,
    }),
  );
  const xdg = join(work.path, "xdg");
  mkdirSync(join(xdg, "hey"), { recursive: true });
  const configFile = join(xdg, "hey", "config.toml");
  // flags set the wrong way (as a user might have copied them from elsewhere), and an output limit
  const before = [
    "# my endpoints",
    "[provider.quirky]",
    `base_url = "${server.url}/v1"   # the lab server`,
    'models = ["qm"]',
    "max_tokens = 2000",
    'system_role = "developer"',
    "reasoning_replay = false",
    "",
    "[agent]",
    "max_turns = 5",
    "",
  ].join("\n");
  writeFileSync(configFile, before);
  const env = { XDG_CONFIG_HOME: xdg };
  const task = ["-m", "quirky", "-p", "what do the notes say?", "--output", "json"];

  const failing = await runHey(task, { cwd: work.path, env });
  expect(failing.code).toBe(1);
  expect(jsonEvents(failing.stdout).find((e) => e.type === "error")).toMatchObject({ kind: "bad_request" });

  const unwritten = await runHey(["doctor", "quirky"], { cwd: work.path, env });
  expect(unwritten.code).toBe(1);
  expect(unwritten.stdout).toContain("! usable once these lines are in [provider.quirky] — run hey doctor quirky --write, or add them yourself:\n  ");

  // a link planted where the backup goes is replaced, never written through (issue 24)
  const outside = join(work.path, "outside.txt");
  writeFileSync(outside, "not hey's\n");
  symlinkSync(outside, `${configFile}.bak`);
  const doctor = await runHey(["doctor", "quirky", "--write"], { cwd: work.path, env });
  expect(doctor.code).toBe(0);
  expect(readFileSync(outside, "utf8")).toBe("not hey's\n");
  expect(lstatSync(`${configFile}.bak`).isSymbolicLink()).toBe(false);
  expect(lstatSync(`${configFile}.bak`).mode & 0o777).toBe(statSync(configFile).mode & 0o777);
  for (const title of ["system role", "output limit", "empty tools list", "tool result after reasoning", "parallel calls"])
    expect(line(doctor.stdout, title)).toStartWith("!");
  expect(doctor.stdout).toContain(`to ${configFile} (the previous file is ${configFile}.bak)`);
  expect(readFileSync(`${configFile}.bak`, "utf8")).toBe(before);
  const after = readFileSync(configFile, "utf8");
  expect(after).toBe(
    [
      "# my endpoints",
      "[provider.quirky]",
      `base_url = "${server.url}/v1"   # the lab server`,
      'models = ["qm"]',
      "max_tokens = 2000",
      'system_role = "system"',
      "reasoning_replay = true",
      'max_tokens_field = "max_completion_tokens"',
      "parallel_tool_calls = false",
      "",
      "[agent]",
      "max_turns = 5",
      "",
    ].join("\n"),
  );

  const start = server.requests.length;
  const working = await runHey(task, { cwd: work.path, env });
  expect(working.stderr).toBe("");
  expect(working.code).toBe(0);
  const events = jsonEvents(working.stdout);
  expect(events.filter((e) => e.type === "tool_result").map((e) => e.ok)).toEqual([true]);
  expect(
    events
      .filter((e) => e.type === "text_delta")
      .map((e) => e.text)
      .join(""),
  ).toContain("the answer is 42");
  const sent = server.requests
    .slice(start)
    .filter((r) => r.method === "POST") // not the run's GET of the model list
    .map((r) => r.body);
  expect(sent.every((b) => b.max_completion_tokens === 2000 && b.max_tokens === undefined && b.parallel_tool_calls === false)).toBe(true);

  const again = await runHey(["doctor", "quirky"], { cwd: work.path, env });
  expect(again.code).toBe(0);
  expect(again.stdout).toContain("\n✓ usable\n");
  expect(existsSync(`${configFile}.bak`)).toBe(true);
});

test("--write writes the lines hey doctor prints, no more: the flags whose value is hey's default already are left out of both", async () => {
  // the system role and max_tokens it finds are what hey sends anyway
  const server = track(startQuirkyServer("qm", { rejectsDeveloper: true, rejectsMaxCompletionTokens: true, dropsParallelCalls: true }));
  const xdg = join(work.path, "xdg-same");
  mkdirSync(join(xdg, "hey"), { recursive: true });
  const configFile = join(xdg, "hey", "config.toml");
  const before = `[provider.lab]\nbase_url = "${server.url}/v1"\nmodels = ["qm"]\n`;
  writeFileSync(configFile, before);
  const env = { XDG_CONFIG_HOME: xdg };
  const shown = await runHey(["doctor", "lab"], { cwd: work.path, env });
  expect(shown.stdout).toContain(
    "! usable once these lines are in [provider.lab] — run hey doctor lab --write, or add them yourself:\n  parallel_tool_calls = false\n",
  );
  expect(line(shown.stdout, "system role")).toStartWith("!");
  const written = await runHey(["doctor", "lab", "--write"], { cwd: work.path, env });
  expect(written.code).toBe(0);
  expect(written.stdout).toContain(`wrote parallel_tool_calls = false to ${configFile}`);
  expect(readFileSync(configFile, "utf8")).toBe(`${before}parallel_tool_calls = false\n`);
});

test("--write for a provider without a config table prints the lines to add instead", async () => {
  const server = track(startQuirkyServer("qm", { dropsParallelCalls: true }));
  const run = await runHey(["doctor", "--base-url", `${server.url}/v1`, "-m", "qm", "--write"], { cwd: work.path });
  expect(run.code).toBe(1);
  expect(run.stdout).toContain(
    `! usable once these lines are in a [provider.NAME] table for this endpoint (a --base-url run has none):\n  [provider.NAME]\n  base_url = "${server.url}/v1"\n  parallel_tool_calls = false\nnot written: --base-url names no config table\n`,
  );
});

test("hey doctor WORD: a word that names no provider is refused (exit 2), with the known ones and a guess — never probed as a model", async () => {
  const mock = track(startProtocolMock("openai", "m"));
  const xdg = join(work.path, "xdg-word");
  mkdirSync(join(xdg, "hey"), { recursive: true });
  writeFileSync(join(xdg, "hey", "config.toml"), `[provider.mock]\nbase_url = "${mock.url}/v1"\nmodels = ["m"]\n`);
  const env = { XDG_CONFIG_HOME: xdg };
  const nope = await runHey(["doctor", "nope"], { cwd: work.path, env });
  expect(nope.code).toBe(2);
  expect(nope.stderr).toBe('hey doctor: unknown provider "nope"; known: mock\n');
  const close = await runHey(["doctor", "mokc"], { cwd: work.path, env });
  expect(close.stderr).toBe('hey doctor: unknown provider "mokc"; did you mean mock?; known: mock\n');
  const builtIn = await runHey(["doctor", "deepseek"], { cwd: work.path, env }); // the README's example, without its key
  expect(builtIn.stderr).toBe('hey doctor: unknown provider "deepseek" (deepseek is built in and offered when DEEPSEEK_API_KEY is set); known: mock\n');
  expect(mock.requests.filter((r) => r.method === "POST")).toHaveLength(0); // nothing was probed
  const named = await runHey(["doctor", "mock"], { cwd: work.path, env });
  expect(named.stdout).toContain("✓ usable");
});
