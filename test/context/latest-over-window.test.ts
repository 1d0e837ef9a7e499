// A latest user message that alone, with the system prompt and tools, is more than the model's
// window (x16): no cut of the conversation makes room for it (it is never cut), so the error says
// so plainly, naming the sizes, instead of a request sent again in vain.
import { describe, expect, test } from "bun:test";
import { latestOverWindow } from "../../src/context/window.ts";
import type { Message } from "../../src/kernel/ir.ts";

const text = (id: string, role: "user" | "assistant", t: string): Message => ({ id, role, content: [{ type: "text", text: t }] });

describe("a latest message alone over the window", () => {
  const fixed = "s".repeat(4000); // ~1,000 tokens
  test.each([
    [20_000, 10_000, undefined],
    [
      50_000,
      10_000,
      "your latest message alone takes ~12,504 tokens (with the system prompt and tools, ~13,504), more than the model's window of ~10,000 tokens",
    ],
    [50_000, undefined, undefined],
  ])("a %p-character message, window %p", (chars, window, said) => {
    const error = latestOverWindow([text("u1", "user", "hi"), text("a1", "assistant", "ok"), text("u2", "user", "y".repeat(chars))], fixed, 0.25, window);
    if (said === undefined) expect(error).toBeUndefined();
    else {
      expect(error).toStartWith(said);
      expect(error).toContain("shorten it");
    }
  });
});
