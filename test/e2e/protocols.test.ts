// dist/hey through a two-tool-call task with each of the four protocols (SPEC §4, §5), checked
// through --output json; the replay server refuses any request whose tool calls are not each
// answered exactly once.
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Protocol } from "../../src/kernel/ir.ts";
import { jsonEvents, runHey } from "../helpers/e2e.ts";
import { baseUrlFor, callsAtIndexZero, textReply, toolCallsReply } from "../helpers/protocol-streams.ts";

import { fileReplayServer, fileTempDir } from "../helpers/fixtures.ts";

const server = fileReplayServer();
const work = fileTempDir();
writeFileSync(join(work.path, "notes.txt"), "the answer is 42\n");

const PATHS: Record<Protocol, RegExp> = {
  openai: /^\/v1\/chat\/completions$/,
  responses: /^\/v1\/responses$/,
  anthropic: /^\/v1\/messages$/,
  google: /^\/v1beta\/models\/some-model:streamGenerateContent\?alt=sse$/,
};

describe.each(["openai", "responses", "anthropic", "google"] as const)("%s", (protocol) => {
  test("two tool calls in parallel, their results sent back, then the answer", async () => {
    const start = server.requests.length;
    server.enqueue(
      toolCallsReply(protocol, [
        { id: "call_a1", name: "read_file", args: { path: "notes.txt" } },
        { id: "call_b2", name: "bash", args: { command: "echo from-bash" } },
      ]),
      textReply(protocol, "The notes say 42."),
    );
    const run = await runHey(
      [
        "--base-url",
        baseUrlFor(protocol, server.url),
        "--protocol",
        protocol,
        "--api-key",
        "k-123",
        "-m",
        "some-model",
        "-p",
        "what do the notes say?",
        "--output",
        "json",
      ],
      { cwd: work.path },
    );
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const events = jsonEvents(run.stdout);
    expect(events.map((e) => e.type)).toEqual([
      "session",
      "turn_start",
      "usage",
      "tool_call",
      "tool_call",
      "tool_result",
      "tool_result",
      "turn_start",
      "text_delta",
      "usage",
      "result",
      "done",
    ]);
    const results = events.filter((e) => e.type === "tool_result");
    expect(results.map((r) => [r.name, r.ok])).toEqual([
      ["read_file", true],
      ["bash", true],
    ]);
    expect(String(results[0]!.output)).toContain("the answer is 42");
    expect(String(results[1]!.output)).toContain("from-bash");
    expect(events.at(-1)).toMatchObject({ type: "done", stop_reason: "end", turns: 2 });

    const requests = server.requests.slice(start);
    expect(requests).toHaveLength(2);
    for (const r of requests) expect(r.path).toMatch(PATHS[protocol]);
    const second = JSON.stringify(requests[1]!.body);
    expect(second).toContain("the answer is 42"); // the read_file result went back
    expect(second).toContain("from-bash");
    expect(server.violations).toEqual([]);
  });
});

test("Ollama's parallel calls, each whole at index 0: both run, each with its own arguments, and both results go back", async () => {
  const start = server.requests.length;
  server.enqueue(
    callsAtIndexZero([
      { id: "call_r1", name: "read_file", args: { path: "notes.txt" } },
      { id: "call_r2", name: "bash", args: { command: "echo from-bash" } },
    ]),
    textReply("openai", "The notes say 42."),
  );
  const run = await runHey(["--base-url", baseUrlFor("openai", server.url), "-m", "qwen3", "-p", "what do the notes say?", "--output", "json"], {
    cwd: work.path,
  });
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  const results = jsonEvents(run.stdout).filter((e) => e.type === "tool_result");
  expect(results.map((r) => [r.name, r.ok])).toEqual([
    ["read_file", true],
    ["bash", true],
  ]);
  expect(String(results[0]!.output)).toContain("the answer is 42");
  expect(String(results[1]!.output)).toContain("from-bash");
  const second = server.requests.slice(start)[1]!.body as { messages: { role: string; tool_call_id?: string }[] };
  expect(second.messages.filter((m) => m.role === "tool").map((m) => m.tool_call_id)).toEqual(["call_r1", "call_r2"]);
  expect(server.violations).toEqual([]);
});
