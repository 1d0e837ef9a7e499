import { describe, expect, test } from "bun:test";
import { applyPartialArg, pathKeys } from "../../src/providers/partial-args.ts";

describe("Vertex streamed arguments", () => {
  test("the keys of a path: names, indexes and quoted names", () => {
    expect(pathKeys("$.a[0]['b c'][\"d.e\"]")).toEqual(["a", 0, "b c", "d.e"]);
    expect(pathKeys("$")).toEqual([]);
  });

  test("a string continues across fragments; numbers, booleans and null are set", () => {
    const args: Record<string, unknown> = {};
    for (const arg of [
      { jsonPath: "$.path", stringValue: "src/" },
      { jsonPath: "$.path", stringValue: "main.ts" },
      { jsonPath: "$.offset", numberValue: 40 },
      { jsonPath: "$.all", boolValue: false },
      { jsonPath: "$.limit", nullValue: "NULL_VALUE" },
    ])
      applyPartialArg(args, arg);
    expect(args).toEqual({ path: "src/main.ts", offset: 40, all: false, limit: null });
  });

  test("nested objects and arrays are made on the way", () => {
    const args: Record<string, unknown> = {};
    applyPartialArg(args, { jsonPath: "$.edits[0].old", stringValue: "a" });
    applyPartialArg(args, { jsonPath: "$.edits[0].new", stringValue: "b" });
    applyPartialArg(args, { jsonPath: "$.edits[1].old", stringValue: "c" });
    expect(args).toEqual({ edits: [{ old: "a", new: "b" }, { old: "c" }] });
  });

  test("a fragment without a path leaves the arguments as they are", () => {
    const args: Record<string, unknown> = { a: 1 };
    applyPartialArg(args, { stringValue: "x" });
    applyPartialArg(args, { jsonPath: "$", stringValue: "x" });
    expect(args).toEqual({ a: 1 });
  });
});
