// A tool call sent with an empty id (`tool_use.id: ""` on Anthropic, `call_id: ""` on Responses:
// free and local endpoints do): dist/hey runs it, gives it an id of its own, and every later request
// sends the call with its real result — not "interrupted", which made models run commands with side
// effects again. A session saved before, holding `toolCallId: ""`, pairs the result with its call on -c.
import { expect, test } from "bun:test";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { NO_RESULT } from "../../src/kernel/tool-calls.ts";
import { runHey } from "../helpers/e2e.ts";
import { fileReplayServer, fileTempDir } from "../helpers/fixtures.ts";
import { baseUrlFor, textReply, toolCallsReply } from "../helpers/protocol-streams.ts";

const server = fileReplayServer();

/** The text of the result the last request sent for the call that ran `echo 1`, and the call's id in it. */
function sentPair(protocol: "anthropic" | "responses"): { callId: string; resultId: string; result: string } {
  const body = server.requests.at(-1)!.body as Record<string, unknown>;
  if (protocol === "anthropic") {
    const messages = body.messages as { content: string | { type: string; id?: string; tool_use_id?: string; content?: unknown }[] }[];
    const blocks = messages.flatMap((m) => (typeof m.content === "string" ? [] : m.content));
    const call = blocks.find((b) => b.type === "tool_use")!;
    const result = blocks.find((b) => b.type === "tool_result")!;
    const text = typeof result.content === "string" ? result.content : JSON.stringify(result.content);
    return { callId: call.id!, resultId: result.tool_use_id!, result: text };
  }
  const input = body.input as { type?: string; call_id?: string; output?: string }[];
  const call = input.find((i) => i.type === "function_call")!;
  const result = input.find((i) => i.type === "function_call_output")!;
  return { callId: call.call_id!, resultId: result.call_id!, result: result.output! };
}

for (const protocol of ["anthropic", "responses"] as const) {
  test(`${protocol}: a call with an empty id runs, and the next request sends its real result paired with it`, async () => {
    const work = fileTempDir("hey-ids-");
    const state = fileTempDir("hey-ids-state-");
    const hey = (args: string[]) =>
      runHey(["--base-url", baseUrlFor(protocol, server.url), "--protocol", protocol, "-m", "m", ...args], {
        cwd: work.path,
        env: { XDG_STATE_HOME: state.path },
      });
    server.enqueue(toolCallsReply(protocol, [{ id: "", name: "bash", args: { command: "echo 1" } }]), textReply(protocol, "It printed 1."));
    const run = await hey(["-p", "run echo 1"]);
    expect(run.code).toBe(0);
    const sent = sentPair(protocol);
    expect(sent.callId).not.toBe("");
    expect(sent.resultId).toBe(sent.callId);
    expect(sent.result).toContain("1");
    expect(sent.result).not.toContain(NO_RESULT);

    // a session saved by an older hey holds the empty id on the call and on its result: -c pairs them
    const dir = join(state.path, "hey");
    const file = readdirSync(dir, { recursive: true, encoding: "utf8" }).find((f) => f.endsWith(".jsonl"))!;
    const path = join(dir, file);
    writeFileSync(path, readFileSync(path, "utf8").replaceAll(sent.callId, ""));
    expect(readFileSync(path, "utf8")).toContain('"toolCallId":""');
    server.enqueue(textReply(protocol, "Still 1."));
    const resumed = await hey(["-c", "-p", "and now?"]);
    expect(resumed.code).toBe(0);
    const again = sentPair(protocol);
    expect(again.resultId).toBe(again.callId);
    expect(again.result).toContain("1");
    expect(again.result).not.toContain(NO_RESULT);
  });
}
