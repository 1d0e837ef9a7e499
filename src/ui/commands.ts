// Slash commands (SPEC §17) and tab completion for the REPL.
import { readdirSync } from "node:fs";
import * as nodePath from "node:path";
import type { PlatformPath } from "../fs/user-path.ts";
import type { Agent } from "../agent.ts";
import { readOwnFile } from "../fs/own-files.ts";
import type { Places } from "../fs/places.ts";
import { errorText } from "../kernel/errors.ts";
import { EFFORTS, type Effort, type Usage } from "../kernel/ir.ts";
import { abortReason } from "../kernel/tool.ts";
import { endpointMove, type ListedModels, modelList, modelName, noKeyWarning, refusedSwitch, usableModels } from "./model-choices.ts";
import { HELP } from "./help-text.ts";
import { formatReload, type ReloadReport } from "../config/reload.ts";
import { ConfigError, type ProviderSettings } from "../config/settings.ts";
import { promptCompletions, type McpPrompt } from "../mcp/prompts.ts";
import { completeMention } from "../prompt/mentions.ts";
import { rankFiles } from "../prompt/file-match.ts";
import { diskPath, showNamesSync } from "../fs/dir-names.ts";
import { typedDir } from "./typed-dir.ts";
import { formatSessionList } from "../sessions/format.ts";
import { pruneSessions, scanSessions, sessionShortIds, unreadableNote } from "../sessions/listing.ts";
import type { LoadedSession } from "../sessions/reader.ts";
import { removeSessionOutputs } from "../tools/outputs.ts";
import { lastCall } from "./last-call.ts";
import { jobsCommand } from "./jobs-command.ts";
import { jobsLeft, jobsNumbered, type RunningJob, stopJobs } from "../tools/group-guard.ts";
import { decodeOutput } from "../fs/output-text.ts";
import type { TerminalOutput } from "./terminal.ts";
import { COMMANDS, unknownCommand } from "./slash.ts";
import { listedHere, listFit, markInUse } from "./sessions-list.ts";
import { visible } from "./visible.ts";
import { diffView } from "./diff-view.ts";
import type { UndoOutcome } from "../tools/undo-outcome.ts";
import { notUndoneText, undoNote, undoText } from "./undo-report.ts";
import { usageReport, type Spent } from "./usage-report.ts";

export interface CommandContext {
  agent: Agent;
  /** where the sessions and bash's full outputs are (`/sessions`), and the project */
  here: Pick<Places, "sessionsDir" | "outputsDir" | "home" | "cwd" | "root">;
  signal: AbortSignal;
  terminal: TerminalOutput | undefined;
  /** every provider the run can switch to (`/model`), the one in use included */
  providers(): readonly ProviderSettings[];
  /** the fallback models (`--fallback-model`), as named, for `/model` to list; none when unset */
  fallbacks?(): readonly string[];
  /** the models the endpoint of a provider with none configured lists, once known (endpoint-lists.ts); asks in the background */
  listed?: ListedModels;
  /** re-resolves configuration for `-m spec` and swaps the provider once the model is known (Runtime.switchModel); throws ConfigError */
  switchModel(spec: string, signal: AbortSignal): Promise<string | undefined>;
  /** re-reads configuration, skills and AGENTS.md, validated first; applies it as a diff, or nothing on an error */
  reload(): Promise<ReloadReport>;
  /** `/trust`, `/untrust`: records whether the project's files load at the next `/reload`; what to tell the user. Throws when it cannot be recorded. */
  setTrust?(trusted: boolean): Promise<string>;
  /** `/skills`: each skill, its folder and whether the model sees it, and those left out and why (ui/skills-list.ts) */
  skills?(columns: number): string;
  /** `/mcp`: every MCP server, its state and its tools (after waiting, bounded, for those just starting) */
  mcpStatus(signal: AbortSignal): Promise<string>;
  /** `/mcp login NAME`, `/mcp logout NAME`: sign in to (out of) a remote server, which then starts again; NAME "": which server? (refused, naming them) */
  mcpAuth?(verb: "login" | "logout", name: string, signal: AbortSignal): Promise<CommandResult>;
  /** `/usage`: a line naming the MCP servers whose tools the context size cannot count (no list of them yet), or undefined */
  uncounted?(): string | undefined;
  /** the tokens and messages of the session's earlier runs (a resumed session's file; Runtime.earlierRuns), if any */
  earlierRuns?(): { usage: Usage; requests: number; messages: number; loaded: number; last?: Usage } | undefined;
  /** what this run sent in the sessions it left (`/resume`, `/clear`), for `/usage`'s "this run" */
  leftSessions?(): Spent;
  /** `/resume`: another session of this directory, picked at the prompt (ui/resume.ts); undefined when none was */
  pickSession?(arg: string): Promise<LoadedSession | undefined>;
  /** a command run on its own (`hey -p /usage`): nothing follows it in this run */
  oneShot?: boolean;
  /** the REPL's question (one of the agent's commands asks none): `/sessions prune all keep 0` asks before it deletes every session */
  ask?(question: string): Promise<string | undefined>;
  /** the width of the terminal the command's text goes to (a listing's rows are cut to it); 0 or absent: none (a pipe, JSON) */
  columns?: number;
  /** text from outside the conversation (a full-output file) with the secrets hey knows hidden */
  redact(text: string): string;
  /** `/undo`: the session's checkpoints (tools/checkpoints.ts); absent outside the REPL */
  undo?(): Promise<UndoOutcome>;
  /** `/diff` paints its lines as the tools' diffs are */
  color?: boolean;
  /** `/plan`: plan mode on (true), off (false) or over (undefined); what to tell the user. The REPL's alone. */
  plan?(on?: boolean): string;
}

/** What a command did: its text (shown as is), whether it worked, whether to leave the REPL, the session to go on with. */
export interface CommandResult {
  text: string;
  ok: boolean;
  quit?: true;
  /** `/resume`: the caller builds the run around this session (runtime.ts) */
  resume?: LoadedSession;
  /** `/clear`: the caller builds the run around a new session */
  fresh?: true;
  /** what the model is told with the next message (`/undo`) */
  note?: string;
  /** `text`'s lines already fit the terminal (a diff's, cut): printed as they are, not wrapped */
  fitted?: true;
  /** `/jobs stop`: the jobs it stopped, which the model still thinks run until the caller tells it */
  stopped?: RunningJob[];
}

/** `/sessions` at the interactive prompt: how to resume one there. */
const RESUME_IN_REPL =
  "Resume one with /resume ID, where a unique start or end of the id is enough (SHORT shows the shortest), or pick from this directory's (its project's when it has none) with /resume.";

/** Commands that take nothing after their name: extra words are refused, not ignored. */
const NO_ARGUMENT = new Set([
  "/help",
  "/quit",
  "/exit",
  "/skills",
  "/thinking",
  "/usage",
  "/reload",
  "/trust",
  "/untrust",
  "/last",
  "/clear",
  "/new",
  "/diff",
  "/undo",
]);

/** `/last` shows at most this much of a full-output file: its end, which is where a run says how it went. */
const LAST_MAX_BYTES = 2 * 1024 * 1024;

const said = (text: string): CommandResult => ({ text, ok: true });
const refused = (text: string): CommandResult => ({ text: `hey: ${text}`, ok: false });

/** Runs one slash command line (SPEC §17). Prints nothing: the caller shows the result. */
export async function runCommand(line: string, ctx: CommandContext): Promise<CommandResult> {
  const [name = "", ...rest] = line.trim().split(/\s+/);
  const arg = rest.join(" ");
  if (NO_ARGUMENT.has(name) && arg !== "")
    return refused(
      `${name} takes no argument; got "${visible(arg)}" (a message whose first word is a command is that command: reword it to send it to the model)`,
    );
  switch (name) {
    case "/help":
      return said(HELP);
    case "/quit":
    case "/exit":
      return { text: "", ok: true, quit: true };
    case "/model": {
      if (!arg) return said(modelList(ctx.agent, ctx.providers(), ctx.oneShot === true, ctx.listed, ctx.fallbacks?.()));
      // the first word made it a command (SPEC §24); a model name has no spaces, so this is no model
      if (rest.length > 1)
        return refused(
          `/model takes one model name, as /model [provider/]model; got "${visible(arg)}" (a message whose first word is a command is that command: reword it to send it to the model)`,
        );
      // a run that ends here would switch nothing: -m is the one-run choice, and -c -m keeps it in the session
      if (ctx.oneShot)
        return refused(
          `/model ${visible(arg)} switches the model of an interactive session only; for one run use -m ${visible(arg)} (hey -c -m ${visible(arg)} continues the last session with it)`,
        );
      try {
        const was = modelName(ctx.agent);
        const warning = await ctx.switchModel(arg, ctx.signal); // a model list that could not be read: switched unchecked
        // the effort in force, carried over (for a model known to take none, that none is sent); where it goes when it left --base-url's endpoint
        const effort = ctx.agent.effort === undefined ? "" : ` · effort ${ctx.agent.effort}${ctx.agent.effortUnsent ? `; ${ctx.agent.effortUnsent}` : ""}`;
        const [keyless, now] = [noKeyWarning(ctx.providers(), ctx.agent.settings.model.provider, was), modelName(ctx.agent)];
        return said([warning, keyless, `model: ${now}${endpointMove(ctx.providers(), was, now)}${effort}`].filter(Boolean).join("\n"));
      } catch (e) {
        // said with the model that stays in use: nothing switched
        if (e instanceof ConfigError) return refused(refusedSwitch(e.message, arg, modelName(ctx.agent)));
        throw e;
      }
    }
    case "/effort": {
      // the level chosen, and when the provider stopped sending any, what it said of that
      const unsent = ctx.agent.effortUnsent ? `; ${ctx.agent.effortUnsent}` : "";
      if (!arg) return said(`effort: ${ctx.agent.effort ?? "(provider default)"}${unsent}`);
      if (!(EFFORTS as readonly string[]).includes(arg)) return refused(`/effort takes one of ${EFFORTS.join(", ")}`);
      // a run that ends here would send nothing with it: -t is the one-run choice, and -c -t keeps it in the session
      if (ctx.oneShot)
        return refused(
          `/effort ${arg} sets the effort of an interactive session only; for one run use -t ${arg} (hey -c -t ${arg} continues the last session with it)`,
        );
      ctx.agent.setEffort(arg as Effort);
      return said(`effort: ${arg}${unsent}`);
    }
    case "/thinking": {
      if (!ctx.terminal) return said("thinking is always in the JSON events (thinking_delta)");
      const shown = ctx.terminal.toggleThinking();
      return said(`thinking ${shown ? "shown" : "hidden"}`);
    }
    case "/sessions":
      if (rest.join(" ") === "prune all keep 0") {
        // every session of every directory, beyond recovery: asked at a terminal, never in a run that cannot ask
        if (ctx.oneShot || !ctx.ask)
          return refused(
            "/sessions prune all keep 0 deletes every session of every directory: it asks first, at the interactive prompt (start hey at a terminal and type it there)",
          );
        const typed = await ctx.ask(`delete every session of every directory (${scanSessions(ctx.here.sessionsDir).sessions.length})? (y/N) `);
        if (!/^\s*y(es)?\s*$/i.test(typed ?? "")) return said("nothing deleted");
      }
      return sessionsCommand(rest, ctx.oneShot !== true, ctx.here, ctx.columns ?? 0);
    case "/usage": {
      // the context the next request would hold (system prompt and tools counted, the latest answer
      // included): the same number before a run's first request and after any exchange
      const report = usageReport(ctx.agent, ctx.earlierRuns?.(), await ctx.agent.preview(ctx.signal), ctx.leftSessions?.());
      const uncounted = ctx.uncounted?.(); // asked after the preview, which waits for servers just starting as a request does
      return said(uncounted ? `${report}\n${uncounted}` : report);
    }
    case "/mcp": {
      if (arg === "") return said(visible(await ctx.mcpStatus(ctx.signal)));
      const [verb, server, more] = rest;
      // no name: mcpAuth asks which, listing the servers that sign in
      if ((verb === "login" || verb === "logout") && more === undefined && ctx.mcpAuth) return ctx.mcpAuth(verb, server ?? "", ctx.signal);
      return refused(`/mcp takes nothing (the servers), login NAME or logout NAME; got "${visible(arg)}"`);
    }
    case "/skills":
      return ctx.skills ? said(visible(ctx.skills(ctx.columns ?? 0))) : refused("this run lists no skills");
    case "/reload": {
      const report = await ctx.reload();
      // the skills it changed: kept in the conversation, the system prompt (and the provider's cache) as it was
      return { text: formatReload(report), ok: report.ok, ...(report.note ? { note: report.note } : {}) };
    }
    case "/trust":
    case "/untrust": {
      // the agent can run `hey -p …`, but cannot type at the prompt: a trust it gave itself would not be the user's
      if (ctx.oneShot || !ctx.setTrust)
        return refused(`${name} works at the interactive prompt; from a shell, hey trust${name === "/untrust" ? " --revoke" : ""} (it asks at a terminal)`);
      try {
        return said(await ctx.setTrust(name === "/trust"));
      } catch (e) {
        return refused(`${name}: could not record it: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    case "/plan": {
      const want = arg === "on" ? true : arg === "off" ? false : undefined;
      if (arg !== "" && want === undefined) return refused(`/plan takes on, off or nothing (turn it over); got "${visible(arg)}"`);
      // a one-shot run sends one message: it starts in plan mode with the flag
      if (ctx.oneShot || !ctx.plan) return refused('/plan works at the interactive prompt; for one message, hey --plan -p "…"');
      return said(ctx.plan(want));
    }
    case "/compact": {
      // cancelled (Esc, Ctrl-C): compaction changes nothing until its summary is whole; its spinner, no compaction line ends
      const done = await ctx.agent.compact(arg || undefined, ctx.signal).catch((e: unknown) => {
        ctx.terminal?.stopSpinner();
        return ctx.signal.aborted ? ("cancelled" as const) : Promise.reject(e);
      });
      if (done === "cancelled") return { text: `compact: ${abortReason(ctx.signal)}; the conversation is as it was`, ok: false };
      // on a terminal the compaction's own line ("context: summarized older work (~N → ~M tokens)") already said it
      if (done) return said(ctx.terminal ? "" : "older work summarized; the next request sends the summary instead");
      return said("nothing to summarize yet: everything is in the last turns");
    }
    case "/last":
      return lastOutput(ctx);
    case "/diff":
      return diffView(ctx.here.cwd, ctx.color === true, ctx.columns ?? 0, ctx.signal);
    case "/undo": {
      if (!ctx.undo) return refused("/undo works at the interactive prompt: it undoes the file changes of a turn of the session open there");
      const outcome = await ctx.undo();
      if (outcome.kind !== "undone") return said(notUndoneText(outcome, ctx.here.cwd));
      return { text: undoText(outcome.report, ctx.here.cwd), ok: true, note: undoNote(outcome.report, ctx.here.cwd) };
    }
    case "/jobs": {
      const jobs = jobsLeft();
      const stopped: RunningJob[] = [];
      const stop = (pgids: number[]) => (stopped.push(...jobs.filter((j) => pgids.includes(j.pgid))), stopJobs(pgids));
      return { ...(await jobsCommand(arg, jobs, stop, Date.now(), jobsNumbered())), ...(stopped.length ? { stopped } : {}) };
    }
    case "/clear":
    case "/new":
      if (ctx.oneShot) return refused(`${name} starts a new session at the interactive prompt; a run without -c or --resume is a new session already`);
      return { text: "", ok: true, fresh: true };
    case "/resume": {
      if (!ctx.pickSession) return refused("/resume works at the interactive prompt; from the command line use hey --resume ID or hey -c");
      const session = await ctx.pickSession(arg);
      if (session) return { text: "", ok: true, resume: session };
      // none picked where nothing was said yet (`hey --resume`, then Enter): the user learns what goes on instead
      return said(ctx.agent.messages.length === 0 ? "no session resumed: this is a new session (/resume picks one)" : "");
    }
    default:
      return refused(unknownCommand(name));
  }
}

/** `/last`: the previous tool call and its whole output, from bash's full-output file when it kept one. */
function lastOutput(ctx: CommandContext): CommandResult {
  const last = lastCall(ctx.agent.messages, ctx.here.outputsDir);
  if (!last) return said("no tool call yet in this session");
  const seen = `${visible(last.line)}\n${visible(last.output.replace(/\n+$/, ""))}`;
  if (!last.fullOutput) return said(seen);
  let read: { text: string; truncated: boolean } | undefined;
  try {
    read = readOwnFile(last.fullOutput, LAST_MAX_BYTES, { tail: true, decode: (bytes) => decodeOutput(bytes).text }); // as the model read it
  } catch (e) {
    return said(`${seen}\nhey: cannot read the full output ${last.fullOutput}: ${errorText(e)}`);
  }
  // hey prunes full outputs after a week: what the model saw is still in the session
  if (!read) return said(`${seen}\nhey: the full output ${last.fullOutput} is gone (hey deletes them after a week)`);
  const text = read.truncated ? read.text.slice(read.text.indexOf("\n") + 1) : read.text; // a cut first line goes
  const cut = read.truncated ? `… its start is left out; all of it is in that file\n` : "";
  return said(`${visible(last.line)} (full output: ${last.fullOutput})\n${cut}${visible(ctx.redact(text).replace(/\n+$/, ""))}`);
}

/** What Tab completes from: the providers' models, the skills, the remote MCP servers and their prompts, files under `cwd`. */
export interface CompletionSource {
  cwd: string;
  providers: readonly ProviderSettings[];
  skills: readonly string[];
  /** the MCP servers `/mcp login` can sign in to (remote ones) */
  remoteServers: readonly string[];
  prompts?: readonly { server: string; prompts: readonly McpPrompt[] }[];
  /** the project's files from `cwd`, as listed so far (tools/project-files.ts): what `@cli` is looked for in when no path starts so */
  projectFiles?: () => readonly string[];
  /** what a provider with no models configured lists (CommandContext.listed) */
  listed?: ListedModels;
}

/**
 * Tab completions for the last word of `line`: slash commands, skill names, MCP prompts and servers,
 * model names, @paths (spelled as the platform's path module `p` reads them).
 */
export function completions(line: string, from: CompletionSource, p: PlatformPath = nodePath): string[] {
  const word = line.slice(line.lastIndexOf(" ") + 1);
  if (line === word && word.startsWith("/skill:")) return from.skills.map((n) => `/skill:${n}`).filter((c) => c.startsWith(word));
  if (line === word && word.startsWith("/mcp:")) return promptCompletions(word, from.prompts ?? []);
  if (/^\/mcp (login|logout) \S*$/.test(line)) return from.remoteServers.filter((n) => n.startsWith(word));
  if (/^\/mcp \S*$/.test(line)) return ["login", "logout"].filter((v) => v.startsWith(word));
  if (line === word && word.startsWith("/")) return COMMANDS.filter((c) => c.startsWith(word));
  if (line.startsWith("/model ")) {
    // provider/model, or the model alone (as -m takes it): `gpt-5<Tab>` completes too
    // each model once: as provider/model, or alone when that is what was started — but a name several providers list
    // is offered as each provider/model, never alone (which would go to one of them unseen)
    const full = usableModels(from.providers, from.listed);
    const started = full.filter((m) => m.startsWith(word));
    const bare = (m: string) => m.slice(m.indexOf("/") + 1);
    const alone = (m: string) => (full.filter((f) => bare(f) === bare(m)).length > 1 ? m : bare(m));
    return started.length > 0 ? started : [...new Set(full.filter((m) => bare(m).startsWith(word)).map(alone))];
  }
  if (line.startsWith("/effort ")) return EFFORTS.filter((e) => e.startsWith(word));
  return completeMention(line, (partial) => pathCompletions(partial, from.cwd, p) ?? rankFiles(partial, from.projectFiles?.() ?? [])); // `@path`, `@"my notes.txt"`, `@cli` for app/deep/cli.py
}

/**
 * The paths from `cwd` (or an absolute one) that start with `partial`, each spelled with the
 * separators it was typed with (typed-dir.ts: `\` too on Windows, `p` the platform's path module);
 * undefined when none does (then `@cli` is looked for by name).
 */
function pathCompletions(partial: string, cwd: string, p: PlatformPath): string[] | undefined {
  const { dir, at, sep } = typedDir(partial, cwd, p);
  try {
    const entries = readdirSync(diskPath(at), { withFileTypes: true });
    showNamesSync(at, entries); // a name not UTF-8 or with a newline as hey writes it (fs/odd-names.ts), which a mention reads back
    const found = entries
      .filter((e) => !e.name.startsWith(".") || partial.slice(dir.length).startsWith("."))
      .map((e) => dir + e.name + (e.isDirectory() ? sep : ""))
      .filter((c) => c.normalize("NFC").startsWith(partial.normalize("NFC"))) // `@ré` typed composed finds `résumé.md` stored decomposed (macOS)
      .sort();
    return found.length > 0 ? found : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `/sessions [all]`: this directory's sessions, else its project's (listedHere), or every one's;
 * `/sessions prune [all] 30d` (older than 30 days), `/sessions prune [all] keep 20` (all but the
 * newest 20) acts on this directory's sessions only, never its project's; `all` reaches every
 * directory's.
 */
function sessionsCommand(words: string[], interactive: boolean, here: CommandContext["here"], columns: number): CommandResult {
  const { home, cwd, sessionsDir: dir } = here;
  if (words.length === 0 || (words.length === 1 && words[0] === "all")) {
    const { sessions, unreadable } = scanSessions(dir);
    const note = unreadableNote(unreadable);
    const { shown, heading } = listedHere(sessions, here, words.length === 1);
    const list = formatSessionList(markInUse(shown), home, interactive ? RESUME_IN_REPL : undefined, sessionShortIds(dir), listFit(columns));
    return said(heading + visible(list).trimEnd() + (note ? `\nhey: ${visible(note)}` : ""));
  }
  const [verb, ...rest] = words;
  const every = rest[0] === "all";
  const [a, b, more] = every ? rest.slice(1) : rest;
  let opts: { olderThanDays?: number; keep?: number } | undefined;
  if (verb === "prune" && a && /^\d+d$/.test(a) && b === undefined) opts = { olderThanDays: Number(a.slice(0, -1)) };
  if (verb === "prune" && a === "keep" && b && /^\d+$/.test(b) && more === undefined) opts = { keep: Number(b) };
  if (!opts)
    return refused(
      "use /sessions [all], /sessions prune [all] 30d (delete those older than 30 days) or /sessions prune [all] keep 20 (all but the newest 20); without all, only this directory's sessions",
    );
  const { deleted, held, lost } = pruneSessions(dir, { ...opts, cwd: every ? undefined : cwd });
  for (const id of [...deleted, ...lost]) removeSessionOutputs(here.outputsDir, id); // bash's full outputs go with their session
  const gone =
    lost.length === 0
      ? ""
      : `; deleted ${lost.length === 1 ? "1 lost session file" : `${lost.length} lost session files`} (empty or NUL bytes only: nothing to resume)`;
  return said(pruneReport(deleted.length, held.length, every, opts) + gone);
}

/** What `/sessions prune` did, in the words it was asked: "deleted 3 sessions of this directory older than 30 days". */
function pruneReport(deleted: number, held: number, every: boolean, opts: { olderThanDays?: number; keep?: number }): string {
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  const of = every ? "of every directory" : "of this directory";
  const which = opts.keep !== undefined ? `beyond the newest ${opts.keep}` : `older than ${plural(opts.olderThanDays ?? 0, "day")}`;
  const done = deleted === 0 ? `no sessions ${every ? "of any directory" : of} ${which} to delete` : `deleted ${plural(deleted, "session")} ${of} ${which}`;
  return held === 0 ? done : `${done}; kept ${plural(held, "session")} a running hey is using (this one, or another)`;
}
