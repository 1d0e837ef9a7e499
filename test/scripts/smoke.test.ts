// bun run smoke, without the network: with no key every protocol is skipped and said so; with a key
// and its URL pointed at a local mock, the request goes through dist/hey and is judged.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { ROOT } from "../helpers/e2e.ts";
import { baseUrlFor, textReply } from "../helpers/protocol-streams.ts";
import { jsonReply, startReplayServer, type ReplayServer } from "../helpers/replay-server.ts";

let server: ReplayServer;
beforeAll(() => (server = startReplayServer()));
afterAll(() => server.stop());

async function smoke(env: Record<string, string>): Promise<{ code: number; out: string }> {
  const proc = Bun.spawn([process.execPath, join(ROOT, "scripts", "smoke.ts")], {
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", ...env },
    stdout: "pipe",
    stderr: "pipe",
    timeout: 60_000,
  });
  const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
  return { code, out };
}

test("no key: every protocol skipped, each said, exit 0", async () => {
  const { code, out } = await smoke({});
  expect(code).toBe(0);
  expect(out).toBe(
    [
      "– openai: skipped, OPENAI_API_KEY is not set",
      "– responses: skipped, OPENAI_API_KEY is not set",
      "– anthropic: skipped, ANTHROPIC_API_KEY is not set",
      "– google: skipped, GEMINI_API_KEY or GOOGLE_API_KEY is not set",
      "no key variable is set: nothing was sent (see README, Develop)",
      "",
    ].join("\n"),
  );
});

test("a key set: that protocol's request is made and judged; a bad answer fails the run", async () => {
  server.enqueue(textReply("anthropic", "pong"));
  const ok = await smoke({
    ANTHROPIC_API_KEY: "sk-ant-test",
    HEY_SMOKE_ANTHROPIC_URL: baseUrlFor("anthropic", server.url),
    HEY_SMOKE_ANTHROPIC_MODEL: "claude-test",
  });
  expect(ok.code).toBe(0);
  expect(ok.out).toMatch(/^✓ anthropic \(claude-test at http:\/\/127\.0\.0\.1:\d+\/v1, key from ANTHROPIC_API_KEY\): "pong" in [\d.]+ s$/m);
  expect(server.requests.at(-1)?.headers["x-api-key"]).toBe("sk-ant-test");

  server.enqueue(jsonReply(401, { type: "error", error: { type: "authentication_error", message: "invalid x-api-key" } }));
  const bad = await smoke({ ANTHROPIC_API_KEY: "sk-ant-bad", HEY_SMOKE_ANTHROPIC_URL: baseUrlFor("anthropic", server.url) });
  expect(bad.code).toBe(1);
  expect(bad.out).toMatch(/^✗ anthropic \(claude-sonnet-4-5 at .*\): authentication failed \(401\): invalid x-api-key/m);
});
