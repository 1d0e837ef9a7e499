// Server prompts as /mcp:SERVER:PROMPT commands (issue 27): parsing, arguments, the message sent.
import { expect, test } from "bun:test";
import { parsePromptCommand, promptArgs, promptCompletions, promptContent, promptUsage, type McpPrompt } from "../../src/mcp/prompts.ts";

const args: McpPrompt = {
  name: "args-prompt",
  description: "two args",
  arguments: [
    { name: "city", description: "Name of the city", required: true },
    { name: "state", required: false },
  ],
};
const simple: McpPrompt = { name: "simple-prompt", arguments: [] };

test.each([
  ["/mcp:everything:args-prompt city=Paris", { server: "everything", prompt: "args-prompt", args: "city=Paris" }],
  ["  /mcp:fs:review   some text here ", { server: "fs", prompt: "review", args: "some text here" }],
  ["/mcp:everything:simple-prompt", { server: "everything", prompt: "simple-prompt", args: "" }],
  ["/mcp", undefined],
  ["/mcp:everything", undefined],
  ["/mcp:everything:", undefined],
  ["/mcp login github", undefined],
])("parsePromptCommand(%j)", (line, want) => {
  expect(parsePromptCommand(line)).toEqual(want as never);
});

test.each([
  ["city=Paris", { city: "Paris" }],
  ["city=Paris state=TX", { city: "Paris", state: "TX" }],
  ['city="New York"', { city: "New York" }],
  ["Paris", { city: "Paris" }],
  ["Paris TX", { city: "Paris", state: "TX" }],
  ["state=TX Austin", { state: "TX", city: "Austin" }],
  ["Paris Texas USA", { city: "Paris", state: "Texas USA" }], // the last argument takes the rest of the line
])("promptArgs(%j)", (text, want) => {
  expect(promptArgs("everything", args, text)).toEqual({ args: want });
});

test("argument mistakes name the usage", () => {
  expect(promptArgs("everything", args, "")).toEqual({
    error: "/mcp:everything:args-prompt needs city (Name of the city); usage: /mcp:everything:args-prompt city=… [state=…]",
  });
  expect(promptArgs("everything", args, "cty=Paris")).toEqual({
    error: "/mcp:everything:args-prompt has no argument cty; usage: /mcp:everything:args-prompt city=… [state=…]",
  });
  expect(promptArgs("everything", simple, "extra words")).toEqual({
    error: '/mcp:everything:simple-prompt takes no arguments, got "extra words"; usage: /mcp:everything:simple-prompt',
  });
  expect(promptUsage("everything", args)).toBe("/mcp:everything:args-prompt city=… [state=…]");
});

test("the prompt's messages become one user message: text in order, the assistant's marked, images and embedded resources kept", () => {
  const content = promptContent({
    messages: [
      { role: "user", content: { type: "text", text: "What's the weather in Paris?" } },
      { role: "assistant", content: { type: "text", text: "Which Paris?" } },
      { role: "user", content: { type: "resource", resource: { uri: "demo://doc", mimeType: "text/plain", text: "a doc" } } },
      { role: "user", content: { type: "image", data: "AAAA", mimeType: "image/png" } },
      { role: "user", content: { type: "audio", data: "AAAA", mimeType: "audio/wav" } },
    ],
  });
  expect(content).toEqual([
    {
      type: "text",
      text: "What's the weather in Paris?\n\n(the prompt has the assistant say:)\nWhich Paris?\n\n```demo://doc\na doc\n```\n\n[audio content omitted]",
    },
    { type: "image", mediaType: "image/png", data: "AAAA" },
  ]);
  expect(promptContent({ messages: "nonsense" })).toEqual([{ type: "text", text: "" }]);
});

test("completions: every connected server's prompts", () => {
  const servers = [
    { server: "everything", prompts: [args, simple] },
    { server: "fs", prompts: [{ name: "review", arguments: [] }] },
  ];
  expect(promptCompletions("/mcp:", servers)).toEqual(["/mcp:everything:args-prompt", "/mcp:everything:simple-prompt", "/mcp:fs:review"]);
  expect(promptCompletions("/mcp:ev", servers)).toEqual(["/mcp:everything:args-prompt", "/mcp:everything:simple-prompt"]);
  expect(promptCompletions("/mcp:everything:s", servers)).toEqual(["/mcp:everything:simple-prompt"]);
});

test("a line whose first word is /mcp:… is a prompt command (a message); /mcp itself stays a command", async () => {
  const { lineKind } = await import("../../src/ui/slash.ts");
  expect(lineKind("/mcp:everything:args-prompt city=Paris")).toBe("mcp-prompt");
  expect(lineKind("/mcp:")).toBe("mcp-prompt");
  expect(lineKind("/mcp")).toBe("command");
  expect(lineKind("/mcp login github")).toBe("command");
});
