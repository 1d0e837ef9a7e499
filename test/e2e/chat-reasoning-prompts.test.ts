// A chat-completions or Gemini reasoning model's tool-call turns go back with their reasoning on
// every later prompt too, as they went within their turn: three prompts, `hey -p` then `hey -c -p`
// twice, through dist/hey against a loopback server whose every answer starts with reasoning
// (`reasoning_content`; a thought part). Each request is the previous one plus its new tail, byte
// for byte — before, the first request of each new prompt sent the previous turn's tool-call
// message without its reasoning, and the cached prefix ended there: the whole turn, its tool
// results, billed again at every prompt.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey } from "../helpers/e2e.ts";
import { fileReplayServer, fileTempDir, writeUserConfig } from "../helpers/fixtures.ts";
import { sseReply, type Reply } from "../helpers/replay-server.ts";
import { chatChunk, sse } from "../helpers/sse.ts";

setDefaultTimeout(120_000); // the first test may build dist/hey

const server = fileReplayServer();

type Step = { call?: string; n: number };

/** Answer `n`: its reasoning, then a read_file call of `call` or the text "done". */
const replies: Record<"openai" | "google", (step: Step) => Reply> = {
  openai: ({ call, n }) =>
    sseReply(
      sse([
        chatChunk({ reasoning: `thought ${n}` }),
        call
          ? chatChunk({ toolCall: { index: 0, id: `call_${n}`, name: "read_file", arguments: JSON.stringify({ path: call }) } })
          : chatChunk({ content: "done" }),
        chatChunk({ finish: call ? "tool_calls" : "stop" }),
        chatChunk({ usage: { prompt_tokens: 900, completion_tokens: 20, total_tokens: 920 } }),
      ]),
    ),
  google: ({ call, n }) => {
    const then = call ? { functionCall: { name: "read_file", args: { path: call } }, thoughtSignature: `c2ln${n}` } : { text: "done" };
    const parts = [{ text: `thought ${n}`, thought: true }, then];
    const usageMetadata = { promptTokenCount: 900, candidatesTokenCount: 20, totalTokenCount: 920 };
    return sseReply(`data: ${JSON.stringify({ candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }], usageMetadata })}\r\n\r\n`);
  },
};

/** The conversation a request sends, in the order the provider caches it (after tools and system prompt, which stay the same). */
const conversationOf = (protocol: "openai" | "google", i: number) =>
  (server.requests[i]!.body as Record<string, unknown[]>)[protocol === "openai" ? "messages" : "contents"]!;

describe.each(["openai", "google"] as const)("%s", (protocol) => {
  const home = fileTempDir(`hey-chat-reasoning-${protocol}-`);

  test("over three prompts (-p, then -c -p twice) each request extends the one before: earlier tool-call turns keep their reasoning", async () => {
    const base = `${server.url}/${protocol === "openai" ? "v1" : "v1beta"}`;
    writeUserConfig(
      home.path,
      `[default]\nprovider = "m"\nmodel = "model-a"\n[provider.m]\nprotocol = "${protocol}"\nbase_url = "${base}"\napi_key = "k"\nmodels = ["model-a"]\n`,
    );
    const cwd = realpathSync(home.path);
    for (const name of ["a.txt", "b.txt"]) writeFileSync(join(cwd, name), `${name}: ${"some words\n".repeat(200)}`);
    const hey = (args: string[]) => runHey(args, { cwd, env: { HOME: home.path } });
    const first = server.requests.length;
    const reply = replies[protocol];

    server.enqueue(reply({ call: "a.txt", n: 1 }), reply({ n: 2 }));
    expect((await hey(["-p", "read a.txt"])).code).toBe(0);
    server.enqueue(reply({ call: "b.txt", n: 3 }), reply({ n: 4 }));
    expect((await hey(["-c", "-p", "now b.txt"])).code).toBe(0);
    server.enqueue(reply({ n: 5 }));
    expect((await hey(["-c", "-p", "thanks"])).code).toBe(0);

    expect(server.requests.length - first).toBe(5);
    for (let i = first + 1; i < server.requests.length; i++) {
      const before = JSON.stringify(conversationOf(protocol, i - 1)).slice(0, -1); // without the closing bracket
      expect(JSON.stringify(conversationOf(protocol, i))).toStartWith(before);
    }
    // the tool-call turns' reasoning went out with their results and is still there; the final answers' never went out
    const last = JSON.stringify(conversationOf(protocol, server.requests.length - 1));
    for (const sent of ["thought 1", "thought 3"]) expect(last).toContain(sent);
    for (const unsent of ["thought 2", "thought 4"]) expect(last).not.toContain(unsent);
    expect(server.violations).toEqual([]);
  });
});
