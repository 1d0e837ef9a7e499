// An embedder (review x126) edits a message in place after hey purged it once; the next view is built from the edit
import { expect, test } from "bun:test";
import { buildContext } from "../../src/context/view.ts";
import { messageChars } from "../../src/context/passes.ts";
import type { Message } from "../../src/kernel/ir.ts";
import { testPolicy } from "../helpers/settings.ts";

function history(): Message[] {
  const h: Message[] = [{ id: "u0", role: "user", content: [{ type: "text", text: "go" }] }];
  for (let n = 0; n < 10; n++) {
    h.push({
      id: `a${n}`,
      role: "assistant",
      content: [{ type: "text", text: `s${n}` }],
      toolCalls: [{ id: `c${n}`, name: "bash", arguments: JSON.stringify({ command: `cmd ${n}` }) }],
    });
    h.push({
      id: `r${n}`,
      role: "tool",
      toolCallId: `c${n}`,
      toolName: "bash",
      isError: n === 1,
      content: [{ type: "text", text: n === 1 ? "ERROR token=sk-SECRET-123456" : `ok ${n}` }],
    });
  }
  return h;
}
const input = (h: Message[]) => ({
  history: h,
  summaries: [],
  policy: { ...testPolicy({ purgeErrorsAfter: 2 }), budgetTokens: 50_000 },
  fixedTokens: 100,
  tokensPerChar: 0.25,
});

test("a purged result edited in place (an embedder redacting it) is built from the edit at the next view", () => {
  const h = history();
  const v1 = buildContext(input(h));
  const r1 = v1.messages.find((m) => m.id === "r1")!;
  expect(JSON.stringify(r1.content)).toContain("[arguments purged] ERROR token=sk-SECRET-123456");
  // embedder redacts the message it holds (same object as in agent.messages / the message event)
  h[2 * 1 + 2]!.content = [{ type: "text", text: "ERROR token=[redacted]" }];
  const fresh = buildContext(input(structuredClone(h))).messages.find((m) => m.id === "r1")!;
  const v2 = buildContext(input([...h])).messages.find((m) => m.id === "r1")!;
  expect(JSON.stringify(v2.content)).not.toContain("sk-SECRET");
  expect(v2.content).toEqual(fresh.content);
});

test("a message whose tool calls are deleted in place is weighed without them", () => {
  const m: Message = {
    id: "x",
    role: "assistant",
    content: [{ type: "text", text: "done" }],
    toolCalls: [{ id: "c", name: "write_file", arguments: "x".repeat(100_000) }],
  };
  const a = messageChars(m);
  delete m.toolCalls;
  expect(a).toBeGreaterThan(100_000);
  expect(messageChars(m)).toBe(messageChars({ ...m }));
});
