// The composition root: the only file that names concrete providers, tools, outputs and stores.
// `startProvider` begins the provider's (lazy) SDK import as early as possible; `assemble` builds
// the rest — outputs, the session writer, the whole tool array, the permission check compiled
// once, the system prompt source — and the agent, then hands them to run.ts's flow; `/reload`
// re-reads the configuration, skills and AGENTS.md into the same pieces.
import { platform } from "node:os";
import { join, resolve } from "node:path";
import { createAgent, type Agent } from "./agent.ts";
import { fetchFor, providerFor, type Started } from "./endpoint.ts";
import { VERSION, type CliArgs } from "./cli.ts";
import type { LoadedConfig } from "./config/load.ts";
import { reloadAll, settingsChanges, type Reloadable, type ReloadReport, type StagedConfig } from "./config/reload.ts";
import { controlRefusal, listsSet } from "./config/control-files.ts";
import { hideSecrets, knownSecrets, redactingOutput, redactingTool, toolEnvironment, type Redaction } from "./config/secrets.ts";
import type { ConfigFlags, Settings } from "./config/settings.ts";
import { readTaskNote } from "./context/task-note.ts";
import type { Places } from "./fs/places.ts";
import { realTarget } from "./fs/real-target.ts";
import { resolveUserPath } from "./fs/user-path.ts";
import { newId, type Usage } from "./kernel/ir.ts";
import { createCredentialStore, type CredentialStore } from "./mcp/credentials.ts";
import { createMcpManager, type McpManager } from "./mcp/manager.ts";
import { signedIn } from "./mcp/oauth.ts";
import { eventLine } from "./mcp/status.ts";
import { childEnv, commandNotFound, findCommand } from "./mcp/stdio.ts";
import { createToolStore } from "./mcp/store.ts";
import { fanOut, type Output } from "./kernel/output.ts";
import type { Provider } from "./kernel/provider.ts";
import type { Tool } from "./kernel/tool.ts";
import type { PermissionCheck } from "./kernel/tool-calls.ts";
import type { DebugLog } from "./net/debug-log.ts";
import { refusedOutright } from "./permission/refused.ts";
import { blockedTools, blockedWarning, compileRules, decide, type PermissionRules } from "./permission/rules.ts";
import { createPromptSource } from "./prompt/source.ts";
import corePrompt from "./prompt/system.md" with { type: "text" };
import { usageIn, type LoadedSession } from "./sessions/reader.ts";
import type { Skill } from "./skills/frontmatter.ts";
import { createSessionWriter, type SessionWriter } from "./sessions/writer.ts";
import { decideWidenings, recordApprovals, type ApprovalState } from "./trust/approve.ts";
import { createBashTool } from "./tools/bash.ts";
import { createCompressTool } from "./tools/compress.ts";
import { createEditTool } from "./tools/edit.ts";
import { createGrepTool } from "./tools/grep.ts";
import { pruneOutputs } from "./tools/outputs.ts";
import { createReadFileTool } from "./tools/read-file.ts";
import { chooseShell, type ShellChoice } from "./tools/shell.ts";
import { createWriteFileTool } from "./tools/write-file.ts";
import { errorsTo, terminalOutput } from "./ui/display.ts";
import { createJsonOutput } from "./ui/json.ts";
import { setupHint } from "./ui/setup-help.ts";
import { writer } from "./ui/term.ts";
import type { TerminalOutput } from "./ui/terminal.ts";
import { errorText } from "./kernel/errors.ts";

type Env = Record<string, string | undefined>;

/**
 * The five built-in tools (SPEC §7), configured from settings and flags; `outputDir`: where bash
 * keeps full outputs; `env`: the commands' environment (process.env by default).
 */
export function createTools(settings: Settings, opts: { shell: ShellChoice; raw: boolean; outputDir?: string; env?: Env; home?: string; cacheDir?: string }): Tool[] {
  const { shell, raw, outputDir, env, home, cacheDir } = opts;
  return [
    createBashTool({ shell, timeoutMs: settings.tools.bashTimeoutMs, filter: settings.tools.bashFilter, raw, outputDir, env }),
    createReadFileTool({ home }),
    createWriteFileTool({ home }),
    createEditTool({ home }),
    createGrepTool({ rg: settings.tools.rg, home, env, cacheDir }),
  ];
}

/**
 * SPEC §8: the rules compiled once for the shell that will run the commands; deny first, every
 * segment checked; a refusal is the error result the model sees. (Config resolution has already
 * refused rules that do not compile.) A trusted project's allow list is one more a call must match
 * (issue 24), and while any list is set hey's control files (`place.controls`) are refused to the
 * file tools and to bash redirections.
 */
export function permissionCheck(lists: Settings["permission"], shell: string, place: { cwd: string; home: string; controls: readonly string[] }): PermissionCheck {
  const control = { paths: [...place.controls], home: place.home, cwd: place.cwd };
  const checks = [lists, ...lists.narrow.map((n) => ({ allow: n.allow, deny: [] }))].map((l: PermissionRules) => compileRules(l, shell, control).rules);
  const guarded = listsSet(lists);
  const target = {
    abs: (path: string) => {
      const where = resolveUserPath(path, place.cwd, place.home);
      return "abs" in where ? where.abs : undefined;
    },
    real: realTarget,
    controls: place.controls,
    fold: process.platform === "darwin" || process.platform === "win32",
  };
  return (tool, args) => {
    const control = guarded ? controlRefusal(tool, args, target) : undefined;
    if (control) return control;
    for (const rules of checks) {
      const decision = decide(tool, args, rules);
      if (!decision.allowed) return decision.reason;
    }
    return undefined;
  };
}

export interface AssembleInput {
  args: CliArgs;
  env: Env;
  /** where hey's files are (fs/places.ts) */
  here: Places;
  config: LoadedConfig;
  /** the flags `config` was resolved with */
  flags: ConfigFlags;
  /** whether the project's skills load (its config file was loaded, or not, by the caller) */
  trusted: boolean;
  started: Started;
  /** the session to continue (`-c`, `--resume`) */
  resumed: LoadedSession | undefined;
  /** `--verbose` / HEY_LOG=debug: requests (through `started.fetch`) and retry decisions go to it */
  debug?: DebugLog;
  /** what the user approved so far (the record as start-up left it), for `/reload` to weigh changes against */
  approvals: ApprovalState;
  /** trust.json */
  trustFile: string;
  /** hey's control files (config/control-files.ts): refused to the file tools while a permission list is set */
  controls: readonly string[];
  oneShot: boolean;
  warn(message: string): void;
  /** a line about something that happened in the background (an MCP server connected or failed) */
  notice(line: string): void;
}

export interface Assembled {
  agent: Agent;
  /** the human-readable output (text mode) */
  terminal: TerminalOutput | undefined;
  /** every subscriber: the display and the session writer */
  output: Output;
  session: SessionWriter;
  /** re-resolves the configuration already read with `-m spec` and swaps the provider; throws ConfigError */
  switchModel(spec: string): Promise<void>;
  /**
   * `/reload`: re-reads and validates everything, then switches all or nothing; emits a `reload`
   * event. A change that gives the agent more is asked about with `ask` (the REPL), else left out.
   */
  reload(ask?: (question: string) => Promise<string | undefined>): Promise<ReloadReport>;
  /** the skills loaded now (`/skill:NAME`, Tab completion) */
  skills(): readonly Skill[];
  /** the MCP servers: `/mcp`, and closing them when the run ends */
  mcp: McpManager;
  /** --no-mcp */
  mcpOff: boolean;
  /** the tools the next request offers (hey's own and the servers', none the rules refuse outright), waiting as a request waits */
  requestTools(signal: AbortSignal): Promise<Tool[]>;
  /** sign-ins to remote MCP servers, and the fetch a sign-in goes through (`/mcp login`) */
  signIn: { credentials: CredentialStore; fetch(): typeof fetch };
  /** the tokens a resumed session's earlier runs used (`/usage`), read from its file when asked */
  earlierRuns(): { usage: Usage; requests: number } | undefined;
}

/**
 * Everything a run needs, built once. Emits the `session` event. Throws ConfigError when the
 * provider cannot be created from the settings.
 */
export async function assemble(input: AssembleInput): Promise<Assembled> {
  const { args, env, here, resumed } = input;
  const { cwd, home } = here;
  const { settings } = input.config;
  const sessionId = resumed?.header.id ?? newId(); // ids sort by time
  // a run that never got an answer leaves no session (issue 14)
  const session = createSessionWriter({ dir: here.sessionsDir, id: sessionId, cwd, version: VERSION, warn: input.warn, untilAnswer: true, existing: resumed !== undefined });
  const where = { userFile: here.userConfig, home };
  const hint = (e: { kind: string; message: string }) => setupHint(agent.settings.provider, agent.settings.model, e, where);
  const terminal = args.output === "text" ? terminalOutput(input.oneShot, env, { maxRetries: settings.retry.maxRetries, cwd, home, hint }) : undefined;
  const display = terminal ?? fanOut([createJsonOutput(writer(1).write), errorsTo(writer(2), hint)]);
  // nothing hey prints, saves or logs, and no tool result the model reads, holds a secret it knows
  // (MCP sign-ins' tokens included), nor, unless turned off, a value shaped like one
  let configSecrets = knownSecrets(settings, env, args.proxy);
  const credentials = createCredentialStore(here.configDir);
  const secrets = () => [...configSecrets, ...credentials.secrets()].sort((a, b) => b.length - a.length);
  let shapes = settings.tools.redactSecrets;
  const redaction: Redaction = { secrets, shapes: () => shapes, shown: new Set() };
  const output = redactingOutput(fanOut(input.debug ? [display, session, input.debug.output] : [display, session]), secrets);
  input.debug?.hide(hideSecrets(secrets));
  session.model(settings.provider.name, settings.model);
  output.emit({ type: "session", id: sessionId, provider: settings.provider.name, model: settings.model, cwd });
  if (resumed) {
    for (const w of resumed.warnings) input.warn(w);
    for (const message of resumed.appended) session.emit({ type: "message", message });
    if (terminal) input.warn(`resumed session ${sessionId} (${resumed.messages.length} messages)`);
    // tools run here, while the history may speak of the other directory's files
    const started = resumed.header.cwd;
    if (started !== cwd) input.warn(`this session was started in ${started}; hey works in ${cwd} now (paths in it may be relative to ${started})`);
  }

  // the live state: what `/reload` and `/model` switch
  let config = input.config;
  let flags = input.flags;
  let fetchImpl = input.started.fetch;
  let shell = shellFor(settings);
  const place = { cwd, home, controls: input.controls };
  let rules = permissionCheck(settings.permission, shell.name, place);
  const approvals = input.approvals; // shared with a run reassembled by /resume: what /reload records holds there too
  // the schema diet: a tool every call of which some list refuses is not offered
  let compiled = everyList(settings.permission).map((l) => compileRules(l, shell.name).rules);
  const refused = (name: string) => compiled.some((rules) => refusedOutright(name, rules));
  // bash's full outputs live with the session; older ones are pruned in the background
  const outputs = here.outputsDir;
  void pruneOutputs(outputs, { current: sessionId });
  const toolsFor = (s: Settings): Tool[] => {
    const tools = createTools(s, { shell, raw: args.raw, outputDir: join(outputs, sessionId), env: toolEnvironment(env, s, s.tools.keepEnv), home, cacheDir: here.cacheDir });
    return s.compaction.compressTool ? [...tools, createCompressTool(() => agent.messages)] : tools;
  };
  let tools = toolsFor(settings);
  for (const lists of everyList(settings.permission)) {
    const blocked = blockedTools(compileRules(lists, shell.name).rules, tools.map((t) => t.name));
    if (blocked.length > 0) input.warn(lists.source + blockedWarning(lists.allow, blocked)); // a project's list is named: it narrows yours
  }
  const prompt = createPromptSource({
    core: corePrompt,
    cwd,
    home,
    configDir: here.configDir,
    os: platform(),
    shell: () => shell.name,
    skills: args.noSkills ? undefined : { project: input.trusted },
    warn: input.warn,
  });
  const mcp = mcpManager(input, settings, tools.map((t) => t.name), () => fetchImpl, (e) => output.emit(e), { credentials, refused });
  const requestTools = async (signal: AbortSignal) => (await mcp.tools(tools, signal)).filter((t) => !refused(t.name)).map((t) => redactingTool(t, redaction));
  const provider = await input.started.provider;
  const agent: Agent = createAgent({
    settings,
    provider,
    // every tool's results, MCP servers' included, are redacted before the model reads them
    tools: requestTools,
    output,
    cwd,
    pathOf: (path) => {
      const where = resolveUserPath(path, cwd, home);
      return "abs" in where ? where.abs : resolve(cwd, path);
    },
    system: prompt.system,
    permission: (tool, a) => rules(tool, a),
    taskNote: () => readTaskNote(cwd),
    ...(resumed ? { history: resumed.messages, summaries: resumed.summaries } : {}),
  });

  /**
   * The configuration part of `/reload`: the files read again with the flags of this run (and
   * `/model`), weighed against what the user approved; a change that gives the agent more is asked
   * about (REPL) or left out, and what is used is recorded when the reload applies.
   */
  const checkConfig = async (ask: ((question: string) => Promise<string | undefined>) | undefined): Promise<StagedConfig> => {
    const current = agent.settings;
    const nothing = { warnings: [], changes: [], settings: current, apply() {} };
    const next = config.reload(flags, approvals.record);
    if (next.errors) return { ...nothing, errors: next.errors };
    const refused: string[] = [];
    let decided: LoadedConfig;
    try {
      decided = await decideWidenings(next.config, ask, (m) => refused.push(m));
    } catch (e) {
      return { ...nothing, errors: [errorText(e)] };
    }
    const s = decided.settings;
    let nextFetch = fetchImpl;
    let nextProvider = agent.provider;
    try {
      if (s.proxy !== current.proxy || JSON.stringify(s.network) !== JSON.stringify(current.network)) nextFetch = fetchFor(s, args.proxy, env, input.debug);
      if (nextFetch !== fetchImpl || s.model !== current.model || JSON.stringify(s.provider) !== JSON.stringify(current.provider) || s.retry.idleTimeoutMs !== current.retry.idleTimeoutMs)
        nextProvider = await providerFor(s.provider, s.model, s.effort, nextFetch, s.retry.idleTimeoutMs);
    } catch (e) {
      return { ...nothing, errors: [errorText(e)] };
    }
    const known = new Set(config.warnings);
    return {
      errors: [],
      warnings: [...decided.warnings.filter((w) => !known.has(w)), ...refused],
      changes: settingsChanges(current, s),
      settings: s,
      async apply() {
        const effort = agent.effort;
        config = decided;
        fetchImpl = nextFetch;
        shell = shellFor(s);
        rules = permissionCheck(s.permission, shell.name, place);
        compiled = everyList(s.permission).map((l) => compileRules(l, shell.name).rules);
        configSecrets = knownSecrets(s, env, args.proxy);
        shapes = s.tools.redactSecrets;
        tools = toolsFor(s);
        agent.switchModel(s, nextProvider);
        if (s.effort === current.effort) agent.setEffort(effort); // an /effort choice outlives a reload that leaves effort alone
        approvals.record = await recordApprovals(decided, approvals, input.trustFile, input.warn, !input.oneShot);
      },
    };
  };
  const reloadables: Reloadable[] = [...prompt.reloadables, mcp.reloadable];

  return {
    agent,
    terminal,
    output,
    session,
    async switchModel(spec) {
      const next = config.resolve({ ...flags, model: spec });
      agent.switchModel(next, await providerFor(next.provider, next.model, next.effort, fetchImpl, next.retry.idleTimeoutMs));
      configSecrets = knownSecrets(next, env, args.proxy);
      flags = { ...flags, model: spec }; // a later /reload keeps this choice, as it keeps -m
    },
    async reload(ask) {
      const report = await reloadAll(() => checkConfig(ask), reloadables);
      output.emit({ type: "reload", ...report });
      return report;
    },
    skills: prompt.skills,
    mcp,
    mcpOff: args.noMcp,
    requestTools,
    signIn: { credentials, fetch: () => fetchImpl },
    earlierRuns() {
      if (!resumed) return undefined;
      try {
        return usageIn(resumed.path, resumed.bytes);
      } catch {
        return undefined; // the file went away: this run's counts are all there is
      }
    },
  };
}

/**
 * The MCP servers of the run (SPEC §14), connecting in the background. The SDK's client is loaded
 * only when a server is started; remote servers go through the run's (proxied) fetch.
 */
function mcpManager(input: AssembleInput, settings: Settings, builtins: string[], fetchNow: () => typeof fetch, emit: Output["emit"], auth: { credentials: CredentialStore; refused(name: string): boolean }): McpManager {
  const { env, args } = input;
  return createMcpManager(
    { servers: settings.mcp.servers, startupWaitMs: settings.mcp.startupWaitMs, off: args.noMcp, builtins },
    {
      connect: async (s, hooks, signal) => (await import("./mcp/client.ts")).connectServer(s, hooks, { version: VERSION, env, fetch: fetchNow(), auth: (s, refresh) => signedIn(s, auth.credentials, Date.now, refresh) }, signal),
      store: createToolStore(input.here.cacheDir),
      missingCommand: (command, s) => (findCommand(command, childEnv(env, s.env), s.cwd) ? undefined : commandNotFound(command)),
      report: (e) => {
        emit(e);
        if (args.output === "text" || e.state !== "connected") input.notice(eventLine(e)); // JSON mode: failures on stderr too
      },
      warn: (m) => input.notice(`hey: ${m}`),
      refused: auth.refused,
      now: Date.now,
    },
  );
}

/** The shell bash runs (SPEC §7): `[tools] shell`, else found on PATH. */
function shellFor(settings: Settings): ShellChoice {
  return chooseShell({ configured: settings.tools.shell, platform: process.platform, findOnPath: (n) => Bun.which(n) ?? undefined });
}

/** The user's lists, then each list a trusted project narrows them with (its `source`: how warnings name it). */
function everyList(permission: Settings["permission"]): (PermissionRules & { source: string })[] {
  return [{ ...permission, source: "" }, ...permission.narrow.map((n) => ({ allow: n.allow, deny: [], source: `${n.source}: ` }))];
}
