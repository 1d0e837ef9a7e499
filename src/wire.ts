// The composition root: the only file that names concrete providers, tools, outputs and stores.
// `startProvider` begins the provider's (lazy) SDK import as early as possible; `assemble` builds
// the rest — outputs, the session writer, the whole tool array, the permission check compiled
// once, the system prompt source — and the agent, then hands them to run.ts's flow; `/reload`
// re-reads the configuration, skills and AGENTS.md into the same pieces.
import { readFileSync, statSync } from "node:fs";
import { platform } from "node:os";
import { join, resolve } from "node:path";
import { createAgent, type Agent } from "./agent.ts";
import { VERSION, type CliArgs } from "./cli.ts";
import { configPaths, type LoadedConfig } from "./config/load.ts";
import { reloadAll, settingsChanges, type Reloadable, type ReloadReport, type StagedConfig } from "./config/reload.ts";
import { setupHint } from "./config/resolve.ts";
import { knownSecrets, redactingOutput, redactingTool, toolEnvironment } from "./config/secrets.ts";
import type { ConfigFlags, ProviderSettings, Settings } from "./config/settings.ts";
import { readTaskNote } from "./context/task-note.ts";
import { resolveUserPath } from "./fs/user-path.ts";
import { newId, type Effort, type Usage } from "./kernel/ir.ts";
import { createMcpManager, type McpManager } from "./mcp/manager.ts";
import { eventLine } from "./mcp/status.ts";
import { childEnv, commandNotFound, findCommand } from "./mcp/stdio.ts";
import { createToolStore } from "./mcp/store.ts";
import { trustFilePath } from "./trust/store.ts";
import { fanOut, type Output } from "./kernel/output.ts";
import type { Provider } from "./kernel/provider.ts";
import type { Tool } from "./kernel/tool.ts";
import type { PermissionCheck } from "./kernel/tool-calls.ts";
import { trustedCas } from "./net/ca.ts";
import type { DebugLog } from "./net/debug-log.ts";
import { proxiedFetch } from "./net/fetch.ts";
import { parseProxyUrl, resolveProxy } from "./net/proxy.ts";
import type { ControlFiles } from "./permission/control-files.ts";
import { blockedTools, blockedWarning, compileRules, decide, type PermissionRules } from "./permission/rules.ts";
import { createPromptSource } from "./prompt/source.ts";
import corePrompt from "./prompt/system.md" with { type: "text" };
import { createProvider } from "./providers/create.ts";
import { usageIn, type LoadedSession } from "./sessions/reader.ts";
import type { Skill } from "./skills/frontmatter.ts";
import { createSessionWriter, type SessionWriter } from "./sessions/writer.ts";
import { createBashTool } from "./tools/bash.ts";
import { createCompressTool } from "./tools/compress.ts";
import { createEditTool } from "./tools/edit.ts";
import { createGrepTool } from "./tools/grep.ts";
import { cacheDir } from "./tools/ripgrep.ts";
import { outputsRoot, pruneOutputs } from "./tools/outputs.ts";
import { createReadFileTool } from "./tools/read-file.ts";
import { chooseShell, type ShellChoice } from "./tools/shell.ts";
import { createWriteFileTool } from "./tools/write-file.ts";
import { createJsonOutput } from "./ui/json.ts";
import { isTty, writer, type Writer } from "./ui/term.ts";
import { createTerminalOutput, type TerminalOptions, type TerminalOutput } from "./ui/terminal.ts";

type Env = Record<string, string | undefined>;

/** The model endpoint of a run: the proxied fetch every request goes through, and the provider being loaded. */
export interface Started {
  fetch: typeof fetch;
  provider: Promise<Provider>;
}

/**
 * Checks the proxy settings (a bad value is a configuration error now, not a minute of "network"
 * retries later) and starts loading the provider's adapter, whose SDK module takes ~12 ms to
 * evaluate: the caller reads stdin meanwhile. Throws ConfigError or NetConfigError.
 */
export function startProvider(settings: Settings, cliProxy: string | undefined, env: Env, debug?: DebugLog): Started {
  const fetchImpl = fetchFor(settings, cliProxy, env, debug);
  const provider = providerFor(settings.provider, settings.model, settings.effort, fetchImpl, settings.retry.idleTimeoutMs);
  provider.catch(() => {}); // awaited by assemble; a run that fails before that never awaits it
  return { fetch: fetchImpl, provider };
}

/**
 * The fetch of every model request and remote MCP server: the proxy of `settings` and the CAs of
 * `[network] ca_file` / SSL_CERT_FILE, checked now; every request logged when `debug` is given
 * (`--verbose`). Throws ConfigError or NetConfigError.
 */
export function fetchFor(settings: Settings, cliProxy: string | undefined, env: Env, debug?: DebugLog): typeof fetch {
  for (const value of [cliProxy, settings.proxy]) if (value) parseProxyUrl(value);
  const sources = { cli: cliProxy, config: settings.proxy, configSource: settings.proxySource, env };
  resolveProxy(new URL(settings.provider.baseUrl), sources);
  const ca = trustedCas({ ...settings.network, env });
  return proxiedFetch(sources, { ...(ca ? { ca } : {}), ...(debug ? { base: debug.wrap(fetch) } : {}) });
}

/** The provider for `settings`, `model` and the stream's idle timeout, through `fetchImpl` (its certificates unchecked when the provider says `insecure`). */
export function providerFor(settings: ProviderSettings, model: string, effort: Effort | undefined, fetchImpl: typeof fetch, idleTimeoutMs?: number): Promise<Provider> {
  const { protocol, baseUrl, apiKey, apiKeyVar, headers, maxTokens, legacyThinking, apiVersion, compat } = settings;
  const through = settings.insecure ? unverified(fetchImpl) : fetchImpl;
  return createProvider({ protocol, baseUrl, model, apiKey, apiKeyVar, headers, maxTokens, effort, legacyThinking, apiVersion, compat, fetch: through, idleTimeoutMs });
}

/** `fetchImpl` without TLS certificate verification (a provider's `insecure = true`, warned about on every run). */
function unverified(fetchImpl: typeof fetch): typeof fetch {
  const insecure = (input: string | URL | Request, init?: BunFetchRequestInit) => fetchImpl(input, { ...init, tls: { ...init?.tls, rejectUnauthorized: false } });
  return Object.assign(insecure, { preconnect: fetchImpl.preconnect });
}

/**
 * The five built-in tools (SPEC §7), configured from settings and flags; `outputDir`: where bash
 * keeps full outputs; `env`: the commands' environment (process.env by default).
 */
export function createTools(settings: Settings, opts: { shell: ShellChoice; raw: boolean; outputDir?: string; env?: Env; home?: string }): Tool[] {
  const { shell, raw, outputDir, env, home } = opts;
  return [
    createBashTool({ shell, timeoutMs: settings.tools.bashTimeoutMs, filter: settings.tools.bashFilter, raw, outputDir, env }),
    createReadFileTool({ home }),
    createWriteFileTool({ home }),
    createEditTool({ home }),
    createGrepTool({ rg: settings.tools.rg, home }),
  ];
}

/**
 * SPEC §8: the rules compiled once for the shell that will run the commands; deny first, every
 * segment checked; a refusal is the error result the model sees. (Config resolution has already
 * refused rules that do not compile.) `control`: hey's own configuration and trust files, which no
 * bash redirection may write while a list is set (issue 24).
 */
export function permissionCheck(lists: PermissionRules, shell: string, control?: ControlFiles): PermissionCheck {
  const { rules } = compileRules(lists, shell, control);
  return (tool, args) => {
    const decision = decide(tool, args, rules);
    return decision.allowed ? undefined : decision.reason;
  };
}

export interface AssembleInput {
  args: CliArgs;
  env: Env;
  cwd: string;
  home: string;
  /** ~/.config/hey (or $XDG_CONFIG_HOME/hey) */
  configDir: string;
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
  sessionsDir: string;
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
  /** `/reload`: re-reads and validates everything, then switches all or nothing; emits a `reload` event */
  reload(): Promise<ReloadReport>;
  /** the skills loaded now (`/skill:NAME`, Tab completion) */
  skills(): readonly Skill[];
  /** the MCP servers: `/mcp`, and closing them when the run ends */
  mcp: McpManager;
  /** --no-mcp */
  mcpOff: boolean;
  /** the tokens a resumed session's earlier runs used (`/usage`), read from its file when asked */
  earlierRuns(): { usage: Usage; requests: number } | undefined;
}

/**
 * Everything a run needs, built once. Emits the `session` event. Throws ConfigError when the
 * provider cannot be created from the settings.
 */
export async function assemble(input: AssembleInput): Promise<Assembled> {
  const { args, env, cwd, resumed } = input;
  const { settings } = input.config;
  const sessionId = resumed?.header.id ?? newId(); // ids sort by time
  // a run that never got an answer leaves no session (issue 14)
  const session = createSessionWriter({ dir: input.sessionsDir, id: sessionId, cwd, version: VERSION, warn: input.warn, untilAnswer: true, existing: resumed !== undefined });
  const where = { userFile: configPaths(env, cwd).user, home: input.home };
  const hint = (e: { kind: string; message: string }) => setupHint(agent.settings.provider, agent.settings.model, e, where);
  const terminal = args.output === "text" ? terminalOutput(input.oneShot, env, { maxRetries: settings.retry.maxRetries, cwd, home: input.home, hint }) : undefined;
  const display = terminal ?? fanOut([createJsonOutput(writer(1).write), errorsTo(writer(2), hint)]);
  // nothing hey prints or saves, and no tool result the model reads, holds a secret it knows
  let secrets = knownSecrets(settings, env, args.proxy);
  const output = redactingOutput(fanOut(input.debug ? [display, session, input.debug.output] : [display, session]), () => secrets);
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
  // the files that hold hey's rules and trust: the user config, trust.json, this project's config
  const control: ControlFiles = { paths: [configPaths(env, cwd).user, trustFilePath(input.configDir), configPaths(env, cwd).project], home: input.home, cwd };
  let rules = permissionCheck(settings.permission, shell.name, control);
  // bash's full outputs live with the session; older ones are pruned in the background
  const outputs = outputsRoot(env, process.platform, input.home);
  void pruneOutputs(outputs, { current: sessionId });
  const toolsFor = (s: Settings): Tool[] => {
    const tools = createTools(s, { shell, raw: args.raw, outputDir: join(outputs, sessionId), env: toolEnvironment(env, s, s.tools.keepEnv), home: input.home });
    return (s.compaction.compressTool ? [...tools, createCompressTool(() => agent.messages)] : tools).map((t) => redactingTool(t, () => secrets));
  };
  let tools = toolsFor(settings);
  const blocked = blockedTools(compileRules(settings.permission, shell.name).rules, tools.map((t) => t.name));
  if (blocked.length > 0) input.warn(blockedWarning(settings.permission.allow, blocked));
  const prompt = createPromptSource({
    core: corePrompt,
    cwd,
    home: input.home,
    configDir: input.configDir,
    os: platform(),
    shell: () => shell.name,
    skills: args.noSkills ? undefined : { project: input.trusted },
    warn: input.warn,
  });
  const mcp = mcpManager(input, settings, tools.map((t) => t.name), () => fetchImpl, (e) => output.emit(e));
  const provider = await input.started.provider;
  const agent: Agent = createAgent({
    settings,
    provider,
    tools: (signal) => mcp.tools(tools, signal),
    output,
    cwd,
    pathOf: (path) => {
      const where = resolveUserPath(path, cwd, input.home);
      return "abs" in where ? where.abs : resolve(cwd, path);
    },
    system: prompt.system,
    permission: (tool, a) => rules(tool, a),
    taskNote: () => readTaskNote(cwd),
    ...(resumed ? { history: resumed.messages, summaries: resumed.summaries } : {}),
  });

  /** The configuration part of `/reload`: the files read again with the flags of this run (and `/model`). */
  const checkConfig = async (): Promise<StagedConfig> => {
    const current = agent.settings;
    const nothing = { warnings: [], changes: [], settings: current, apply() {} };
    const next = config.reload(flags);
    if (next.errors) return { ...nothing, errors: next.errors };
    const s = next.config.settings;
    let nextFetch = fetchImpl;
    let nextProvider = agent.provider;
    try {
      if (s.proxy !== current.proxy || JSON.stringify(s.network) !== JSON.stringify(current.network)) nextFetch = fetchFor(s, args.proxy, env, input.debug);
      if (nextFetch !== fetchImpl || s.model !== current.model || JSON.stringify(s.provider) !== JSON.stringify(current.provider) || s.retry.idleTimeoutMs !== current.retry.idleTimeoutMs)
        nextProvider = await providerFor(s.provider, s.model, s.effort, nextFetch, s.retry.idleTimeoutMs);
    } catch (e) {
      return { ...nothing, errors: [(e as Error).message] };
    }
    const known = new Set(config.warnings);
    return {
      errors: [],
      warnings: next.config.warnings.filter((w) => !known.has(w)),
      changes: settingsChanges(current, s),
      settings: s,
      apply() {
        const effort = agent.effort;
        config = next.config;
        fetchImpl = nextFetch;
        shell = shellFor(s);
        rules = permissionCheck(s.permission, shell.name, control);
        secrets = knownSecrets(s, env, args.proxy);
        tools = toolsFor(s);
        agent.switchModel(s, nextProvider);
        if (s.effort === current.effort) agent.setEffort(effort); // an /effort choice outlives a reload that leaves effort alone
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
      secrets = knownSecrets(next, env, args.proxy);
      flags = { ...flags, model: spec }; // a later /reload keeps this choice, as it keeps -m
    },
    async reload() {
      const report = await reloadAll(checkConfig, reloadables);
      output.emit({ type: "reload", ...report });
      return report;
    },
    skills: prompt.skills,
    mcp,
    mcpOff: args.noMcp,
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
function mcpManager(input: AssembleInput, settings: Settings, builtins: string[], fetchNow: () => typeof fetch, emit: Output["emit"]): McpManager {
  const { env } = input;
  const text = input.args.output === "text";
  return createMcpManager(
    { servers: settings.mcp.servers, startupWaitMs: settings.mcp.startupWaitMs, off: input.args.noMcp, builtins },
    {
      connect: async (s, hooks, signal) => (await import("./mcp/client.ts")).connectServer(s, hooks, { version: VERSION, env, fetch: fetchNow() }, signal),
      store: createToolStore(cacheDir(env, process.platform, input.home)),
      missingCommand: (command, s) => (findCommand(command, childEnv(env, s.env), s.cwd) ? undefined : commandNotFound(command)),
      report: (e) => {
        emit(e);
        if (text || e.state !== "connected") input.notice(eventLine(e)); // JSON mode: failures on stderr too
      },
      warn: (m) => input.notice(`hey: ${m}`),
      now: Date.now,
    },
  );
}

/** The shell bash runs (SPEC §7): `[tools] shell`, else found on PATH. */
function shellFor(settings: Settings): ShellChoice {
  return chooseShell({ configured: settings.tools.shell, platform: process.platform, findOnPath: (n) => Bun.which(n) ?? undefined });
}

/** The flags that take part in configuration (SPEC §3). */
export function configFlags(args: CliArgs) {
  return { model: args.model, baseUrl: args.baseUrl, protocol: args.protocol, apiKey: args.apiKey, effort: args.effort, maxTurns: args.maxTurns, maxRunTokens: args.maxRunTokens, proxy: args.proxy };
}

/**
 * -p: only the answer on stdout, the rest on stderr; REPL: everything on stdout, through Node's
 * stream so it interleaves correctly with the prompt.
 */
function terminalOutput(oneShot: boolean, env: Env, opts: { maxRetries: number; cwd: string; home: string; hint: TerminalOptions["hint"] }): TerminalOutput {
  const noColor = Boolean(env.NO_COLOR);
  const options: TerminalOptions = { maxRetries: opts.maxRetries, stringWidth: Bun.stringWidth, readBefore: (path) => readBefore(opts.cwd, opts.home, path), hint: opts.hint };
  // the width is read only once text streams: touching process.stdout costs start-up time
  const columns = (fd: 1 | 2) => () => (fd === 1 ? process.stdout : process.stderr).columns ?? 0;
  if (!oneShot) {
    const tty = isTty(1);
    const out = { write: (t: string) => void process.stdout.write(t), color: tty && !noColor, tty, columns: columns(1) };
    return createTerminalOutput(out, out, options);
  }
  const stream = (fd: 1 | 2) => ({ write: writer(fd).write, color: isTty(fd) && !noColor, tty: isTty(fd), columns: columns(fd) });
  return createTerminalOutput(stream(1), stream(2), options);
}

/** Files larger than this get no diff when write_file replaces them. */
const DIFF_READ_MAX_BYTES = 512 * 1024;

/** A file's text before write_file replaces it (for the diff on the terminal); undefined when new, big or unreadable. */
function readBefore(cwd: string, home: string, path: string): string | undefined {
  const where = resolveUserPath(path, cwd, home);
  if ("error" in where) return undefined;
  try {
    const abs = where.abs;
    if (statSync(abs).size > DIFF_READ_MAX_BYTES) return undefined;
    return readFileSync(abs, "utf8");
  } catch {
    return undefined;
  }
}

/** In JSON mode a one-line human-readable error also goes to stderr (SPEC §18), with its hint. */
function errorsTo(stream: Writer, hint: (e: { kind: string; message: string }) => string | undefined): Output {
  return {
    emit: (e) => {
      if (e.type !== "error") return;
      const more = hint(e);
      stream.write(`hey: ${e.message}\n${more ? more + "\n" : ""}`);
    },
  };
}
