// differential: kept caches vs structuredClone per request, with summaries, /compact, /undo notes, a /reload policy change
import { expect, test } from "bun:test";
import { answered, compactNow, newCompactionState, prepare, type PrepareDeps } from "../../src/context/compaction.ts";
import type { Message, ToolSpec } from "../../src/kernel/ir.ts";
import type { Provider, StreamEvent } from "../../src/kernel/provider.ts";
import { withUniqueCallIds } from "../../src/kernel/tool-calls.ts";
import { testPolicy } from "../helpers/settings.ts";
import { isSummaryRequest } from "../helpers/summary-requests.ts";

const COMMANDS = ["npm test", "git status", "ls src", "cat package.json", "git diff", "npm run lint", "echo a", "pwd"];
const TOOLS: ToolSpec[] = [{ name: "bash", description: "runs", parameters: { type: "object", properties: { command: { type: "string" } } } }];
function sequence(seed: number) {
  let s = seed;
  return () => ((s = (s * 1103515245 + 12345) % 2 ** 31), s / 2 ** 31);
}

function session(fresh: boolean) {
  const random = sequence(7);
  let clock = 1_000_000;
  let asked = 0;
  const provider: Provider = {
    protocol: "openai",
    model: "m",
    async *stream(request): AsyncGenerator<StreamEvent> {
      if (!isSummaryRequest(request)) throw new Error("only summaries");
      asked++;
      yield {
        type: "done",
        message: {
          id: `s${asked}`,
          role: "assistant",
          content: [{ type: "text", text: `summary ${asked} of ${request.messages.length} msgs ${JSON.stringify(request.messages).length}` }],
        },
        usage: { input: 10, output: 10, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
        stop: "stop",
      };
    },
  };
  const deps: PrepareDeps = {
    state: newCompactionState(),
    policy: testPolicy({ budgetTokens: 25_000, compressTool: true, purgeErrorsAfter: 4 }),
    provider,
    output: { emit: () => {} },
    tools: TOOLS,
    system: () => "system",
    taskNote: () => undefined,
    now: () => clock,
  };
  const history: Message[] = [{ id: "u0", role: "user", content: [{ type: "text", text: "fix the build" }] }];
  const signal = new AbortController().signal;
  const view = () => (fresh ? structuredClone(history) : history);
  const out: string[] = [];
  return {
    out,
    async run(steps: number) {
      for (let n = 1; n <= steps; n++) {
        if (n % 23 === 0)
          history.push({ id: `u${n}`, role: "user", content: [{ type: "text", text: `[undo note: files of turn ${n} restored] next (${n})` }] });
        if (n === 90) deps.policy = { ...deps.policy, dedup: false, purgeErrorsAfter: 2 }; // /reload
        if (n === 140) deps.policy = { ...deps.policy, dedup: true, purgeErrorsAfter: 6, protectTurns: 2 };
        if (n % 41 === 0) {
          const r = await compactNow(view(), deps, signal);
          out.push(`compact ${r ? "yes" : "no"} ${deps.state.summaries.length}`);
        }
        const calls = Array.from({ length: 1 + Math.floor(random() * 3) }, (_, k) => {
          const command = COMMANDS[Math.floor(random() * COMMANDS.length)]!;
          return { id: `call_${k}`, name: "bash", arguments: random() < 0.5 ? JSON.stringify({ command }) : `{ "command" : ${JSON.stringify(command)} }` };
        });
        const a: Message = { id: `a${n}`, role: "assistant", content: [{ type: "text", text: `step ${n}` }], toolCalls: calls };
        const unique = withUniqueCallIds(a, view());
        history.push(
          unique,
          ...unique.toolCalls!.map((c, k): Message => {
            const big = random() < 0.08,
              failed = random() < 0.15;
            return {
              id: `r${n}_${k}`,
              role: "tool",
              toolCallId: c.id,
              toolName: "bash",
              isError: failed,
              content: [{ type: "text", text: big ? "log\n".repeat(3000) + n : `${c.arguments} ${"x".repeat(Math.floor(random() * 400))} ${n}` }],
            };
          }),
        );
        clock += n % 50 === 0 ? 2 * 3_600_000 : 3_000; // now and then a pause past the cache's lifetime (an hour: an OpenAI-style endpoint's)
        const p = await prepare(view(), deps, signal);
        answered(deps.state);
        out.push(JSON.stringify(p.messages) + (p.note ?? ""));
      }
    },
  };
}

test("request bodies built over the growing history equal fresh builds through summaries, /compact and a /reload that changes dedup and purge", async () => {
  const a = session(false),
    b = session(true);
  await a.run(200);
  await b.run(200);
  let first = -1;
  for (let i = 0; i < a.out.length; i++)
    if (a.out[i] !== b.out[i]) {
      first = i;
      break;
    }
  expect(a.out.filter((x) => x.startsWith("compact yes")).length).toBeGreaterThan(0);
  expect(first).toBe(-1);
});
