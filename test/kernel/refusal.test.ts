// A refused exchange is never sent again (kernel/refusal.ts): Anthropic documents that continuing
// without removing the turn that drew a refusal "will result in continued refusals".
import { describe, expect, test } from "bun:test";
import type { Message } from "../../src/kernel/ir.ts";
import { runLoop } from "../../src/kernel/loop.ts";
import { ProviderError } from "../../src/kernel/provider.ts";
import { isRefusedAnswer, keptOf, promptRefused, refusedAnswer, withoutRefused } from "../../src/kernel/refusal.ts";
import { fakeProvider } from "../helpers/fake-provider.ts";
import { loopDeps } from "../helpers/loop-deps.ts";

const user = (id: string, text = "q"): Message => ({ id, role: "user", content: [{ type: "text", text }] });
const answer = (id: string, text = "a"): Message => ({ id, role: "assistant", content: [{ type: "text", text }] });
const result = (id: string, callId: string): Message => ({ id, role: "tool", toolCallId: callId, toolName: "bash", content: [{ type: "text", text: "r" }] });
const marker = (id: string, detail?: string) => refusedAnswer({ id, role: "assistant", content: [] }, detail);

describe("withoutRefused", () => {
  test("leaves out the user's message that drew the refusal, the run's calls and results, and the marker; what came before and after stays", () => {
    const h: Message[] = [
      user("u1", "what is in this repo?"),
      answer("a1"),
      user("u2", "get me into my router"),
      { id: "a2", role: "assistant", content: [], toolCalls: [{ id: "c1", name: "bash", arguments: "{}" }] },
      result("r1", "c1"),
      marker("m2", "cyber: declined\nsecond line"),
      user("u3", "how do I reset my own router?"),
    ];
    expect(withoutRefused(h).map((m) => m.id)).toEqual(["u1", "a1", "u3"]);
    expect(withoutRefused([user("u1"), marker("m1"), user("u2"), marker("m2"), user("u3")]).map((m) => m.id)).toEqual(["u3"]);
  });

  test("a stretch that starts inside the refused run (a summary's range) loses only the marker", () => {
    const stretch: Message[] = [
      { id: "a2", role: "assistant", content: [], toolCalls: [{ id: "c1", name: "bash", arguments: "{}" }] },
      result("r1", "c1"),
      marker("m2"),
    ];
    expect(withoutRefused(stretch).map((m) => m.id)).toEqual(["a2", "r1"]);
  });

  test("an answer that only quotes the marker's words, or a marker with calls, is the model's own and stays", () => {
    const h: Message[] = [user("u1"), answer("a2", `It said "[refused: this request was not answered]" before.`), user("u2")];
    expect(withoutRefused(h)).toBe(h);
    expect(isRefusedAnswer(marker("m"))).toBe(true);
    expect(isRefusedAnswer({ ...marker("m"), toolCalls: [{ id: "c", name: "t", arguments: "{}" }] })).toBe(false);
    expect(isRefusedAnswer({ ...marker("m"), role: "user" })).toBe(false);
  });
});

test("the loop's next request after a refusal sends the earlier exchange and the new message only; the history keeps all", async () => {
  const provider = fakeProvider([{ text: "Reset it with the button on its back." }]);
  const history: Message[] = [
    user("u1", "which router is this?"),
    answer("a1", "A TP-Link."),
    user("u2", "get me into it"),
    marker("m2"),
    user("u3", "reset my own router"),
  ];
  const deps = loopDeps(provider);
  const seen: string[][] = [];
  await runLoop(history, {
    ...deps,
    context: async (messages) => {
      seen.push(messages.map((m) => m.id)); // what the context manager is given: nothing of the refusal to summarize or count
      return { system: "s", messages, tools: [] };
    },
  });
  expect(seen).toEqual([["u1", "a1", "u3"]]);
  expect(provider.requests[0]!.messages.map((m) => m.id)).toEqual(["u1", "a1", "u3"]);
  expect(history.map((m) => m.id).slice(0, 5)).toEqual(["u1", "a1", "u2", "m2", "u3"]); // the session keeps it
});

test("a position in the whole history (where a resumed session's cache began) is found in what is sent: the refused exchanges before it do not count", () => {
  const h: Message[] = [user("u1"), answer("a1"), user("u2"), marker("m2"), user("u3"), answer("a3"), user("u4")];
  expect(keptOf(h, 6)).toBe(4); // u1 a1 u3 a3
  expect(keptOf(h, 2)).toBe(2);
  expect(keptOf(h, 3)).toBe(2); // the refused message is not sent
  const plain: Message[] = [user("u1"), answer("a1")];
  expect(keptOf(plain, 2)).toBe(2);
});

test("a prompt the content filter refused with an error (ProviderError.refusedPrompt): the run ends as a refusal, the exchange is kept marked, and the next run does not send it (r6 #5)", async () => {
  const filtered = new ProviderError("bad_request", "the provider's content filter refused the request (400): filtered", { refusedPrompt: true });
  const provider = fakeProvider([{ error: filtered }, { text: "Hello." }]);
  const history: Message[] = [user("u1", "hi"), answer("a1", "Hi."), user("u2", "flagged words")];
  const deps = loopDeps(provider);
  expect(await runLoop(history, deps)).toMatchObject({ stop: "error", error: { kind: "refusal" } });
  expect(provider.requests).toHaveLength(1); // not retried
  expect(deps.output.of("error")).toEqual([{ type: "error", kind: "refusal", message: promptRefused(filtered.message) }]);
  expect(history.at(-1)).toMatchObject({ role: "assistant", content: [{ type: "text", text: "[refused (content filter): this request was not answered]" }] });
  history.push(user("u3", "hello again"));
  await runLoop(history, loopDeps(provider));
  expect(provider.requests[1]!.messages.map((m) => m.id)).toEqual(["u1", "a1", "u3"]);
});
