import { describe, expect, test } from "bun:test";
import { geminiNames } from "../../src/providers/gemini-names.ts";

describe("tool names on Gemini's wire", () => {
  test("two long names that start with a digit and differ only past Gemini's 64 characters go out as two names, each read back as its tool", () => {
    const a = `9${"x".repeat(70)}a`;
    const b = `9${"x".repeat(70)}b`;
    const names = geminiNames([a, b, "read"]);
    const wires = [names.toWire(a), names.toWire(b)];
    expect(new Set(wires).size).toBe(2);
    for (const w of wires) expect(w).toMatch(/^[A-Za-z_][A-Za-z0-9_-]{0,63}$/);
    expect(wires.map(names.fromWire)).toEqual([a, b]);
    expect(names.toWire("read")).toBe("read");
    expect(names.fromWire("read")).toBe("read");
  });

  test("a tool no longer offered (a call in the history) still goes out under a name Gemini takes", () => {
    expect(geminiNames(["read"]).toWire("3d_render")).toBe("_3d_render");
    expect(geminiNames(["read"]).fromWire("unknown")).toBe("unknown");
  });
});
