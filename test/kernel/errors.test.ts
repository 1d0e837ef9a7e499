import { expect, test } from "bun:test";
import { errnoCode, errorText } from "../../src/kernel/errors.ts";
import { toolError } from "../../src/kernel/tool.ts";

test.each([
  [new Error("boom"), "boom"],
  [new TypeError("bad type"), "bad type"],
  ["a thrown string", "a thrown string"],
  [42, "42"],
  [undefined, "undefined"],
])("errorText(%p) is %p", (e, text) => {
  expect(errorText(e)).toBe(text);
});

test.each([
  [Object.assign(new Error("no such file"), { code: "ENOENT" }), "ENOENT"],
  [{ code: "ELOOP" }, "ELOOP"],
  [Object.assign(new Error("numeric"), { code: 5 }), undefined],
  [new Error("plain"), undefined],
  [null, undefined],
  ["ENOENT", undefined],
])("errnoCode(%p) is %p", (e, code) => {
  expect(errnoCode(e)).toBe(code);
});

test("a real failed system call carries its code", async () => {
  const { readFileSync } = await import("node:fs");
  let caught: unknown;
  try {
    readFileSync("/nonexistent/hey-test-file");
  } catch (e) {
    caught = e;
  }
  expect(errnoCode(caught)).toBe("ENOENT");
});

test("toolError is an error result with the text as is", () => {
  expect(toolError("cannot write x")).toEqual({ output: "cannot write x", isError: true });
});
