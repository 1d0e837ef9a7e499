// A request whose tools and system prompt alone exceed the model's window is refused with what
// fills it (mcp/oversize.ts): the MCP servers whose tools take more than a quarter of the
// window, with the keys that leave them out; else the system prompt and hey's own tools.
import { expect, test } from "bun:test";
import { fixedOverWindow } from "../../src/mcp/oversize.ts";
import type { ToolSpec } from "../../src/kernel/ir.ts";

const spec = (name: string, chars: number): ToolSpec => ({ name, description: "d".repeat(chars), parameters: { type: "object" } });
const tools = [spec("bash", 400), spec("wide", 40_000), spec("echo", 100), spec("fs_read", 4_000)];
const servers: Record<string, string> = { wide: "huge", echo: "huge", fs_read: "fs" };
const serverOf = (name: string) => servers[name];

test("within the window: nothing to say", () => {
  expect(fixedOverWindow("system", tools, serverOf, 0.25, 20_000)).toBeUndefined();
});

test("past it: the servers over a quarter of the window, largest tools first, with the keys that leave them out", () => {
  const said = fixedOverWindow("system", tools, serverOf, 0.25, 5_000)!;
  expect(said).toStartWith("the tools and system prompt alone take ~11,");
  expect(said).toContain("more than the model's window of ~5,000: MCP server huge's tools take ~10,");
  expect(said).toContain("(wide ~10,"); // the one that makes up most of it, not echo
  expect(said).toEndWith('; leave tools out with [mcp.huge] exclude_tools = ["wide"] (or tools = [...], the ones to keep)');
  expect(said).not.toContain("MCP server fs"); // ~1,000 tokens: under a quarter of the window
});

test("no server to blame: the system prompt and hey's own tools are named", () => {
  const said = fixedOverWindow("s".repeat(8_000), [spec("bash", 400)], () => undefined, 0.25, 1_000)!;
  expect(said).toMatch(
    /^the tools and system prompt alone take ~2,\d{3} tokens, more than the model's window of ~1,000: the system prompt takes ~2,000 \(AGENTS\.md files and skills are part of it\), hey's own tools ~1\d\d$/,
  );
});
