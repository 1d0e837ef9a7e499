// Streams whose bytes say more than their events, as a user of dist/hey meets them: a body that
// closed cleanly in the middle of its last event is a cut connection, retried (and the retry's
// answer is the run's); a stream of another protocol's events fails at once, one request, saying
// which protocol it was and which setting to change. Hand-made streams from a loopback server.
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey } from "../helpers/e2e.ts";
import { fileReplayServer, fileTempDir } from "../helpers/fixtures.ts";
import { baseUrlFor, textReply } from "../helpers/protocol-streams.ts";
import { sseReply } from "../helpers/replay-server.ts";
import { chatChunk, sse } from "../helpers/sse.ts";

const server = fileReplayServer();
const work = fileTempDir("hey-stream-shapes-");
const config = join(work.path, "fast-retry.toml");
writeFileSync(config, "[retry]\nbase_delay_ms = 100\njitter = false\n");

async function replay(protocol: string, ...replies: Parameters<typeof server.enqueue>) {
  const before = server.requests.length;
  server.enqueue(...replies);
  const result = await runHey(["--base-url", baseUrlFor(protocol as never, server.url), "--protocol", protocol, "-m", "m", "--config", config, "-p", "go"], {
    cwd: work.path,
  });
  return { ...result, requests: server.requests.length - before };
}

const HALF = 'data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"Hel';

test("a stream cut inside its last event and closed cleanly: retried as a cut connection; the retry's answer is the run's", async () => {
  const result = await replay("openai", sseReply(HALF), textReply("openai", "second ok"));
  expect(result).toMatchObject({ code: 0, stdout: "second ok\n", requests: 2 });
  expect(result.stderr).toContain(
    "retrying in 500 ms (1/5): the connection closed before the model finished its answer: the stream ended in the middle of an event",
  );
  expect(result.stderr).not.toContain("does not speak this protocol");
});

test("the same cut after part of the answer: the part kept, reported as broken off, not as another protocol", async () => {
  const result = await replay("openai", sseReply(sse([chatChunk({ content: "Some words. " })], { done: false }) + HALF));
  expect(result).toMatchObject({ code: 1, stdout: "Some words. \n", requests: 1 });
  expect(result.stderr).toBe(
    "error: the response broke off after partial output: the connection closed before the model finished its answer: the stream ended in the middle of an event\n",
  );
});

test.each([
  ["responses", "openai", "OpenAI chat-completions", "OpenAI Responses"],
  ["anthropic", "openai", "OpenAI chat-completions", "Anthropic Messages"],
  ["openai", "responses", "OpenAI Responses", "OpenAI chat-completions"],
] as const)(
  "--protocol %s answered with whole %s events: fails at once, one request, naming both and --protocol",
  async (configured, sent, seenName, ownName) => {
    const result = await replay(configured, textReply(sent, "All done."));
    expect(result).toMatchObject({ code: 1, stdout: "", requests: 1 });
    expect(result.stderr).toBe(
      `error: ${baseUrlFor(configured, server.url)} answered with ${seenName} events, not the ${ownName} events of protocol "${configured}": use --protocol ${sent} (HEY_PROTOCOL=${sent}), or point base_url at the server's ${ownName} API\n`,
    );
  },
);

test("a provider table's endpoint answered with another protocol's events: the fix names the table and its file", async () => {
  const file = join(work.path, "gw.toml");
  writeFileSync(file, `[retry]\nbase_delay_ms = 100\n\n[provider.gw]\nprotocol = "anthropic"\nbase_url = "${server.url}"\n`);
  const before = server.requests.length;
  server.enqueue(textReply("openai", "All done."));
  const result = await runHey(["--config", file, "-m", "gw/m", "-p", "go"], { cwd: work.path });
  expect(result.code).toBe(1);
  expect(server.requests.length - before).toBe(1);
  expect(result.stderr).toContain(`set protocol = "openai" in [provider.gw] in ${file}`);
});
