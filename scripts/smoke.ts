// bun run smoke — one real request per protocol against the vendors' own APIs, through the compiled
// dist/hey, for maintainers before a release (SPEC §21: real-API smoke tests, skipped unless keys
// are set). Never part of `npm test`: it needs keys and the network, and costs a few tokens.
//
// A protocol runs when its key variable is set and is skipped, with a line saying so, when not.
// HEY_SMOKE_<PROTOCOL>_MODEL and HEY_SMOKE_<PROTOCOL>_URL (PROTOCOL in capitals) override the model
// and the API root, e.g. to go through a gateway. Proxy and CA variables are passed on, so the
// run sees the network hey would. Exit 0 when every protocol that ran answered, 1 otherwise.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Protocol } from "../src/kernel/ir.ts";
import { ensureBinary } from "../test/helpers/e2e.ts";

interface Target {
  protocol: Protocol;
  keyVars: string[];
  baseUrl: string;
  /** the zero-config presets' models (src/config/providers.ts) */
  model: string;
}

const TARGETS: Target[] = [
  { protocol: "openai", keyVars: ["OPENAI_API_KEY"], baseUrl: "https://api.openai.com/v1", model: "gpt-5.5" },
  { protocol: "responses", keyVars: ["OPENAI_API_KEY"], baseUrl: "https://api.openai.com/v1", model: "gpt-5.5" },
  { protocol: "anthropic", keyVars: ["ANTHROPIC_API_KEY"], baseUrl: "https://api.anthropic.com/v1", model: "claude-sonnet-4-5" },
  {
    protocol: "google",
    keyVars: ["GEMINI_API_KEY", "GOOGLE_API_KEY"],
    baseUrl: "https://generativelanguage.googleapis.com/v1beta",
    model: "gemini-3-flash-preview",
  },
];
/** Passed to hey from this environment: how the network is reached, not who the user is. */
const NETWORK_VARS = [
  "HTTPS_PROXY",
  "https_proxy",
  "HTTP_PROXY",
  "http_proxy",
  "ALL_PROXY",
  "all_proxy",
  "NO_PROXY",
  "no_proxy",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "NODE_EXTRA_CA_CERTS",
];
const PROMPT = "Reply with exactly one word: pong";
const TIMEOUT_MS = 120_000; // a reasoning model may think a while even about one word

type Result = { protocol: Protocol; outcome: "ok" | "skipped" | "failed"; line: string };

async function smoke(target: Target, env: Record<string, string | undefined>, bin: string): Promise<Result> {
  const { protocol } = target;
  const keyVar = target.keyVars.find((v) => env[v]);
  if (!keyVar) return { protocol, outcome: "skipped", line: `– ${protocol}: skipped, ${target.keyVars.join(" or ")} is not set` };
  const upper = protocol.toUpperCase();
  const model = env[`HEY_SMOKE_${upper}_MODEL`] || target.model;
  const baseUrl = env[`HEY_SMOKE_${upper}_URL`] || target.baseUrl;
  const home = mkdtempSync(join(tmpdir(), "hey-smoke-"));
  try {
    const childEnv: Record<string, string> = { PATH: env.PATH ?? "/usr/bin:/bin", HOME: home, NO_COLOR: "1", HEY_API_KEY: env[keyVar]! };
    for (const v of NETWORK_VARS) if (env[v]) childEnv[v] = env[v]!;
    const started = performance.now();
    const proc = Bun.spawn([bin, "--base-url", baseUrl, "--protocol", protocol, "-m", model, "-p", PROMPT, "--output", "json", "--no-skills"], {
      cwd: home,
      env: childEnv,
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
      timeout: TIMEOUT_MS,
    });
    const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const events = stdout.split("\n").flatMap((l) => {
      try {
        return [JSON.parse(l) as Record<string, unknown>];
      } catch {
        return [];
      }
    });
    const text = events
      .filter((e) => e.type === "text_delta")
      .map((e) => String(e.text))
      .join("");
    const error = events.find((e) => e.type === "error");
    const where = `${protocol} (${model} at ${baseUrl}, key from ${keyVar})`;
    if (code === 0 && /pong/i.test(text)) return { protocol, outcome: "ok", line: `✓ ${where}: "${text.trim()}" in ${seconds} s` };
    const why = error
      ? String(error.message)
      : code === 0
        ? `the answer was "${text.trim()}", not pong`
        : `exit ${code}: ${stderr.trim().split("\n").at(-1) ?? ""}`;
    return { protocol, outcome: "failed", line: `✗ ${where}: ${why}` };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

const env = process.env;
const bin = await ensureBinary();
const results: Result[] = [];
for (const target of TARGETS) {
  const result = await smoke(target, env, bin);
  console.log(result.line);
  results.push(result);
}
if (results.every((r) => r.outcome === "skipped")) console.log("no key variable is set: nothing was sent (see README, Develop)");
process.exit(results.some((r) => r.outcome === "failed") ? 1 : 0);
