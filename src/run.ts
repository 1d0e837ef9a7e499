// One run of hey after the flags are parsed: the flow only. The configuration is read, the prompt
// is built (user-input.ts), wire.ts assembles the run, then the loop runs once (`-p`), a slash
// command runs, or the REPL starts; the result becomes the exit code. The flags stop here: what
// lies below gets the values they resolve to.
import { EXIT, exitFor, RESUME_NEEDS_ID, UsageError, type CliArgs, type RunFlags } from "./cli.ts";
import { controlFiles } from "./config/control-files.ts";
import { outerDenyNotice } from "./config/outer-deny.ts";
import { hideEnvironment } from "./config/private-env.ts";
import { hideSecrets, knownSecrets } from "./config/secrets.ts";
import { ConfigError } from "./config/settings.ts";
import { keepHandOff } from "./context/task-note.ts";
import { startProvider, unsendable } from "./endpoint.ts";
import type { Places } from "./fs/places.ts";
import { errorText } from "./kernel/errors.ts";
import type { HandOffLimit } from "./kernel/hand-off.ts";
import type { ContentBlock } from "./kernel/ir.ts";
import { INTERRUPTED } from "./kernel/tool.ts";
import type { RunResult } from "./kernel/loop.ts";
import { McpInputError } from "./mcp/attach.ts";
import type { DebugLog } from "./net/debug-log.ts";
import { NetConfigError } from "./net/proxy.ts";
import { unusableDir } from "./fs/dir-problem.ts";
import { MentionError, readStdin, spacedArguments, stdinDrained } from "./prompt/input.ts";
import type { Runtime } from "./runtime.ts";
import { SessionLockedError } from "./sessions/lock.ts";
import { openSession, SessionError } from "./sessions/open-session.ts";
import { appendEndedJobs } from "./sessions/ended-jobs.ts";
import { decideInstructions, decideWidenings, recordApprovals, recordOnAnswer, saidYes, widenings, withPendingCa, withProjectSkills } from "./trust/approve.ts";
import { APPROVE_LEAVES, untrustedNotice } from "./trust/policy.ts";
import { beginConfig } from "./trust/start.ts";
import { projectKey, strayNotices } from "./trust/store.ts";
import { hasLists, peerNotices } from "./peers/found.ts";
import { saidRecord } from "./peers/said.ts";
import { failureLines } from "./ui/json.ts";
import { type EndSignal, exitAfterGrace, learnIgnoredSignals, onSignals, SIGNAL_EXIT, SIGNAL_REASON, withCommandsStopping } from "./ui/signals.ts";
import { asksModel, lineKind, readsOnly, slashMistake } from "./ui/slash.ts";
import { outputLost, STDOUT_CLOSED } from "./ui/output-lost.ts";
import { drainAll, dumbTerminal, isDumb, isTty, letGo, terminalWidth, wasClosedAtStart, whenReaderGone, writer } from "./ui/term.ts";
import { unaskedLine } from "./ui/intro.ts";
import { visible } from "./ui/visible.ts";
import { wrapColumns } from "./ui/wrap.ts";
import type { SeenFiles } from "./tools/seen-files.ts";
import { jobsLeft, stopJobs } from "./tools/group-guard.ts";
import { filesForNames, firstPrompt, mcpInput, slashNames, STDIN_IS_TERMINAL, STDIN_MESSAGE, stdinMessage, withSkillText } from "./user-input.ts";
import { withSessionNotes } from "./session-notes.ts";
import { assemble } from "./wire.ts";
import { withSession } from "./sessions/resumed.ts";
import { agentCommand } from "./agent-mark.ts";
import { createPlanMode, PLAN_LEFT, PLAN_RESUMED, planNote, withPlanNote } from "./permission/plan-mode.ts";
import { startedUp } from "./fs/root-probe.ts";
export async function run(args: CliArgs, here: Places): Promise<number> {
  try {
    return await runOnce(args, here);
  } finally {
    await stdinDrained(); // `git diff | hey -p …` past the cap: its writer ends, not on SIGPIPE (prompt/input.ts)
  }
}

async function runOnce(args: CliArgs, here: Places): Promise<number> {
  // before anything is spawned: the keys in hey's environment are not its children's to read; before any signal is listened to: what was ignored stays so
  await Promise.all([hideEnvironment(), learnIgnoredSignals()]);
  const env = process.env;
  if (args.sessions) {
    try {
      const { sessionsListing } = await import("./ui/sessions-list.ts"); // only `hey --sessions` lists them
      return print(sessionsListing(here, args.all, args.run.output === "json", process.stdout.columns || 0));
    } catch (e) {
      return preflightFailure(new SessionError(errorText(e)), args.run.output);
    }
  }
  // JSON never opens the REPL; nor does a stdout that is no terminal (`hey "msg" > out.txt`): the prompt would be drawn into the file
  const oneShot = args.print || !isTty(0) || !isTty(1) || args.run.output === "json";
  const replElsewhere = isTty(0) && !isTty(1) && !args.print && args.run.output !== "json"; // at a terminal, stdout sent elsewhere
  if (replElsewhere && args.message.trim() === "") return preflightFailure(new UsageError(noTerminal(await wasClosedAtStart(1))), args.run.output);
  if (!oneShot && isDumb(env)) {
    warn(dumbTerminal(env));
    return EXIT.usage;
  }
  // `hey -p … >&-`: the answer would vanish into the /dev/null the runtime put there; a run nobody can read is not begun
  if (oneShot && (await wasClosedAtStart(1))) {
    warn(STDOUT_CLOSED);
    return EXIT.runtime;
  }
  // `hey --resume` with no ID: the REPL opens on /resume's list; with no terminal there is nothing to pick with
  if (args.pickSession && oneShot) return preflightFailure(new UsageError(RESUME_NEEDS_ID), args.run.output);
  const spaced = spacedArguments(args.pickSession ? "/resume" : args.message, args.files, here.cwd, here.home); // `hey "@my notes.txt"`: one mention
  const files = spaced.files;
  let message = spaced.message;
  if (message === STDIN_MESSAGE && isTty(0)) return preflightFailure(new UsageError(STDIN_IS_TERMINAL), args.run.output);
  let runtime: Runtime;
  let prompt: ContentBlock[];
  const plan = createPlanMode(args.run.plan === true, oneShot); // the REPL's /plan and Shift+Tab turn it on and off
  try {
    // a command that only reads (`hey -c /usage`) works while another hey has the session open: it takes no lock and writes nothing
    const resumed = await openSession(here, args.resume, args.continue, oneShot && lineKind(message) === "command" && readsOnly(message), warn);
    // a session left in plan mode goes on in it at the prompt ("continue" after planning is no edit run the user did not ask for); a one-shot run without --plan, which has no way to leave it, is said to have left it
    if (resumed && !plan.on && (resumed.plan ?? planNote(true, resumed.messages) === undefined)) {
      plan.on = !oneShot;
      warn(oneShot ? PLAN_LEFT : PLAN_RESUMED);
    }
    // the REPL asks before anything loads; node:readline (the question) is loaded only to ask.
    // The question and its notices are long sentences: wrapped at spaces, not mid-word by the terminal.
    // one of the agent's commands (agent-mark.ts) answers none of hey's questions, even at a pseudo-terminal
    const agent = agentCommand(env);
    if (agent && (!oneShot || args.approve)) warn(args.approve ? `${agent}; --approve is ignored` : agent);
    const asks = !oneShot && !agent;
    const ask = asks
      ? async (question: string) => (await import("./trust/ask.ts")).askLine(wrapColumns(question, process.stdout.columns || 0, terminalWidth), true)
      : undefined;
    const begun = await beginConfig(here, env, withSession(args.flags, resumed), {
      approve: args.approve && !agent,
      configFile: args.config,
      ask,
      warn: warn,
      noMcp: !args.run.mcp,
    });
    if (begun === "cancelled") return EXIT.interrupted;
    const { trust, approvals } = begun;
    // a prompt (a skill's, an MCP server's, /compact's summary) would go to a provider that sends nothing: that is the one line, exit 2, before the rest is told
    const { provider } = begun.config.settings;
    if (oneShot && unsendable(provider) && asksModel(message)) throw new ConfigError(unsendable(provider)!);
    // what the files give the agent beyond what the user approved — your own AGENTS.md and skills too, under a list — waits for a yes (REPL) or is left out (issue 24)
    const config = await decideWidenings(begun.config, ask, warn, args.run.mcp, env);
    if (args.approve && !agent && (ask || !approvals.lost) && widenings(config, args.run.mcp).length) warn(APPROVE_LEAVES); // a removed record's start said it
    // the first record is written at the model's first answer (a run it never answers makes none), mid-turn: said as notices are, never glued to the spinner
    const recorded = (m: string) => {
      notices.print(`hey: ${m}`);
      if (args.run.output === "json") runtime.output.emit({ type: "notice", message: m }); // a script is told the record was not kept
    };
    const instructionsYes = await decideInstructions(config.settings.permission, approvals, withProjectSkills(here, trust.trusted), ask, warn);
    const yes = instructionsYes || saidYes(begun.config, config, args.run.mcp) || (trust.asked && trust.trusted); // any question's yes: written at once
    await recordOnAnswer(approvals, () => recordApprovals(config, approvals, here.trustFile, recorded, asks), yes);
    const logSecrets = knownSecrets(config.settings, env, args.run.proxy);
    const debug = await debugLog(args.verbose, here, () => logSecrets);
    const started = startProvider(withPendingCa(config), args.run.proxy, env, debug); // the SDK loads while stdin is read
    const { maxBytes } = config.settings.input;
    const stdin = isTty(0) ? undefined : await heedingSignals(() => readStdin(maxBytes, warn), args.run.output);
    const servers = args.run.mcp ? config.settings.mcp.servers.filter((s) => s.enabled).map((s) => s.name) : [];
    const seen: SeenFiles = new Map(); // the @files the prompt brings whole: the run's file tools start from them
    const told: string[] = []; // what was cut of the input, an @word sent as written: in JSON also `notice` events, after `session`
    const tell = (line: string) => {
      warn(line);
      told.push(line);
    };
    const fromStdin = message === STDIN_MESSAGE; // `hey -p - < task.md`: stdin is the message, not a block after it
    if (fromStdin) message = stdinMessage(stdin ?? new Uint8Array(0), maxBytes, tell);
    prompt = firstPrompt(message, files, fromStdin ? undefined : stdin, here, {
      oneShot,
      maxBytes,
      servers,
      warn: tell,
      seen,
      settings: config.settings,
      secrets: logSecrets,
      byName: await filesForNames(message, here, () => config.settings.tools.rg), // `@cli.py` for app/deep/cli.py
    });
    for (const w of config.warnings) warn(w);
    if (config.settings.provider.moved) told.push(config.settings.provider.moved); // a script is told its session went to another model too
    // what is said once per project until it changes (peers/said.ts); a hey the agent runs says it without taking the user's once
    const said = saidRecord(here.peerNoticesFile); // read once for all the start's questions
    const once = async (topic: string, lines: string[]) => (agent ? lines : await said.unsaid(projectKey(here.root), lines, topic));
    const untrusted = !trust.trusted && trust.resources.length > 0 && !trust.asked ? untrustedNotice(trust, asks, config.projectDeny) : "";
    // a no the user recorded is recalled once; a project not decided on is said every run (README "Trust")
    for (const line of await once("trust", trust.stored === false && untrusted ? [untrusted] : [])) warn(line);
    if (untrusted && trust.stored !== false) warn(untrusted);
    for (const line of strayNotices(here.cwd, here.root)) warn(line); // project files below the root, never read: said before anything runs without them
    // a config above the project still refuses what it denies: whose entries those are
    const outer = outerDenyNotice(config.outerDeny ?? [], here);
    const fresh = await once("outer", outer ? [outer.kept] : []); // none: forgotten, so one that comes back is said again
    if (outer && fresh.length) warn(outer.line);
    // an untrusted project's deny entries, and those of a config above the project, narrow what runs, but are no list of the user's: they never silence these notices
    const { permission } = config.settings;
    const notUsers = [...(config.projectDeny ?? []), ...(config.outerDeny ?? []).flatMap((o) => o.deny)];
    const listed = hasLists({ ...permission, deny: permission.deny.filter((d) => !notUsers.includes(d)) });
    for (const line of await once("", peerNotices(here, listed, env))) warn(line); // other agents' files
    for (const line of await once("reads", permission.entryNotes ?? [])) warn(line); // a read_file deny grep or edit does not keep, a glued `$`
    // once per user, to a person, at a run that can call tools: a script's log on a fresh CI machine would have it on every run, and `hey mcp` would use it up
    if (!listed && !agent && isTty(2) && (!oneShot || asksModel(message)))
      for (const line of await said.unsaid("~", [unaskedLine(here.userConfig, here.home)])) warn(line);
    const held: string[] = []; // the project's lines of start-up to say once (a CLAUDE.md's imports left out, a skill replacing another)
    const start = {
      env,
      config,
      started,
      trusted: trust.trusted,
      provisional: trust.provisional,
      approvedOnly: trust.approvedOnly,
      approvals,
      controls: controlFiles(begun.here, args.config), // the configs above whose deny entries apply, the record's too
      plan,
      warn: (line: string, onlyOnce?: boolean) => void (onlyOnce ? held.push(line) : warn(line)), // after /clear: said at start already
      notice: (line: string) => notices.print(line),
      command: oneShot && ["command", "unknown"].includes(lineKind(message)), // no model request: no server starts unless the command uses it
    };
    runtime = await assemble(here, args.run, oneShot, start, resumed, debug).finally(startedUp); // a .git the agent makes is seen (fs/root-probe.ts)
    for (const line of await once("start", held.splice(0))) warn(line);
    if (args.run.output === "json") for (const message of told) runtime.output.emit({ type: "notice", message });
    for (const [file, saw] of seen) runtime.seen.set(file, saw);
    prompt = withSkillText(message, prompt, runtime, args.run.skills, warn);
  } catch (e) {
    return preflightFailure(e, args.run.output);
  }
  try {
    if (!oneShot) {
      // loaded only here: the REPL's modules are not on the way to a one-shot run's first request
      const { repl } = await import("./interactive.ts");
      const unkept = unusableDir(here.stateDir, "XDG_STATE_HOME"); // said before the first message, not only once it is not saved
      if (unkept) warn(`sessions, input history and approvals cannot be kept: ${unkept}`);
      const hooks = {
        warn,
        aside: (print: (line: string) => void) => (notices.print = print),
        handOff: (r: Runtime, limit: HandOffLimit) => handOff(r, here.root, limit, true),
        plan,
      };
      return await repl(runtime, here, message, args.run.skills, hooks);
    }
    if (lineKind(message) === "command")
      return await (await import("./one-command.ts")).oneCommand(runtime, here, message, args.run.output === "json", args.run.skills);
    // `/cost`, `/review src/main.ts` naming a skill: not a message for the model (the REPL says it at its prompt)
    const mistake = slashMistake(message, slashNames(runtime, here));
    if (mistake) return preflightFailure(new UsageError(mistake), args.run.output);
    const terminal = runtime.terminal;
    if (terminal) notices.print = (line) => terminal.notice(visible(line)); // never glued to the spinner's line
    const input = withSessionNotes(runtime, here.cwd, [], await mcpInput(runtime, message, prompt, warn)); // `hey -c -p` from another directory, or after a /reload
    return await oneShotRun(runtime, withPlanNote(plan, runtime.agent.messages, input), here.root);
  } catch (e) {
    if (e instanceof McpInputError) return preflightFailure(new UsageError(e.message), args.run.output);
    throw e;
  } finally {
    // they end with hey as a timeout ends a command (SIGTERM, a grace, SIGKILL): said first, not left for the user to find the server gone
    const jobs = jobsLeft();
    const { jobName } = jobs.length > 0 ? await import("./ui/jobs-command.ts") : { jobName: String }; // a run that left none never names one
    if (jobs.length > 0)
      warn(`stopping ${jobs.length} job${jobs.length === 1 ? "" : "s"} the agent left running: ${jobs.map((j) => jobName(j.command)).join("; ")}`);
    await Promise.all([stopJobs(jobs.map((j) => j.pgid)), runtime.close()]); // the REPL closed its own already, and a run closes once (what it says at close is said once)
    // each in the session whose command left it, which `hey -c` and `/resume` tell: in the REPL, maybe one /clear or /resume left
    for (const id of new Set(jobs.flatMap((j) => j.owner ?? [])))
      appendEndedJobs(
        here.sessionsDir,
        id,
        jobs.filter((j) => j.owner === id).map((j) => jobName(j.command)),
      );
  }
}

/**
 * Where lines about background work go (an MCP server connected or failed): stderr in a one-shot
 * run; stdout in the REPL, above the prompt once it is drawn (the REPL takes `print` over).
 */
const notices = {
  print(line: string): void {
    writer(2).write(wrapColumns(visible(line), process.stderr.columns || 0, terminalWidth) + "\n"); // at spaces, never mid-word
  },
};

/**
 * `--verbose` or HEY_LOG=debug: the request log, its path said once. Its module is imported only
 * then, so a normal run pays nothing for it.
 */
async function debugLog(verbose: boolean, here: Places, secrets: () => readonly string[]): Promise<DebugLog | undefined> {
  const level = process.env.HEY_LOG ?? "";
  if (!verbose && level !== "debug") {
    if (level !== "" && level !== "off") warn(`HEY_LOG=${level} is not a level hey knows (debug or off); no log is written`);
    return undefined;
  }
  const { openDebugLog } = await import("./net/debug-log.ts");
  const log = openDebugLog(here.logsDir, hideSecrets(secrets));
  if (log.ok) warn(`debug log: ${log.path}`); // not when it cannot be written: that was said
  return log;
}

/**
 * A mistake found before anything ran: a usage or configuration error, exit 2 (in JSON: `error`,
 * then `done`). A session another hey has open is no mistake, but a wait: kind `busy`, exit 1.
 */
function preflightFailure(e: unknown, output: RunFlags["output"]): number {
  const config = e instanceof ConfigError || e instanceof NetConfigError;
  const busy = e instanceof SessionLockedError;
  if (!config && !busy && !(e instanceof UsageError || e instanceof MentionError || e instanceof SessionError)) throw e;
  if (output === "json") writer(1).write(failureLines(config ? "config" : busy ? "busy" : "usage", errorText(e)));
  if (e instanceof ConfigError) for (const w of e.warnings) warn(w);
  // a ConfigError's lines are one mistake each (as /reload lists them): each gets its `hey:`
  for (const line of config ? errorText(e).split("\n") : [errorText(e)]) warn(line);
  return busy ? EXIT.runtime : EXIT.usage;
}

async function oneShotRun(runtime: Runtime, prompt: ContentBlock[], root: string): Promise<number> {
  const abort = new AbortController();
  let signalled: number | undefined;
  let answered = false; // the run is over: only the wait for stdout's reader is left
  let late: EndSignal | undefined; // a signal that came then
  let stopWaiting = () => {};
  const lateSignal = new Promise<void>((resolve) => (stopWaiting = resolve));
  const off = withCommandsStopping(
    onSignals({
      interrupt() {
        if (abort.signal.aborted) runtime.session.quit(INTERRUPTED); // a second Ctrl-C: the calls still running are the user's stop (sessions/quit-calls.ts)
        if (abort.signal.aborted) process.exit(signalled ?? EXIT.interrupted); // and hey leaves now
        abort.abort();
      },
      end(name) {
        signalled ??= SIGNAL_EXIT[name];
        abort.abort(SIGNAL_REASON[name]);
        exitAfterGrace(signalled);
        if (!answered) return;
        late ??= name;
        stopWaiting();
      },
    }),
  );
  // the reader of the answer went away (`hey -p … --output json | head -3`): nobody reads what the run does, so it stops, as a shell's program does on SIGPIPE;
  // a write that fails otherwise (`> out.txt` on a full disk) stops it too, exit 1 (ui/output-lost.ts)
  let lost: ReturnType<typeof outputLost> | undefined;
  const offGone = whenReaderGone(1, (error) => {
    lost = outputLost(error);
    signalled ??= lost.code;
    abort.abort(lost.reason);
    exitAfterGrace(signalled);
  });
  let result: RunResult;
  try {
    result = await runtime.agent.send(prompt, abort.signal, { keepHandOff: (limit) => handOff(runtime, root, limit) }); // saved before `done`
    answered = true;
    // a long answer fails in its flush, after the run: still heard while the handler is on; a reader that reads nothing (`hey -p … | sleep 60`) holds it here, and a signal then ends the wait
    await Promise.race([writer(1).drain(), lateSignal]);
  } finally {
    off();
    offGone();
  }
  if (late && !lost) {
    // nothing in the run heard it to say why hey ends; what stdout's reader has not taken is dropped, and hey leaves now, not after SIGNAL_GRACE_MS
    writer(2).write(`${SIGNAL_REASON[late]}\n`);
    letGo(1);
  }
  // the answer's write failed once the run was over (text goes to a file at the end): no error event said why
  if (lost && !lost.pipe && result.stop !== "interrupted") warn(lost.reason);
  if (signalled !== undefined) return signalled;
  return exitFor(result.stop);
}

/** `hey > out.txt` (or `hey >&-`, `closed`) at a terminal: no message to run one-shot, and no terminal for the interactive prompt. */
const noTerminal = (closed: boolean) =>
  closed
    ? "the interactive prompt needs a terminal on stdout, and stdout is closed (>&-); run hey with stdout open"
    : 'the interactive prompt needs a terminal on stdout, and stdout is a file or a pipe; give a message (hey -p "…")';

/**
 * `wait` (for stdin, before the run is assembled) with the signals that end a run heard: hey ends
 * as a run they stop does — its `error` and `done` (JSON), its line on stderr, exit 128 + the signal.
 */
async function heedingSignals<T>(wait: () => Promise<T>, output: RunFlags["output"]): Promise<T> {
  let stopping = false;
  const stop = (code: number, reason: string) => {
    if (stopping) return;
    stopping = true;
    if (output === "json") writer(1).write(failureLines("interrupted", reason));
    writer(2).write(`${output === "json" ? "hey: " : ""}${reason}\n`); // as the run says it: errorsTo in JSON, the terminal's line in text
    void drainAll().then(() => process.exit(code));
  };
  const off = onSignals({ interrupt: () => stop(EXIT.interrupted, INTERRUPTED), end: (name) => stop(SIGNAL_EXIT[name], SIGNAL_REASON[name]) });
  try {
    return await wait();
  } finally {
    off();
  }
}

/**
 * The max-turns (and max-run-tokens) hand-off (SPEC §6) goes into the project root's .hey/task.md,
 * under the prompt that was stopped, so `hey -c` or "continue" resumes there. What it says goes where notices go: at a
 * terminal after the answer's last words (still held while this runs), on a line of its own.
 */
async function handOff(runtime: Runtime, root: string, limit: HandOffLimit, interactive = false): Promise<void> {
  const kept = await keepHandOff(runtime.agent.messages, root, limit);
  if (kept?.wrote) notices.print("hey: the model gave no hand-off (it called tools instead of answering); hey wrote what it knows");
  if (kept?.file)
    notices.print(`hey: the hand-off is saved in ${kept.file}; ${interactive ? "say “continue” to go on from it" : "`hey -c` continues from there"}`);
  // an error event before the run's `done`, so --output json says the hand-off is not there (stderr too)
  // with the hand-off itself: an unwritable checkout must not lose it (stderr, and the JSON error's message)
  else if (kept)
    runtime.output.emit({
      type: "error",
      kind: "config",
      message: `could not save the hand-off in .hey/task.md: ${errorText(kept.error)}; the hand-off was:\n${kept.text}`,
    });
}

function print(text: string): number {
  writer(1).write(text);
  return EXIT.ok;
}

/**
 * A line of hey's own on stderr, word-wrapped to its terminal (unchanged when it is not one). What
 * it quotes of files (a session's directory, a file name, a lock's host) is made visible, never
 * written to the terminal as control characters.
 */
function warn(message: string): void {
  writer(2).write(wrapColumns(`hey: ${visible(message)}`, process.stderr.columns || 0, terminalWidth) + "\n");
}
