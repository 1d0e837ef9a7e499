// `--output json` lists the calls the permission rules refused on `result` and `done`
// (`permission_denials`, docs/json-events.md), so a script needs no parsing of tool results.
import { expect, test } from "bun:test";
import type { AgentEvent } from "../../src/kernel/output.ts";
import { createJsonOutput } from "../../src/ui/json.ts";

const usage = { input_tokens: 1, output_tokens: 1, cache_read_tokens: 0, cache_write_tokens: 0, reasoning_tokens: 0, cache_hit_share: 0 };

function lines(events: AgentEvent[]): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const json = createJsonOutput((line) => out.push(JSON.parse(line)));
  for (const e of events) json.emit(e);
  return out;
}

test("refused calls are listed on result and done with the command or path and the rules' reason", () => {
  const out = lines([
    { type: "tool_call", id: "c1", name: "bash", arguments: '{"command":"rm -rf build"}' },
    { type: "tool_call", id: "c2", name: "write_file", arguments: '{"path":"a.txt","content":"x"}' },
    { type: "tool_call", id: "c3", name: "bash", arguments: '{"command":"false"}' },
    {
      type: "tool_result",
      id: "c1",
      name: "bash",
      ok: false,
      output: "blocked by permission rules: `rm -rf build` matches no allow entry",
      refused: "permission",
    },
    { type: "tool_result", id: "c2", name: "write_file", ok: false, output: "blocked by permission rules: tool `write_file` is denied", refused: "permission" },
    { type: "tool_result", id: "c3", name: "bash", ok: false, output: "exit 1" },
    { type: "done", stop_reason: "end", turns: 2, usage },
  ]);
  const denials = [
    { id: "c1", name: "bash", input: "rm -rf build", reason: "`rm -rf build` matches no allow entry" },
    { id: "c2", name: "write_file", input: "a.txt", reason: "tool `write_file` is denied" },
  ];
  expect(out.at(-2)).toMatchObject({ type: "result", permission_denials: denials });
  expect(out.at(-1)).toEqual({ type: "done", stop_reason: "end", turns: 2, usage, permission_denials: denials });
  expect(out.find((l) => l.id === "c1" && l.type === "tool_result")).toMatchObject({ refused: "permission" });
});

test("a run with no refused call has no permission_denials", () => {
  const out = lines([
    { type: "tool_call", id: "c1", name: "bash", arguments: '{"command":"false"}' },
    { type: "tool_result", id: "c1", name: "bash", ok: false, output: "exit 1" },
    { type: "done", stop_reason: "end", turns: 2, usage },
  ]);
  expect(out.some((l) => "permission_denials" in l)).toBe(false);
});

test("a call plan mode refused is marked refused: plan and is no permission denial", () => {
  const out = lines([
    { type: "tool_call", id: "c1", name: "bash", arguments: '{"command":"touch x"}' },
    {
      type: "tool_result",
      id: "c1",
      name: "bash",
      ok: false,
      output: "blocked by plan mode: `touch x` may change things; this run is in plan mode (--plan): only reading and searching run",
      refused: "plan",
    },
    { type: "done", stop_reason: "end", turns: 2, usage },
  ]);
  expect(out.find((l) => l.type === "tool_result")).toMatchObject({ refused: "plan" });
  expect(out.some((l) => "permission_denials" in l)).toBe(false);
});
