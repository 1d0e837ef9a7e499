// One conversation: its messages, the current provider, the context state and the loop's
// dependencies. The one-shot run and the REPL both drive it; slash commands change its model and
// effort and read its usage.
import { compactRange, correctEstimate, newCompactionState, prepare, type CompactionState } from "./context/compaction.ts";
import { addUsage, emptyUsage, userMessage, type ContentBlock, type Effort, type Message, type Usage } from "./kernel/ir.ts";
import { runLoop, type RunResult } from "./kernel/loop.ts";
import type { Output } from "./kernel/output.ts";
import type { Provider } from "./kernel/provider.ts";
import type { Tool } from "./kernel/tool.ts";
import type { PermissionCheck } from "./kernel/tool-calls.ts";
import type { Settings } from "./config/resolve.ts";
import { buildContext, type Summary } from "./context/view.ts";

export interface AgentParts {
  settings: Settings;
  provider: Provider;
  tools: Tool[];
  output: Output;
  cwd: string;
  /** the system prompt without the per-request context line */
  system: string;
  permission: PermissionCheck;
  /** compactions of a resumed session */
  summaries?: Summary[];
}

export interface Agent extends AgentParts {
  messages: Message[];
  /** the effort sent with each request; undefined = the provider's configured default */
  effort: Effort | undefined;
  compaction: CompactionState;
  usage: { total: Usage; last: Usage | undefined; requests: number };
  /** appends a user message and runs the loop until it stops */
  send(content: string | ContentBlock[], signal: AbortSignal): Promise<RunResult>;
  /** summarizes everything that may be summarized now (`/compact`); false when there is nothing to */
  compact(instructions: string | undefined, signal: AbortSignal): Promise<boolean>;
}

export function createAgent(parts: AgentParts): Agent {
  const agent: Agent = {
    ...parts,
    messages: [],
    effort: parts.settings.effort,
    compaction: newCompactionState(parts.summaries),
    usage: { total: emptyUsage(), last: undefined, requests: 0 },
    send(content, signal) {
      const message = userMessage(content);
      agent.messages.push(message);
      agent.output.emit({ type: "message", message });
      const output: Output = {
        emit(event) {
          if (event.type === "usage") {
            const u = { input: event.input_tokens, output: event.output_tokens, cacheRead: event.cache_read_tokens, cacheWrite: event.cache_write_tokens, reasoning: event.reasoning_tokens };
            agent.usage = { total: addUsage(agent.usage.total, u), last: u, requests: agent.usage.requests + 1 };
            correctEstimate(agent.compaction, u.input);
          }
          agent.output.emit(event);
        },
      };
      return runLoop(agent.messages, {
        provider: agent.provider,
        tools: agent.tools,
        output,
        context: (history, s) => prepare(history, prepareDeps(agent, output), s),
        signal,
        cwd: agent.cwd,
        limits: { maxTurns: agent.settings.agent.maxTurns, parallelTools: agent.settings.agent.parallelTools },
        retry: agent.settings.retry,
        permission: agent.permission,
        effort: agent.effort,
        clock: { sleep, random: Math.random },
      });
    },
    async compact(instructions, signal) {
      const deps = prepareDeps(agent, agent.output);
      const view = buildContext({ history: agent.messages, summaries: agent.compaction.summaries, policy: deps.policy, fixedTokens: 0, tokensPerChar: agent.compaction.tokensPerChar });
      if (!view.summarizable) return false;
      await compactRange(agent.messages, view.summarizable, { ...deps, budgetTokens: deps.policy.budgetTokens }, signal, instructions);
      return true;
    },
  };
  return agent;
}

function prepareDeps(agent: Agent, output: Output) {
  const c = agent.settings.compaction;
  return {
    state: agent.compaction,
    policy: { budgetTokens: agent.settings.agent.budgetTokens, dedup: c.dedup, purgeErrorsAfter: c.purgeErrorsAfter, compressTool: c.compressTool },
    nudgeThreshold: c.nudgeThreshold,
    provider: agent.provider,
    output,
    tools: agent.tools,
    cwd: agent.cwd,
    system: agent.system,
  };
}

/** Waits `ms`; rejects at once when `signal` aborts (a Ctrl-C during a retry wait). */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });
}
