// A long scripted session for the context passes (x119 #4): hundreds of steps of tool calls with
// repeats (dedup), failures (error purge), big outputs (the budget's trim), pauses past the cache's
// lifetime (rewrites), new user messages, and `prepare` run before each request as the agent runs
// it. Used by the differential test of the context's caches (test/context/incremental.test.ts) and
// by scripts/bench-turn-cpu.ts.
import { answered, newCompactionState, prepare, type PrepareDeps } from "../../src/context/compaction.ts";
import type { Message, ToolSpec } from "../../src/kernel/ir.ts";
import type { Provider } from "../../src/kernel/provider.ts";
import { withUniqueCallIds } from "../../src/kernel/tool-calls.ts";
import { testPolicy } from "./settings.ts";

const COMMANDS = ["npm test", "git status", "ls src", "cat package.json", "git diff", "npm run lint", "echo a", "pwd"];
const TOOLS: ToolSpec[] = [{ name: "bash", description: "runs a command", parameters: { type: "object", properties: { command: { type: "string" } } } }];

/** A deterministic pseudo-random sequence (the same script every run). */
function sequence(seed: number): () => number {
  let s = seed;
  return () => ((s = (s * 1103515245 + 12345) % 2 ** 31), s / 2 ** 31);
}

/** What step `n` adds: sometimes a user message, then an assistant message with one to three calls (their ids repeat, as some servers' do) and their results. */
function step(n: number, random: () => number): { user?: Message; assistant: Message; results: (ids: string[]) => Message[] } {
  const user: Message | undefined = n % 37 === 0 ? { id: `u${n}`, role: "user", content: [{ type: "text", text: `now the next part (${n})` }] } : undefined;
  const calls = Array.from({ length: 1 + Math.floor(random() * 3) }, (_, k) => {
    const command = COMMANDS[Math.floor(random() * COMMANDS.length)]!;
    // spaces differ between repeats: dedup compares the canonical arguments
    return { id: `call_${k}`, name: "bash", arguments: random() < 0.5 ? JSON.stringify({ command }) : `{ "command" : ${JSON.stringify(command)} }` };
  });
  const outputs = calls.map((c) => {
    const big = random() < 0.08;
    const failed = random() < 0.15;
    const text = big ? `${"log line of a long build\n".repeat(2000)}done ${n}` : `${c.arguments} gave ${"x".repeat(Math.floor(random() * 400))} at ${n}`;
    return { text, failed };
  });
  const assistant: Message = { id: `a${n}`, role: "assistant", content: [{ type: "text", text: `step ${n}` }], toolCalls: calls };
  const results = (ids: string[]) =>
    ids.map(
      (id, k): Message => ({
        id: `r${n}_${k}`,
        role: "tool",
        toolCallId: id,
        toolName: "bash",
        isError: outputs[k]!.failed,
        content: [{ type: "text", text: outputs[k]!.text }],
      }),
    );
  return { ...(user ? { user } : {}), assistant, results };
}

export interface LongSession {
  /** prepares the request of the next step (adding its messages first); its messages, or undefined past the last step */
  next(): Promise<readonly Message[] | undefined>;
  /** messages in the history now */
  messages(): number;
  /** the history now (not to be changed) */
  history(): readonly Message[];
}

/**
 * `steps` steps over one growing history; `fresh`: every request is prepared from a deep copy of
 * the history (new message objects each time: no cache keyed by a message ever applies).
 */
export function longSession(steps: number, opts: { fresh?: boolean; budgetTokens?: number; compressTool?: boolean } = {}): LongSession {
  const random = sequence(42);
  let clock = 1_000_000;
  const provider: Provider = { protocol: "openai", model: "m", stream: async function* () {} };
  const deps: PrepareDeps = {
    state: newCompactionState(),
    policy: testPolicy({ budgetTokens: opts.budgetTokens ?? 60_000, compressTool: opts.compressTool ?? true, purgeErrorsAfter: 4 }),
    provider,
    output: { emit: () => {} },
    tools: TOOLS,
    system: () => "system",
    taskNote: () => undefined,
    now: () => clock,
  };
  const history: Message[] = [{ id: "u0", role: "user", content: [{ type: "text", text: "fix the build" }] }];
  const signal = new AbortController().signal;
  let n = 0;
  return {
    messages: () => history.length,
    history: () => history,
    async next() {
      if (n >= steps) return undefined;
      n++;
      const { user, assistant, results } = step(n, random);
      if (user) history.push(user);
      const unique = withUniqueCallIds(assistant, opts.fresh ? structuredClone(history) : history);
      history.push(unique, ...results(unique.toolCalls!.map((c) => c.id)));
      clock += n % 50 === 0 ? 2 * 3_600_000 : 3_000; // now and then a pause past the cache's lifetime (an hour: an OpenAI-style endpoint's)
      const prepared = await prepare(opts.fresh ? structuredClone(history) : history, deps, signal, { deterministic: true });
      answered(deps.state);
      return prepared.messages;
    },
  };
}
