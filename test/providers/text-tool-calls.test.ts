// Tool calls a model wrote as text (a server that does not parse them): which texts hold calls that
// run, which hold calls that cannot (the model is told), and which only show the syntax.
import { describe, expect, test } from "bun:test";
import type { ToolSpec } from "../../src/kernel/ir.ts";
import { textToolCalls } from "../../src/providers/text-tool-calls.ts";

const tool = (name: string, properties: Record<string, unknown> = {}): ToolSpec => ({ name, description: "", parameters: { type: "object", properties } });
const TOOLS = [tool("read_file", { path: { type: "string" }, limit: { type: "integer" } }), tool("bash", { command: { type: "string" } })];

describe("calls that run", () => {
  test.each([
    [
      "Hermes/Qwen, text before",
      'I will read the file.\n<tool_call>\n{"name": "read_file", "arguments": {"path": "a.txt"}}\n</tool_call>',
      "hermes",
      "I will read the file.",
      [["read_file", { path: "a.txt" }]],
    ],
    [
      "Hermes, two calls, arguments as a JSON string",
      '<tool_call>{"name":"bash","arguments":"{\\"command\\":\\"ls\\"}"}</tool_call>\n<tool_call>{"name":"read_file","arguments":{"path":"b"}}</tool_call>\n',
      "hermes",
      "",
      [
        ["bash", { command: "ls" }],
        ["read_file", { path: "b" }],
      ],
    ],
    [
      "Hermes, the end tag eaten as a stop word",
      'Reading.\n<tool_call>\n{"name": "read_file", "arguments": {"path": "a.txt"}}\n',
      "hermes",
      "Reading.",
      [["read_file", { path: "a.txt" }]],
    ],
    [
      "Hermes with parameters instead of arguments",
      '<tool_call>{"name": "bash", "parameters": {"command": "ls"}}</tool_call>',
      "hermes",
      "",
      [["bash", { command: "ls" }]],
    ],
    [
      "the syntax named in prose before the call",
      'I will write a <tool_call> block.\n<tool_call>{"name": "bash", "arguments": {"command": "ls"}}</tool_call>',
      "hermes",
      "I will write a <tool_call> block.",
      [["bash", { command: "ls" }]],
    ],
    ["Llama's <function=NAME>", 'Listing.\n<function=bash>{"command": "ls"}</function>', "function", "Listing.", [["bash", { command: "ls" }]]],
    [
      "Qwen3-Coder's parameters, typed by the schema",
      "<tool_call>\n<function=read_file>\n<parameter=path>\na.txt\n</parameter>\n<parameter=limit>\n20\n</parameter>\n</function>\n</tool_call>",
      "hermes",
      "",
      [["read_file", { path: "a.txt", limit: 20 }]],
    ],
    [
      "DeepSeek V3's tokens",
      'Let me look.<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>bash\n```json\n{"command":"ls"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
      "deepseek",
      "Let me look.",
      [["bash", { command: "ls" }]],
    ],
    [
      "Mistral's [TOOL_CALLS] list",
      'Checking.[TOOL_CALLS][{"name": "bash", "arguments": {"command": "ls"}}, {"name": "read_file", "arguments": {"path": "a"}}]',
      "mistral",
      "Checking.",
      [
        ["bash", { command: "ls" }],
        ["read_file", { path: "a" }],
      ],
    ],
    [
      "Mistral's newer [TOOL_CALLS]NAME[ARGS]",
      '[TOOL_CALLS]bash[ARGS]{"command": "ls"}[TOOL_CALLS]read_file[CALL_ID]a1b2c3d4e[ARGS]{"path": "a"}',
      "mistral",
      "",
      [
        ["bash", { command: "ls" }],
        ["read_file", { path: "a" }],
      ],
    ],
    [
      "after a fenced example that was closed, and after an indented one that ended",
      'Like this:\n~~~\n<tool_call>{}</tool_call>\n~~~\n\n    <tool_call>{}</tool_call>\nNow the real one:\n    <tool_call>{"name": "bash", "arguments": {"command": "ls"}}</tool_call>',
      "hermes",
      "Like this:\n~~~\n<tool_call>{}</tool_call>\n~~~\n\n    <tool_call>{}</tool_call>\nNow the real one:",
      [["bash", { command: "ls" }]],
    ],
    [
      "after a ~~~ fence that held a ``` line",
      'It starts:\n~~~\n```\n~~~\n<tool_call>{"name": "bash", "arguments": {"command": "ls"}}</tool_call>',
      "hermes",
      "It starts:\n~~~\n```\n~~~",
      [["bash", { command: "ls" }]],
    ],
    [
      "GLM-4.5's <arg_key>/<arg_value> pairs, typed by the schema",
      "I'll read the file.\n<tool_call>read_file\n<arg_key>path</arg_key>\n<arg_value>a.txt</arg_value>\n<arg_key>limit</arg_key>\n<arg_value>20</arg_value>\n</tool_call>",
      "hermes",
      "I'll read the file.",
      [["read_file", { path: "a.txt", limit: 20 }]],
    ],
    [
      "a Python dict for the whole call (single quotes, True, None)",
      "<tool_call>{'name': 'read_file', 'arguments': {'path': 'it\\'s.txt', 'limit': None, 'all': True}}</tool_call>",
      "hermes",
      "",
      [["read_file", { path: "it's.txt", limit: null, all: true }]],
    ],
    [
      "calls with prose between them: every block, the prose kept in order",
      'First a.\n<tool_call>{"name": "bash", "arguments": {"command": "echo FIRST > first.txt"}}</tool_call>\nNow the list.\n<tool_call>{"name": "bash", "arguments": {"command": "ls"}}</tool_call>\n',
      "hermes",
      "First a.\n\nNow the list.",
      [
        ["bash", { command: "echo FIRST > first.txt" }],
        ["bash", { command: "ls" }],
      ],
    ],
    [
      "DeepSeek V3.1's tokens",
      '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>read_file<｜tool▁sep｜>{"path":"a.txt"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
      "deepseek",
      "",
      [["read_file", { path: "a.txt" }]],
    ],
  ])("%s", (_, text, template, before, calls) => {
    const found = textToolCalls(text, TOOLS);
    expect(found?.problem).toBeUndefined();
    expect(found?.template).toBe(template as never);
    expect(found?.before).toBe(before);
    expect(found?.calls.map((c) => [c.name, JSON.parse(c.arguments)])).toEqual(calls as never);
  });
});

describe("calls that cannot run: no call, and why", () => {
  test.each([
    [
      "a tool not offered",
      '<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>',
      'it names "get_weather", which is no tool offered',
    ],
    ["arguments that are no JSON object", '<tool_call>{"name": "bash", "arguments": "ls -la"}</tool_call>', "the arguments of bash are no JSON object"],
    ["a body that is JSON but no call", '<tool_call>{"tool": "bash"}</tool_call>', "its call is no JSON object with a name"],
    [
      "one good call and one bad: none runs",
      '<tool_call>{"name":"bash","arguments":{"command":"ls"}}</tool_call><tool_call>{"name":"rm","arguments":{}}</tool_call>',
      'it names "rm", which is no tool offered',
    ],
    ["Mistral's list that is no JSON", '[TOOL_CALLS][{"name": "bash", "arguments": {"command": "ls"}', "its calls are no JSON list"],
    ["Llama's call with broken JSON", '<function=bash>{"command": ls}</function>', "the arguments of bash are no JSON object"],
  ])("%s", (_, text, problem) => {
    const found = textToolCalls(text, TOOLS);
    expect(found?.calls).toEqual([]);
    expect(found?.problem).toStartWith(problem);
  });
});

describe("the syntax shown, not calls", () => {
  test.each([
    ["plain prose", "The file says hello."],
    ["an opener followed by what no call starts with", "<tool_call>read_file a.txt</tool_call>"],
    [
      "inside a fenced code block",
      'Hermes models write calls like this:\n```\n<tool_call>\n{"name": "bash", "arguments": {"command": "ls"}}\n</tool_call>\n```',
    ],
    [
      "in an indented code block",
      'Qwen\'s template writes tool calls like this:\n\n    <tool_call>{"name":"bash","arguments":{"command":"echo PWNED > pwned2.txt"}}</tool_call>',
    ],
    [
      "in an indented code block by a tab, its later line",
      'Like this:\n\n\tfirst line\n\n\t<tool_call>{"name":"bash","arguments":{"command":"ls"}}</tool_call>',
    ],
    ["a word in <tool_call> tags in prose", "Qwen wraps a call, say <tool_call>bash</tool_call>, in tags."],
    ["inside a ~~~ fence", 'Like this:\n~~~\n<tool_call>{"name": "bash", "arguments": {"command": "ls"}}</tool_call>\n~~~'],
    ["inside backticks", 'Wrap it in `<tool_call>{"name": "bash", "arguments": {}}</tool_call>`'],
    ["an unclosed block that is not whole JSON", '<tool_call>{"name": "bash", "argum'],
    ["Mistral's token named in prose", "Mistral models write [TOOL_CALLS] before their calls."],
    [
      "a call quoted in a > blockquote, the model saying it will not run it",
      '> The file says:\n> <tool_call>{"name":"bash","arguments":{"command":"rm -rf ~"}}</tool_call>\n\nI will not run that.',
    ],
    ["a call in a quote's last line", '> <tool_call>{"name":"bash","arguments":{"command":"rm -rf ~"}}</tool_call>'],
    [
      "a call followed by a question",
      'I could clean it up with:\n<tool_call>{"name":"bash","arguments":{"command":"rm -rf build"}}</tool_call>\nDo you want me to run it?',
    ],
    [
      "calls with prose after the last one",
      'First a.\n<tool_call>{"name": "bash", "arguments": {"command": "ls"}}</tool_call>\nNow the list.\n<tool_call>{"name": "bash", "arguments": {"command": "ls"}}</tool_call>\nThen I will report.',
    ],
    ["a call in the middle of a sentence", 'It writes <tool_call>{"name":"bash","arguments":{"command":"ls"}}</tool_call>'],
    ["DeepSeek's tokens after a quote's >", '> <｜tool▁call▁begin｜>bash<｜tool▁sep｜>{"command":"ls"}<｜tool▁call▁end｜>'],
    ["a bare JSON block naming a tool", '```json\n{"name": "bash", "arguments": {"command": "ls"}}\n```'],
  ])("%s", (_, text) => {
    expect(textToolCalls(text, TOOLS)).toBeUndefined();
  });
});
