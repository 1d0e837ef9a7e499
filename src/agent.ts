// One conversation: its messages, the current provider and the loop's dependencies. The one-shot
// run and the REPL both drive it; slash commands change its model and effort.
import { userMessage, type ContentBlock, type Effort, type Message } from "./kernel/ir.ts";
import { runLoop, type RunResult } from "./kernel/loop.ts";
import type { Output } from "./kernel/output.ts";
import type { Provider } from "./kernel/provider.ts";
import type { Tool } from "./kernel/tool.ts";
import type { PermissionCheck } from "./kernel/tool-calls.ts";
import type { Settings } from "./pure/config.ts";

export interface AgentParts {
  settings: Settings;
  provider: Provider;
  tools: Tool[];
  output: Output;
  cwd: string;
  system: () => string;
  permission: PermissionCheck;
}

export interface Agent extends AgentParts {
  messages: Message[];
  /** the effort sent with each request; undefined = the provider's configured default */
  effort: Effort | undefined;
  /** appends a user message and runs the loop until it stops */
  send(content: string | ContentBlock[], signal: AbortSignal): Promise<RunResult>;
}

export function createAgent(parts: AgentParts): Agent {
  const agent: Agent = {
    ...parts,
    messages: [],
    effort: parts.settings.effort,
    send(content, signal) {
      const message = userMessage(content);
      agent.messages.push(message);
      agent.output.emit({ type: "message", message });
      return runLoop(agent.messages, {
        provider: agent.provider,
        tools: agent.tools,
        output: agent.output,
        system: agent.system,
        signal,
        cwd: agent.cwd,
        limits: { maxTurns: agent.settings.agent.maxTurns, parallelTools: agent.settings.agent.parallelTools },
        retry: agent.settings.retry,
        permission: agent.permission,
        effort: agent.effort,
        clock: { sleep, random: Math.random },
      });
    },
  };
  return agent;
}

/** Waits `ms`; rejects at once when `signal` aborts (a Ctrl-C during a retry wait). */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });
}
