// What an embedded agent (src/lib.ts) keeps from its model, as the CLI does: the API key its
// provider was made with and the program's own secrets never reach a request, an event or the
// session file, and the model's commands do not get a variable holding one.
import { afterAll, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createAgent, createProvider, createSessionWriter, type AgentEvent } from "../src/lib.ts";
import { tempDir } from "./helpers/e2e.ts";
import { startModelServer } from "./helpers/model-server.ts";

const dir = tempDir("hey-embed-secrets-");
const KEY = "hk-embed-test-3f9a8b7c6d5e4f3a2b1c";
const TOKEN = "slack-token-for-the-embed-test-0042";
const GITHUB = `ghp_${"a1B2c3D4e5".repeat(3)}abcdef`; // shaped like a GitHub token: hidden though nobody named it
process.env.HEY_EMBED_TEST_KEY = KEY;
afterAll(() => {
  delete process.env.HEY_EMBED_TEST_KEY;
  dir.remove();
});

test("the provider's API key and the program's secrets reach no request, event or session line; commands lack the key's variable", async () => {
  writeFileSync(join(dir.path, "config.txt"), `token=${TOKEN}\nkey=${KEY}\ngithub=${GITHUB}\nencoded=${btoa(KEY)}\n`);
  const model = startModelServer((req) =>
    req.messages.some((m) => m.role === "tool")
      ? { text: "done" }
      : {
          calls: [
            ["bash", { command: 'echo "var=[$HEY_EMBED_TEST_KEY]"' }],
            ["read_file", { path: "config.txt" }],
          ],
        },
  );
  try {
    const provider = await createProvider({ protocol: "openai", baseUrl: model.baseUrl, model: "m", apiKey: KEY });
    const events: AgentEvent[] = [];
    const session = createSessionWriter({ dir: join(dir.path, "sessions"), id: "s", cwd: dir.path, version: "test", warn: () => {} });
    const agent = createAgent({
      provider,
      cwd: dir.path,
      secrets: [TOKEN],
      output: { emit: (e) => (events.push(e), session.emit(e)) },
    });
    expect((await agent.send("read the config", new AbortController().signal)).stop).toBe("end");
    session.close();

    const sent = JSON.stringify(model.requests.at(-1));
    expect(sent).toContain("var=[]"); // the variable is not there at all
    expect(sent).toContain("token=[redacted]");
    expect(sent).toContain("key=[redacted]");
    expect(sent).toMatch(/github=\[secret: [^\]]+\]/);
    for (const seen of [sent, JSON.stringify(events), readFileSync(session.path, "utf8"), JSON.stringify(agent.messages)]) {
      expect(seen).not.toContain(KEY);
      expect(seen).not.toContain(TOKEN);
      expect(seen).not.toContain(GITHUB);
      expect(seen).not.toContain(btoa(KEY).slice(4, -4)); // its base64 spelling too
    }
  } finally {
    model.stop();
  }
});

test("read_file from an offset inside a private key shows the key hidden whole, and the placeholder is not written back over it", async () => {
  const body = Array.from({ length: 10 }, (_, i) => `RW1iZWQ${i}`.padEnd(64, "y")); // a fake key's lines
  const key = `-----BEGIN PRIVATE KEY-----\n${body.join("\n")}\n-----END PRIVATE KEY-----\n`;
  writeFileSync(join(dir.path, "embed.key"), key);
  const model = startModelServer((req) =>
    req.messages.some((m) => m.role === "tool")
      ? { text: "done" }
      : {
          calls: [
            ["read_file", { path: "embed.key", offset: 3, limit: 2 }],
            ["write_file", { path: "embed.key", content: "[secret: private-key]\n" }],
          ],
        },
  );
  try {
    const provider = await createProvider({ protocol: "openai", baseUrl: model.baseUrl, model: "m", apiKey: KEY });
    const agent = createAgent({ provider, cwd: dir.path });
    await agent.send("look at the key", new AbortController().signal);
    const results = model.requests.at(-1)!.messages.filter((m) => m.role === "tool");
    expect(JSON.stringify(results[0])).toContain("1\\t[secret: private-key]");
    expect(JSON.stringify(model.requests)).not.toContain(body[2]!);
    expect(readFileSync(join(dir.path, "embed.key"), "utf8")).toBe(key);
  } finally {
    model.stop();
  }
});

test("a run's result carries no key: send()'s error and a stream's result item are redacted as the error event is", async () => {
  // as OpenAI's "Incorrect API key provided: sk-…": a 400 that quotes the Authorization header it got
  const echo = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: (req) =>
      Response.json({ error: { message: `Incorrect API key provided: ${req.headers.get("authorization")}`, type: "invalid_request_error" } }, { status: 400 }),
  });
  try {
    const provider = await createProvider({ protocol: "openai", baseUrl: `http://127.0.0.1:${echo.port}/v1`, model: "m", apiKey: KEY });
    const events: AgentEvent[] = [];
    const agent = createAgent({ provider, cwd: dir.path, output: { emit: (e) => void events.push(e) } });
    const sent = await agent.send("hi", new AbortController().signal);
    const items = [];
    for await (const item of agent.stream("again")) items.push(item);
    const streamed = items.at(-1);
    expect(sent.error?.message).toContain("Incorrect API key provided: Bearer [redacted]");
    expect(streamed).toMatchObject({ type: "result", result: { stop: "error", error: { message: expect.stringContaining("Bearer [redacted]") } } });
    for (const seen of [sent, streamed, events, items]) expect(JSON.stringify(seen)).not.toContain(KEY);
  } finally {
    echo.stop(true);
  }
});

test("secrets under 8 characters, which redaction would not look for, are refused at once, each named; an empty one is nothing to hide", async () => {
  const provider = await createProvider({ protocol: "openai", baseUrl: "http://127.0.0.1:9/v1", model: "m" });
  expect(() => createAgent({ provider, cwd: dir.path, secrets: ["hunter2", "pw-9f3K2", "abc", ""] })).toThrow(
    "createAgent: secrets[0] (7 characters), secrets[2] (3 characters) are shorter than 8 characters, which hey does not hide",
  );
  expect(() => createAgent({ provider, cwd: dir.path, secrets: ["pw-9f3K2", ""] })).not.toThrow();
});
