// x66 finding 2: a file read into a small window is cut to what fits before the model sees it.
// The note in its place told the model to read all the lines left out again (`limit=153` where
// about 70 fit), so that read was cut again, to its head and tail around a new hole; and the
// terminal said `✓ 300 lines` though the model got 72. Now the note asks for what fits — that read
// reaches the model whole, and read_file's own `… N more lines; use offset=…` points on — and the
// user is told how much of the newest result was sent.
import { describe, expect, test } from "bun:test";
import { newCompactionState, prepare, type PrepareDeps } from "../../src/context/compaction.ts";
import { cutNotices, seenIn } from "../../src/context/cut-notice.ts";
import { emptyUsage, textOf, type Message } from "../../src/kernel/ir.ts";
import type { AgentEvent } from "../../src/kernel/output.ts";
import type { Provider, StreamEvent } from "../../src/kernel/provider.ts";
import { testPolicy } from "../helpers/settings.ts";

/** Lines of a.ts: about three times what a 4,096-token window holds. */
const LINES = 1000;

/** read_file's output for lines `from`…`to` of a.ts, of ~85-character lines. */
const numbered = (from: number, to: number) => {
  const width = String(to).length;
  const lines = [];
  for (let i = from; i <= to; i++)
    lines.push(`${String(i).padStart(width)}\texport function fn_${i}(x: number): number { return x * ${i} + 17; } // line ${i}`);
  return lines.join("\n") + (to < LINES ? `\n… ${LINES - to} more lines; use offset=${to + 1}` : "");
};

/** A session against a 4,096-token window whose model reads a.ts and then does what each note says. */
function session() {
  const events: AgentEvent[] = [];
  const provider: Provider = {
    protocol: "openai",
    model: "m",
    async *stream(): AsyncGenerator<StreamEvent> {
      const text = "Summary: the user asked to read a.ts; it was read in parts.";
      yield { type: "done", message: { id: "s", role: "assistant", content: [{ type: "text", text }] }, usage: emptyUsage(), stop: "stop" };
    },
  };
  const deps: PrepareDeps = {
    state: newCompactionState(),
    policy: testPolicy({ budgetTokens: 40_000, compressTool: false, window: 4096 }),
    provider,
    output: { emit: (e) => events.push(e) },
    tools: [],
    system: () => "system",
    taskNote: () => undefined,
    now: () => 0,
  };
  const history: Message[] = [{ id: "u", role: "user", content: [{ type: "text", text: "Read a.ts." }] }];
  let n = 0;
  const read = (args: { offset?: number; limit?: number }) => {
    n++;
    const call = { id: `c${n}`, name: "read_file", arguments: JSON.stringify({ path: "a.ts", ...args }) };
    history.push({ id: `a${n}`, role: "assistant", content: [], toolCalls: [call] });
    const from = args.offset ?? 1;
    const text = numbered(from, Math.min(LINES, from + (args.limit ?? 2000) - 1));
    history.push({ id: `r${n}`, role: "tool", toolCallId: call.id, toolName: "read_file", content: [{ type: "text", text }] });
  };
  const send = async () => (await prepare(history, deps, new AbortController().signal)).messages.find((m) => m.id === `r${n}`)!;
  return { events, read, send };
}

const hint = (sent: Message) => /read_file "a\.ts" with offset=(\d+) limit=(\d+)/.exec(textOf(sent));

describe("a read cut to fit a small window", () => {
  test("its note asks for lines that fit: that read reaches the model whole", async () => {
    const s = session();
    s.read({});
    const first = await s.send();
    const [, offset, limit] = hint(first)!;
    s.read({ offset: Number(offset), limit: Number(limit) });
    const again = await s.send();
    // sent as read: no second cut, no hole in the lines the model asked for
    expect(textOf(again)).not.toContain("left out to fit the context budget");
    expect(
      textOf(again)
        .split("\n")
        .filter((l) => /^\s*\d+\t/.test(l)).length,
    ).toBe(Number(limit));
    // and not a trickle: about what the first cut kept, or more
    const kept = textOf(first)
      .split("\n")
      .filter((l) => /^\s*\d+\t/.test(l)).length;
    expect(Number(limit)).toBeGreaterThanOrEqual(kept);
  });

  test("the user is told how much of the file the model got, once", async () => {
    const s = session();
    s.read({});
    const first = await s.send();
    const kept = textOf(first)
      .split("\n")
      .filter((l) => /^\s*\d+\t/.test(l)).length;
    const notices = () => s.events.flatMap((e) => (e.type === "notice" ? [e.message] : []));
    expect(notices()).toEqual([
      `read a.ts: ${kept} of ${LINES.toLocaleString("en-US")} lines sent to the model; the rest was left out to fit the context budget`,
    ]);
    await s.send(); // the same request again (a retry): nothing new to tell
    expect(notices()).toHaveLength(1);
  });
});

describe("cutNotices", () => {
  const ask = (id: string, callId: string, name: string, args: string): Message => ({
    id,
    role: "assistant",
    content: [],
    toolCalls: [{ id: callId, name, arguments: args }],
  });
  const tool = (id: string, callId: string, text: string): Message => ({ id, role: "tool", toolCallId: callId, content: [{ type: "text", text }] });
  const log = Array.from({ length: 500 }, (_, i) => `step ${i} done`).join("\n");
  const history = [ask("a1", "c1", "bash", '{"command":"make"}'), tool("r1", "c1", log)];
  const cutLog = tool("r1", "c1", [...log.split("\n").slice(0, 40), "[… 450 lines left out …]", ...log.split("\n").slice(490)].join("\n"));

  test.each([
    ["a newest result cut before it was sent", [cutLog], [], ["bash: 50 of 500 lines sent to the model; the rest was left out to fit the context budget"]],
    ["a newest result sent whole", [history[1]!], [], []],
    ["a result the previous request carried", [cutLog], ["r1"], []],
  ])("%s", (_, sent, before, said) => {
    expect(cutNotices(history, sent, { ids: new Set(before), told: new Map() })).toEqual(said);
  });

  test("a line said for a request not answered is not said again; a changed cut is, and after an answer nothing is", () => {
    const seen = seenIn();
    expect(cutNotices(history, [cutLog], seen)).toHaveLength(1);
    expect(cutNotices(history, [cutLog], seen)).toEqual([]); // the same request built again
    const shorter = tool("r1", "c1", [...log.split("\n").slice(0, 20), "[… 470 lines left out …]", ...log.split("\n").slice(490)].join("\n"));
    expect(cutNotices(history, [shorter], seen)).toEqual(["bash: 30 of 500 lines sent to the model; the rest was left out to fit the context budget"]);
    expect(cutNotices(history, [shorter], seenIn([shorter]))).toEqual([]); // the model answered a request that held it
  });

  test("a result of an earlier step (a resumed session's first request) is not told", () => {
    const later = [...history, ask("a2", "c2", "bash", '{"command":"ls"}'), tool("r2", "c2", "a.ts")];
    expect(cutNotices(later, [cutLog, later[3]!], seenIn())).toEqual([]);
  });
});
