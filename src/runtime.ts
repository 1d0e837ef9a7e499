// A run's live state and what swaps it (SPEC §14, §17, §23): `/model` re-resolves the files already read with another model,
// `/reload` reads and checks everything again and applies it as a diff (issue 26: start-up's warnings stay warnings, hard errors
// keep the last good state) and tells the model what it did on the next request, `/trust` and `/untrust` change whether the next
// `/reload` loads the project's files, `/resume` builds the same run around another session. wire.ts builds the pieces once and
// hands them here; this file alone changes what the configuration decided while hey runs.
import type { Agent, AgentSettings } from "./agent.ts";
import type { LoadedConfig } from "./config/load.ts";
import { reloadAll, reloadNote, settingsChanges, type Reloadable, type ReloadReport, type StagedConfig, type Vet } from "./config/reload.ts";
import { checkModel, sharedName } from "./config/model-check.ts";
import { ConfigError, type Settings } from "./config/settings.ts";
import { contextPolicy } from "./context/policy.ts";
import { errorText } from "./kernel/errors.ts";
import type { ToolSpec, Usage } from "./kernel/ir.ts";
import type { Output } from "./kernel/output.ts";
import type { Provider } from "./kernel/provider.ts";
import type { Tool } from "./kernel/tool.ts";
import type { Refused } from "./mcp/offer.ts";
import type { PermissionCheck, ToolOrigin } from "./kernel/tool-calls.ts";
import type { CredentialStore } from "./mcp/credentials.ts";
import type { McpManager } from "./mcp/manager.ts";
import { startNotes, startingNotes } from "./mcp/start-notes.ts";
import { carriedNames } from "./mcp/deferred.ts";
import type { LoadedSession } from "./sessions/reader.ts";
import type { QuittingWriter } from "./sessions/quit-calls.ts";
import type { Skill } from "./skills/frontmatter.ts";
import type { SeenFiles } from "./tools/seen-files.ts";
import type { ShellChoice } from "./tools/shell.ts";
import type { OutputKeeping } from "./tools/command-result.ts";
import type { UserShell } from "./ui/shell-command.ts";
import type { Places } from "./fs/places.ts";
import { unsendable, unsentProvider } from "./endpoint.ts";
import type { modelsLeft } from "./models-left.ts";
import { decideWidenings, keepApproved, recordApprovals, recordOnAnswer, rereadApprovals, saidYes, widenings, type ApprovalState } from "./trust/approve.ts";
import { unstartable } from "./trust/approve.ts"; // the servers withheld whose command is not found
import { keepGrownTrust, leftOutNotice, reloadLeftOut, setSessionTrust } from "./trust/session.ts";
import { askAtReload } from "./trust/instruction-yes.ts";
import { readProjectFiles } from "./trust/store.ts";
import { offServerLines, withheldNote, withheldServers, type Withheld } from "./mcp/withheld.ts";
import { shownPath, type ShownSkills } from "./prompt/source.ts";
import { unlockSession } from "./sessions/lock.ts";
import type { TerminalOutput } from "./ui/terminal.ts";

/** What the settings make (wire.ts's `configure`): rebuilt whenever they change. */
export interface Configured {
  shell: ShellChoice;
  /** the environment of the commands hey runs (bash, `!`): without the keys hey consumed */
  env: Record<string, string | undefined>;
  /** how a command's output becomes what the model reads (bash, `!`) */
  keeping: OutputKeeping;
  /** the permission check of every call */
  check: PermissionCheck;
  /** whether the lists refuse every call of a tool, and the deny entry that does (mcp/offer.ts Refused): it is not offered (the schema diet) */
  refused(name: string, origin?: ToolOrigin): Refused;
  /** hey's own tools */
  tools: Tool[];
  /** the secrets the configuration holds (keys, proxy passwords, secret headers) */
  secrets: readonly string[];
  /** `[tools] redact_secrets` */
  shapes: boolean;
}

/** The state a swap replaces, as one: the tools and the prompt read it through `live`. */
export interface Live {
  /** the configuration, with the flags it is resolved with: this run's, `/model`'s choice, a resumed session's model */
  config: LoadedConfig;
  /** the fetch of the configured proxy and CAs: model requests, remote MCP servers, sign-ins */
  fetch: typeof fetch;
  configured: Configured;
}

/** The pieces of a run (wire.ts), and how to make new ones when the settings change. */
export interface RuntimeParts {
  live: Live;
  agent: Agent;
  /** the human-readable output (text mode) */
  terminal: TerminalOutput | undefined;
  /** every subscriber: the display and the session writer */
  output: Output;
  session: QuittingWriter;
  mcp: McpManager;
  /** --no-mcp */
  mcpOff: boolean;
  /** the skills loaded now (`/skill:NAME`, Tab completion); what the model is shown of them (prompt/source.ts) */
  skills(): readonly Skill[];
  skillsShown(): ShownSkills;
  /** why no skill named `name` is loaded though its file is there (prompt/source.ts), else undefined */
  unloadedSkill(name: string): string | undefined;
  /** the tools the next request offers (hey's own and the servers', none the rules refuse outright), waiting as a request waits (`look`: McpManager.tools) */
  requestTools(signal: AbortSignal, look?: boolean): Promise<Tool[]>;
  /** sign-ins to remote MCP servers (`/mcp login`) */
  credentials: CredentialStore;
  /** what the agent last saw of each file (the file tools' and the user's `@file`s), so write_file keeps a change it has not seen */
  seen: SeenFiles;
  /** a resumed session's earlier runs' tokens and messages (`/usage`; sessions/usage-in.ts earlierRuns), read when asked */
  earlierRuns(): { usage: Usage; requests: number; messages: number; loaded: number; last?: Usage } | undefined;
  /** parts of the live state besides the configuration: skills, AGENTS.md, MCP servers */
  reloadables: readonly Reloadable[];
  /** what start-up found wrong in the agent's own skills (prompt/start-note.ts): told the model once, as /reload's note is */
  startNote: string | undefined;
  configure(settings: Settings, said?: readonly string[]): Configured; // `said`: the warnings just found (start's, a /reload's); none: /model's (filterWatches)
  /** the fetch for other proxy or CA settings; throws ConfigError or NetConfigError */
  fetchFor(settings: Settings): typeof fetch;
  providerFor(settings: Settings, fetchImpl: typeof fetch): Promise<Provider>;
  /** the models the endpoint of `settings` lists; undefined when it has no list; throws when it cannot be read */
  endpointModels(settings: Settings, fetchImpl: typeof fetch, signal: AbortSignal): Promise<string[] | undefined>;
  /** what the user approved so far (shared with a run `/resume` builds) */
  approvals: ApprovalState;
  /** the project and hey's records of it: trust.json, the approvals record, the project's config files; and the user's folders of AGENTS.md and skills */
  project: Pick<Places, "home" | "cwd" | "root" | "trustFile" | "approvalsFile" | "projectConfig" | "projectMcpJson" | "configDir" | "claudeDir" | "codexDir">;
  /**
   * `trusted`: whether the next `/reload` loads the project's files (`/trust`, `/untrust` change it;
   * the prompt source reads it too); `loaded`: whether the configuration in use holds them (a
   * `/trust` or `/untrust` since they were read: as before until `/reload`); `provisional`, `approvedOnly`: trusted
   * unrecorded, as the project had nothing to guard at start (trust/session.ts keepGrownTrust), or by --approve alone
   */
  trust: { trusted: boolean; loaded: boolean; provisional: boolean; approvedOnly?: boolean };
  oneShot: boolean;
  /** the working directory the system prompt names (sessions/resumed.ts promptDir): hey's, or where the session began in this project */
  startDir: string;
  warn(message: string): void;
  /** the same run around another session, with the model it last used, or (none) around a new one with the configuration now; throws ConfigError */
  reopen(session: LoadedSession | undefined): Promise<Runtime>;
  /** `text` with the secrets hey knows hidden (and values shaped like them, when that is on) */
  redact(text: string): string;
}

export interface Runtime
  extends Omit<
    RuntimeParts,
    "live" | "configure" | "fetchFor" | "providerFor" | "endpointModels" | "approvals" | "project" | "trust" | "warn" | "reopen" | "reloadables" | "startNote"
  > {
  /** the settings now: after `/model` and `/reload` */
  readonly settings: Settings;
  /** the fetch now (`/mcp login` signs in through it) */
  fetch(): typeof fetch;
  /**
   * re-resolves the configuration already read with `-m spec` and swaps the provider, once the model
   * is known (the provider's `models`, or the endpoint's list; `signal` ends that wait); throws
   * ConfigError. Returns a warning when the endpoint's list could not be read (the switch went ahead unchecked), or which provider a name several list went to
   */
  switchModel(spec: string, signal: AbortSignal): Promise<string | undefined>;
  /**
   * `/reload`: re-reads and validates everything, then switches all or nothing when it finds an
   * error; emits a `reload` event. A change that gives the agent more is asked about with `ask` (the
   * REPL) once the checks found it would apply (a missing MCP command is the reload's error, not a
   * question), else left out while the rest applies (a provider whose base_url is left out refuses
   * each request, as at start-up); so are your AGENTS.md and skills under a list (a yes loads them now).
   */
  reload(ask?: (question: string) => Promise<string | undefined>): Promise<ReloadReport>;
  /**
   * `/trust` (true) and `/untrust` (false): records the answer for the project — `/trust` first
   * lists what its files would run and asks with `ask` (trust/session.ts); a yes approves them as
   * listed — and the next `/reload` loads or leaves out its files. Returns what to tell the user.
   * Throws when the records cannot be written.
   */
  setTrust(trusted: boolean, ask?: (question: string) => Promise<string | undefined>): Promise<string>;
  /**
   * The line the next model request carries after the last message (ModelRequest.note), given the
   * tools it offers: what the last `/reload` did, until a request carrying it has been answered.
   */
  requestNote(tools: readonly ToolSpec[]): string | undefined;
  /**
   * the project's files whose loading waits on trust (`.hey/skills/`, `.mcp.json`…): not loaded as
   * it is not trusted, or not yet since `/trust`, and how to load them; or loaded still since
   * `/untrust`, until `/reload`. Undefined when none.
   */
  leftOut(): string | undefined;
  /** `/mcp`: the servers the configuration names that were not started (not approved, in a project's file not loaded), and why */
  withheldServers(): Withheld[];
  /** `/resume`: the same run around `session`; this one is closed, its session left (SessionWriter.leave). Throws ConfigError (this one then stays). */
  resume(session: LoadedSession): Promise<Runtime>;
  /** `/clear`: the same run around a new session, with the model and settings now; this one is closed, its session left */
  fresh(): Promise<Runtime>;
  /** what a `!` command runs with, as the settings say now */
  userShell(): UserShell;
  /** ends the run: the session file is closed, MCP servers are stopped */
  close(): Promise<void>;
}

/** What the agent runs with, from the settings. */
export function agentSettings(settings: Settings): AgentSettings {
  const { maxTurns, parallelTools, maxRunTokens } = settings.agent;
  return {
    model: { provider: settings.provider.name, model: settings.model },
    limits: { maxTurns, parallelTools, ...(maxRunTokens !== undefined ? { maxRunTokens } : {}) },
    retry: settings.retry,
    context: contextPolicy(settings),
    ...(settings.effort !== undefined ? { effort: settings.effort } : {}),
    ...(settings.provider.maxTokens !== undefined ? { maxTokens: settings.provider.maxTokens } : {}),
  };
}

export function createRuntime(parts: RuntimeParts): Runtime {
  const { live, agent } = parts;
  /** `provider/model` of each model this run has used: switching back to one needs no list, and goes on with its provider (models-left.ts) */
  const used = new Set([`${live.config.settings.provider.name}/${live.config.settings.model}`]);
  let left: ReturnType<typeof modelsLeft> | undefined; // the providers of the models switched away from: only /model loads their code
  /**
   * The configuration part of `/reload`: the files read again with the flags of this run (and
   * `/model`), weighed against what the user approved; a change that gives the agent more is asked
   * about (REPL) or left out, and what is used is recorded when the reload applies.
   */
  const checkConfig = async (ask: ((question: string) => Promise<string | undefined>) | undefined, vet: Vet): Promise<StagedConfig> => {
    const current = live.config.settings;
    const notLoaded = reloadLeftOut(parts.trust.trusted, parts.project, parts.oneShot);
    const nothing = { warnings: notLoaded, changes: [], settings: current, apply() {} };
    const next = live.config.reload(live.config.flags, rereadApprovals(parts.approvals, parts.warn), parts.trust.trusted); // another hey's yes counts
    if (next.errors) return { ...nothing, errors: next.errors };
    /**
     * the fetch and provider settings `s` need: the ones in use unless what makes them changed; a
     * base_url not approved gets one that sends nothing, as at start-up (endpoint.ts's
     * startProvider), so the rest of the reload applies; throws ConfigError
     */
    const swapsFor = async (s: Settings) => {
      let fetchImpl = live.fetch;
      if (s.proxy !== current.proxy || JSON.stringify(s.network) !== JSON.stringify(current.network)) fetchImpl = parts.fetchFor(s);
      const same =
        fetchImpl === live.fetch &&
        s.model === current.model &&
        JSON.stringify(s.provider) === JSON.stringify(current.provider) &&
        s.retry.idleTimeoutMs === current.retry.idleTimeoutMs;
      if (same) return { fetchImpl, provider: agent.provider };
      return { fetchImpl, provider: unsendable(s.provider) ? unsentProvider(s.provider, s.model) : await parts.providerFor(s, fetchImpl) };
    };
    const servers = !parts.mcpOff;
    const refused: string[] = [];
    let decided: LoadedConfig, swaps: Awaited<ReturnType<typeof swapsFor>>;
    try {
      // what a yes would switch to is checked before the question: a change that cannot apply (an
      // MCP command not found) is the reload's error, never something the user is asked to approve
      if (ask && widenings(next.config, servers).length > 0) {
        const all = keepApproved(next.config.approve(servers), current);
        await swapsFor(all.settings);
        const errors = await vet(all.settings);
        if (errors.length > 0) return { ...nothing, errors };
      }
      decided = keepApproved(await decideWidenings(next.config, ask, (m) => refused.push(m), servers), current);
      swaps = await swapsFor(decided.settings);
    } catch (e) {
      return { ...nothing, errors: [errorText(e)] };
    }
    const { fetchImpl: nextFetch, provider: nextProvider } = swaps;
    // your AGENTS.md and skills new or changed since approved, asked as at the start (a person at the REPL alone has `ask`): a yes loads them below
    const instructionsYes = await askAtReload(parts.approvals, parts.project, ask, parts.trust.trusted);
    const [s, yes] = [decided.settings, instructionsYes || saidYes(next.config, decided, servers)]; // yes: the user's, recorded at once
    const known = new Set(live.config.warnings);
    const off = servers ? [] : offServerLines(live.config.guards, next.config.guards); // --no-mcp: a server the files name now, not started
    return {
      errors: [],
      warnings: [...decided.warnings.filter((w) => !known.has(w)), ...refused, ...notLoaded, ...off],
      changes: settingsChanges(current, s),
      settings: s,
      async apply() {
        const effort = agent.effort;
        live.config = decided;
        live.fetch = nextFetch;
        live.configured = parts.configure(s, decided.warnings);
        const next = agentSettings(s);
        // an /effort choice outlives a reload that leaves effort alone
        agent.switchModel(nextProvider, s.effort === current.effort ? { ...next, ...(effort === undefined ? {} : { effort }) } : next);
        if (s.effort === current.effort) agent.setEffort(effort);
        await recordOnAnswer(parts.approvals, () => recordApprovals(decided, parts.approvals, parts.project.trustFile, parts.warn, !parts.oneShot), yes);
      },
    };
  };

  /** what the last /reload did, for the model: the report, and the tools offered before it */
  let pending: { report: ReloadReport; before: readonly string[]; attached?: number } | undefined;
  /** the tools a request would offer now, without waiting for any server: find_tools, not the tools deferred to it */
  const offeredNow = () => [...live.configured.tools.filter((t) => !live.configured.refused(t.name)).map((t) => t.name), ...carriedNames(parts.mcp.offer())];
  const withheld = () => {
    if (parts.mcpOff) return [];
    const { trusted, loaded } = parts.trust; // the project's files not loaded: read to name their servers, not used
    const project = loaded ? undefined : { trusted, files: readProjectFiles(parts.project).files };
    const names = live.config.settings.mcp.servers.map((s) => s.name);
    return withheldServers(live.config.guards, names, project, parts.oneShot, unstartable(live.config, live.configured.env)); // a command not found: said, never "approve it"
  };
  /** start-up's note (skills, servers withheld), until a request that carried it is answered */
  const first = [parts.startNote, withheldNote(withheld(), parts.oneShot, (p) => shownPath(p, "", parts.project.home))].filter(Boolean).join("\n");
  let startup: { note: string; attached?: number } | undefined = first ? { note: first } : undefined;
  const starting = startingNotes(); // servers with no tool list yet, and those said so that failed since
  /** forgets a note once a request that carried it was answered (its usage counted since it was attached) */
  const dropDelivered = () => {
    if (pending?.attached !== undefined && agent.usage.requests > pending.attached) pending = undefined;
    if (startup?.attached !== undefined && agent.usage.requests > startup.attached) startup = undefined;
  };

  /** this run closed, the same one around `session` (undefined: a new session) in its place */
  const swap = async (session: LoadedSession | undefined): Promise<Runtime> => {
    const next = await parts.reopen(session).catch((e: unknown) => {
      if (session) unlockSession(session.path); // the lock its resume made: a /resume of it again is not refused as in use here
      throw e;
    });
    parts.session.leave(); // lines a full disk still refuses are tried again while hey runs (the REPL keeps it: SessionWriter.holding)
    if (next.mcp !== parts.mcp) void parts.mcp.close(); // the servers run on in the new run (wire.ts hands them over)
    return next;
  };

  let closing: Promise<void> | undefined;
  const runtime: Runtime = {
    agent,
    terminal: parts.terminal,
    output: parts.output,
    session: parts.session,
    mcp: parts.mcp,
    mcpOff: parts.mcpOff,
    skills: parts.skills,
    skillsShown: parts.skillsShown,
    unloadedSkill: parts.unloadedSkill,
    requestTools: parts.requestTools,
    credentials: parts.credentials,
    seen: parts.seen,
    earlierRuns: parts.earlierRuns,
    oneShot: parts.oneShot,
    startDir: parts.startDir,
    get settings() {
      return live.config.settings;
    },
    fetch: () => live.fetch,
    redact: parts.redact,
    userShell: () => ({
      shell: live.configured.shell,
      env: live.configured.env,
      keeping: live.configured.keeping,
      refusal: (command) => live.configured.check("bash", { command }),
    }),
    async switchModel(spec, signal) {
      const { provider, model, providers, effort } = live.config.settings; // providers: what each lists (an ad-hoc one: whatever -m says, not a check)
      const inForce = agent.effort === undefined ? {} : { effort: agent.effort }; // the effort goes on with the conversation (config/resolve.ts sessionEffort)
      const endpointModel = providers.find((p) => p.name === "cli")?.models[0]; // under --base-url: listed however many switches away
      const session = { provider: provider.name, model, current: true, ...inForce };
      const flags = { ...live.config.flags, model: spec, session, switching: { endpointModel } };
      const resolved = live.config.resolve(flags); // kept by /reload, as -m is; a NAME no list holds is the current provider's, over HEY_PROVIDER
      const next = agent.effort !== undefined && agent.effort !== effort ? { ...resolved, effort: agent.effort } : resolved; // an /effort since: over -t
      const listedBefore = providers.find((p) => p.name === next.provider.name)?.models ?? next.provider.models; // and below, the models this run used
      const known = [...listedBefore, ...[...used].filter((m) => m.startsWith(`${next.provider.name}/`)).map((m) => m.slice(next.provider.name.length + 1))];
      let [listed, warning]: [string[] | undefined, string | undefined] = [undefined, undefined];
      if (!known.includes(next.model)) {
        try {
          listed = await parts.endpointModels(next, live.fetch, signal);
        } catch (e) {
          if (e instanceof ConfigError) throw e; // an endpoint not approved: asked nothing
          if (signal.aborted) throw new ConfigError(`-m ${spec} was interrupted before the model was checked; nothing switched`);
          warning = errorText(e); // goes ahead unchecked, as -m does
        }
        warning = checkModel(next.model, { ...next.provider, models: [...new Set(known)] }, listed, warning); // throws ConfigError when refused
      }
      const kept = (left ??= (await import("./models-left.ts")).modelsLeft()).back(live.config.settings, agent.provider, next, live.fetch);
      agent.switchModel(kept ?? (await parts.providerFor(next, live.fetch)), agentSettings(next));
      used.add(`${next.provider.name}/${next.model}`);
      live.config = { ...live.config, settings: next, flags: next.effort !== resolved.effort ? { ...flags, effort: next.effort } : flags }; // /effort's over -t from now on
      live.configured = parts.configure(next); // the new provider's key is a secret too
      return [sharedName(spec, providers, next.provider.name), warning].filter(Boolean).join("\n") || undefined; // a name several providers list: which one, and how to write the others
    },
    async reload(ask) {
      dropDelivered();
      const before = pending?.before ?? offeredNow();
      const trusted = parts.trust.trusted;
      const report = await reloadAll((vet) => checkConfig(ask, vet), parts.reloadables);
      if (report.ok) {
        parts.trust.loaded = trusted;
        await keepGrownTrust(parts); // a project that grew in the session keeps its trust
      }
      const { userOnly: _, note: _kept, ...event } = report; // the screen's warnings all are in it; which of them the model is not told is hey's business
      parts.output.emit({ type: "reload", ...event });
      // two reloads before the model hears of them: what both changed, the later one's problems, against the tools it had before both
      const earlier = pending?.report.ok ? pending.report.changes : [];
      const kept = [pending?.report.ok && pending.report.note, report.note].filter(Boolean).join("\n"); // their skill lines are the kept notes', not the tail's
      pending = { report: { ...report, changes: [...earlier, ...report.changes], ...(kept ? { note: kept } : {}) }, before };
      return report;
    },
    setTrust: (trusted, ask) =>
      setSessionTrust(parts, trusted, ask, () => recordApprovals(live.config, parts.approvals, parts.project.trustFile, parts.warn, !parts.oneShot)),
    leftOut: () => leftOutNotice(parts.trust, parts.project.root, parts.oneShot),
    withheldServers: withheld,
    requestNote(tools) {
      dropDelivered();
      if (startup) startup.attached = agent.usage.requests;
      if (!pending) return [startup?.note, starting(parts.mcp.status())].filter(Boolean).join("\n") || undefined;
      pending.attached = agent.usage.requests;
      const { report } = pending; // the servers it started, as they are now (one may have failed since), and start-up's still starting
      const reload = reloadNote(
        { ...report, warnings: [...report.warnings, ...startNotes(report.changes, parts.mcp.status())] },
        pending.before,
        tools.map((t) => t.name),
        parts.mcp.offer().deferred, // a tool left to find_tools is not gone: said apart
      );
      return [startup?.note, reload, starting(parts.mcp.status(), report.changes)].filter(Boolean).join("\n");
    },
    resume: (session) => swap(session),
    fresh: () => swap(undefined).then((next) => (next.agent.setEffort(agent.effort), next)), // an /effort choice is the user's, not the session's
    close() {
      if (!closing) parts.session.close(); // once: the REPL closes the run it ends with, hey's end the run it began with
      return (closing ??= parts.mcp.close());
    },
  };
  return runtime;
}
