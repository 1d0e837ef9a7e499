// An embedder holds the same message objects as hey (its `history`, `agent.messages`, the `message`
// events). What hey works out of a message once (its size, its purged or pruned form) holds only
// while the message is unchanged: a message edited in place is sent as it now is (context/kept.ts).
import { expect, test } from "bun:test";
import { createAgent, type Message } from "../src/lib.ts";
import { fakeProvider } from "./helpers/fake-provider.ts";

function history(): Message[] {
  const h: Message[] = [{ id: "u0", role: "user", content: [{ type: "text", text: "go" }] }];
  for (let n = 0; n < 10; n++) {
    h.push({
      id: `a${n}`,
      role: "assistant",
      content: [{ type: "text", text: `s${n}` }],
      toolCalls: [{ id: `c${n}`, name: "bash", arguments: JSON.stringify({ command: `cmd ${n}` }) }],
    });
    const text = n === 1 ? "ERROR token=sk-SECRET-123456" : `ok ${n}`;
    h.push({ id: `r${n}`, role: "tool", toolCallId: `c${n}`, toolName: "bash", isError: n === 1, content: [{ type: "text", text }] });
  }
  h.push({ id: "a-end", role: "assistant", content: [{ type: "text", text: "done" }] });
  return h;
}

test("a failed result the embedder redacts in place is sent redacted, though hey purged it before", async () => {
  const h = history();
  const p = fakeProvider([{ text: "one" }, { text: "two" }, { text: "three" }]);
  const agent = createAgent({ provider: p, history: h, settings: { context: { purgeErrorsAfter: 2 } as never } });
  const signal = new AbortController().signal;
  await agent.send("next", signal);
  expect(JSON.stringify(p.requests[0]!.messages)).toContain("[arguments purged] ERROR token=sk-SECRET-123456");
  // a chat server scrubs a leaked secret from the conversation it stores: the same objects hey holds
  const result = h.find((m) => m.id === "r1")!;
  result.content = [{ type: "text", text: "ERROR token=[redacted]" }];
  await agent.send("again", signal);
  // and in place inside the part, as a store that edits text does
  (agent.messages.find((m) => m.id === "r1")!.content[0] as { text: string }).text = "ERROR token=[gone]";
  await agent.send("once more", signal);
  const [, second, third] = p.requests.map((r) => JSON.stringify(r.messages));
  expect(second).not.toContain("sk-SECRET");
  expect(second).toContain("[arguments purged] ERROR token=[redacted]");
  expect(third).toContain("[arguments purged] ERROR token=[gone]");
});

test("a call's arguments edited in place are sent as edited, and weighed as edited", async () => {
  const h = history();
  const p = fakeProvider([{ text: "one" }, { text: "two" }]);
  const agent = createAgent({ provider: p, history: h, settings: { context: { purgeErrorsAfter: 0 } as never } });
  const signal = new AbortController().signal;
  await agent.send("next", signal);
  const before = agent.context.last!.estimate;
  const call = h.find((m) => m.id === "a8")!.toolCalls![0]!;
  call.arguments = JSON.stringify({ command: "y".repeat(4_000) });
  await agent.send("again", signal);
  const sent = p.requests[1]!.messages.find((m) => m.id === "a8")!;
  expect(sent.toolCalls![0]!.arguments).toBe(call.arguments);
  expect(agent.context.last!.estimate - before).toBeGreaterThan(900); // 4,000 characters more: about 1,000 tokens
});
