// Slash commands (SPEC §17) and tab completion for the REPL.
import { readdirSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import type { Agent } from "../agent.ts";
import { EFFORTS, type Effort } from "../kernel/ir.ts";
import { isUsable } from "../config/providers.ts";
import { formatReload, type ReloadReport } from "../config/reload.ts";
import { ConfigError } from "../config/settings.ts";
import { buildContext } from "../context/view.ts";
import { formatSessionList, sessionsDir } from "../sessions/format.ts";
import { listSessions, pruneSessions } from "../sessions/reader.ts";
import { outputsRoot, removeSessionOutputs } from "../tools/outputs.ts";
import type { TerminalOutput } from "./terminal.ts";
import { visible } from "./visible.ts";

export interface CommandContext {
  agent: Agent;
  signal: AbortSignal;
  terminal: TerminalOutput | undefined;
  /** re-resolves configuration for `-m spec` and swaps the provider; throws ConfigError */
  switchModel(spec: string): Promise<void>;
  /** re-reads configuration, skills and AGENTS.md, validated first; switches all or nothing */
  reload(): Promise<ReloadReport>;
}

const HELP = `/help                     this list
/model [provider/model]   show or switch the model (the conversation is kept)
/effort LEVEL             reasoning effort: ${EFFORTS.join(" ")}
/thinking                 show or hide thinking (what is sent does not change)
/usage                    tokens used in this run, context size and what was pruned
/compact [instructions]   summarize older work now
/reload                   re-read config, skills and AGENTS.md (checked first; the conversation is kept)
/skill:NAME [args]        send the skill's instructions, then args
/sessions [all]           list this directory's sessions (all: every directory's)
/sessions prune 30d       delete sessions older than 30 days (prune keep 20: all but the newest 20)
/resume [N|ID]            continue another session of this directory, picked from a list
/quit                     leave (also Ctrl-D, or Ctrl-C twice at an empty prompt)

Keys: Esc or Ctrl-C cancels a running turn; text typed meanwhile waits at the next prompt.
Enter sends; a trailing \\ or Ctrl-J starts a new line; a paste is one message; ↑/↓ history;
Tab completes /commands, /skill: names, @paths and model names.`;

export const COMMANDS = ["/help", "/model", "/effort", "/thinking", "/usage", "/compact", "/reload", "/skill:", "/sessions", "/resume", "/quit", "/exit"];

/** Runs one slash command line; returns "quit" to leave the REPL. Prints its own results. */
export async function runCommand(line: string, ctx: CommandContext): Promise<"quit" | void> {
  const [name = "", ...rest] = line.trim().split(/\s+/);
  const arg = rest.join(" ");
  const say = (text: string) => void process.stdout.write(text + "\n");
  switch (name) {
    case "/help":
      return say(HELP);
    case "/quit":
    case "/exit":
      return "quit";
    case "/model": {
      if (!arg) return say(modelList(ctx.agent));
      try {
        await ctx.switchModel(arg);
        return say(`model: ${ctx.agent.settings.provider.name}/${ctx.agent.settings.model}`);
      } catch (e) {
        if (e instanceof ConfigError) return say(`hey: ${e.message}`);
        throw e;
      }
    }
    case "/effort": {
      if (!arg) return say(`effort: ${ctx.agent.effort ?? "(provider default)"}`);
      if (!(EFFORTS as readonly string[]).includes(arg)) return say(`hey: /effort takes one of ${EFFORTS.join(", ")}`);
      ctx.agent.setEffort(arg as Effort);
      return say(`effort: ${arg}`);
    }
    case "/thinking": {
      if (!ctx.terminal) return;
      const shown = ctx.terminal.toggleThinking();
      return say(`thinking ${shown ? "shown" : "hidden"}`);
    }
    case "/sessions":
      return say(sessionsCommand(rest));
    case "/usage":
      return say(usageReport(ctx.agent));
    case "/reload": {
      const report = await ctx.reload();
      if (ctx.terminal) say(formatReload(report)); // JSON mode: the reload event says it
      return;
    }
    case "/compact": {
      const done = await ctx.agent.compact(arg || undefined, ctx.signal);
      return say(done ? "older work summarized; the next request sends the summary instead" : "nothing to summarize yet: everything is in the last turns");
    }
    default:
      return say(`hey: unknown command ${name} (see /help)`);
  }
}

/** Tab completions for the last word of `line`: slash commands, skill names, model names, @paths. */
export function completions(line: string, agent: Agent, cwd: string, skills: readonly string[]): string[] {
  const word = line.slice(line.lastIndexOf(" ") + 1);
  if (line === word && word.startsWith("/skill:")) return skills.map((n) => `/skill:${n}`).filter((c) => c.startsWith(word));
  if (line === word && word.startsWith("/")) return COMMANDS.filter((c) => c.startsWith(word));
  if (line.startsWith("/model ")) return usableModels(agent).filter((m) => m.startsWith(word));
  if (line.startsWith("/effort ")) return EFFORTS.filter((e) => e.startsWith(word));
  if (word.startsWith("@")) return pathCompletions(word.slice(1), cwd).map((p) => "@" + p);
  return [];
}

/** The models of the providers that can be used now (a key present, or a keyless local server). */
function usableModels(agent: Agent): string[] {
  return agent.settings.providers.filter(isUsable).flatMap((p) => p.models.map((m) => `${p.name}/${m}`));
}

/** `/model`: the usable models, the current one marked; how to switch; what is missing a key. */
function modelList(agent: Agent): string {
  const current = `${agent.settings.provider.name}/${agent.settings.model}`;
  const models = usableModels(agent);
  const lines = (models.includes(current) ? models : [current, ...models]).map((m) => (m === current ? `* ${m}` : `  ${m}`));
  const locked = agent.settings.providers.filter((p) => !isUsable(p)).map((p) => `${p.name} (${p.apiKeyVar})`);
  return [...lines, "switch with /model PROVIDER/MODEL", ...(locked.length ? [`without a key: ${locked.join(", ")}`] : [])].join("\n");
}

function pathCompletions(partial: string, cwd: string): string[] {
  const dir = partial.endsWith("/") ? partial : dirname(partial) === "." && !partial.startsWith("./") ? "" : dirname(partial) + "/";
  try {
    return readdirSync(join(cwd, dir || "."), { withFileTypes: true })
      .filter((e) => !e.name.startsWith(".") || partial.slice(dir.length).startsWith("."))
      .map((e) => dir + e.name + (e.isDirectory() ? "/" : ""))
      .filter((p) => p.startsWith(partial))
      .sort();
  } catch {
    return [];
  }
}

/** `/sessions`, `/sessions prune 30d` (older than 30 days), `/sessions prune keep 20` (all but the newest 20). */
function sessionsCommand(words: string[]): string {
  const home = process.env.HOME || homedir();
  const dir = sessionsDir(process.env, home);
  if (words.length === 0) return visible(formatSessionList(listSessions(dir).filter((s) => s.cwd === process.cwd()), home));
  if (words.length === 1 && words[0] === "all") return visible(formatSessionList(listSessions(dir), home));
  const [verb, a, b] = words;
  let opts: { olderThanDays?: number; keep?: number } | undefined;
  if (verb === "prune" && a && /^\d+d$/.test(a) && b === undefined) opts = { olderThanDays: Number(a.slice(0, -1)) };
  if (verb === "prune" && a === "keep" && b && /^\d+$/.test(b)) opts = { keep: Number(b) };
  if (!opts) return "hey: use /sessions, /sessions prune 30d (older than 30 days) or /sessions prune keep 20 (keep the newest 20)";
  const { deleted } = pruneSessions(dir, opts);
  const outputs = outputsRoot(process.env, process.platform, home);
  for (const id of deleted) removeSessionOutputs(outputs, id); // bash's full outputs go with their session
  return deleted.length === 0 ? "no sessions to prune" : `deleted ${deleted.length} session${deleted.length === 1 ? "" : "s"}`;
}

/** `/usage` (SPEC §10): tokens for the session and the last request, the context against the budget, and pruning counts. */
export function usageReport(agent: Agent): string {
  const n = (x: number) => x.toLocaleString("en-US");
  const { total, last, requests } = agent.usage;
  const c = agent.settings.compaction;
  // before the first request of this run (e.g. `hey -c /usage`) the view is computed here
  const view =
    agent.context.last ??
    (agent.messages.length > 0
      ? buildContext({ history: agent.messages, summaries: agent.context.summaries, policy: { budgetTokens: agent.settings.agent.budgetTokens, dedup: c.dedup, purgeErrorsAfter: c.purgeErrorsAfter, compressTool: false }, fixedTokens: 0, tokensPerChar: agent.context.tokensPerChar })
      : undefined);
  const budget = agent.settings.agent.budgetTokens;
  const lines = [
    `this run: ${n(total.input)} in (${n(total.cacheRead)} cached, ${n(total.cacheWrite)} cache writes) · ${n(total.output)} out (${n(total.reasoning)} reasoning) · ${requests} request${requests === 1 ? "" : "s"}`,
    last ? `last request: ${n(last.input)} in (${n(last.cacheRead)} cached) · ${n(last.output)} out` : "last request: none yet",
    view
      ? `context: ~${n(view.estimate)} of ${n(budget)} tokens (${Math.round((view.estimate / budget) * 100)}%) · ${agent.messages.length} messages in the session`
      : `context: budget ${n(budget)} tokens · ${agent.messages.length} messages in the session`,
    view
      ? `pruned: ${view.stats.deduped} duplicate outputs · ${view.stats.purged} failed-call arguments · ${view.stats.compressed} compressed ranges · ${view.stats.trimmed} messages left out · ${agent.context.summaries.length} summaries`
      : `pruned: nothing yet · ${agent.context.summaries.length} summaries`,
  ];
  return lines.join("\n");
}
