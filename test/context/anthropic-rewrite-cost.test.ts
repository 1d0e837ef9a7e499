// A rewrite of an earlier message (dedup, error purge) on Anthropic (x134 finding 1). Anthropic
// finds a cache entry only within about 20 blocks before a `cache_control` mark, and hey marks the
// system prompt and the conversation's tail: a rewrite 15 messages back left only the system prompt
// reachable, and the whole conversation was written again at 1.25× — with dedup on, the session
// cost 21 % more than with it off. The request now also marks the last message it repeats as sent,
// where the cache reads up to. A session of x134's prompts is made through `prepare` as the agent
// makes it, rendered as the Anthropic adapter sends it, and billed by the cache emulator.
import { expect, test } from "bun:test";
import { anthropicBlocks, anthropicCache, billed, total } from "../../scripts/cache-emulator.ts";
import { answered, newCompactionState, prepare, type PrepareDeps } from "../../src/context/compaction.ts";
import { type Message, type ToolSpec } from "../../src/kernel/ir.ts";
import { sameCallResult } from "../../src/kernel/repeats.ts";
import type { ModelRequest, Provider } from "../../src/kernel/provider.ts";
import { toRequest } from "../../src/providers/anthropic.ts";
import { testPolicy } from "../helpers/settings.ts";

const TOOLS: ToolSpec[] = ["bash", "read_file", "write_file", "edit", "grep", "compress"].map((name) => ({
  name,
  description: `${name} tool`,
  parameters: { type: "object", properties: {} },
}));
const lines = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${i + 1}\t${tag} row ${i} ${"abcdefghij".repeat(5)}`).join("\n");

/** read_file's answer to a re-read of unchanged lines: a note pointing at the first read (read-stubs.ts), which dedup leaves be. */
const UNCHANGED = "[unchanged: big.txt lines 1-300 are as read before (call c0-0-0): not sent again]";

type Call = { name: string; args: object; text: string; isError?: true };
const SEQ = { name: "bash", args: { command: "seq 1 400" }, text: Array.from({ length: 400 }, (_, i) => String(i + 1)).join("\n") };

/** x134's script for one prompt: the replies of calls the model makes in turn, and what each call returns. */
const plan = (p: number): Call[][] => [
  [{ name: "read_file", args: { path: "big.txt" }, text: p === 0 ? lines(300, "big") : UNCHANGED }],
  [SEQ, { ...SEQ, text: sameCallResult(0) }], // the same call twice in one reply: the copy does not run
  [{ name: "read_file", args: { path: `nope${p}.txt` }, text: `nope${p}.txt: no such file`, isError: true }],
  [{ name: "bash", args: { command: "cat big.txt | head -150" }, text: lines(150, "big") }],
  [{ name: "read_file", args: { path: "big.txt" }, text: UNCHANGED }],
];

/** Billed-equivalent input tokens of the session's requests under Anthropic's cache. */
async function session(dedup: boolean): Promise<number> {
  const provider: Provider = {
    protocol: "anthropic",
    model: "m",
    stream() {
      throw new Error("no summary is due in this session");
    },
  };
  const deps: PrepareDeps = {
    state: newCompactionState(),
    policy: testPolicy({ dedup, budgetTokens: 40_000 }),
    provider,
    output: { emit: () => {} },
    tools: TOOLS,
    system: () => "You are hey, a coding agent in a terminal. ".repeat(100),
    taskNote: () => undefined,
    now: () => 0,
  };
  const history: Message[] = [];
  const bodies: ReturnType<typeof anthropicBlocks>[] = [];
  const signal = new AbortController().signal;
  const send = async () => {
    const { usage: _usage, ...sent } = await prepare(history, deps, signal);
    const request: ModelRequest = { ...sent, tools: TOOLS };
    bodies.push(anthropicBlocks(toRequest(request, { model: "m" }) as Parameters<typeof anthropicBlocks>[0]));
    answered(deps.state, { request, by: provider });
  };
  for (let p = 0; p < 4; p++) {
    history.push({ id: `u${p}`, role: "user", content: [{ type: "text", text: `task number ${p + 1}: look at big.txt and run seq` }] });
    for (const [k, calls] of plan(p).entries()) {
      await send();
      const ids = calls.map((_, j) => `c${p}-${k}-${j}`);
      const toolCalls = calls.map((c, j) => ({ id: ids[j]!, name: c.name, arguments: JSON.stringify(c.args) }));
      history.push({ id: `a${ids[0]}`, role: "assistant", content: [], toolCalls });
      for (const [j, c] of calls.entries())
        history.push({
          id: `r${ids[j]}`,
          role: "tool",
          toolCallId: ids[j]!,
          toolName: c.name,
          content: [{ type: "text", text: c.text }],
          ...(c.isError ? { isError: true as const } : {}),
        });
    }
    await send();
    history.push({ id: `d${p}`, role: "assistant", content: [{ type: "text", text: "Done." }] });
  }
  return billed(total(anthropicCache(bodies)));
}

test("on Anthropic, a session whose dedup rewrites a result 15 messages back is billed no more with dedup on than with it off", async () => {
  const on = await session(true);
  const off = await session(false);
  expect(on).toBeLessThanOrEqual(off); // 62,140 against 52,607 before (x134 measured 56,109 against 46,265); 49,697 now
});
