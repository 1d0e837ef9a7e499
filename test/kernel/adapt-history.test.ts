// What survives a switch of protocol or model (SPEC §5.6), and the tool-call pairing invariant.
import { describe, expect, test } from "bun:test";
import type { Message, Protocol } from "../../src/kernel/ir.ts";
import { adaptHistory, safeId, thinkingBlocked, type Target } from "../../src/kernel/adapt-history.ts";
import { NO_RESULT as MISSING_RESULT } from "../../src/kernel/tool-calls.ts";
import { bigParses } from "../helpers/json-parses.ts";

const think = (protocol: Protocol, model: string, text = "hmm") => ({ type: "thinking" as const, text, opaque: { protocol, model, data: { sig: "s" } } });
const user = (id: string, text = "q"): Message => ({ id, role: "user", content: [{ type: "text", text }] });
const result = (id: string, callId: string): Message => ({ id, role: "tool", toolCallId: callId, toolName: "t", content: [{ type: "text", text: "r" }] });

describe("thinking", () => {
  const history: Message[] = [
    user("u1"),
    { id: "a1", role: "assistant", content: [think("anthropic", "claude"), { type: "text", text: "old answer" }] },
    user("u2"),
    { id: "a2", role: "assistant", content: [think("anthropic", "claude", "now")], toolCalls: [{ id: "toolu_1", name: "t", arguments: "{}" }] },
    result("r1", "toolu_1"),
  ];

  /** `history` with its thinking made by `protocol`'s model `model`. */
  const madeBy = (protocol: Protocol, model: string) =>
    history.map((m) => ({ ...m, content: m.content.map((p) => (p.type === "thinking" ? think(protocol, model, p.text) : p)) }));

  test.each<[Protocol, string]>([
    ["anthropic", "claude"],
    ["responses", "gpt"],
  ])(
    "kept for the model that made it on %s in every turn, earlier prompts' included: Claude Code and Codex send it so, and the cached prefix holds",
    (protocol, model) => {
      const out = adaptHistory(madeBy(protocol, model), { protocol, model });
      expect(out[1]!.content).toEqual([think(protocol, model), { type: "text", text: "old answer" }]);
      expect(out[3]!.content).toEqual([think(protocol, model, "now")]);
    },
  );

  test.each<[Protocol, string]>([
    ["google", "gemini"],
    ["openai", "deepseek-reasoner"],
  ])("on %s an earlier prompt's final answer goes without it: it never went out", (protocol, model) => {
    const sent = adaptHistory(madeBy(protocol, model), { protocol, model });
    expect(sent[1]!.content).toEqual([{ type: "text", text: "old answer" }]);
    expect(sent[3]!.content).toEqual([think(protocol, model, "now")]);
  });

  test.each([
    ["another protocol", { protocol: "google" as const, model: "claude" }],
    ["another model", { protocol: "anthropic" as const, model: "claude-other" }],
  ])("dropped for %s, never sent with a foreign signature", (_name, target) => {
    const out = adaptHistory(history, target);
    expect(out.flatMap((m) => m.content).filter((p) => p.type === "thinking")).toEqual([]);
    expect(history[3]!.content).toHaveLength(1); // the input is not modified
  });

  test.each<[Protocol, string]>([
    ["google", "gemini"],
    ["openai", "deepseek-reasoner"],
    ["anthropic", "claude"],
    ["responses", "gpt"],
  ])("on %s a tool-call turn's goes in every later request, as it went with its results: the cached prefix holds", (protocol, model) => {
    // a hand-off request, a line typed after Esc stopped a tool, `-c` after a crash: the same user turn as the results
    const after = [...madeBy(protocol, model), user("u3", "never mind")];
    expect(adaptHistory(after, { protocol, model })[3]!.content).toEqual([think(protocol, model, "now")]);
    // an answer, then the next prompt: sent without it, the prefix broke at this turn and all of it was billed again
    const answered = [...after, { id: "a3", role: "assistant" as const, content: [{ type: "text" as const, text: "ok" }] }, user("u4")];
    expect(adaptHistory(answered, { protocol, model })[3]!.content).toEqual([think(protocol, model, "now")]);
  });

  test("a tool-call turn's reasoning goes to no other model after /model", () => {
    const ds: Message[] = [
      user("u1"),
      { id: "a1", role: "assistant", content: [think("openai", "deepseek-reasoner")], toolCalls: [{ id: "call_1", name: "t", arguments: "{}" }] },
      result("r1", "call_1"),
      { id: "a2", role: "assistant", content: [think("openai", "deepseek-reasoner"), { type: "text", text: "done" }] },
      user("u2"),
    ];
    expect(adaptHistory(ds, { protocol: "openai", model: "deepseek-reasoner" })[1]!.content).toHaveLength(1);
    expect(adaptHistory(ds, { protocol: "openai", model: "deepseek-chat" })[1]!.content).toEqual([]);
  });

  test.each<Protocol>(["anthropic", "responses", "google", "openai"])(
    "a reply without an answer (thinking alone, or beside blank text) goes without its thinking to %s: no API takes a turn that ends in it",
    (protocol) => {
      const alone: Message[] = [
        user("u1"),
        { id: "a1", role: "assistant", content: [think(protocol, "m")] },
        user("u2"),
        { id: "a2", role: "assistant", content: [think(protocol, "m"), { type: "text", text: "\n\n" }] },
      ];
      const out = adaptHistory(alone, { protocol, model: "m" });
      expect(out.map((m) => m.content.filter((p) => p.type === "thinking").length)).toEqual([0, 0, 0, 0]);
      expect(alone[1]!.content).toHaveLength(1); // the session keeps it
    },
  );

  test("returns the same array when nothing changes", () => {
    const plain: Message[] = [user("u1"), { id: "a", role: "assistant", content: [{ type: "text", text: "hi" }] }];
    expect(adaptHistory(plain, { protocol: "openai", model: "m" })).toBe(plain);
  });
});

describe("tool calls", () => {
  test("a call without a result gets a synthetic error result right after its turn", () => {
    const h: Message[] = [
      user("u1"),
      {
        id: "a1",
        role: "assistant",
        content: [],
        toolCalls: [
          { id: "c1", name: "bash", arguments: "{}" },
          { id: "c2", name: "grep", arguments: "{}" },
        ],
      },
      result("r1", "c1"),
      user("u2"),
    ];
    const out = adaptHistory(h, { protocol: "openai", model: "m" });
    expect(out.map((m) => `${m.role}:${m.toolCallId ?? ""}`)).toEqual(["user:", "assistant:", "tool:c1", "tool:c2", "user:"]);
    expect(out[3]).toMatchObject({ isError: true, toolName: "grep", content: [{ type: "text", text: MISSING_RESULT }] });
  });

  test("results saved in the order their calls finished go in call order (Gemini pairs them by position)", () => {
    const calls = [
      { id: "c1", name: "bash", arguments: "{}" },
      { id: "c2", name: "edit", arguments: "{}" },
      { id: "c3", name: "grep", arguments: "{}" },
    ];
    const h: Message[] = [user("u1"), { id: "a1", role: "assistant", content: [], toolCalls: calls }, result("r3", "c3"), result("r1", "c1"), user("u2")];
    for (const protocol of ["openai", "google"] as const) {
      const out = adaptHistory(h, { protocol, model: "m" });
      expect(out.map((m) => `${m.role}:${m.toolCallId ?? ""}`)).toEqual(["user:", "assistant:", "tool:c1", "tool:c2", "tool:c3", "user:"]);
      expect(out.map((m) => m.id).filter((id) => id.startsWith("r"))).toEqual(["r1", "r3"]);
    }
  });

  test("orphaned and duplicate results are dropped", () => {
    const h: Message[] = [
      user("u1"),
      result("r0", "ghost"),
      { id: "a1", role: "assistant", content: [], toolCalls: [{ id: "c1", name: "t", arguments: "{}" }] },
      result("r1", "c1"),
      result("r2", "c1"),
    ];
    expect(adaptHistory(h, { protocol: "anthropic", model: "m" }).map((m) => m.id)).toEqual(["u1", "a1", "r1"]);
  });

  test("ids are normalized the same way on the call and on its result; foreign call signatures dropped", () => {
    const long = "functions.read_file:0/" + "x".repeat(60);
    const h: Message[] = [
      user("u1"),
      {
        id: "a1",
        role: "assistant",
        content: [],
        toolCalls: [{ id: long, name: "read_file", arguments: "{}", opaque: { protocol: "google", model: "gemini-3-pro", data: "sig" } }],
      },
      result("r1", long),
    ];
    const out = adaptHistory(h, { protocol: "anthropic", model: "claude" });
    const id = out[1]!.toolCalls![0]!.id;
    expect(id).toMatch(/^[A-Za-z0-9_-]{1,40}$/);
    expect(out[2]!.toolCallId).toBe(id);
    expect(out[1]!.toolCalls![0]!.opaque).toBeUndefined();
    const same = adaptHistory(h, { protocol: "google", model: "gemini-3-pro" });
    expect(same[1]!.toolCalls![0]!.opaque).toEqual({ protocol: "google", model: "gemini-3-pro", data: "sig" });
  });

  test.each([
    ["call_abc123", "call_abc123"],
    ["toolu_01A09q90qw90lq917835lq9", "toolu_01A09q90qw90lq917835lq9"],
    ["a.b c", "a_b_c"],
  ])("safeId(%s) = %s", (id, expected) => expect(safeId(id)).toBe(expected));

  test("a call saved with an empty id (an older hey, a model that sent none) keeps its real result, under one safe id on both", () => {
    const history: Message[] = [
      user("u1"),
      { id: "a1", role: "assistant", content: [], toolCalls: [{ id: "", name: "bash", arguments: '{"command":"echo 1"}' }] },
      { id: "r1", role: "tool", toolCallId: "", toolName: "bash", content: [{ type: "text", text: "1" }] },
    ];
    const out = adaptHistory(history, { protocol: "anthropic", model: "claude" });
    const id = out[1]!.toolCalls![0]!.id;
    expect(id).toBe(safeId(""));
    expect(out[2]).toMatchObject({ role: "tool", toolCallId: id, content: [{ type: "text", text: "1" }] });
    expect(out).toHaveLength(3);
  });

  test("safeId keeps long distinct ids distinct", () => {
    const a = safeId("p".repeat(50) + "1");
    const b = safeId("p".repeat(50) + "2");
    expect(a).not.toBe(b);
    expect(a.length).toBeLessThanOrEqual(40);
  });
});

describe("thinkingBlocked: Anthropic's one thinking setting per tool loop", () => {
  const call = (content: Message["content"]): Message => ({ id: "a", role: "assistant", content, toolCalls: [{ id: "c1", name: "t", arguments: "{}" }] });
  const claude: Target = { protocol: "anthropic", model: "claude" };
  const answered: Message = { id: "a", role: "assistant", content: [{ type: "text", text: "done" }] };
  test.each<[string, Message[], Target, boolean]>([
    ["another model's tool call in progress", [user("u"), call([{ type: "text", text: "x" }]), result("r", "c1")], claude, true],
    ["another Anthropic model's thinking", [user("u"), call([think("anthropic", "claude-old")]), result("r", "c1")], claude, true],
    ["then a line typed after its results", [user("u"), call([]), result("r", "c1"), user("u2")], claude, true],
    ["its own thinking on the call", [user("u"), call([think("anthropic", "claude")]), result("r", "c1")], claude, false],
    ["a last assistant message that answered", [user("u"), answered, user("u2")], claude, false],
    ["no assistant message yet", [user("u")], claude, false],
    ["another protocol", [user("u"), call([]), result("r", "c1")], { protocol: "openai", model: "claude" }, false],
    // the loop is judged by its first call: later calls need no thinking of their own
    [
      "a later call without thinking in its own loop",
      [user("u"), call([think("anthropic", "claude")]), result("r", "c1"), call([]), result("r", "c1")],
      claude,
      false,
    ],
    // a reply of another model's thinking alone ended that model's loop without an answer; left out of the request, it ends nothing
    [
      "after another model's loop that ended in its thinking alone, a line typed",
      [user("u"), call([]), result("r", "c1"), { id: "a", role: "assistant", content: [think("google", "gemini"), { type: "text", text: " " }] }, user("u2")],
      claude,
      true,
    ],
    [
      "after its own loop that ended in its own thinking alone",
      [user("u"), call([think("anthropic", "claude")]), result("r", "c1"), { id: "a", role: "assistant", content: [think("anthropic", "claude")] }, user("u2")],
      claude,
      false,
    ],
    // its own thinking alone is no answer either: the request leaves it out, so the loop is still in progress
    [
      "after another model's loop that ended in this model's thinking alone, a line typed",
      [user("u"), call([]), result("r", "c1"), { id: "a", role: "assistant", content: [think("anthropic", "claude")] }, user("u2")],
      claude,
      true,
    ],
    ["a loop another model began, continued without thinking", [user("u"), call([]), result("r", "c1"), call([]), result("r", "c1")], claude, true],
    [
      "a new loop after a typed line",
      [user("u"), call([]), result("r", "c1"), user("u2"), call([think("anthropic", "claude")]), result("r", "c1")],
      claude,
      false,
    ],
  ])("%s", (_name, messages, target, blocked) => {
    expect(thinkingBlocked(messages, target)).toBe(blocked);
  });
});

describe("a call whose arguments are not a JSON object (cut off by the output limit)", () => {
  const history: Message[] = [
    user("u1"),
    { id: "a1", role: "assistant", content: [], toolCalls: [{ id: "call_1", name: "write_file", arguments: '{"path":"a.md","content":"# Gu' }] },
    result("r1", "call_1"),
  ];

  test.each(["openai", "responses", "anthropic", "google"] as const)("goes to %s as `{}`, with its result", (protocol) => {
    const out = adaptHistory(history, { protocol, model: "m" });
    expect(out[1]!.toolCalls).toEqual([{ id: "call_1", name: "write_file", arguments: "{}" }]);
    expect(out[2]).toEqual(history[2]);
    expect(history[1]!.toolCalls![0]!.arguments).toStartWith('{"path"'); // the history itself keeps what the model wrote
  });

  test("blank arguments go as `{}` too; whole ones unchanged", () => {
    const blank = history.map((m) => (m.toolCalls ? { ...m, toolCalls: [{ ...m.toolCalls[0]!, arguments: " " }] } : m));
    expect(adaptHistory(blank, { protocol: "openai", model: "m" })[1]!.toolCalls![0]!.arguments).toBe("{}");
    const whole = history.map((m) => (m.toolCalls ? { ...m, toolCalls: [{ ...m.toolCalls[0]!, arguments: '{"path":"a.md"}' }] } : m));
    expect(adaptHistory(whole, { protocol: "openai", model: "m" })).toBe(whole);
  });
});

describe("two providers serving one model under one protocol (OpenAI and Azure, two keys)", () => {
  const owned = (provider?: string) => ({
    protocol: "responses" as const,
    model: "gpt-x",
    ...(provider ? { provider } : {}),
    data: { id: "rs_1", encrypted_content: "gAAAA" },
  });
  const history = (provider?: string): Message[] => [
    user("u1"),
    {
      id: "a1",
      role: "assistant",
      content: [{ type: "thinking", text: "plan", opaque: owned(provider) }],
      toolCalls: [{ id: "call_1", name: "bash", arguments: "{}", opaque: owned(provider) }],
    },
    result("r1", "call_1"),
  ];

  test("reasoning and call data go back only to the provider that produced them", () => {
    const toAzure = adaptHistory(history("gpt"), { protocol: "responses", model: "gpt-x", name: "azure" });
    expect(toAzure[1]!.content).toEqual([]);
    expect(toAzure[1]!.toolCalls).toEqual([{ id: "call_1", name: "bash", arguments: "{}" }]);
    expect(adaptHistory(history("gpt"), { protocol: "responses", model: "gpt-x", name: "gpt" })).toEqual(history("gpt"));
  });

  test("data that names no provider (a session written before hey recorded it) goes by protocol and model, as before", () => {
    expect(adaptHistory(history(), { protocol: "responses", model: "gpt-x", name: "azure" })).toEqual(history());
  });

  test("an Anthropic loop another provider's thinking started is sent with thinking off", () => {
    const claude = (provider: string): Message[] => [
      user("u1"),
      {
        id: "a1",
        role: "assistant",
        content: [{ type: "thinking", text: "t", opaque: { protocol: "anthropic", model: "claude-x", provider, data: { signature: "s" } } }],
        toolCalls: [{ id: "toolu_1", name: "bash", arguments: "{}" }],
      },
      result("r1", "toolu_1"),
    ];
    expect(thinkingBlocked(claude("work"), { protocol: "anthropic", model: "claude-x", name: "home" })).toBe(true);
    expect(thinkingBlocked(claude("home"), { protocol: "anthropic", model: "claude-x", name: "home" })).toBe(false);
  });
});

test("a call whose arguments were repaired is read once, not again for every request: a 300 KB write_file with a trailing comma", () => {
  const content = "x".repeat(300_000);
  const history: Message[] = [
    user("u1"),
    { id: "a1", role: "assistant", content: [], toolCalls: [{ id: "c1", name: "write_file", arguments: `{"path": "a.txt", "content": "${content}",}` }] },
    result("r1", "c1"),
  ];
  const target = { protocol: "openai" as const, model: "m" };
  let sent: readonly Message[] = [];
  expect(bigParses(300_000, () => void (sent = adaptHistory(history, target)))).toBeGreaterThan(0);
  expect(sent[1]!.toolCalls![0]!.arguments).toBe(JSON.stringify({ path: "a.txt", content }));
  expect(bigParses(300_000, () => void (sent = adaptHistory(history, target)))).toBe(0); // the next request
  expect(bigParses(300_000, () => void (sent = adaptHistory(history, target)))).toBe(0);
  expect(sent[1]!.toolCalls![0]!.arguments).toBe(JSON.stringify({ path: "a.txt", content }));
});
