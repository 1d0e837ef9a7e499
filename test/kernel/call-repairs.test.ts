// The loop with calls as open-weight models make them: another agent's tool name, arguments with a
// slip. The call runs as hey's tool with the object meant, permission judges it under hey's name,
// and later requests show the model the call that ran (never `{}` for arguments that did run).
import { expect, test } from "bun:test";
import { runLoop } from "../../src/kernel/loop.ts";
import { textOf, userMessage } from "../../src/kernel/ir.ts";
import type { Tool } from "../../src/kernel/tool.ts";
import { fakeProvider } from "../helpers/fake-provider.ts";
import { loopDeps } from "../helpers/loop-deps.ts";

const ran: Record<string, unknown>[] = [];
const tool = (name: string, properties: Record<string, unknown>): Tool => ({
  name,
  description: name,
  parameters: { type: "object", properties, required: Object.keys(properties) },
  run: async (args) => {
    ran.push({ name, ...args });
    return { output: `${name} ran` };
  },
});
const tools = [tool("bash", { command: { type: "string" } }), tool("read_file", { path: { type: "string" } })];

test("Bash, functions.bash and readFile run as bash and read_file, and the history keeps hey's names", async () => {
  ran.length = 0;
  const provider = fakeProvider([
    { toolCalls: [{ id: "c1", name: "Bash", arguments: { command: "ls" } }] },
    { toolCalls: [{ id: "c2", name: "functions.bash", arguments: { command: "pwd" } }] },
    { toolCalls: [{ id: "c3", name: "readFile", arguments: { file_path: "a.txt" } }] },
    { text: "Done." },
  ]);
  const deps = loopDeps(provider, { tools });
  const result = await runLoop([userMessage("go")], deps);
  expect(result.stop).toBe("end");
  expect(ran).toEqual([
    { name: "bash", command: "ls" },
    { name: "bash", command: "pwd" },
    { name: "read_file", path: "a.txt" },
  ]);
  expect(deps.output.of("tool_call").map((e) => e.name)).toEqual(["bash", "bash", "read_file"]);
  const last = provider.requests.at(-1)!.messages;
  expect(last.flatMap((m) => m.toolCalls ?? []).map((c) => c.name)).toEqual(["bash", "bash", "read_file"]);
});

test("a deny on bash holds for Bash and shell: permission judges the call under hey's name", async () => {
  ran.length = 0;
  const judged: string[] = [];
  const provider = fakeProvider([
    { toolCalls: [{ id: "c1", name: "shell", arguments: { command: "rm -rf build" } }] },
    { toolCalls: [{ id: "c2", name: "Bash", arguments: { command: "rm -rf build" } }] },
    { text: "Refused." },
  ]);
  const permission = (name: string) => (judged.push(name), name === "bash" ? "blocked by permission rules: bash" : undefined);
  const deps = loopDeps(provider, { tools, permission });
  await runLoop([userMessage("go")], deps);
  expect(ran).toEqual([]);
  expect(judged).toEqual(["bash", "bash"]);
  expect(deps.output.of("tool_result").map((e) => e.output)).toEqual(["blocked by permission rules: bash", "blocked by permission rules: bash"]);
});

test("an unknown name close to a tool's: did you mean", async () => {
  const provider = fakeProvider([{ toolCalls: [{ id: "c1", name: "read_files", arguments: { path: "a.txt" } }] }, { text: "ok" }]);
  const deps = loopDeps(provider, { tools });
  await runLoop([userMessage("go")], deps);
  expect(deps.output.of("tool_result")[0]!.output).toBe('unknown tool "read_files"; did you mean read_file? Available: bash, read_file');
});

test("arguments with a slip run as the object meant, and the next request shows that object, not {}", async () => {
  ran.length = 0;
  const provider = fakeProvider([
    { toolCalls: [{ id: "c1", name: "read_file", arguments: "{'path': 'a.txt'}" }] },
    { toolCalls: [{ id: "c2", name: "read_file", arguments: '```json\n{"path": "b.txt",}\n```' }] },
    { text: "Done." },
  ]);
  const deps = loopDeps(provider, { tools });
  await runLoop([userMessage("go")], deps);
  expect(ran).toEqual([
    { name: "read_file", path: "a.txt" },
    { name: "read_file", path: "b.txt" },
  ]);
  expect(deps.output.of("tool_result").map((e) => e.ok)).toEqual([true, true]);
  const calls = provider.requests.at(-1)!.messages.flatMap((m) => m.toolCalls ?? []);
  expect(calls.map((c) => c.arguments)).toEqual(['{"path":"a.txt"}', '{"path":"b.txt"}']);
});

test("arguments that are no object even so: nothing runs, the error says why and quotes them (the call goes back as {})", async () => {
  ran.length = 0;
  const provider = fakeProvider([{ toolCalls: [{ id: "c1", name: "read_file", arguments: '{"path": "a.txt"}{"path": "b.txt"}' }] }, { text: "ok" }]);
  const deps = loopDeps(provider, { tools });
  await runLoop([userMessage("go")], deps);
  expect(ran).toEqual([]);
  const sent = provider.requests.at(-1)!.messages;
  expect(sent.flatMap((m) => m.toolCalls ?? [])[0]!.arguments).toBe("{}");
  expect(textOf(sent.at(-1)!)).toBe(
    'invalid arguments for read_file: 2 different JSON values one after another, not one object. Nothing ran. The arguments as you sent them: "{\\"path\\": \\"a.txt\\"}{\\"path\\": \\"b.txt\\"}". Send them again as one JSON object.',
  );
});
