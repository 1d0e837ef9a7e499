// tools/list read tool by tool (src/mcp/tool-list.ts): a tool's slip costs that tool at most.
import { expect, test } from "bun:test";
import { type ListedTool, toolPage } from "../../src/mcp/tool-list.ts";

/** The SDK client's output checks, as far as they go here: a schema with `bad` does not compile. */
function checks() {
  const compiled: string[][] = [];
  return {
    compiled,
    cacheToolMetadata(tools: ListedTool[]) {
      if (tools.some((t) => t.outputSchema?.bad)) throw new Error("can't resolve reference");
      compiled.push(tools.filter((t) => t.outputSchema).map((t) => t.name));
    },
  };
}

test("an input schema without a type is an object schema; a tool without a name is skipped; the rest passes as the server sent it", () => {
  const page = toolPage(
    {
      tools: [
        { name: "a", inputSchema: { properties: { x: { type: "string" } } }, annotations: { readOnlyHint: true } },
        { description: "no name" },
        { name: "b", inputSchema: { type: "object" }, description: "b" },
      ],
      nextCursor: "2",
    },
    checks(),
  );
  expect(page).toEqual({
    tools: [
      { name: "a", inputSchema: { type: "object", properties: { x: { type: "string" } } }, annotations: { readOnlyHint: true } },
      { name: "b", inputSchema: { type: "object" }, description: "b" },
    ],
    nextCursor: "2",
  });
});

test("output schemas that compile keep their checks; one that does not is dropped, its tool kept", () => {
  const client = checks();
  const page = toolPage(
    {
      tools: [
        { name: "good", inputSchema: { type: "object" }, outputSchema: { type: "object" } },
        { name: "dangling", inputSchema: { type: "object" }, outputSchema: { type: "object", bad: true } },
      ],
    },
    client,
  );
  expect(page.tools.map((t) => [t.name, t.outputSchema])).toEqual([
    ["good", { type: "object" }],
    ["dangling", undefined],
  ]);
  expect(client.compiled.at(-1)).toEqual(["good"]);
});
