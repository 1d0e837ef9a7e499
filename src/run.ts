// One run of hey after the flags are parsed: the flow only. Configuration is read, the prompt is
// built, wire.ts assembles the pieces, then the loop runs once (`-p`), a slash command runs, or
// the REPL starts; the result becomes the exit code.
import type { Assembled } from "./wire.ts";
import { configFlags, EXIT, exitFor, UsageError, VERSION, type CliArgs } from "./cli.ts";
import { controlFiles } from "./config/control-files.ts";
import { loadConfig } from "./config/load.ts";
import { hideEnvironment } from "./config/private-env.ts";
import { hideSecrets, knownSecrets } from "./config/secrets.ts";
import { ConfigError } from "./config/settings.ts";
import { fallbackHandOff, saveHandOff, type HandOffLimit } from "./context/task-note.ts";
import { textOf, type ContentBlock } from "./kernel/ir.ts";
import type { RunResult } from "./kernel/loop.ts";
import { usageCounts } from "./kernel/output.ts";
import type { DebugLog } from "./net/debug-log.ts";
import { NetConfigError } from "./net/proxy.ts";
import { McpInputError, promptMessage, withResources } from "./mcp/attach.ts";
import { specTokens } from "./mcp/offer.ts";
import { resourceMentions } from "./mcp/resources.ts";
import { formatStatus } from "./mcp/status.ts";
import { expandPrompt, isBlank, MentionError, readStdin } from "./prompt/input.ts";
import { findSession, resumeSession, scanSessions, unreadableNote, type LoadedSession } from "./sessions/reader.ts";
import { parseSkillCommand, skillMessage, unknownSkill } from "./skills/catalog.ts";
import { readSkillText } from "./skills/load.ts";
import { untrustedNotice } from "./trust/policy.ts";
import { decideWidenings, readApprovalState, recordApprovals } from "./trust/approve.ts";
import { settleTrust } from "./trust/store.ts";
import { doneEvent, failureLines } from "./ui/json.ts";
import { sessionsListing } from "./ui/sessions-list.ts";
import { exitAfterGrace, onSignals, SIGNAL_EXIT, SIGNAL_REASON } from "./ui/signals.ts";
import { lineKind, unknownCommand } from "./ui/slash.ts";
import { isTty, writer } from "./ui/term.ts";
import { visible } from "./ui/visible.ts";
import type { Places } from "./fs/places.ts";
import { wrapColumns } from "./ui/wrap.ts";
import { startProvider } from "./endpoint.ts";
import { assemble } from "./wire.ts";
import { errnoCode, errorText } from "./kernel/errors.ts";

/** Where hey's files are (fs/places.ts), and the environment hey was started with. */
type Place = Places & { env: Record<string, string | undefined> };

export async function run(args: CliArgs, here: Places): Promise<number> {
  await hideEnvironment(); // before anything is spawned: the keys in hey's environment are not its children's to read
  const env = process.env;
  const { home, cwd } = here;
  const place: Place = { ...here, env };
  if (args.sessions) return print(sessionsListing({ all: args.all, json: args.output === "json", dir: place.sessionsDir, cwd: place.cwd, home: place.home }));
  const oneShot = args.print || !isTty(0) || args.output === "json"; // JSON never opens the REPL
  let parts: Assembled;
  let prompt: ContentBlock[];
  let reopen: Reopen;
  try {
    const resumed = openSession(args, place);
    // the REPL asks before anything loads; node:readline (the question) is loaded only to ask.
    // The question and its notices are long sentences: wrapped at spaces, not mid-word by the terminal.
    const ask = async (question: string) => (await import("./trust/ask.ts")).askLine(wrapColumns(question, process.stdout.columns || 0, Bun.stringWidth));
    const approvals = readApprovalState(here.approvalsFile, warnWrapped);
    const trust = await settleTrust({ cwd: place.cwd, configDir: place.configDir, approve: args.approve, interactive: !oneShot, ask, warn: warnWrapped, approvals });
    if (trust === "cancelled") return EXIT.interrupted;
    const flags = { ...configFlags(args), ...(resumed?.model ? { session: resumed.model } : {}) };
    // what the files give the agent beyond what the user approved waits for a yes (REPL) or is left out (issue 24)
    const loaded = loadConfig({ env, here, configFile: args.config, trustProject: trust.trusted, flags, approvals: approvals.record, approveProject: args.approve });
    const config = await decideWidenings(loaded, oneShot ? undefined : ask, warnWrapped);
    const record = await recordApprovals(config, approvals, here.trustFile, warnWrapped, !oneShot);
    const logSecrets = knownSecrets(config.settings, env, args.proxy);
    const debug = await debugLog(args, place, () => logSecrets);
    const started = startProvider(config.settings, args.proxy, env, debug); // the SDK loads while stdin is read
    const maxBytes = config.settings.input.maxBytes;
    const servers = args.noMcp ? [] : config.settings.mcp.servers.filter((s) => s.enabled).map((s) => s.name);
    prompt = await readPrompt(args, place, isTty(0) ? undefined : await readStdin(maxBytes, warn), oneShot, maxBytes, servers);
    for (const w of config.warnings) warn(w);
    if (!trust.trusted && trust.resources.length > 0 && !trust.asked) warnWrapped(untrustedNotice(trust.resources, trust.stored, trust.file));
    const notice = (line: string) => notices.print(line);
    const controls = controlFiles(here, args.config);
    const guard = { approvals: { ...approvals, record }, trustFile: here.trustFile, controls };
    const common = { args, env, here, trusted: trust.trusted, oneShot, warn, notice, ...guard, ...(debug ? { debug } : {}) };
    parts = await assemble({ ...common, config, flags, started, resumed });
    if (isSkillLine(args.message)) prompt = withSkill(skillText(args.message, parts, args.noSkills), prompt);
    // `/resume` in the REPL: the same pieces around another session, with the model it last used
    reopen = (session) => {
      const again = { ...configFlags(args), ...(session.model ? { session: session.model } : {}) };
      const settings = config.resolve(again);
      return assemble({ ...common, config: { ...config, settings }, flags: again, started: startProvider(settings, args.proxy, env, debug), resumed: session });
    };
  } catch (e) {
    return preflightFailure(e, args);
  }
  try {
    if (!oneShot) return await repl(parts, args, place, reopen);
    if (lineKind(args.message) === "command") return await oneCommand(parts, args.message, args.output, place);
    return await oneShotRun(parts, await mcpInput(parts, args.message, prompt, warn), place.cwd);
  } catch (e) {
    if (e instanceof McpInputError) return preflightFailure(new UsageError(e.message), args);
    throw e;
  } finally {
    parts.session.close();
    await parts.mcp.close();
  }
}

/**
 * Where lines about background work go (an MCP server connected or failed): stderr in a one-shot
 * run; stdout in the REPL, above the prompt once it is drawn (the REPL takes `print` over).
 */
const notices = {
  print(line: string): void {
    writer(2).write(visible(line) + "\n");
  },
};

/**
 * `--verbose` or HEY_LOG=debug: the request log, its path said once. Its module is imported only
 * then, so a normal run pays nothing for it.
 */
async function debugLog(args: CliArgs, place: Place, secrets: () => readonly string[]): Promise<DebugLog | undefined> {
  const level = place.env.HEY_LOG ?? "";
  if (!args.verbose && level !== "debug") {
    if (level !== "" && level !== "off") warn(`HEY_LOG=${level} is not a level hey knows (debug or off); no log is written`);
    return undefined;
  }
  const { openDebugLog } = await import("./net/debug-log.ts");
  const log = openDebugLog(place.logsDir, hideSecrets(secrets));
  warn(`debug log: ${log.path}`);
  return log;
}

/** The prompt of a one-shot run (or the REPL's first message): the message, its @files and stdin. */
async function readPrompt(args: CliArgs, place: Place, stdin: Uint8Array | undefined, oneShot: boolean, maxBytes: number, servers: string[]): Promise<ContentBlock[]> {
  if (oneShot && args.message.trim() === "" && isBlank(stdin)) throw new UsageError('no message: give it as arguments (hey -p "…") or on stdin');
  const kind = lineKind(args.message);
  if (kind === "command" || kind === "mcp-prompt") return []; // a prompt command's message comes from its server
  if (kind === "unknown") throw new UsageError(unknownCommand(args.message));
  const input = { cwd: place.cwd, home: place.home, required: args.files, stdin, maxBytes, warn: oneShot ? warn : () => {}, skip: resourceWord(servers) };
  return userContent(isSkillLine(args.message) ? parseSkillCommand(args.message)!.args : args.message, input); // the REPL expands it again
}

/** `@SERVER:URI`: a resource of a running MCP server, not a file. */
const resourceWord = (servers: readonly string[]) => (word: string) => resourceMentions(`@${word}`, servers).length > 0;

/**
 * What MCP servers add to a message: a `/mcp:SERVER:PROMPT` line is the prompt's messages, and
 * `@SERVER:URI` resources are attached. Throws McpInputError.
 */
async function mcpInput(parts: Assembled, line: string, content: ContentBlock[], warnTo: (m: string) => void, signal = new AbortController().signal): Promise<ContentBlock[]> {
  if (lineKind(line) === "mcp-prompt") return promptMessage(parts.mcp, line, signal);
  return withResources(parts.mcp, line, content, parts.agent.settings.input.maxBytes, signal, warnTo);
}

/** The message's blocks, none for an empty message (a `/skill:NAME` without args). */
function userContent(message: string, opts: Parameters<typeof expandPrompt>[1]): ContentBlock[] {
  return expandPrompt(message, opts).filter((b) => b.type !== "text" || b.text !== "");
}

/** `/skill:NAME args` is a message, not a command: the skill's text, then the args. */
const isSkillLine = (line: string) => parseSkillCommand(line) !== undefined;

/** The skill's text for a `/skill:NAME` line. Throws UsageError for an unknown or unreadable skill. */
function skillText(line: string, parts: Assembled, noSkills: boolean): string {
  const { name } = parseSkillCommand(line)!;
  const skills = parts.skills();
  const skill = skills.find((s) => s.name === name);
  if (!skill) throw new UsageError(noSkills ? "skills are off in this run (--no-skills)" : unknownSkill(name, skills));
  try {
    const read = readSkillText(skill);
    return skillMessage(skill, read.text, read.truncated);
  } catch (e) {
    throw new UsageError(`${skill.path}: cannot read (${errnoCode(e) ?? errorText(e)})`);
  }
}

/** The skill's text and, after a blank line, the message's. */
function withSkill(skill: string, content: ContentBlock[]): ContentBlock[] {
  const [first, ...rest] = content;
  if (first?.type === "text") return [{ type: "text", text: `${skill}\n\n${first.text}` }, ...rest];
  return [{ type: "text", text: skill }, ...content];
}

/** A mistake found before anything ran: a usage or configuration error, exit 2 (in JSON: `error`, then `done`). */
function preflightFailure(e: unknown, args: CliArgs): number {
  const config = e instanceof ConfigError || e instanceof NetConfigError;
  if (!config && !(e instanceof UsageError || e instanceof MentionError || e instanceof SessionError)) throw e;
  if (args.output === "json") writer(1).write(failureLines(config ? "config" : "usage", errorText(e)));
  if (e instanceof ConfigError) for (const w of e.warnings) warn(w);
  // a ConfigError's lines are one mistake each (as /reload lists them): each gets its `hey:`
  for (const line of config ? errorText(e).split("\n") : [errorText(e)]) warn(line);
  return EXIT.usage;
}

/** Assembles the run again around a session to resume. Throws ConfigError. */
type Reopen = (session: LoadedSession) => Promise<Assembled>;

async function repl(first: Assembled, args: CliArgs, place: Place, reopen: Reopen): Promise<number> {
  // loaded only here: the REPL's modules are not on the way to a one-shot run's first request
  const [{ runRepl }, { runCommand, completions }, { banner, lastExchange }, { resumeCommand }] = await Promise.all([
    import("./ui/repl.ts"),
    import("./ui/commands.ts"),
    import("./ui/intro.ts"),
    import("./ui/resume.ts"),
  ]);
  let parts = first; // `/resume` swaps it
  const color = isTty(1) && !place.env.NO_COLOR;
  const say = (text: string) => void process.stdout.write(text);
  const answerFormat = { color, stringWidth: Bun.stringWidth, get columns() { return process.stdout.columns || 0; } };
  const { settings } = parts.agent;
  say(banner({ version: VERSION, provider: settings.provider.name, model: settings.model, cwd: place.cwd, home: place.home, color }));
  say(lastExchange(parts.agent.messages, "› ", answerFormat));
  try {
    return await runRepl(
      {
        prompt: "› ",
        color,
        historyFile: place.historyFile,
        aside: (print) => (notices.print = print),
        complete: (line) => completions(line, parts.agent, place.cwd, parts.skills().map((s) => s.name), parts.mcp.prompts()),
        onLine: async (line, signal, io) => {
          const { agent } = parts;
          if (/^\/resume(\s|$)/.test(line.trim())) {
            const session = await resumeCommand(line.trim().slice("/resume".length).trim(), { dir: place.sessionsDir, cwd: place.cwd, current: parts.session.path, ask: io.ask, say });
            if (!session) return;
            const next = await reopen(session);
            parts.session.close();
            void parts.mcp.close();
            parts = next;
            say(lastExchange(parts.agent.messages, "› ", answerFormat));
            return;
          }
          const kind = lineKind(line);
          if (kind === "unknown") return void say(`hey: ${unknownCommand(line)}\n`);
          if (kind === "command") {
            // a question of several lines (what a /reload would give the agent): the lines above the prompt, the last one asked
            const ask = (question: string) => {
              const lines = question.split("\n");
              say(lines.slice(0, -1).map((l) => wrapColumns(l, answerFormat.columns, Bun.stringWidth) + "\n").join(""));
              return io.ask(lines.at(-1)!);
            };
            const result = await runCommand(line, commandContext(parts, place, signal, (t) => say(`${t}\n`), ask));
            if (result.text) say(wrapColumns(result.text, answerFormat.columns, Bun.stringWidth) + "\n");
            return result.quit ? "quit" : undefined;
          }
          // a bad @file, an unknown skill or prompt, a resource that cannot be read: printed by the REPL, and nothing is sent
          const input = { cwd: place.cwd, home: place.home, maxBytes: agent.settings.input.maxBytes, warn, skip: resourceWord(parts.mcp.status().map((s) => s.name)) };
          const content = kind === "skill"
            ? withSkill(skillText(line, parts, args.noSkills), userContent(parseSkillCommand(line)!.args, input))
            : kind === "mcp-prompt" ? [] : expandPrompt(line, input);
          const result = await agent.send(await mcpInput(parts, line, content, warn, signal), signal);
          if (result.stop === "max_turns" || result.stop === "max_run_tokens") await handOff(parts, place.cwd, result.stop);
        },
      },
      args.message, // already checked by readPrompt; onLine expands it again
    );
  } finally {
    parts.session.close();
    await parts.mcp.close();
  }
}

/** `hey -p /usage`: the command's text on stdout (an error on stderr, exit 2); in JSON a `command` event, then `done`. */
async function oneCommand(parts: Assembled, line: string, output: CliArgs["output"], here: Places): Promise<number> {
  const { runCommand } = await import("./ui/commands.ts");
  const result = await runCommand(line, { ...commandContext(parts, here, new AbortController().signal, (t) => writer(2).write(`${t}\n`)), oneShot: true });
  if (output === "json") {
    parts.output.emit({ type: "command", name: line.trim().split(/\s/, 1)[0]!, ok: result.ok, output: result.text });
    parts.output.emit(doneEvent(result.ok ? "end" : "error", usageCounts(parts.agent.usage.total)));
  } else if (result.text) writer(result.ok ? 1 : 2).write(result.text + "\n");
  return result.ok ? EXIT.ok : EXIT.usage;
}

async function oneShotRun(parts: Assembled, prompt: ContentBlock[], cwd: string): Promise<number> {
  const abort = new AbortController();
  let signalled: number | undefined;
  const off = onSignals({
    interrupt() {
      if (abort.signal.aborted) process.exit(signalled ?? EXIT.interrupted); // a second Ctrl-C: leave now
      abort.abort();
    },
    end(name) {
      signalled ??= SIGNAL_EXIT[name];
      abort.abort(SIGNAL_REASON[name]);
      exitAfterGrace(signalled);
    },
  });
  let result: RunResult;
  try {
    result = await parts.agent.send(prompt, abort.signal);
  } finally {
    off();
  }
  if (signalled !== undefined) return signalled;
  if (result.stop === "max_turns" || result.stop === "max_run_tokens") await handOff(parts, cwd, result.stop);
  return exitFor(result.stop);
}

/**
 * What commands reach; `print`: lines a command shows as it goes (a sign-in's URL); `ask`: the
 * REPL's question, for a `/reload` that finds a change giving the agent more (one-shot: none, the
 * change is left out).
 */
function commandContext(parts: Assembled, here: Places, signal: AbortSignal, print: (text: string) => void, ask?: (question: string) => Promise<string | undefined>) {
  return {
    agent: parts.agent,
    here,
    signal,
    terminal: parts.terminal,
    switchModel: parts.switchModel,
    reload: () => parts.reload(ask),
    earlierRuns: parts.earlierRuns,
    mcpStatus: async (s: AbortSignal) => {
      const starting = parts.mcp.status().filter((x) => x.state === "connecting").map((x) => parts.mcp.settled(x.name, s)); // each, up to startup_wait_ms
      await Promise.race([Promise.all(starting), Bun.sleep(parts.agent.settings.mcp.startupWaitMs)]);
      const tools = await parts.requestTools(s);
      const own = tools.filter((t) => t.server === undefined).reduce((n, t) => n + specTokens(t), 0);
      return formatStatus(parts.mcp.status(), parts.mcp.offer(), parts.mcpOff, own);
    },
    mcpAuth: async (verb: "login" | "logout", name: string, s: AbortSignal) => {
      const { authCommand } = await import("./mcp/login.ts");
      const { credentials, fetch } = parts.signIn;
      return authCommand(verb, name, { servers: parts.agent.settings.mcp.servers, store: credentials, fetch: fetch(), env: process.env, print, signal: s, restart: parts.mcp.restart });
    },
  };
}

/** A `--resume` or `-c` that cannot be followed: a usage error. */
class SessionError extends Error {}

/**
 * `--resume ID` (id, or a unique start or end of it) or `-c` (the latest session of this directory, if any),
 * locked for this process (a second writer is refused). `-c` mentions session files too damaged
 * to tell their directory when one is newer than the session it picks.
 */
function openSession(args: CliArgs, place: Place): LoadedSession | undefined {
  try {
    if (args.resume) return resumeSession(findSession(place.sessionsDir, args.resume).path, place.cwd);
    if (!args.continue) return undefined;
    const { sessions, unreadable } = scanSessions(place.sessionsDir);
    const latest = sessions.find((s) => s.cwd === place.cwd);
    const note = unreadableNote(unreadable.filter((u) => !latest || u.modified > latest.modified));
    if (note) warn(note);
    if (!latest) warn("no earlier session in this directory; starting a new one");
    return latest ? resumeSession(latest.path, place.cwd) : undefined;
  } catch (e) {
    throw new SessionError(errorText(e));
  }
}

/** The max-turns (and max-run-tokens) hand-off (SPEC §6) goes into .hey/task.md, so `hey -c` or "continue" resumes there. */
async function handOff(parts: Assembled, cwd: string, limit: HandOffLimit): Promise<void> {
  const { messages } = parts.agent;
  const task = messages.find((m) => m.role === "user");
  if (!task) return;
  // the loop keeps the hand-off only when it has text: else the last message is its request
  const last = messages.at(-1)!;
  let text = last.role === "assistant" ? textOf(last).trim() : "";
  if (text === "") {
    text = fallbackHandOff(messages.findLast((m) => m.toolCalls?.length)?.toolCalls ?? []);
    warn("the model gave no hand-off (it called tools instead of answering); hey wrote what it knows");
  }
  try {
    const file = await saveHandOff(cwd, textOf(task), text, limit);
    warn(`the hand-off is saved in ${file}; \`hey -c\` continues from there`);
  } catch (e) {
    warn(`could not save the hand-off in .hey/task.md: ${errorText(e)}`);
  }
}

function print(text: string): number {
  writer(1).write(text);
  return EXIT.ok;
}

function warn(message: string): void {
  writer(2).write(`hey: ${message}\n`);
}

/** warn for a long sentence: word-wrapped to stderr's terminal (unchanged when it is not one). */
function warnWrapped(message: string): void {
  writer(2).write(wrapColumns(`hey: ${message}`, process.stderr.columns || 0, Bun.stringWidth) + "\n");
}
