// One run of hey after the flags are parsed: configuration, the prompt, the provider, the tools
// and the outputs are put together here, then the loop runs once (`-p`) or the REPL starts.
import { existsSync, readFileSync } from "node:fs";
import { homedir, platform } from "node:os";
import { join } from "node:path";
import { createAgent, type Agent } from "./agent.ts";
import { EXIT, UsageError, VERSION, type CliArgs } from "./cli.ts";
import { loadConfig } from "./config/load.ts";
import { writeFileAtomic } from "./fs/atomic.ts";
import { newId, textOf, type ContentBlock } from "./kernel/ir.ts";
import type { RunResult } from "./kernel/loop.ts";
import { fanOut, type Output } from "./kernel/output.ts";
import { proxiedFetch } from "./net/fetch.ts";
import { ConfigError, SETUP_HINT, type ConfigFlags } from "./config/resolve.ts";
import { compileRules, decide, validateRules, type PermissionRules } from "./permission/rules.ts";
import { parseProxyUrl, ProxyConfigError, resolveProxy } from "./net/proxy.ts";
import type { PermissionCheck } from "./kernel/tool-calls.ts";
import { chooseShell } from "./tools/shell.ts";
import { buildSystemPrompt } from "./prompt/system.ts";
import { expandPrompt, MentionError } from "./prompt/input.ts";
import corePrompt from "./prompt/system.md" with { type: "text" };
import { createJsonOutput } from "./ui/json.ts";
import { createTerminalOutput, type TerminalOutput } from "./ui/terminal.ts";
import { isTty, writer, type Writer } from "./ui/term.ts";
import { createProvider, createTools } from "./wire.ts";
import { createCompressTool } from "./tools/compress.ts";
import { createSessionWriter, findSession, formatSessionList, latestSession, listSessions, loadSession, sessionsDir, type LoadedSession } from "./sessions/store.ts";

export async function run(args: CliArgs): Promise<number> {
  const env = process.env;
  const cwd = process.cwd();
  const home = env.HOME || homedir();
  const dir = sessionsDir(env);
  if (args.sessions) {
    writer(1).write(formatSessionList(listSessions(dir), home));
    return EXIT.ok;
  }
  let resumed: LoadedSession | undefined;
  try {
    resumed = openSession(args, dir, cwd);
  } catch (e) {
    return fail((e as Error).message, EXIT.usage);
  }
  const stdinIsTty = isTty(0);
  const stdinText = stdinIsTty ? undefined : Bun.stdin.text();
  const oneShot = args.print || !stdinIsTty;
  const flags: ConfigFlags = { model: args.model, baseUrl: args.baseUrl, protocol: args.protocol, apiKey: args.apiKey, effort: args.effort, maxTurns: args.maxTurns, proxy: args.proxy };
  const load = (model = flags.model) => loadConfig({ env, cwd, configFile: args.config, trustProject: args.approve, flags: { ...flags, model } });

  let loaded;
  const proxySources = { cli: args.proxy, env };
  try {
    loaded = load();
    // a resumed session goes on with the model it last used, unless this run names one
    const last = resumed?.model;
    if (last && !flags.model && !args.baseUrl && !env.HEY_MODEL && !env.HEY_BASE_URL && loaded.settings.providers.some((p) => p.name === last.provider))
      loaded = load(`${last.provider}/${last.model}`);
    // a bad proxy value is a configuration error now, not a minute of "network" retries later:
    // hey's own settings always, the environment's as far as this endpoint uses it
    for (const value of [args.proxy, loaded.settings.proxy]) if (value) parseProxyUrl(value);
    resolveProxy(new URL(loaded.settings.provider.baseUrl), { ...proxySources, config: loaded.settings.proxy });
  } catch (e) {
    if (!(e instanceof ConfigError) && !(e instanceof ProxyConfigError)) throw e;
    if (args.output === "json") writer(1).write(JSON.stringify({ type: "error", kind: "config", message: e.message }) + "\n");
    return fail(e.message, EXIT.usage);
  }
  const { settings } = loaded;
  const fetchImpl = proxiedFetch({ ...proxySources, config: settings.proxy });
  // The SDK module evaluates (~12 ms) while stdin is still being read.
  const providerReady = createProvider(settings.provider, settings.model, settings.effort, fetchImpl).then(
    (provider) => ({ provider }),
    (error: unknown) => ({ error }),
  );

  const stdin = await stdinText;
  let prompt: ContentBlock[];
  try {
    if (oneShot && args.message.trim() === "" && (stdin ?? "").trim() === "")
      throw new UsageError('no message: give it as arguments (hey -p "…") or on stdin');
    prompt = isCommand(args.message) ? [] : expandPrompt(args.message, { cwd, home, required: args.files, stdin });
  } catch (e) {
    if (e instanceof UsageError || e instanceof MentionError) return fail(e.message, EXIT.usage);
    throw e;
  }
  for (const w of [...loaded.warnings, ...validateRules(settings.permission)]) warn(w);
  const mcp = settings.mcp.servers.filter((s) => s.enabled).map((s) => s.name);
  if (mcp.length > 0 && !args.noMcp) warn(`MCP servers are configured (${mcp.join(", ")}) but this version of hey does not start MCP servers yet`);
  if (loaded.skipped) warn(`${loaded.skipped} not loaded: this project is not trusted (use --approve)`);

  const sessionId = resumed?.header.id ?? newId();
  const session = createSessionWriter({ dir, id: sessionId, cwd, version: VERSION, warn });
  session.model(settings.provider.name, settings.model);
  const terminal = args.output === "text" ? terminalOutput(oneShot, env, settings.retry.maxRetries) : undefined;
  const display = terminal ?? fanOut([createJsonOutput(writer(1).write), errorsTo(writer(2))]);
  const output = fanOut([display, session]);
  output.emit({ type: "session", id: sessionId, provider: settings.provider.name, model: settings.model, cwd });
  if (resumed) {
    for (const w of resumed.warnings) warn(w);
    for (const message of resumed.appended) session.emit({ type: "message", message });
    if (terminal) warn(`resumed session ${sessionId} (${resumed.messages.length} messages)`);
  }

  const shell = chooseShell({ configured: settings.tools.shell, platform: process.platform, findOnPath: (n) => Bun.which(n) ?? undefined });
  const date = new Date().toISOString().slice(0, 10);
  const system = buildSystemPrompt({ core: corePrompt, cwd, date, os: platform(), shell: shell.name });
  const ready = await providerReady;
  if ("error" in ready) {
    if (!(ready.error instanceof ConfigError)) throw ready.error;
    output.emit({ type: "error", kind: "config", message: ready.error.message });
    return EXIT.usage;
  }
  const agent: Agent = createAgent({
    settings,
    provider: ready.provider,
    tools: createTools(settings, { shell, raw: args.raw }),
    output,
    cwd,
    system,
    permission: permissionCheck(settings.permission, shell.name),
    summaries: resumed?.summaries ?? [],
  });
  if (resumed) agent.messages.push(...resumed.messages);
  if (settings.compaction.compressTool) agent.tools.push(createCompressTool(() => agent.messages));

  const switchModel = async (spec: string) => {
    const next = load(spec).settings;
    agent.provider = await createProvider(next.provider, next.model, next.effort, fetchImpl);
    agent.settings = next;
    agent.effort = next.effort;
    session.model(next.provider.name, next.model);
  };
  if (!oneShot) {
    // loaded only here: node:readline alone adds ~8 ms to every start
    const [{ runRepl }, { runCommand, completions }] = await Promise.all([import("./ui/repl.ts"), import("./ui/commands.ts")]);
    try {
      return await runRepl(
      {
        prompt: "› ",
        historyFile: join(env.XDG_STATE_HOME || join(home, ".local", "state"), "hey", "history"),
        complete: (line) => completions(line, agent, cwd),
        onLine: async (line, signal) => {
          if (line.startsWith("/")) return runCommand(line, { agent, signal, terminal, switchModel });
          const result = await agent.send(expandPrompt(line, { cwd, home }), signal);
          if (result.stop === "max_turns") await saveHandOff(cwd, agent);
        },
      },
        args.message, // already checked by expandPrompt above; onLine expands it again
      );
    } finally {
      session.close();
    }
  }
  if (isCommand(args.message)) {
    const { runCommand } = await import("./ui/commands.ts");
    await runCommand(args.message, { agent, signal: new AbortController().signal, terminal, switchModel });
    session.close();
    return EXIT.ok;
  }

  const abort = new AbortController();
  const onSigint = () => {
    if (abort.signal.aborted) process.exit(EXIT.interrupted); // a second Ctrl-C: leave now
    abort.abort();
  };
  process.on("SIGINT", onSigint);
  let result: RunResult;
  try {
    result = await agent.send(prompt, abort.signal);
  } finally {
    process.off("SIGINT", onSigint);
    session.close();
  }
  if (result.stop === "max_turns") await saveHandOff(cwd, agent);
  if (result.stop === "error" && settings.provider.preset && settings.provider.name === "ollama") warn(SETUP_HINT);
  return exitCode(result);
}

const isCommand = (message: string) => message.trimStart().startsWith("/");

/** `--resume ID` (id or unique prefix) or `-c` (the latest session of this directory, if any). */
function openSession(args: CliArgs, dir: string, cwd: string): LoadedSession | undefined {
  if (args.resume) return loadSession(findSession(dir, args.resume).path);
  if (!args.continue) return undefined;
  const latest = latestSession(dir, cwd);
  return latest ? loadSession(latest.path) : undefined;
}

/** SPEC §8: deny first, every segment checked, as `shell` reads it; a refusal is the error result the model sees. */
function permissionCheck(lists: PermissionRules, shell: string): PermissionCheck {
  const { rules } = compileRules(lists, shell);
  return (tool, args) => {
    const decision = decide(tool, args, rules);
    return decision.allowed ? undefined : decision.reason;
  };
}

/**
 * The max-turns hand-off (SPEC §6) goes into .hey/task.md, after whatever the agent kept there,
 * so `hey -c` or a reply of "continue" resumes exactly there.
 */
async function saveHandOff(cwd: string, agent: Agent): Promise<void> {
  const last = agent.messages.findLast((m) => m.role === "assistant");
  const task = agent.messages.find((m) => m.role === "user");
  if (!last || !task) return;
  const file = join(cwd, ".hey", "task.md");
  try {
    const before = existsSync(file) ? readFileSync(file, "utf8").trimEnd() + "\n\n" : `# Task\n\n${textOf(task).slice(0, 4000)}\n\n`;
    await writeFileAtomic(file, `${before}## Stopped at the turn limit (${new Date().toISOString()})\n\n${textOf(last).trim()}\n`);
    warn(`the hand-off is saved in ${file}; \`hey -c\` continues from there`);
  } catch (e) {
    warn(`could not write ${file}: ${(e as Error).message}`);
  }
}

function exitCode(result: RunResult): number {
  switch (result.stop) {
    case "end":
      return EXIT.ok;
    case "max_turns":
      return EXIT.maxTurns;
    case "interrupted":
      return EXIT.interrupted;
    case "error":
    case "length":
      return EXIT.runtime;
  }
}

/**
 * -p: only the answer on stdout, the rest on stderr; REPL: everything on stdout, through Node's
 * stream so it interleaves correctly with readline's prompt.
 */
function terminalOutput(oneShot: boolean, env: NodeJS.ProcessEnv, maxRetries: number): TerminalOutput {
  const noColor = Boolean(env.NO_COLOR);
  if (!oneShot) {
    const out = { write: (t: string) => void process.stdout.write(t), color: isTty(1) && !noColor };
    return createTerminalOutput(out, out, { maxRetries });
  }
  const stream = (fd: 1 | 2) => ({ write: writer(fd).write, color: isTty(fd) && !noColor });
  return createTerminalOutput(stream(1), stream(2), { maxRetries });
}

/** In JSON mode a one-line human-readable error also goes to stderr (SPEC §18). */
function errorsTo(stream: Writer): Output {
  return { emit: (e) => void (e.type === "error" && stream.write(`hey: ${e.message}\n`)) };
}

function warn(message: string): void {
  writer(2).write(`hey: ${message}\n`);
}

function fail(message: string, code: number): number {
  warn(message);
  return code;
}
