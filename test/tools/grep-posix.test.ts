// POSIX bracket classes in grep's pattern (`[[:alpha:]]`, `[^[:digit:]]`): ripgrep reads them as
// ASCII sets, and the built-in search (no ripgrep, or a pattern only JavaScript takes) now finds
// the same lines; before, JavaScript read `[[:digit:]]` as a class of `[`, `:`, `d`, `i`, `g`, `t`
// and a `]`, and found the wrong lines, unsaid. A bare `[:alpha:]` outside brackets is, as ripgrep
// reads it, the set of its characters, and the result says so.
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
/** line N of a.txt is LINES[N - 1] */
const LINES = ["abc", "ABC", "123", "a_1", "x y\tz", "!?;", "ff0A", "naïve", "\u0007bell", "i:d[t]"];

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "hey-grep-posix-"));
  writeFileSync(join(root, "a.txt"), LINES.join("\n") + "\n");
  ctx = { cwd: root, signal: new AbortController().signal };
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe.each(tools)("grep (%s)", (_name, tool) => {
  /** the numbers of the lines the pattern matches, and the result's other lines */
  const grep = async (pattern: string, ignore_case = false) => {
    const { output } = await callTool(tool, { pattern, path: "a.txt", ignore_case }, ctx);
    const lines = output.split("\n");
    return { hits: lines.flatMap((l) => /^a\.txt:(\d+):/.exec(l)?.[1] ?? []).map(Number), rest: lines.filter((l) => !/^a\.txt:\d+:/.test(l)) };
  };

  test.each([
    ["^[[:alpha:]]+$", [1, 2]], // naïve: ï is no ASCII letter
    ["^[[:digit:]]+$", [3]],
    ["^[[:alnum:]]+$", [1, 2, 3, 7]],
    ["^[[:upper:]]+$", [2]],
    ["^[[:lower:]]+$", [1]],
    ["[[:space:]]", [5]],
    ["[[:blank:]]", [5]],
    ["^[[:punct:]]+$", [6]],
    ["^[[:xdigit:]]+$", [1, 2, 3, 7]],
    ["^[[:word:]]+$", [1, 2, 3, 4, 7]],
    ["[[:cntrl:]]", [5, 9]],
    ["^[[:print:]]+$", [1, 2, 3, 4, 6, 7, 10]],
    ["^[[:graph:]]+$", [1, 2, 3, 4, 6, 7, 10]],
    ["^[^[:digit:]]+$", [1, 2, 5, 6, 8, 9, 10]],
    ["^[[:alpha:][:digit:]_]+$", [1, 2, 3, 4, 7]],
    ["^[[:^alpha:]]+$", [3, 6]],
    ["^[x[:^alpha:]]+$", [3, 6]],
    ["^[^f[:^alpha:]]+$", [1, 2]],
    ["[[:foo:]]", [7, 10]], // no such class: ripgrep reads it as a class of its characters (`:`, `f`, `o`)
    ["(?<=\\d)[[:upper:]]", [7]], // a look-behind: ripgrep runs it with PCRE2, and the class stays ASCII there too
    ["(?=[an])[[:alpha:]]+[bv]", [1]], // PCRE2 would read [[:alpha:]] as Unicode letters and find naïve too
  ])("%s finds lines %p", async (pattern, lines) => {
    expect(await grep(pattern)).toEqual({ hits: lines, rest: [] });
  });

  test("with ignore_case, [[:upper:]] finds lower case too, as ripgrep does", async () => {
    expect((await grep("^[[:upper:]]+$", true)).hits).toEqual([1, 2]);
  });

  test("a bare [:alpha:] is the set of its characters, as ripgrep reads it, and the result says how to write the class", async () => {
    expect(await grep("[:alpha:]")).toEqual({
      hits: [1, 4, 8, 9, 10],
      rest: ['note: [:alpha:] outside brackets matches one of the characters ":alpha:"; the class is written [[:alpha:]]'],
    });
  });
});
