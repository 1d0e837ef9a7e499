// hey for embedding (the seed's `lib.rs`): an agent in a few lines — `createAgent` with hey's
// defaults (its tools, system prompt, retries, context management, the secrets it keeps from the
// model), the permission check, the session writer and resume, and MCP servers — over the kernel
// (message IR, Provider / Tool / Output, the loop) and the four protocol adapters behind `createProvider`. Nothing here reads configuration
// files or the terminal: the embedder passes in what differs. The CLI (main.ts → run.ts → wire.ts)
// builds its agent from its configuration instead; examples/embed.ts builds one from this file.
import { homedir, platform } from "node:os";
import { createAgent as agentOf, type Agent, type AgentSettings } from "./agent.ts";
import { resolveTable, SECTIONS } from "./config/keys.ts";
import { callTarget } from "./fs/real-target.ts";
import { callPath } from "./fs/user-path.ts";
import type { ContentBlock, Message } from "./kernel/ir.ts";
import { TOOL, toolNameProblem } from "./kernel/tool-names.ts";
import type { LoadedSession } from "./sessions/reader.ts";
import { resumedParts } from "./sessions/resumed.ts";
import { createSessionWriter as writerOf, type SessionWriter, type SessionWriterOptions } from "./sessions/writer.ts";
import { fanOut, type Output } from "./kernel/output.ts";
import type { Provider } from "./kernel/provider.ts";
import type { Tool } from "./kernel/tool.ts";
import type { PermissionCheck } from "./kernel/tool-calls.ts";
import { lateTool, refusedTool } from "./mcp/late-tool.ts";
import { mcpCallName } from "./mcp/tool-aliases.ts";
import corePrompt from "./prompt/system.md" with { type: "text" };
import { buildSystemPrompt } from "./prompt/system.ts";
import { createBashTool, systemShell } from "./tools/bash.ts";
import { createCompressTool } from "./tools/compress.ts";
import { createEditTool } from "./tools/edit.ts";
import { createGrepTool } from "./tools/grep.ts";
import { createReadFileTool } from "./tools/read-file.ts";
import type { SeenFiles } from "./tools/seen-files.ts";
import type { ShellChoice } from "./tools/shell.ts";
import { createWriteFileTool } from "./tools/write-file.ts";
import { createProvider as providerFor, type ProviderOptions as AdapterChoice } from "./providers/create.ts";
import { secretGuard } from "./embed-secrets.ts";
import { MIN_SECRET_CHARS, withoutSecrets } from "./config/secrets.ts";
import { withStream, type EmbeddedAgent, type StreamTap } from "./embed-stream.ts";
import { resolveProxy } from "./net/proxy.ts";
import { bunFetch, defaultFetch, mcpSettings, type FetchLike, type McpServers } from "./embed-mcp.ts";
import { ownOutputDir } from "./embed-dirs.ts";
import { embeddedTool } from "./embed-words.ts";
import { refusesOf, type ListPermission } from "./embed-permission.ts";
import { checkValue } from "./config/schema.ts";
import { checkUrl } from "./config/providers.ts";
import { ConfigError } from "./config/settings.ts";

export {
  EFFORTS,
  PROTOCOLS,
  addUsage,
  emptyUsage,
  newId,
  parseArguments,
  textOf,
  userMessage,
  type ContentBlock,
  type Effort,
  type ImagePart,
  type DocumentPart,
  type Message,
  type Protocol,
  type Role,
  type StopReason,
  type TextPart,
  type ThinkingPart,
  type ToolCall,
  type ToolSpec,
  type Usage,
} from "./kernel/ir.ts";
export { ProviderError, type ModelRequest, type Provider, type ProviderErrorKind, type StreamEvent } from "./kernel/provider.ts";
export { toolError, type Tool, type ToolContext, type ToolResult } from "./kernel/tool.ts";
export { fanOut, type AgentEvent, type ErrorKind, type Output, type RunStop, type UsageCounts } from "./kernel/output.ts";
export { runLoop, type LoopDeps, type RequestContext, type RunResult } from "./kernel/loop.ts";
export { MAX_TURNS_PROMPT, type HandOffLimit } from "./kernel/hand-off.ts";
export type { PermissionCheck } from "./kernel/tool-calls.ts";
export type { RetryPolicy } from "./kernel/retry.ts";
export type { Agent, AgentSettings, AgentUsage } from "./agent.ts";
export { STREAM_LEFT, type EmbeddedAgent, type StreamItem } from "./embed-stream.ts";
export { defineTool, type TypedToolDefinition } from "./define-tool.ts";
export type { ContextPolicy } from "./context/view.ts";

/** What createProvider is given (providers/common.ts ProviderOptions), with `fetch` any FetchLike: Bun's `typeof fetch` also demands `preconnect`. */
export type ProviderOptions = Omit<AdapterChoice, "fetch"> & { fetch?: FetchLike };

export { createMcp, type FetchLike, type McpOptions, type McpServer, type McpServers } from "./embed-mcp.ts";
export { permissionCheck, type ListPermission } from "./embed-permission.ts";
export { embeddedDirs } from "./embed-dirs.ts";
export { createBashTool, type BashToolOptions } from "./tools/bash.ts";
export { createEditTool } from "./tools/edit.ts";
export { createGrepTool } from "./tools/grep.ts";
export { createReadFileTool } from "./tools/read-file.ts";
export { createWriteFileTool } from "./tools/write-file.ts";
export { chooseShell, type ShellChoice } from "./tools/shell.ts";
export type { SessionWriter, SessionWriterOptions } from "./sessions/writer.ts";
export { resumeSession, type LoadedSession } from "./sessions/reader.ts";
export { SessionLockedError } from "./sessions/lock.ts";
// what createProvider throws, for `instanceof`: a bad protocol or baseUrl; a proxy in the environment hey cannot use
export { ConfigError } from "./config/settings.ts";
export { NetConfigError } from "./net/proxy.ts";

/** What an embedded agent is built from: a provider, and whatever should differ from hey's defaults. */
export interface AgentOptions {
  provider: Provider;
  /**
   * the project the tools work in: their relative paths, and a permissionCheck list's path entries
   * (`read_file: src/**`), start here; default: the current directory. It fences nothing: without
   * path entries the file tools read and write any file the process can
   */
  cwd?: string;
  /**
   * the tools of each request; default: hey's five (bash, read_file, write_file, edit, grep) for
   * `cwd`. hey's `compress` tool follows them while `settings.context.compressTool` is on (the
   * default, as in the CLI: tool results end with the `[#handle]` it names them by); off, neither
   */
  tools?: Tool[] | ((signal: AbortSignal) => Tool[] | Promise<Tool[]>);
  /**
   * createMcp's servers: their tools follow `tools` in each request as they come, and a call to one
   * its request did not offer (its server still starting) waits for that server, bounded by its
   * `timeoutMs`, instead of failing as an unknown tool — as in the CLI. Then `tools` holds only
   * your own (default: hey's five); `close()` the servers yourself
   */
  mcp?: McpServers;
  /**
   * where the run's events go (a display, `createSessionWriter`, several with `fanOut`); default:
   * nowhere. A `model` event naming `settings.model` comes first, so a session writer records the
   * model, and with it the context window a context-length error teaches, for a resume. One that
   * throws (a closed socket) loses that event; the run goes on, as with the CLI's closed pipe
   */
  output?: Output;
  /** where the default tools' bash saves a cut command's full output; default: a folder of its own under embeddedDirs().outputs */
  outputDir?: string;
  /** the system prompt; default: hey's, for `cwd` */
  system?: string;
  /**
   * whether a tool call may run; default: every call runs. One made by `permissionCheck` also
   * keeps the tools it refuses whatever their arguments out of the requests (their schemas would
   * be paid for on every request for calls that can only fail), as the CLI does
   */
  permission?: PermissionCheck | ListPermission;
  /** the loop's limits, retries and context management: what each part gives replaces hey's default, the rest of the part stays */
  settings?: AgentSettingsPatch;
  /** a conversation to continue */
  history?: Message[];
  /**
   * values the model must never read, besides the API key the provider was made with
   * (createProvider's `apiKey`) and the credentials of `mcp`'s servers: `[redacted]` in every tool
   * result, event and RunResult (a session writer's file too), and the commands of the default tools
   * get no variable that holds one. Each must be 8 characters or more: redaction looks for no
   * shorter value (it would turn up in ordinary text), so createAgent throws, naming the short ones
   */
  secrets?: string[];
  /** values shaped like credentials in tool results become `[secret: NAME]` placeholders; default on, as the CLI's `[tools] redact_secrets` */
  redactShapes?: boolean;
  /**
   * a session file to continue (`resumeSession`), instead of `history`: its latest messages with
   * its summaries in place of what they cover, as hey's own resume sends them, and the context
   * window and token estimate it learned. Results for calls a crash left open are emitted to
   * `output` as `message` events first, so a session writer appending to the file records them
   */
  resume?: LoadedSession;
}

/** AgentSettings given only where they differ from hey's defaults, part by part: `{ context: { budgetTokens: 100_000 } }`. */
export type AgentSettingsPatch = { [K in keyof AgentSettings]?: AgentSettings[K] extends object ? Partial<AgentSettings[K]> : AgentSettings[K] };

/** `base` with what `patch` gives in each part; the rest of each part stays. */
function withDefaults(base: AgentSettings, patch: AgentSettingsPatch = {}): AgentSettings {
  return {
    ...base,
    ...patch,
    model: { ...base.model, ...patch.model },
    limits: { ...base.limits, ...patch.limits },
    retry: { ...base.retry, ...patch.retry },
    context: { ...base.context, ...patch.context },
  };
}

/** The API key each provider was made with, and every key given to createProvider in this process: what the model never sees (embed-secrets.ts). */
const providerKeys = new WeakMap<Provider, string>();
const allKeys = new Set<string>();

/**
 * The adapter for `opts.protocol`. A refused connection to this machine fails at once instead of
 * being retried: nothing listens there (Ollama not started, a wrong port). A try that got not a
 * byte of an answer says which endpoint was silent. Throws what the adapter's factory throws, and
 * NetConfigError for a proxy in the environment hey cannot use on the way to `baseUrl` (given no `fetch`),
 * and ConfigError, naming the option, for a protocol hey has no adapter for or a baseUrl that is not an http(s) URL.
 * `apiKey` never reaches the model: see AgentOptions.secrets.
 */
export async function createProvider(opts: ProviderOptions): Promise<Provider> {
  // its errors name the embedder's options, not the CLI's config keys and flags
  const { fetch: given, ...rest } = opts;
  // checked as the CLI checks --protocol and base_url: before, a wrong protocol threw a TypeError from deep inside, and a
  // baseUrl that is no URL was taken and failed only at the first send
  const badProtocol = checkValue("protocol", opts.protocol, "createProvider's protocol");
  if (badProtocol) throw new ConfigError(badProtocol);
  checkUrl(opts.baseUrl, "createProvider's baseUrl");
  // a proxy setting hey cannot use fails here, naming its variable, as the CLI's does at start; at the
  // first request it was a "network error" retried with backoff until the retries ran out
  if (!given && URL.canParse(opts.baseUrl)) resolveProxy(new URL(opts.baseUrl), { env: process.env });
  const provider = await providerFor({
    apiKeySetting: "createProvider's apiKey",
    baseUrlSetting: "createProvider's baseUrl",
    ...rest,
    fetch: given ? bunFetch(given) : defaultFetch(),
  });
  if (opts.apiKey) {
    providerKeys.set(provider, opts.apiKey);
    allKeys.add(opts.apiKey);
  }
  return provider;
}

/**
 * A session writer (an Output: give it to createAgent's `output`) saving the run as hey's session
 * files, `dir/id.jsonl`. As the CLI's, it writes nothing until the run's first answer (`untilAnswer`,
 * default true): a run that got none (the server down, a bad key) leaves no session, and adds nothing
 * to a resumed one — else the next resume would end in an unanswered message and send two user
 * messages in a row. Never throws; a failure goes to `warn` once.
 */
export function createSessionWriter(opts: SessionWriterOptions): SessionWriter {
  return writerOf({ ...opts, untilAnswer: opts.untilAnswer ?? true });
}

/** hey's defaults (config/keys.ts) for an agent over `provider`: 20 turns, retries with backoff, a 40k-token context budget with pruning. */
export function defaultAgentSettings(provider: Provider): AgentSettings {
  const agent = resolveTable(SECTIONS.agent, undefined);
  return {
    model: { provider: provider.protocol, model: provider.model },
    limits: { maxTurns: agent.maxTurns, parallelTools: agent.parallelTools },
    retry: resolveTable(SECTIONS.retry, undefined),
    context: { ...resolveTable(SECTIONS.compaction, undefined), budgetTokens: agent.budgetTokens },
  };
}

/** The shell hey's bash tool runs on this machine: `sh` (Windows: `sh` or `bash` on PATH, else Git Bash next to `git`, else PowerShell). */
export function defaultShell(): ShellChoice {
  return systemShell();
}

/** What `defaultTools` may be given; every part may be left out. */
export interface DefaultToolsOptions {
  /** the shell bash runs; default `defaultShell()` */
  shell?: ShellChoice;
  /** values no variable of the commands' environment may hold, besides every API key given to createProvider */
  secrets?: readonly string[];
  /** where bash saves the full output of a command whose result it cut; default: embeddedDirs().outputs, a folder of its own */
  outputDir?: string;
}

/**
 * hey's five built-in tools, as the CLI configures them by default. Its file tools share what they
 * saw of each file, so write_file refuses a file changed since: make them once per agent. The
 * commands bash runs get no environment variable whose value is one of `secrets` or an API key
 * given to createProvider, before these tools were made or after: each command's environment is
 * made as it starts. (A ShellChoice alone, as before, is `{ shell }`.)
 */
export function defaultTools(options: DefaultToolsOptions | ShellChoice = {}): Tool[] {
  return builtInTools(options);
}

/** defaultTools, read_file hiding a private key its window cuts into as `hide` hides results (an agent's own tools: its SecretGuard's). */
function builtInTools(options: DefaultToolsOptions | ShellChoice, hide?: (text: string) => string): Tool[] {
  const { shell = defaultShell(), secrets = [], outputDir } = "program" in options ? { shell: options } : options;
  const tools = resolveTable(SECTIONS.tools, undefined);
  const seen: SeenFiles = new Map();
  const env = () => withoutSecrets(process.env, [...allKeys, ...secrets]);
  const outputs = outputDir ?? ownOutputDir();
  return [
    createBashTool({ shell, timeoutMs: tools.bashTimeoutMs, filter: tools.bashFilter, raw: false, env, outputDir: outputs }),
    createReadFileTool({ seen, ...(hide ? { redact: hide } : {}) }),
    createWriteFileTool({ seen }),
    createEditTool({ seen }),
    createGrepTool(),
  ];
}

/**
 * An agent: `send` a message and it runs the loop until the model answers without tools, a limit
 * or an error (its events go to `output`), or `stream` it to read the run's events as an async
 * iterable (embed-stream.ts); `messages` is the conversation so far. See AgentOptions for what can
 * differ from hey's defaults.
 */
export function createAgent(options: AgentOptions): EmbeddedAgent {
  const cwd = options.cwd ?? process.cwd();
  const shell = defaultShell();
  const key = providerKeys.get(options.provider);
  const short = shortSecrets(options.secrets ?? []);
  if (short) throw new Error(short);
  // the credentials of createMcp's servers too: a tool result or event that echoes one is hidden as the servers' own events are
  const serverKeys = options.mcp ? (mcpSettings.get(options.mcp)?.secrets ?? []) : [];
  const secrets = [...(options.secrets ?? []), ...serverKeys, ...(key ? [key] : [])];
  const guard = secretGuard(secrets, options.redactShapes ?? resolveTable(SECTIONS.tools, undefined).redactSecrets);
  const tools = options.tools ?? builtInTools({ shell, secrets, ...(options.outputDir ? { outputDir: options.outputDir } : {}) }, guard.text);
  const system =
    options.system ??
    buildSystemPrompt({
      core: corePrompt,
      cwd,
      date: new Date().toISOString().slice(0, 10),
      os: platform(),
      shell: shell.label ?? shell.name,
      agentsMd: [],
      skills: undefined,
    });
  const settings = withDefaults(defaultAgentSettings(options.provider), options.settings);
  if (Array.isArray(tools)) {
    // two tools of one name: every vendor refuses every request that lists them ("tool names must be unique")
    const twice = tools.flatMap((t, i) => {
      // a name no vendor takes: every request listing it is refused (400), so no send could ever work
      const badName = toolNameProblem(t.name);
      if (badName) return [`createAgent: tools[${i}] has a name no model API accepts: ${badName}`];
      const first = tools.findIndex((o) => o.name === t.name);
      if (first < i) return [`createAgent: tools[${i}] (${t.name}) is named like tools[${first}]; each tool needs a name of its own`];
      if (t.name !== TOOL.compress || !settings.context.compressTool) return [];
      return [
        `createAgent: tools[${i}] (compress) is named like hey's own compress tool, which settings.context.compressTool offers; name it otherwise, or set compressTool to false`,
      ];
    });
    if (twice.length > 0) throw new Error(twice.join("\n"));
  }
  // a list's path entries and the tools' relative paths: both under this agent's cwd
  const permission = options.permission && "within" in options.permission ? options.permission.within(cwd) : options.permission;
  const refuses = refusesOf(permission);
  // offered unless the list refuses it; results show handles exactly when the model has it (agent.ts)
  const compress = settings.context.compressTool ? [createCompressTool(() => agent.messages)] : [];
  const given = typeof tools === "function" ? tools : () => tools;
  const { mcp } = options;
  const own = mcp ? async (signal: AbortSignal, look?: boolean) => mcp.tools(await given(signal), signal, look) : given;
  // an MCP server's tool is judged with its server's names for it, by this list as by the manager's own
  const refusedHere = (t: Tool) => refuses(t.name, t.server === undefined ? undefined : mcp?.origin(t.name));
  let refusedLast: Tool[] = []; // the tools the last request left out so: a call to one reads the list's refusal
  const requestTools = async (signal: AbortSignal, look?: boolean) => {
    const all = [...(await own(signal, look)), ...compress];
    refusedLast = all.filter(refusedHere);
    return all.filter((t) => !refusedHere(t)).map(guard.tool);
  };
  const tap: StreamTap = { listener: undefined };
  const output = guard.output(fanOut([...(options.output ? [options.output] : []), { emit: (e) => tap.listener?.(e) }]));
  output.emit({ type: "model", ...settings.model });
  for (const message of options.resume?.appended ?? []) output.emit({ type: "message", message });
  const agent: Agent = agentOf({
    provider: options.provider,
    settings,
    tools: requestTools,
    // a tool the list refuses outright is not offered; a call to it reads the list's refusal, not "unknown tool" (nor the
    // server's tool of that name, offered under its prefix)
    unlisted: (name: string, offered: readonly string[]) => {
      const late = { tools: requestTools, settings: () => (mcp && mcpSettings.get(mcp)) || { servers: [], startupWaitMs: 0 }, now: Date.now };
      return (
        refusedLast.find((t) => t.name === name) ??
        (mcp ? (refusedTool(name, mcp) ?? ((t) => t && embeddedTool(t))(lateTool(name, { mcp, ...late }, offered))) : undefined)
      );
    },
    ...(mcp ? { alias: (name: string) => mcpCallName(name, mcp.offer()) } : {}), // `mcp__SERVER__TOOL`: runs, and is judged, as TOOL
    output,
    cwd,
    pathOf: (path) => callTarget(callPath(path, cwd, homedir()), permission !== undefined),
    // the servers' instructions: those connected at the first request, the same all run; a later one's in its request's note
    system: () => (mcp?.instructions() ? `${system}\n\n${mcp.instructions()}` : system),
    permission: permission
      ? Object.assign((tool: string, a: Record<string, unknown>) => permission(tool, a, mcp?.origin(tool)), { files: permission.files?.bind(permission) })
      : () => undefined,
    taskNote: () => undefined,
    ...(mcp ? { note: () => mcp.note(agent.usage.requests) } : {}),
    ...(options.resume ? resumedParts(options.resume, settings.model.provider, settings.model.model) : options.history ? { history: options.history } : {}),
  });
  // what `send` returns, and so a stream's `result` item, is redacted as the events are: an error that quotes the key
  const redacted = Object.create(agent) as Agent;
  Object.defineProperty(redacted, "send", {
    value: async (content: string | ContentBlock[], signal: AbortSignal) => guard.value(await agent.send(content, signal)),
  });
  return withStream(redacted, tap);
}

/** Why createAgent refuses `secrets`: those under the length redaction looks for, which would reach the model as they are; none: undefined. */
export function shortSecrets(secrets: readonly string[]): string | undefined {
  const short = secrets.flatMap((s, i) => (s !== "" && s.length < MIN_SECRET_CHARS ? [`secrets[${i}] (${s.length} characters)`] : []));
  if (short.length === 0) return undefined;
  return `createAgent: ${short.join(", ")} ${short.length > 1 ? "are" : "is"} shorter than ${MIN_SECRET_CHARS} characters, which hey does not hide (a value that short turns up in ordinary text, which would be garbled); keep such a value from the model another way`;
}
