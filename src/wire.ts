// The composition root: the only file that names concrete providers, tools, outputs and stores. `assemble` builds a run's pieces
// once (outputs, session writer, tools, the permission check, the system prompt source, MCP servers, the agent) from resolved values
// (hey's places, the command line's choices, run.ts's configuration) and hands them to runtime.ts, which alone swaps them (/model, /reload, /resume).
import { platform } from "node:os";
import { isAbsolute, join } from "node:path";
import { createAgent } from "./agent.ts";
import { nextModel } from "./fallback/next-model.ts";
import { VERSION, type RunFlags } from "./cli.ts";
import type { LoadedConfig } from "./config/load.ts";
import { createRedaction, hideSecrets, knownSecrets, redactedForm, redactingOutput, redactingTool, redactText, toolEnvironment } from "./config/secrets.ts";
import { configuredWindow, type ConfigFlags, type Settings } from "./config/settings.ts";
import { effectiveBudget } from "./context/window.ts";
import { endpointModels, fetchFor, listingModels, providerFor, serverOf, startProvider, type Started } from "./endpoint.ts";
import { withServerWindow } from "./providers/server-window.ts";
import type { Places } from "./fs/places.ts";
import { callId, callTarget, realTarget } from "./fs/real-target.ts";
import { callPath } from "./fs/user-path.ts";
import { projectOf, rootProbe } from "./fs/root-probe.ts";
import { sweepLeftCopies } from "./fs/atomic.ts";
import { newId } from "./kernel/ir.ts";
import { fanOut, type Output } from "./kernel/output.ts";
import type { Provider } from "./kernel/provider.ts";
import type { Tool } from "./kernel/tool.ts";
import type { ToolOrigin } from "./kernel/tool-calls.ts";
import { projectRoots, serverBases } from "./mcp/answers.ts";
import { createCredentialStore, watchStore, type CredentialStore } from "./mcp/credentials.ts";
import { lateTool, refusedTool } from "./mcp/late-tool.ts";
import { withheldTool } from "./mcp/withheld.ts";
import { mcpCallName } from "./mcp/tool-aliases.ts";
import { createToolCap } from "./mcp/tool-cap.ts";
import { createMcpManager, type McpManager } from "./mcp/manager.ts";
import type { Refused } from "./mcp/offer.ts";
import { FIND_TOOLS, loadedIn } from "./mcp/deferred.ts";
import { signedIn } from "./mcp/oauth.ts";
import { eventLine } from "./mcp/status.ts";
import { redactingConnect } from "./mcp/redacted.ts";
import { childEnv, missingCommand } from "./mcp/stdio.ts";
import { createToolStore } from "./mcp/store.ts";
import type { DebugLog } from "./net/debug-log.ts";
import { refusedBy } from "./permission/refused.ts";
import { unmatchedServers } from "./permission/tool-match.ts";
import { listsSet } from "./config/control-files.ts";
import { globalGitConfigs } from "./fs/git-config-files.ts";
import { guardedWhile } from "./permission/repository-programs.ts";
import { explicitBareRepositories } from "./permission/git-env.ts";
import { everyList, guideGrants, permissionRules, runCheck } from "./permission-check.ts";
import { blockedNotice } from "./permission/blocked-tools.ts";
import { createNestedAgents, lastRequestOf, withNestedAgents } from "./prompt/nested-agents.ts";
import { createPromptSource } from "./prompt/source.ts";
import corePrompt from "./prompt/system.md" with { type: "text" };
import { agentSettings, createRuntime, type Configured, type Live, type Runtime } from "./runtime.ts";
import type { LoadedSession } from "./sessions/reader.ts";
import { earlierRuns } from "./sessions/usage-in.ts";
import { endedJobsNote, promptDir, promptParts, resumedParts, withSession } from "./sessions/resumed.ts";
import { conversationNote } from "./sessions/note-taken.ts";
import { interruptedNotes, interruptedWrites } from "./sessions/open-ends.ts";
import { unwrittenSession } from "./sessions/unwritten.ts";
import { createSessionWriter } from "./sessions/writer.ts";
import { quitting } from "./sessions/quit-calls.ts";
import { systemShell } from "./tools/bash.ts";
import { createCompressTool } from "./tools/compress.ts";
import { pruneOutputs } from "./tools/outputs.ts";
import { configWriteVet } from "./config/write-check.ts";
import { createTools, filterWatches } from "./builtin-tools.ts";
import { guardedDirs, keepApproved, guardingInstructions, instructionGate, recordingOnAnswer, type ApprovalState } from "./trust/approve.ts";
import type { TrustOutcome } from "./trust/store.ts";
import { errorsTo, fileTextNow, terminalOutput } from "./ui/display.ts";
import { createJsonOutput } from "./ui/json.ts";
import { failureHelp } from "./peers/found.ts";
import { answering } from "./fallback/answering.ts";
import { visible } from "./ui/visible.ts";
import { writer } from "./ui/term.ts";

type Env = Record<string, string | undefined>;

/** What run.ts prepared before the run is built: the configuration and what it was read with; trusted unrecorded for the session (nothing to guard) or for the run (--approve) as TrustOutcome says. */
export interface Start extends Partial<Pick<TrustOutcome, "provisional" | "approvedOnly">> {
  env: Env;
  config: LoadedConfig;
  started: Started;
  /** whether the project's files load (its config files were loaded, or not, by the caller); `/trust` changes it for the next `/reload` */
  trusted: boolean;
  /** whether `config` holds the project's files (a `/trust` after they were read: not yet); `trusted` when left out */
  loaded?: boolean;
  /** what the user approved so far (the record as start-up left it), for `/reload` to weigh changes against */
  approvals: ApprovalState;
  /** hey's control files (config/control-files.ts): refused to the file tools while a permission list is set */
  controls: readonly string[];
  warn(message: string, once?: boolean): void; // once: a project's line said once until it changes (prompt/source.ts)
  /** a line about something that happened in the background (an MCP server connected or failed) */
  notice(line: string): void;
  /** a one-shot command (`hey -p /help`): an MCP server starts only if the command uses it (`/mcp`) */
  command?: boolean;
  /** the MCP servers of the run `/clear` or `/resume` replaces: they run on in the new one */
  mcp?: Servers;
  /** the command line's flags, which `/resume` builds on (`config.flags` hold a `/model` choice once `/clear` passed it on) */
  flags?: ConfigFlags;
  plan?: import("./permission/plan-mode.ts").PlanMode; // `/plan`, `--plan`: shared with the runs `/clear` and `/resume` build
}

/** Where a run's MCP servers send what they report and get what they need: the run's, handed to the next on `/clear` and `/resume`. */
interface McpPorts {
  fetch(): typeof fetch;
  emit: Output["emit"];
  credentials: CredentialStore;
  refused(name: string, origin?: ToolOrigin): Refused;
  /** the tokens a request is built to, as the settings say now */
  budget(): number;
  /** `[mcp] defer_tools` as the settings say now */
  deferTools(): Settings["mcp"]["deferTools"];
  /** the secrets hey knows now: redacted from all that servers send (mcp/redacted.ts) */
  secrets(): readonly string[];
}

/** The MCP manager with the ports of the run it serves now. */
type Servers = { manager: McpManager; ports: McpPorts };
export { permissionCheck } from "./permission-check.ts";

/**
 * Everything a run needs, built once, in the runtime that swaps it: `run` is what the command line
 * chose besides the configuration; `oneShot`: -p, piped stdin or JSON (nothing is asked); `debug`:
 * `--verbose` / HEY_LOG=debug, where requests and retry decisions go. Emits the `session` event. Throws ConfigError when the provider cannot be created from the settings.
 */
export async function assemble(
  here: Places,
  run: RunFlags,
  oneShot: boolean,
  start: Start,
  resumed: LoadedSession | undefined,
  debug?: DebugLog,
): Promise<Runtime> {
  const { cwd, home, userConfig } = here;
  // `/undo`'s copies: only a turn the REPL begins keeps them; a -p run on a session is a turn of it without copies all the same
  const withCheckpoints = !oneShot
    ? (await import("./tools/checkpoints.ts")).withCheckpoints
    : resumed
      ? (await import("./tools/one-shot-turn.ts")).oneShotTurns(here.root)
      : (t: Tool) => t;
  const { env, warn } = start;
  const say = (m: string) => start.notice(`hey: ${m}`); // said mid-answer: a line of its own, never inside the streamed text
  const { settings } = start.config;
  const sessionId = resumed?.header.id ?? newId(); // ids sort by time
  let noticeEvent = (_message: string) => {}; // JSON: what the session's writer says (not saved, …) is a `notice` too, once the output exists
  // a run that never got an answer leaves no session (issue 14); one that only reads (`hey -c /usage`) writes none: another hey may have it
  const session = quitting(
    resumed?.readOnly
      ? unwrittenSession(resumed.path)
      : createSessionWriter({
          dir: here.sessionsDir,
          id: sessionId,
          cwd,
          version: VERSION,
          warn: (m) => (say(m), noticeEvent(m)),
          untilAnswer: true,
          existing: resumed,
        }),
  ); // a quit mid-call writes that call's result: the user stopped it (sessions/quit-calls.ts)
  const inUse = () => answering(runtime.settings, agent.settings.model); // a fallback's too: its failure gets its own provider's help, its silence names its host
  const [hint, asShown] = [failureHelp(here, env, inUse), (text: string) => redactedForm(text, redaction)]; // asShown: a file's text as a tool result shows it, secrets hidden
  const terminal = run.output === "text" ? terminalOutput(oneShot, env, { ...settings.retry, cwd, home, hint, asShown, inUse }) : undefined;
  let ended = false; // `done` is the last event: what the writer says as hey ends (still not saved) goes to stderr alone
  const display = terminal ?? fanOut([createJsonOutput(writer(1).write), errorsTo(writer(2), hint), { emit: (e) => void (ended ||= e.type === "done") }]);
  if (!terminal) noticeEvent = (message) => void (ended || display.emit({ type: "notice", message }));
  void pruneOutputs(here.outputsDir, { current: sessionId }); // bash's full outputs live with the session; older ones are pruned in the background
  const seen: Runtime["seen"] = new Map(); // what the file tools saw of each file; /reload keeps it, a resumed run has none
  const trust = { trusted: start.trusted, loaded: start.loaded ?? start.trusted, provisional: start.provisional ?? false, approvedOnly: start.approvedOnly };
  const pathOf = (path: string) => callPath(path, cwd, home);
  const startDir = promptDir(resumed?.header.cwd, here, projectOf(home)); // the system prompt's: where a session of this project began
  // a subdirectory's AGENTS.md reaches the model with the first file tool result under it (issue 26): below the system prompt's directory
  const nested = createNestedAgents({ cwd: startDir, configDir: here.configDir, warn: say, inPrompt: () => prompt.instructions() }); // within the share it leaves
  const toolNotice = (line: string) => (terminal ? terminal.notice(visible(line)) : warn(line.replace(/^hey: /, ""))); // among the tool's own lines on a terminal; on stderr with --output json
  const lastRequest = () => lastRequestOf(agent.context.last, agent.context.last?.messages, asShown); // as tool results show it
  const configFiles = start.controls.filter((f) => ![here.trustFile, here.approvalsFile].includes(f)); // and .mcp.json, which other tools read too
  const fold = process.platform === "darwin" || process.platform === "win32"; // as the permission checks compare names
  const configVet = configWriteVet(configFiles, (written) => live.config.vet(written, start.approvals.record), { real: realTarget, id: callId, fold });
  const watches = filterWatches(toolNotice); // start-up's and each /reload's answer whether the filter is missing; /model keeps the run's watch
  const configure = (s: Settings, said?: readonly string[]): Configured => {
    const shell = systemShell(s.tools.shell);
    // the schema diet: a tool every call of which some list refuses is not offered
    const plain = toolEnvironment(env, s, s.tools.keepEnv);
    const commandEnv = listsSet(s.permission) ? explicitBareRepositories(plain) : plain; // under a list git takes no bare repository the agent could have made (permission/git-env.ts)
    // the directories the tools find programs in (absolute ones: `.` would guard the project): no write may land there while a list is set
    const pathDirs = (commandEnv.PATH ?? "").split(process.platform === "win32" ? ";" : ":").filter(isAbsolute);
    const gitConfigs = globalGitConfigs(home, commandEnv);
    const bases = serverBases(s.mcp.servers, projectRoots(here, realTarget), { cwd, home, isDir: rootProbe.isDir }); // where MCP servers read relative paths
    const place = { cwd, home, controls: start.controls, ...guardedDirs(here), pathDirs, gitConfigs, gitEnv: commandEnv, bases };
    const permission = permissionRules(s.permission, shell, place);
    const hide = (t: string) => redactText(t, redaction); // a full output saved, a read_file window into a key: hidden as results are
    const keeping = { filter: s.tools.bashFilter, raw: run.raw, outputDir: join(here.outputsDir, sessionId), hide, watch: watches(s, said) }; // a failure told once
    const tools = createTools(s, {
      shell,
      ...keeping,
      env: guardedWhile(() => start.plan?.on === true, commandEnv, cwd, home), // plan mode: git runs no program a repository names
      readEnv: commandEnv,
      home,
      cacheDir: here.cacheDir,
      seen,
      session: sessionId,
      notice: toolNotice,
      vet: configVet, // a write that would leave one of hey's config files unable to load is refused
    })
      .map((t) => withCheckpoints(withNestedAgents(t, nested, pathOf, lastRequest, toolNotice), keeping.outputDir, home, seen, toolNotice)) // `/undo`
      .map((t) => guardingInstructions(t, start.approvals, here)); // a skill of yours it writes loads at /reload
    return {
      shell,
      env: commandEnv,
      keeping,
      check: permission.check,
      refused: (name, origin) => refusedBy(name, permission.compiled, origin),
      tools: s.compaction.compressTool ? [...tools, createCompressTool(() => agent.messages)] : tools,
      secrets: knownSecrets(s, env, run.proxy),
      shapes: s.tools.redactSecrets,
    };
  };
  const live: Live = { config: start.config, fetch: start.started.fetch, configured: configure(settings, start.config.warnings) };
  const own = live.configured.tools.map((t) => t.name);
  for (const lists of everyList(settings.permission)) {
    const line = blockedNotice(lists, live.configured.shell.name, own);
    if (line) warn(lists.source + line, true); // a project's list is named: it narrows yours; said once per project until it changes
  }
  const named = [...settings.mcp.servers, ...start.config.guards.flatMap((g) => Object.keys(g.current.mcp).map((name) => ({ name })))]; // approved or not
  for (const w of unmatchedServers(settings.permission, named)) warn(w); // `mcp__fss`: a typo matches nothing

  // nothing hey prints, saves or logs, nor a tool result the model reads, holds a secret it knows (MCP sign-ins' too) or a shaped one
  const credentials = createCredentialStore(here.configDir);
  const secrets = () => [...live.configured.secrets, ...credentials.secrets()].sort((a, b) => b.length - a.length);
  const redaction = createRedaction(secrets, () => live.configured.shapes, { fileText: fileTextNow(home), history: () => agent.messages }, resumed?.messages);
  const output = redactingOutput(fanOut(debug ? [display, session, debug.output] : [display, session]), secrets);
  debug?.hide(hideSecrets(secrets));
  session.model(settings.provider.name, settings.model, settings.effort);
  output.emit({ type: "session", id: sessionId, provider: settings.provider.name, model: settings.model, cwd, ...(resumed ? { resumed: true as const } : {}) });
  if (resumed) {
    for (const w of resumed.warnings) warn(w);
    for (const message of resumed.appended) session.emit({ type: "message", message });
    const cut = resumed.readOnly ? [] : resumed.appended; // read while another hey has it open: what is open there is its own
    for (const note of interruptedNotes(resumed.messages, cut)) warn(note);
    for (const path of interruptedWrites(resumed.messages, cut)) sweepLeftCopies(callPath(path, resumed.header.cwd, home)); // a killed write's temporary copy
    const on = `${settings.provider.name}/${settings.model}${settings.effort ? ` · effort ${settings.effort}` : ""}`; // what it goes on with: the session's model, said
    if (terminal) warn(`resumed session ${sessionId} (${resumed.messages.length} messages loaded) · ${on}`); // the latest 500 or more of a long one (sessions/reader.ts)
    const started = resumed.header.cwd; // tools run here, while the history may speak of the other directory's files
    if (started !== cwd) warn(`this session was started in ${started}; hey works in ${cwd} now (paths in it may be relative to ${started})`);
  }

  const prompt = createPromptSource({
    ...here, // root, home, configDir, and the user's folders of Claude Code and Codex
    cwd: startDir, // `hey -c` from another directory of the project keeps the prompt the cache holds; the model is told (kernel/user-notes.ts moveNote)
    core: corePrompt,
    os: platform(),
    shell: () => live.configured.shell.label ?? live.configured.shell.name,
    skills: run.skills ? { trusted: () => trust.trusted, everyRun: trust.trusted && !trust.provisional && !trust.approvedOnly } : undefined,
    // a CLAUDE.md's imports outside the project only once trusted: a clone's @~/notes.md is not followed on an empty trust
    importsOutside: () => ({ home, trusted: trust.trusted && !trust.provisional }),
    redact: (text) => redactText(text, redaction), // what reaches the prompt from files, as tool results
    writable: () => guideGrants(live.config.settings.permission, live.configured.refused, run.mcp), // what the guide offers the model
    warn,
    servers: () => mcp.instructions(),
    budget: () => live.config.settings.agent.budgetTokens,
    ...(resumed ? promptParts(resumed, home, Date.now(), settings.provider, settings.model) : {}), // the files it wrote; within the cache's lifetime, the prompt it was sent with
    approvals: instructionGate(start.approvals), // the user's AGENTS.md and skills held out, waiting for a yes (trust/instructions.ts)
  });
  const ports: McpPorts = {
    fetch: () => live.fetch,
    emit: (e) => output.emit(e),
    credentials,
    refused: (name, origin) => live.configured.refused(name, origin),
    budget: () => effectiveBudget(live.config.settings.agent.budgetTokens, configuredWindow(live.config.settings)),
    deferTools: () => live.config.settings.mcp.deferTools,
    secrets,
  };
  // `/clear` and `/resume` keep the servers running (a browser's page, a database session stay): what they report comes here once built
  const servers = start.mcp ?? mcpManager(here, run, start, own, ports, oneShot);
  const mcp = servers.manager;
  mcp.resume(loadedIn(resumed?.messages ?? [], own)); // a session's own tools loaded from find_tools: `hey -c` offers the same list
  // a local Ollama's real context; a request over its API's count of tools sent with those it takes, said; the approvals record written at the first answer
  const cap = createToolCap({ originOf: (name: string) => mcp.origin(name) });
  const served = (p: Provider, s: Settings, f: typeof fetch) => withServerWindow(listingModels(p, s, f, userConfig), serverOf(s, here.cacheDir), f, say);
  // (a request waits for the background fsync a step's sync was queued behind: agent.ts, for every agent)
  const provided = (p: Provider, s: Settings, f: typeof fetch) => recordingOnAnswer(cap.wrap(served(p, s, f), s.provider.baseUrl), start.approvals);
  const providerOf = async (s: Settings, f: typeof fetch) => provided(await providerFor(s.provider, s.model, s.effort, f, s.retry.idleTimeoutMs), s, f);
  const requestTools = async (signal: AbortSignal, look?: boolean) =>
    (await mcp.tools(live.configured.tools, signal, look))
      .filter((t) => t.server !== undefined || t.name === FIND_TOOLS || !live.configured.refused(t.name)) // find_tools loads only what the rules allow
      .map((t) => cap.guard(redactingTool(t, redaction))); // a tool the last request left out over its API's cap: a call reads why
  const next = nextModel({ config: () => live.config, effort: () => agent.effort, providerFor: (s) => providerOf(s, live.fetch), agentSettings, warn: say });
  const agent = createAgent({
    settings: agentSettings(settings),
    provider: provided(await start.started.provider, settings, live.fetch),
    tools: requestTools, // every tool's results, MCP servers' included, are redacted before the model reads them
    // a built-in the rules refuse outright is not offered; a call to it reads the rules' refusal, not "unknown tool" (nor the server's tool of that name, offered under its prefix)
    unlisted: (name, offered) =>
      (mcp.pickUpSignIns(), live.configured.refused(name) ? live.configured.tools.find((t) => t.name === name) : undefined) ??
      refusedTool(name, mcp) ?? // an MCP tool the rules refuse: their refusal
      ((t) => t && cap.guard(redactingTool(t, redaction)))(mcp.deferred(name)) ?? // one left to find_tools, called by the name it listed: it runs
      lateTool(name, { mcp, tools: requestTools, settings: () => live.config.settings.mcp, now: Date.now }, offered) ??
      withheldTool(name, runtime.withheldServers(), requestTools), // a server not started: its tools are unknown, and why
    alias: (name) => mcpCallName(name, mcp.offer()), // `mcp__everything__get-sum`: runs, and is judged, as get-sum
    output: prompt.recording(output), // the session keeps what the system prompt was built from: `hey -c` sends it again
    cwd,
    modelSwitch: oneShot ? "command line" : "prompt", // what the advice after a model's refusal names
    seen, // read_file's notes point at results a request still shows whole
    pathOf: (path) => callTarget(pathOf(path), listsSet(live.config.settings.permission)), // an edit through a link and one through its target: one file, run in call order
    system: prompt.system,
    permission: runCheck(live, start, mcp, FIND_TOOLS), // an MCP tool is judged by its server's names for it too; plan mode narrows, and refuses every MCP tool
    taskNote: conversationNote(here.root, resumed), // a resumed session's own note, whose write a summary took too (sessions/note-taken.ts)
    note: (tools) => [runtime.requestNote(tools), mcp.note(agent.usage.requests)].filter(Boolean).join("\n") || undefined, // after a /reload's, a late server's
    ...(resumed ? resumedParts(resumed, settings.provider.name, settings.model) : {}),
    // the fallback after a model that gives up, read as each prompt starts (`/reload` may add some); none configured: none
    get fallback() {
      return live.config.settings.fallbacks ? next : undefined;
    },
  });

  const runtime: Runtime = createRuntime({
    live,
    agent,
    terminal,
    output,
    session,
    mcp,
    mcpOff: !run.mcp,
    skills: prompt.skills,
    skillsShown: prompt.shown,
    unloadedSkill: prompt.unloadedSkill,
    requestTools,
    credentials,
    seen,
    earlierRuns: () => earlierRuns(resumed),
    reloadables: [...prompt.reloadables, mcp.reloadable],
    startNote: [prompt.startNote, resumed && endedJobsNote(resumed)].filter(Boolean).join("\n") || undefined, // told once, with the first request
    configure,
    fetchFor: (s) => fetchFor(s, run.proxy, env, debug),
    providerFor: providerOf,
    endpointModels,
    approvals: start.approvals, // shared with a run reassembled by /resume: what /reload records holds there too
    project: here,
    trust,
    oneShot,
    startDir,
    warn: say, // approvals and trust at /reload, /trust, the first answer: said while a turn or the prompt is drawn
    redact: (text) => redactText(text, redaction),
    // `/resume`: the same pieces around another session, with the model it last used; `/clear`: around a new one (a plain `hey`'s model
    // after a resume refused for want of a key); both with the configuration as it is now (/reload's, /trust's, a deny rule added), not at start
    reopen(next) {
      const flags = start.flags ?? start.config.flags; // the command line's: a /model choice /clear passed on was the cleared session's
      const begin = (config: LoadedConfig, session?: LoadedSession) =>
        assemble(
          here,
          run,
          oneShot,
          { ...start, ...trust, flags, mcp: servers, config, started: startProvider(config.settings, run.proxy, env, debug) },
          session,
          debug,
        );
      if (!next && !live.config.settings.provider.noKey) return begin(live.config);
      // the session's model before the one in use; a server whose changed table the user turned down keeps the table it runs with, as at /reload
      const resumed = withSession(flags, next);
      return begin(keepApproved({ ...live.config, settings: live.config.resolve(resumed), flags: resumed }, live.config.settings), next);
    },
  });
  servers.ports = ports;
  return runtime;
}

/**
 * The MCP servers of the run (SPEC §14), connecting in the background. The SDK's client is loaded
 * only when a server is started; remote servers go through the run's (proxied) fetch.
 */
function mcpManager(here: Places, run: RunFlags, start: Start, builtins: string[], ports: McpPorts, oneShot: boolean): Servers {
  const { env } = start;
  const { settings } = start.config;
  const roots = projectRoots(here, realTarget); // none where the project root holds hey's own files (mcp/answers.ts)
  const servers = { ports } as Servers; // each call reads `servers.ports`: the run's now
  servers.manager = createMcpManager(
    { servers: settings.mcp.servers, startupWaitMs: settings.mcp.startupWaitMs, off: !run.mcp, builtins, onDemand: start.command },
    {
      // what a server sends or causes (its tools, instructions, failures, stderr) is redacted before anything keeps it
      connect: redactingConnect(
        async (s, hooks, signal) =>
          (await import("./mcp/client.ts")).connectServer(
            s,
            hooks,
            { version: VERSION, env, fetch: servers.ports.fetch(), roots, auth: (s, r) => signedIn(s, servers.ports.credentials, Date.now, r) },
            signal,
          ),
        () => servers.ports.secrets(),
      ),
      store: createToolStore(here.cacheDir),
      missingCommand: (command, s) => missingCommand(command, childEnv(env, s.env), s.cwd),
      report: (e) => (servers.ports.emit(e), run.output === "text" ? !start.command : e.state !== "connected") && start.notice(eventLine(e, oneShot)), // JSON: failures on stderr too; `hey mcp`'s listing says how each went, with why: not twice
      warn: (m) => start.notice(`hey: ${m}`),
      notice: (message) => void (run.output === "text" || servers.ports.emit({ type: "notice", message })), // a terminal shows find_tools' answer
      refused: (name, origin) => servers.ports.refused(name, origin),
      budget: () => servers.ports.budget(),
      deferTools: () => servers.ports.deferTools(),
      signIns: watchStore(() => servers.ports.credentials), // a sign-in made in a shell or by another hey is taken up at the next request or call
      now: Date.now,
    },
  );
  return servers;
}
