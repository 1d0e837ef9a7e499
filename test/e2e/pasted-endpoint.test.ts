// A base URL pasted with its endpoint path (`…/v1/chat/completions`, as a vendor's curl example
// shows it) reaches the endpoint, with a warning that names the API root used: it went to
// `…/chat/completions/chat/completions`, which a real API answers 404.
import { expect, test } from "bun:test";
import type { Protocol } from "../../src/kernel/ir.ts";
import { runHey } from "../helpers/e2e.ts";
import { fileReplayServer, fileTempDir, writeUserConfig } from "../helpers/fixtures.ts";
import { baseUrlFor, textReply } from "../helpers/protocol-streams.ts";

const server = fileReplayServer();
const home = fileTempDir("hey-pasted-");

const CASES: [Protocol, string, string][] = [
  ["openai", "/chat/completions", "/v1/chat/completions"],
  ["responses", "/responses", "/v1/responses"],
  ["anthropic", "/messages", "/v1/messages"],
  ["google", "/models/some-model:streamGenerateContent", "/v1beta/models/some-model:streamGenerateContent?alt=sse"],
];

test.each(CASES)("--protocol %s, --base-url …%s: the request goes to the endpoint once, not twice its path", async (protocol, endpoint, path) => {
  server.enqueue(textReply(protocol, "Hello."));
  const pasted = baseUrlFor(protocol, server.url) + endpoint;
  const run = await runHey(["--base-url", pasted, "--protocol", protocol, "-m", "some-model", "-p", "hi"], { cwd: home.path });
  expect(run.stdout).toBe("Hello.\n");
  expect(run.code).toBe(0);
  expect(server.requests.at(-1)!.path).toBe(path);
  expect(run.stderr).toContain(
    `hey: --base-url ends with ${endpoint}, a path the API client adds itself: hey uses ${baseUrlFor(protocol, server.url)}, the API root`,
  );
});

test("base_url in a provider table with its endpoint path: the warning names the file, line and table", async () => {
  const file = writeUserConfig(home.path, `[provider.claude]\nprotocol = "anthropic"\nbase_url = "${server.url}/v1/messages"\nmodels = ["claude-x"]\n`);
  server.enqueue(textReply("anthropic", "Hi from Claude."));
  const run = await runHey(["-p", "hi"], { cwd: home.path, env: { HOME: home.path } });
  expect(run.stdout).toBe("Hi from Claude.\n");
  expect(server.requests.at(-1)!.path).toBe("/v1/messages");
  expect(run.stderr).toContain(
    `hey: ${file}:3: [provider.claude] base_url ends with /messages, a path the API client adds itself: hey uses ${server.url}/v1, the API root`,
  );
});

// Google's curl examples end with the endpoint's query: `?alt=sse` (streaming), `?key=$GEMINI_API_KEY`.
// It is the endpoint's, as its path is: kept, the SDK's path went after it (`…/v1beta?alt=sse/v1beta/models/…`),
// and a key in it was printed in the warning
test.each([
  ["?alt=sse", "?alt=sse"],
  ["?key=AIzaSecret123", "?key=…"],
])("--protocol google, --base-url …:streamGenerateContent%s: the request goes to the endpoint, the query dropped", async (query, said) => {
  server.enqueue(textReply("google", "Hello."));
  const endpoint = "/models/some-model:streamGenerateContent";
  const run = await runHey(["--base-url", baseUrlFor("google", server.url) + endpoint + query, "--protocol", "google", "-m", "some-model", "-p", "hi"], {
    cwd: home.path,
    env: { GEMINI_API_KEY: "k" },
  });
  expect(run.stdout).toBe("Hello.\n");
  expect(server.requests.at(-1)!.path).toBe("/v1beta/models/some-model:streamGenerateContent?alt=sse");
  expect(run.stderr).toContain(
    `hey: --base-url ends with ${endpoint}${said}, a path the API client adds itself: hey uses ${baseUrlFor("google", server.url)}, the API root`,
  );
  expect(run.stderr).not.toContain("AIzaSecret123");
});
