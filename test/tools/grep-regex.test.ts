// grep's pattern syntax (tools/grep-regex.ts): JavaScript's, read as ripgrep reads the same
// pattern where both give it a meaning (\w is Unicode, a leading (?i) is a flag), and refused
// with a clear error where another dialect's escape would silently become a plain letter.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ToolContext } from "../../src/kernel/tool.ts";
import { callTool } from "../helpers/call-tool.ts";
import { bothGreps } from "../helpers/find-rg.ts";

let root: string;
let ctx: ToolContext;
const tools = await bothGreps();

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "hey-grep-regex-"));
  writeFileSync(join(root, "a.txt"), "fooKbar\nQfoo.barE\ntake  it\nnaïve\nNEEDLE here\ncafé au lait\n");
  ctx = { cwd: root, signal: new AbortController().signal };
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe.each(tools)("grep (%s)", (_name, tool) => {
  const grep = (args: Record<string, unknown>) => callTool(tool, args, ctx);

  test.each([
    ["foo\\Kbar", "\\K is not supported (grep takes JavaScript regex syntax); use a lookbehind: (?<=foo)bar"],
    ["\\Qfoo.bar\\E", "\\Q is not supported (grep takes JavaScript regex syntax); escape each special character with \\ instead of \\Q…\\E"],
    ["take\\h+", "\\h is not supported (grep takes JavaScript regex syntax); use [ \\t]"],
    ["\\Afoo", "\\A is not supported (grep takes JavaScript regex syntax); use ^"],
  ])("%s is an error naming the escape, not a search for its letter", async (pattern, why) => {
    expect(await grep({ pattern })).toEqual({ output: `grep: invalid regex "${pattern}": ${why}`, isError: true });
  });

  test("a leading (?i) is the ignore_case flag", async () => {
    expect((await grep({ pattern: "(?i)needle" })).output).toBe("a.txt:5: NEEDLE here");
  });

  test("\\w and \\b are Unicode, with or without a look-around (which only the built-in search runs)", async () => {
    expect((await grep({ pattern: "na\\w+ve" })).output).toBe("a.txt:4: naïve");
    expect((await grep({ pattern: "(?=na)na\\w+ve" })).output).toBe("a.txt:4: naïve");
    expect((await grep({ pattern: "(?<=caf)é\\b" })).output).toBe("a.txt:6: café au lait");
    expect((await grep({ pattern: "caf\\b" })).output).toStartWith("no matches");
  });
});
