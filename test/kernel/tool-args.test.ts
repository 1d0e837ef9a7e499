// Tool arguments checked against the tool's own schema (kernel/tool-args.ts): what passes, what is
// converted, and the error each mistake gets — the same for built-in and MCP tools.
import { expect, test } from "bun:test";
import { checkArguments } from "../../src/kernel/tool-args.ts";

const schema = {
  type: "object",
  properties: {
    path: { type: "string" },
    limit: { type: "integer" },
    ratio: { type: "number" },
    all: { type: "boolean" },
    tags: { type: "array" },
    opts: { type: "object" },
    either: { type: ["string", "null"] },
    free: {},
  },
  required: ["path"],
};

test.each([
  { name: "the minimum", args: { path: "a" }, want: { path: "a" } },
  {
    name: "every type right",
    args: { path: "a", limit: 3, ratio: 0.5, all: true, tags: [], opts: {}, either: null, free: 1 },
    want: { path: "a", limit: 3, ratio: 0.5, all: true, tags: [], opts: {}, either: null, free: 1 },
  },
  {
    name: "numbers and booleans sent as strings",
    args: { path: "a", limit: "12", ratio: " 1.5 ", all: "false" },
    want: { path: "a", limit: 12, ratio: 1.5, all: false },
  },
  { name: "null for an optional key is dropped", args: { path: "a", limit: null, all: null }, want: { path: "a" } },
  { name: "unknown keys pass untouched", args: { path: "a", extra: [1] }, want: { path: "a", extra: [1] } },
])("accepted: $name", ({ args, want }) => {
  expect(checkArguments("t", args, schema)).toEqual({ args: want });
});

test.each([
  { name: "a required key missing", args: {}, error: "t: `path` must be a string, got nothing" },
  { name: "a required key null", args: { path: null }, error: "t: `path` must be a string, got null" },
  { name: "a string that is a number", args: { path: 7 }, error: "t: `path` must be a string, got 7" },
  { name: "a fraction for an integer", args: { path: "a", limit: 2.5 }, error: "t: `limit` must be an integer, got 2.5" },
  { name: "words for an integer", args: { path: "a", limit: "ten" }, error: 't: `limit` must be an integer, got "ten"' },
  { name: "yes for a boolean", args: { path: "a", all: "yes" }, error: 't: `all` must be true or false, got "yes"' },
  { name: "an object for an array", args: { path: "a", tags: {} }, error: "t: `tags` must be an array, got {}" },
  { name: "an array for an object", args: { path: "a", opts: [] }, error: "t: `opts` must be an object, got []" },
  { name: "a union", args: { path: "a", either: 1 }, error: "t: `either` must be a string or null, got 1" },
  { name: "a long value is cut", args: { path: "x".repeat(100).length }, error: "t: `path` must be a string, got 100" },
])("refused: $name → $error", ({ args, error }) => {
  expect(checkArguments("t", args as Record<string, unknown>, schema)).toEqual({ error });
});

test("a schema without properties or required checks nothing", () => {
  expect(checkArguments("t", { a: 1 }, {})).toEqual({ args: { a: 1 } });
  expect(checkArguments("t", { a: 1 }, { required: "a" })).toEqual({ args: { a: 1 } });
});

test("a required key with no declared type is named as required", () => {
  expect(checkArguments("t", {}, { required: ["q"] })).toEqual({ error: "t: `q` is required, got nothing" });
});
