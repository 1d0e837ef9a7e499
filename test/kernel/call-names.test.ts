// Tool names as models write them from other agents' habits: read as hey's tool when that has one
// meaning, else "did you mean" in the unknown-tool error.
import { expect, test } from "bun:test";
import { nearestTool, toolNameOf, withToolNames } from "../../src/kernel/call-names.ts";
import type { Message } from "../../src/kernel/ir.ts";

const offered = ["bash", "read_file", "write_file", "edit", "grep"];

test.each([
  ["Bash", "bash"],
  ["BASH", "bash"],
  ["functions.bash", "bash"],
  ["default_api.bash", "bash"],
  ["tools.read_file", "read_file"],
  ["readFile", "read_file"],
  ["ReadFile", "read_file"],
  ["read-file", "read_file"],
  ["read", "read_file"],
  ["Read", "read_file"],
  ["Write", "write_file"],
  ["write_to_file", "write_file"],
  ["Edit", "edit"],
  ["replace", "edit"],
  ["shell", "bash"],
  ["run_terminal_cmd", "bash"],
  ["execute_command", "bash"],
  ["run_shell_command", "bash"],
  ["Grep", "grep"],
  ["search_file_content", "grep"],
])("%s runs as %s", (name, hey) => {
  expect(toolNameOf(name, offered)).toBe(hey);
});

test("an offered name is itself (an MCP tool named Read included); two offered tools that match alike: none is chosen", () => {
  expect(toolNameOf("Read", [...offered, "Read"])).toBe("Read");
  expect(toolNameOf("readfile", ["read_file", "Read-File"])).toBeUndefined();
  expect(toolNameOf("str_replace_editor", offered)).toBeUndefined();
  expect(toolNameOf("Glob", offered)).toBeUndefined();
});

test("a built-in the rules keep from the request is still the tool meant: its call reads their refusal", () => {
  expect(toolNameOf("Bash", ["read_file"])).toBe("bash");
});

test.each([
  ["str_replace_editor", "edit"],
  ["read_files", "read_file"],
  ["run_bash", "bash"],
  ["grep_search", "grep"],
  ["bsh", "bash"],
  ["wirte_file", "write_file"],
])("unknown %s: did you mean %s?", (name, near) => {
  expect(nearestTool(name, offered)).toBe(near);
});

test("nothing close: no suggestion", () => {
  expect(nearestTool("browser_navigate", offered)).toBeUndefined();
  expect(nearestTool("Glob", offered)).toBeUndefined();
});

test("withToolNames keeps the message as it is when every name is offered; renames the calls that need it", () => {
  const message: Message = { id: "a", role: "assistant", content: [], toolCalls: [{ id: "1", name: "bash", arguments: "{}" }] };
  expect(withToolNames(message, offered)).toBe(message);
  const other = {
    ...message,
    toolCalls: [
      { id: "1", name: "Bash", arguments: "{}" },
      { id: "2", name: "nope", arguments: "{}" },
    ],
  };
  expect(withToolNames(other, offered).toolCalls!.map((c) => c.name)).toEqual(["bash", "nope"]);
});

test("withToolNames asks the tools' own layer for a name no offered tool has (an MCP tool's mcp__SERVER__TOOL), after hey's own names", () => {
  const message: Message = {
    id: "a",
    role: "assistant",
    content: [],
    toolCalls: [
      { id: "1", name: "mcp__everything__get-sum", arguments: "{}" },
      { id: "2", name: "Read", arguments: "{}" },
      { id: "3", name: "nope", arguments: "{}" },
    ],
  };
  const alias = (name: string) => (name === "mcp__everything__get-sum" ? "get-sum" : name === "Read" ? "read" : undefined);
  expect(withToolNames(message, offered, alias).toolCalls!.map((c) => c.name)).toEqual(["get-sum", "read_file", "nope"]);
});
