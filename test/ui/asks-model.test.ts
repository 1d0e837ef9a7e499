// Which one-shot lines send the conversation to the model, and so are refused (exit 2, kind config)
// where the provider can send nothing (run.ts): a prompt, a skill's message, an MCP server's prompt,
// /compact's summary — not the commands that only read or change hey's state (x133).
import { expect, test } from "bun:test";
import { asksModel } from "../../src/ui/slash.ts";

test.each([
  ["a prompt", "fix the tests", true],
  ["a prompt that starts with a path", "/etc/hosts is weird, why?", true],
  ["a skill's message", "/skill:review the last change", true],
  ["a skill alone", "  /skill:review", true],
  ["an MCP server's prompt", "/mcp:everything:simple-prompt", true],
  ["/compact", "/compact", true],
  ["/compact with what to keep", "/compact keep the API notes", true],
  ["/usage", "/usage", false],
  ["/model NAME", "/model openai/gpt-5.5", false],
  ["/mcp", "/mcp", false],
  ["/sessions", "/sessions", false],
  ["an unknown /word", "/modle", false],
])("%s: %p", (_what, line, asks) => {
  expect(asksModel(line)).toBe(asks);
});
