// Large arguments of tool calls that have run (a 600 KB write_file, a long edit, a bash heredoc, an
// MCP tool's big argument): what a request sends keeps each long string's first and last lines
// around a note saying where the whole is, from the first request that sends the call back, the
// same bytes in every request after; the history keeps the call whole. Smaller calls are cut by
// the budget's ceiling (older protected turns, held from request to request) and the window's fit
// (the newest turn). The arguments stay a JSON object with the same keys.
import { describe, expect, test } from "bun:test";
import { buildContext, type ContextInput } from "../../src/context/view.ts";
import type { Message, ToolCall } from "../../src/kernel/ir.ts";
import { createAgent } from "../../src/agent.ts";
import { agentSettings } from "../../src/runtime.ts";
import { usageReport } from "../../src/ui/usage-report.ts";
import { tempDir } from "../helpers/e2e.ts";
import { fakeProvider } from "../helpers/fake-provider.ts";
import { recordingOutput } from "../helpers/recording-output.ts";
import { defaultSettingsForTest, testPolicy } from "../helpers/settings.ts";

const text = (id: string, role: "user" | "assistant", t: string): Message => ({ id, role, content: [{ type: "text", text: t }] });
const lines = (n: number, tag = "line") => Array.from({ length: n }, (_, i) => `${tag} ${i + 1} ${"x".repeat(50)}`).join("\n") + "\n";
const BIG = lines(10_000); // ~600 KB
const call = (id: string, name: string, args: unknown): ToolCall => ({ id, name, arguments: JSON.stringify(args) });
const turn = (id: string, calls: ToolCall[], results: { error?: boolean } = {}): Message[] => [
  { id, role: "assistant", content: [], toolCalls: calls },
  ...calls.map(
    (c): Message => ({ id: `r-${c.id}`, role: "tool", toolCallId: c.id, content: [{ type: "text", text: "ok" }], ...(results.error ? { isError: true } : {}) }),
  ),
];
const input = (history: Message[], over: Partial<ContextInput> = {}): ContextInput => ({
  history,
  summaries: [],
  policy: testPolicy({ budgetTokens: 40_000, compressTool: false }),
  fixedTokens: 1000,
  tokensPerChar: 0.25,
  ...over,
});
const sentArgs = (view: { messages: readonly Message[] }, id: string) =>
  JSON.parse(view.messages.find((m) => m.toolCalls?.some((c) => c.id === id))!.toolCalls!.find((c) => c.id === id)!.arguments);
const bytes = (view: { messages: readonly Message[] }) => JSON.stringify(view.messages).length;

describe("a large call that has run is sent cut", () => {
  const history = [text("u1", "user", "write big.txt"), ...turn("a1", [call("c1", "write_file", { path: "big.txt", content: BIG })])];

  test("a 600 KB write_file: its first and last lines around a note naming the file and the lines to read; the history keeps it whole", () => {
    const view = buildContext(input(history));
    const args = sentArgs(view, "c1");
    expect(Object.keys(args)).toEqual(["path", "content"]);
    expect(args.path).toBe("big.txt");
    expect(args.content).toStartWith(`line 1 ${"x".repeat(50)}\nline 2 `);
    expect(args.content).toEndWith(`line 10000 ${"x".repeat(50)}\n`);
    expect(args.content).toMatch(
      /\n\[hey: lines [\d,]+–[\d,]+ \(\d+ KB\) of this content left out of the history to fit the context budget; the call wrote it whole to "big\.txt": read_file with offset=\d+ limit=\d+ shows it\]\n/,
    );
    expect(args.content.length).toBeLessThan(4000);
    expect(bytes(view)).toBeLessThan(8000);
    expect(view.estimate).toBeLessThan(40_000);
    expect(history[1]!.toolCalls![0]!.arguments.length).toBeGreaterThan(600_000);
  });

  test("the lines the note names are the lines left out", () => {
    const content: string = sentArgs(buildContext(input(history)), "c1").content;
    const [, from, to] = /lines (\d+)–([\d,]+)/.exec(content)!.map((s) => s.replace(/,/g, ""));
    const before = content.slice(0, content.indexOf("[hey:")).trimEnd().split("\n");
    const after = content.slice(content.indexOf("]\n") + 2).split("\n");
    expect(before.at(-1)).toStartWith(`line ${Number(from) - 1} `);
    expect(after[0]).toStartWith(`line ${Number(to) + 1} `);
  });

  test("the same bytes in every request after: more turns, another estimate ratio, a resumed run", () => {
    const first = buildContext(input(history)).messages[1]!.toolCalls![0]!.arguments;
    const later = [...history, text("a2", "assistant", "done"), text("u2", "user", "now the tests"), ...turn("a3", [call("c3", "bash", { command: "ls" })])];
    for (const ratio of [0.25, 0.31])
      expect(buildContext(input(structuredClone(later), { tokensPerChar: ratio })).messages[1]!.toolCalls![0]!.arguments).toBe(first);
  });

  test("the answer's other calls, and a call that is not large, are sent whole", () => {
    const small = call("c2", "write_file", { path: "small.txt", content: lines(100) });
    const both = [text("u1", "user", "write"), ...turn("a1", [call("c1", "write_file", { path: "big.txt", content: BIG }), small])];
    const view = buildContext(input(both));
    expect(view.messages[1]!.toolCalls![1]).toEqual(small);
    expect(sentArgs(view, "c1").content.length).toBeLessThan(4000);
  });

  test("a call with no result (it has not run) is sent whole", () => {
    const pending = [
      text("u1", "user", "write"),
      { id: "a1", role: "assistant" as const, content: [], toolCalls: [call("c1", "write_file", { path: "big.txt", content: BIG })] },
    ];
    expect(buildContext(input(pending)).messages[1]!.toolCalls![0]!.arguments.length).toBeGreaterThan(600_000);
  });

  test.each([
    [
      "edit",
      { path: "src/a.ts", old_string: "const a = 1;", new_string: BIG },
      "new_string",
      /the edit was made to "src\/a\.ts": read_file shows the file as it is now\]/,
    ],
    [
      "bash",
      { command: `cat > gen.sql <<'EOF'\n${BIG}EOF` },
      "command",
      /of this argument left out of the history to fit the context budget; the session file keeps the call whole\]/,
    ],
  ])("%s: the long argument keeps its start and end", (name, args, key, note) => {
    const view = buildContext(input([text("u1", "user", "go"), ...turn("a1", [call("c1", name, args)])]));
    const sent = sentArgs(view, "c1");
    expect(Object.keys(sent)).toEqual(Object.keys(args));
    expect(sent[key]).toMatch(note);
    expect(sent[key].slice(0, 30)).toBe((args as Record<string, string>)[key]!.slice(0, 30));
    expect(sent[key].slice(-30)).toBe((args as Record<string, string>)[key]!.slice(-30));
    expect(sent[key].length).toBeLessThan(4000);
  });

  test("an MCP tool's nested argument is cut where it is; the other values are kept", () => {
    const args = { table: "logs", rows: [{ id: 1, body: BIG }], dry_run: false };
    const sent = sentArgs(buildContext(input([text("u1", "user", "go"), ...turn("a1", [call("c1", "db__insert", args)])])), "c1");
    expect(sent.table).toBe("logs");
    expect(sent.dry_run).toBe(false);
    expect(sent.rows[0].id).toBe(1);
    expect(sent.rows[0].body).toMatch(/^line 1 [\s\S]*\[hey: [\s\S]*the session file keeps the call whole\][\s\S]*line 10000 x+\n$/);
  });

  test("a write_file that failed does not claim the file holds it", () => {
    const view = buildContext(input([text("u1", "user", "go"), ...turn("a1", [call("c1", "write_file", { path: "big.txt", content: BIG })], { error: true })]));
    const content: string = sentArgs(view, "c1").content;
    expect(content).toContain("the session file keeps the call whole");
    expect(content).not.toContain("wrote it whole");
  });
});

describe("the budget's ceiling and the window cut smaller calls too", () => {
  const write = (id: string, n: number) => call(id, "write_file", { path: `f${n}.txt`, content: lines(150, `f${n}`) }); // ~9 KB each, under a quarter of the budget
  const history = [
    text("u1", "user", "write the files"),
    ...turn("a1", [write("c1", 1), write("c2", 2)]),
    ...turn("a2", [write("c3", 3), write("c4", 4)]),
    ...turn("a3", [write("c5", 5), write("c6", 6)]),
  ];
  const policy = testPolicy({ budgetTokens: 10_000, compressTool: false });

  test("the last turns over the budget: the older turns' calls are cut, the newest turn's sent whole; the next request cuts them the same", () => {
    const view = buildContext(input(history, { policy }));
    expect(view.overBudget).toBe(false);
    expect(view.estimate).toBeLessThanOrEqual(10_000);
    expect(view.stats.trimmed).toBe(0);
    expect(sentArgs(view, "c1").content).toContain("[hey: ");
    expect(sentArgs(view, "c5").content).toBe(lines(150, "f5"));
    expect(sentArgs(view, "c6").content).toBe(lines(150, "f6"));
    const next = buildContext(input([...history, text("a4", "assistant", "done")], { policy, hold: view.hold }));
    expect(sentArgs(next, "c1").content).toBe(sentArgs(view, "c1").content);
  });

  test("the newest turn's calls alone over the model's window: cut to fit", () => {
    const wide = [
      text("u1", "user", "write the files"),
      ...turn(
        "a1",
        [1, 2, 3, 4, 5, 6].map((n) => write(`c${n}`, n)),
      ),
    ];
    const view = buildContext(input(wide, { policy: testPolicy({ budgetTokens: 8000, compressTool: false }), hardTokens: 9000 }));
    expect(view.estimate).toBeLessThanOrEqual(9000);
    expect(sentArgs(view, "c1").content).toContain("[hey: ");
  });
});

test("/usage says how many long tool calls are sent cut; the model's next request holds the cut, the agent's history the call whole", async () => {
  const dir = tempDir();
  try {
    const p = fakeProvider([{ toolCalls: [{ name: "write_file", arguments: { path: "big.txt", content: BIG } }] }, { text: "Wrote big.txt." }]);
    const write = { name: "write_file", description: "writes", parameters: {}, run: async () => ({ output: "created big.txt" }) };
    const none = { permission: () => undefined, taskNote: () => undefined };
    const agent = createAgent({
      settings: agentSettings(defaultSettingsForTest()),
      provider: p,
      tools: () => [write],
      output: recordingOutput(),
      cwd: dir.path,
      system: () => "s",
      ...none,
    });
    await agent.send("write big.txt", new AbortController().signal);
    expect(JSON.stringify(p.requests[1]!.messages).length).toBeLessThan(10_000);
    expect(agent.messages.find((m) => m.toolCalls)!.toolCalls![0]!.arguments.length).toBeGreaterThan(600_000);
    expect(usageReport(agent)).toContain("1 long tool call cut to start and end");
  } finally {
    dir.remove();
  }
});
