// Anthropic stop_reason "pause_turn": the server paused a long turn of its own tools (web search …)
// and the turn is continued by sending the paused response back as it came, as the last assistant
// turn (platform.claude.com/docs/en/build-with-claude/handling-stop-reasons#pause-turn). dist/hey
// continues it, a bounded number of times, and the answer is the whole turn's.
import { expect, test } from "bun:test";
import { MAX_CONTINUATIONS, pausedTooOften } from "../../src/providers/anthropic-pause.ts";
import { jsonEvents, runHey } from "../helpers/e2e.ts";
import { fileReplayServer, fileTempDir } from "../helpers/fixtures.ts";
import { textReply } from "../helpers/protocol-streams.ts";
import { sseReply } from "../helpers/replay-server.ts";

const server = fileReplayServer();
const work = fileTempDir("hey-pause-");

const event = (type: string, data: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;

// Hand-made in the shape of the recorded test/fixtures/wire/anthropic/text-then-tool-use.sse: text,
// then a server_tool_use block whose input streams as input_json_delta, then stop_reason "pause_turn"
// (no recording of one exists), with the container the server ran it in.
const pausedReply = (n: number) =>
  sseReply(
    [
      event("message_start", {
        message: {
          id: `msg_${n}`,
          type: "message",
          role: "assistant",
          model: "m",
          content: [],
          stop_reason: null,
          container: { id: "container_1", expires_at: "2026-12-05T10:00:00Z" },
          usage: { input_tokens: 100, output_tokens: 1 },
        },
      }),
      event("content_block_start", { index: 0, content_block: { type: "text", text: "", citations: null } }),
      event("content_block_delta", { index: 0, delta: { type: "text_delta", text: `Searching ${n}. ` } }),
      event("content_block_stop", { index: 0 }),
      event("content_block_start", { index: 1, content_block: { type: "server_tool_use", id: `srvtoolu_${n}`, name: "web_search", input: {} } }),
      event("content_block_delta", { index: 1, delta: { type: "input_json_delta", partial_json: '{"query": "bun' } }),
      event("content_block_delta", { index: 1, delta: { type: "input_json_delta", partial_json: ` release ${n}"}` } }),
      event("content_block_stop", { index: 1 }),
      event("message_delta", { delta: { stop_reason: "pause_turn", stop_sequence: null }, usage: { output_tokens: 20 } }),
      event("message_stop", {}),
    ].join(""),
  );

const run = () =>
  runHey(["--base-url", `${server.url}/v1`, "--protocol", "anthropic", "-m", "m", "--output", "json", "-p", "what is new in bun"], { cwd: work.path });

type Body = { messages: { role: string; content: string | Record<string, unknown>[] }[]; container?: string };

test("a paused turn is continued with the paused content sent back as it came, and the answer is the whole turn's (before: it ended at the pause)", async () => {
  const before = server.requests.length;
  server.enqueue(pausedReply(1), textReply("anthropic", "Bun 2 is out."));
  const result = await run();
  expect(result.code).toBe(0);
  expect(server.requests.length - before).toBe(2);

  const first = server.requests.at(-2)!.body as Body;
  const second = server.requests.at(-1)!.body as Body;
  expect(second.messages.slice(0, -1)).toEqual(first.messages); // the same conversation, then the paused turn
  expect(second.messages.at(-1)).toEqual({
    role: "assistant",
    content: [
      { type: "text", text: "Searching 1. ", citations: null },
      { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: { query: "bun release 1" } },
    ],
  });
  expect(second.container).toBe("container_1");

  const events = jsonEvents(result.stdout);
  const text = events.filter((e) => e.type === "text_delta").map((e) => e.text);
  expect(text.join("")).toBe("Searching 1. Bun 2 is out.");
  expect(events.at(-1)).toMatchObject({ type: "done", stop_reason: "end", turns: 1 });
  // each request is billed: the turn's usage is both
  expect(events.filter((e) => e.type === "usage")).toMatchObject([{ input_tokens: 100 + 90 }]);
});

test(`a server that pauses on and on is continued ${MAX_CONTINUATIONS} times, then the run ends with what it said, and says why`, async () => {
  const before = server.requests.length;
  server.enqueue(...Array.from({ length: MAX_CONTINUATIONS + 1 }, (_, i) => pausedReply(i + 1)));
  const result = await run();
  expect(server.requests.length - before).toBe(MAX_CONTINUATIONS + 1);
  const last = (server.requests.at(-1)!.body as Body).messages.at(-1)!;
  expect(last.role).toBe("assistant");
  expect((last.content as unknown[]).length).toBe(2 * MAX_CONTINUATIONS); // every paused response, in order
  const events = jsonEvents(result.stdout);
  expect(events.filter((e) => e.type === "text_delta").map((e) => e.text)).toHaveLength(MAX_CONTINUATIONS + 1);
  // an answer that may be unfinished is no finished one: a script is told so by the exit code
  expect(events.filter((e) => e.type === "error")).toEqual([
    { type: "error", kind: "unknown_stop", message: `the model stopped for ${pausedTooOften(MAX_CONTINUATIONS + 1)}; its answer may be incomplete` },
  ]);
  expect(pausedTooOften(2)).toBe('"pause_turn" 2 times (hey stopped asking the server to go on)');
  expect(events.at(-1)).toMatchObject({ type: "done", stop_reason: "error", turns: 1 });
  expect(result.code).toBe(1);
});

/** A finished answer of text blocks, the request read as `input` tokens (the server tool's results of a continued turn count there). */
const answerReply = (texts: string[], input: number) =>
  sseReply(
    [
      event("message_start", {
        message: {
          id: "msg_end",
          type: "message",
          role: "assistant",
          model: "m",
          content: [],
          stop_reason: null,
          usage: { input_tokens: input, output_tokens: 1 },
        },
      }),
      ...texts.flatMap((text, index) => [
        event("content_block_start", { index, content_block: { type: "text", text: "", citations: null } }),
        event("content_block_delta", { index, delta: { type: "text_delta", text } }),
        event("content_block_stop", { index }),
      ]),
      event("message_delta", { delta: { stop_reason: "end_turn", stop_sequence: null }, usage: { output_tokens: 10 } }),
      event("message_stop", {}),
    ].join(""),
  );

test("a continued turn corrects the context estimate by the request hey built, not by every continuation's input summed (before: /usage after one continued search showed the context 4 times as full, and pruning came that much sooner)", async () => {
  const state = `${work.path}/state`;
  const hey = async (dir: string, args: string[]) => {
    await Bun.write(`${work.path}/${dir}/.keep`, "");
    return runHey(["--base-url", `${server.url}/v1`, "--protocol", "anthropic", "-m", "m", ...args], {
      cwd: `${work.path}/${dir}`,
      env: { XDG_STATE_HOME: state },
    });
  };
  const contextLine = (stdout: string) => /^context: .*$/m.exec(stdout)?.[0];
  // the same words in one answer, read as 100 tokens (in a directory named as long as the other's: the path is in the prompt)
  server.enqueue(answerReply(["Searching 1. ", "Bun 2 is out."], 100));
  expect((await hey("single", ["-p", "what is new in bun"])).code).toBe(0);
  // paused after reading the same 100 tokens, then continued: the continuation reads the search results too
  server.enqueue(pausedReply(1), answerReply(["Bun 2 is out."], 6000));
  expect((await hey("paused", ["-p", "what is new in bun"])).code).toBe(0);

  const whole = contextLine((await hey("single", ["-c", "-p", "/usage"])).stdout);
  const paused = contextLine((await hey("paused", ["-c", "-p", "/usage"])).stdout);
  expect(whole).toMatch(/^context: ~\d+/);
  expect(paused).toBe(whole!);
});
