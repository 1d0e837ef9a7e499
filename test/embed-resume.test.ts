// Continuing a saved conversation from a program (src/lib.ts): resumeSession opens a session file
// another run wrote, createAgent's `resume` goes on with it as `hey -c` does (summaries in place of
// what they cover, calls a crash left open closed), and a writer appends the new turns to the file.
import { afterAll, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createAgent, createProvider, createSessionWriter, resumeSession, textOf as textOfMessage, userMessage, type Message } from "../src/lib.ts";
import { NO_RESULT } from "../src/kernel/tool-calls.ts";
import { tempDir } from "./helpers/e2e.ts";
import { startModelServer, textOf } from "./helpers/model-server.ts";
import { chatChunk, sse } from "./helpers/sse.ts";

const dir = tempDir("hey-embed-resume-");
afterAll(() => dir.remove());
const sessions = join(dir.path, "sessions");
const writer = (id: string, existing = false) =>
  createSessionWriter({ dir: sessions, id, cwd: dir.path, version: "test", warn: (m) => console.error(m), existing });

test("a conversation saved by one agent goes on in another: the summary stands in for what it covers, the new turns are appended", async () => {
  const model = startModelServer((req) => ({ text: `heard ${req.messages.filter((m) => m.role === "user").length}` }));
  try {
    const provider = await createProvider({ protocol: "openai", baseUrl: model.baseUrl, model: "m" });
    const first = writer("conv");
    const agent = createAgent({ provider, cwd: dir.path, tools: [], output: first });
    for (const said of ["my name is Ana", "I like green tea", "and I live in Porto"]) await agent.send(said, new AbortController().signal);
    const [, from, , to] = agent.messages; // the first answer .. the second
    // what the agent's compaction emits when it summarizes a stretch
    first.emit({ type: "compaction", kind: "summary", from_id: from!.id, to_id: to!.id, summary: "Ana likes green tea.", tokens_before: 90, tokens_after: 20 });
    first.close();

    const loaded = resumeSession(first.path, dir.path);
    const second = writer(loaded.header.id, true);
    const again = createAgent({ provider, cwd: dir.path, tools: [], output: second, resume: loaded });
    expect((await again.send("what do I drink?", new AbortController().signal)).stop).toBe("end");
    second.close();

    const sent = model.requests.at(-1)!.messages.map(textOf);
    expect(sent).toContain("[summary of earlier work]\nAna likes green tea.");
    expect(sent).not.toContain("I like green tea");
    expect(sent.slice(1, 2)).toEqual(["my name is Ana"]); // the first message stays
    expect(sent.at(-1)).toStartWith("what do I drink?");
    const file = readFileSync(first.path, "utf8");
    expect(file.match(/"type":"header"/g)).toHaveLength(1);
    expect(file.indexOf("what do I drink?")).toBeGreaterThan(file.indexOf("Ana likes green tea."));
    expect(textOfMessage(resumeSession(first.path, dir.path).messages.at(-1)!)).toBe(textOfMessage(again.messages.at(-1)!));
  } finally {
    model.stop();
  }
});

test("a call a crash left without its result is closed for the model and in the file", async () => {
  const model = startModelServer(() => ({ text: "ok" }));
  try {
    const provider = await createProvider({ protocol: "openai", baseUrl: model.baseUrl, model: "m" });
    const crashed = writer("crashed");
    const open: Message = { id: "a1", role: "assistant", content: [], toolCalls: [{ id: "call_9", name: "bash", arguments: '{"command":"make"}' }] };
    for (const message of [userMessage("build it"), open]) crashed.emit({ type: "message", message });
    crashed.close();

    const loaded = resumeSession(crashed.path, dir.path);
    const resumed = writer(loaded.header.id, true);
    await createAgent({ provider, cwd: dir.path, tools: [], output: resumed, resume: loaded }).send("go on", new AbortController().signal);
    resumed.close();

    const result = model.requests[0]!.messages.find((m) => m.role === "tool");
    expect(result?.tool_call_id).toBe("call_9");
    expect(textOf(result)).toContain(NO_RESULT);
    const lines = readFileSync(crashed.path, "utf8").trim().split("\n");
    expect(lines.findIndex((l) => l.includes(NO_RESULT))).toBeLessThan(lines.findIndex((l) => l.includes("go on")));
  } finally {
    model.stop();
  }
});

test("a context window a context-length error taught is kept with the session: the resumed agent's first request fits it", async () => {
  const WINDOW = 2_500; // tokens, at 4 bytes each: room for the system prompt, the tools and a few messages
  const statuses: number[] = [];
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      const tokens = Math.ceil((await req.text()).length / 4);
      statuses.push(tokens > WINDOW ? 400 : 200);
      if (tokens > WINDOW)
        return Response.json(
          {
            error: {
              message: `This model's maximum context length is ${WINDOW} tokens. However, your messages resulted in ${tokens} tokens.`,
              code: "context_length_exceeded",
            },
          },
          { status: 400 },
        );
      const chunks = [
        chatChunk({ content: "ok" }),
        chatChunk({ finish: "stop" }),
        chatChunk({ usage: { prompt_tokens: tokens, completion_tokens: 1, total_tokens: tokens + 1 } }),
      ];
      return new Response(sse(chunks), { headers: { "content-type": "text/event-stream" } });
    },
  });
  try {
    const provider = await createProvider({ protocol: "openai", baseUrl: `http://127.0.0.1:${server.port}/v1`, model: "small" });
    const first = writer("window");
    const agent = createAgent({ provider, cwd: dir.path, output: first });
    for (let i = 0; statuses.every((s) => s === 200); i++) await agent.send(`note ${i}: ${"lorem ipsum ".repeat(150)}`, new AbortController().signal);
    first.close(); // it learned the window from the refused request and sent the request again within it

    const loaded = resumeSession(first.path, dir.path);
    expect(loaded.model).toEqual({ provider: "openai", model: "small", window: WINDOW });
    const before = statuses.length;
    const second = writer(loaded.header.id, true);
    const again = createAgent({ provider, cwd: dir.path, output: second, resume: loaded });
    expect((await again.send("and one more", new AbortController().signal)).stop).toBe("end");
    second.close();
    expect(statuses.slice(before)).not.toContain(400); // not refused first (a summary request may come before the answer)
    expect(statuses.length).toBeGreaterThan(before);
  } finally {
    server.stop(true);
  }
});

test("a run that got no answer (its server down) saves nothing, as hey's own: no session, and a resumed one gains no unanswered message", async () => {
  const down = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("") });
  const baseUrl = `http://127.0.0.1:${down.port}/v1`;
  down.stop(true); // nothing listens there now: the connection is refused
  const provider = await createProvider({ protocol: "openai", baseUrl, model: "m" });
  const lost = writer("never-answered");
  expect((await createAgent({ provider, cwd: dir.path, tools: [], output: lost }).send("hello?", new AbortController().signal)).stop).toBe("error");
  lost.close();
  expect(existsSync(lost.path)).toBe(false); // before: a session holding only "hello?"

  const model = startModelServer(() => ({ text: "answered" }));
  try {
    const answered = writer("answered-once");
    await createAgent({
      provider: await createProvider({ protocol: "openai", baseUrl: model.baseUrl, model: "m" }),
      cwd: dir.path,
      tools: [],
      output: answered,
    }).send("first", new AbortController().signal);
    answered.close();
    const before = readFileSync(answered.path, "utf8");
    const loaded = resumeSession(answered.path, dir.path);
    const again = writer(loaded.header.id, true);
    expect((await createAgent({ provider, cwd: dir.path, tools: [], output: again, resume: loaded }).send("lost", new AbortController().signal)).stop).toBe(
      "error",
    );
    again.close();
    expect(readFileSync(answered.path, "utf8")).toBe(before);
    expect(resumeSession(answered.path, dir.path).messages.map((m) => m.role)).toEqual(["user", "assistant"]); // not user, assistant, user
  } finally {
    model.stop();
  }
});
