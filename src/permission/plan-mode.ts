// Plan mode (`/plan`, Shift+Tab at the prompt, `hey --plan`): the agent reads, searches and
// proposes; it changes nothing until the user turns the mode off. While it is on, every call the
// user's own lists let through is judged once more by an allow list of what only reads (READING and
// a few more), compiled and decided as any [permission] allow list is, so it can only narrow what
// runs, never widen it; no MCP tool runs, whatever its name; a bash command must also read only
// (read-only.ts: no `find -delete`, no `rg --pre`, no redirection into a file). The model is told when the mode changes, in the user's next message
// (planNote), so the note sits in the history the prompt cache already holds. Pure.
import type { ContentBlock, Message } from "../kernel/ir.ts";
import { PLAN_PREFIX, type ToolOrigin } from "../kernel/tool-calls.ts";
import { PLAN_OFF, PLAN_ON } from "../kernel/user-notes.ts";
import { READING } from "./peer-rules.ts";
import { readsOnly } from "./read-only.ts";
import { compileRules, decide, type CompiledRules } from "./rules.ts";

/**
 * Plan mode's state: one for the hey process, so the runs `/clear` and `/resume` build share it.
 * `check`: while it is on, why a call that the user's lists let through may not run (undefined: it
 * may), judged for the shell named `shell` by the name the model calls it; `origin`: the MCP tool
 * that name stands for, which is refused whatever its name (a server's `compress` is offered under
 * that bare name when hey's own is off, and is no reader of hey's); never throws.
 */
export interface PlanMode {
  on: boolean;
  check(tool: string, args: Record<string, unknown>, shell: string, origin?: ToolOrigin): string | undefined;
}

/**
 * `oneShot`: a `hey --plan -p` run, which no one can take out of plan mode (no Shift+Tab, no /plan):
 * its refusals say the run is in plan mode, not that the user will turn it off.
 */
export function createPlanMode(on: boolean, oneShot = false): PlanMode {
  const checks = new Map<string, ReturnType<typeof planCheck>>(); // compiled once for each shell
  const leave = oneShot ? ONE_SHOT_LEAVE : LEAVE;
  const mode: PlanMode = {
    on,
    check(tool, args, shell, origin) {
      if (!mode.on) return undefined;
      if (origin) return `${PLAN_PREFIX} ${tool} (from MCP server ${origin.server}) may change things; ${leave}`;
      if (!checks.has(shell)) checks.set(shell, planCheck(shell, leave));
      return checks.get(shell)!(tool, args);
    },
  };
  return mode;
}

/** READING, and the searches and listings a plan needs; the read-only check keeps their writing forms out (`find -delete`, `git branch -D x`). */
export const PLAN_ALLOW = [
  ...READING,
  ...["rg", "grep", "find", "pwd", "file", "stat", "du", "git blame", "git branch", "git ls-files", "git rev-parse", "git remote", "git tag"].map(
    (c) => `bash: ${c}`,
  ),
];

/** How the user leaves plan mode, as a refusal says it at the prompt; in a one-shot run, which cannot leave it, what holds for the run. */
const LEAVE = "only reading and searching run until the user turns plan mode off (Shift+Tab or /plan)";
const ONE_SHOT_LEAVE = "this run is in plan mode (--plan): only reading and searching run";

/** What the user is told when a session left in plan mode is resumed: at the prompt it stays in it; a one-shot run leaves it unless --plan. */
export const PLAN_RESUMED = "this session was in plan mode, and still is: the agent only reads and searches (Shift+Tab or /plan off turns it off)";
export const PLAN_LEFT = "this session was in plan mode; this run is not (the agent may change files): hey -c --plan keeps it";

/** The plan mode check for the shell named `shell`: the rules compiled once, then a refusal reason (ending with `leave`) or undefined for each call. */
export function planCheck(shell: string, leave = LEAVE): (tool: string, args: Record<string, unknown>) => string | undefined {
  const rules: CompiledRules = compileRules({ allow: PLAN_ALLOW, deny: [] }, shell).rules;
  return (tool, args) => {
    const command = typeof args.command === "string" ? args.command : undefined;
    if (tool === "bash" && command !== undefined) {
      const reads = decide(tool, args, rules).allowed && readsOnly(command, shell);
      return reads ? undefined : `${PLAN_PREFIX} \`${oneLine(command)}\` may change things; ${leave}`;
    }
    if (decide(tool, args, rules).allowed) return undefined;
    return `${PLAN_PREFIX} ${tool} may change things; ${leave}`;
  };
}

/** A command as a refusal names it: one line, cut to 100 characters. */
const oneLine = (command: string) => {
  const line = command.replace(/\s*\n\s*/g, " ").trim();
  return line.length > 100 ? `${line.slice(0, 99)}…` : line;
};

/**
 * The note the user's next message carries (a text block before it) so the model knows the mode
 * now: PLAN_ON when it is on and the history's last such note is not, PLAN_OFF when it is off and
 * the last one said on; undefined when the history already says how it is (a resumed session's too).
 * It reads what the model was sent: after a summary that took a later note, the pinned first
 * message's may speak again, and then the mode is said once more. Which mode a resumed session was
 * in comes from its file (sessions/plan-said.ts), not from this.
 */
export function planNote(on: boolean, history: readonly Message[]): string | undefined {
  let said: boolean | undefined;
  for (const m of history) {
    if (m.role !== "user") continue;
    for (const block of m.content) {
      if (block.type === "text" && block.text === PLAN_ON) said = true;
      if (block.type === "text" && block.text === PLAN_OFF) said = false;
    }
  }
  if (on) return said ? undefined : PLAN_ON;
  return said ? PLAN_OFF : undefined;
}

/** `content` (the user's next message) after the note planNote says it needs, if any. */
export function withPlanNote(plan: PlanMode, history: readonly Message[], content: ContentBlock[]): ContentBlock[] {
  const note = planNote(plan.on, history);
  return note ? [{ type: "text", text: note }, ...content] : content;
}

/** What the user sees on `/plan` or Shift+Tab. */
export function planToggled(on: boolean): string {
  return on
    ? "plan mode on: the agent reads and searches, changes nothing (Shift+Tab or /plan turns it off)"
    : "plan mode off: the agent may change files and run commands again";
}
