// The interactive session (SPEC §17, issues 14 and 28): the banner, then each line the REPL reads
// (ui/repl.ts) becomes what it means — a slash command (ui/commands.ts), `!COMMAND` run in the
// user's shell with the terminal (its output goes with the next message), or a message to the
// agent. `/resume` and `/clear` swap the run for another around another session. Loaded only when
// the REPL opens.
import { existsSync, statSync } from "node:fs";
import { VERSION } from "./cli.ts";
import { commandContext } from "./command-context.ts";
import { hideCredentials } from "./config/guard.ts";
import type { Places } from "./fs/places.ts";
import { resolveUserPath } from "./fs/user-path.ts";
import { projectHistoryFile } from "./fs/history-file.ts";
import { endpointModels } from "./endpoint.ts";
import { endpointLists } from "./endpoint-lists.ts";
import type { HandOffLimit } from "./kernel/hand-off.ts";
import { addUsage, emptyUsage } from "./kernel/ir.ts";
import { INTERRUPTED } from "./kernel/tool.ts";
import { heyNote } from "./kernel/user-notes.ts";
import type { Runtime } from "./runtime.ts";
import type { SessionWriter } from "./sessions/writer.ts";
import { completions, runCommand } from "./ui/commands.ts";
import { banner, lastExchange } from "./ui/intro.ts";
import { runRepl, type ReplIo } from "./ui/repl.ts";
import { offeredSkillNames } from "./skills/catalog.ts";
import { resumeCommand } from "./ui/resume.ts";
import { cannotRun, ending, freshLine, runShellCommand, shellNote } from "./ui/shell-command.ts";
import { outputFiles } from "./tools/command-result.ts";
import { jobsLeft, type RunningJob } from "./tools/group-guard.ts";
import { jobName, jobsLine } from "./ui/jobs-command.ts";
import { lineKind, slashMistake } from "./ui/slash.ts";
import { isTty, terminalWidth, wantsColor } from "./ui/term.ts";
import { wrapColumns } from "./ui/wrap.ts";
import type { Spent } from "./ui/usage-report.ts";
import { lineContent, slashNames } from "./user-input.ts";
import { withSessionNotes } from "./session-notes.ts";
import { agentCommand } from "./agent-mark.ts";
import { checkpointsIn } from "./tools/checkpoints.ts";
import { projectFiles } from "./tools/project-files.ts";
import { ripgrepFor } from "./tools/ripgrep.ts";
import { planToggled, withPlanNote, type PlanMode } from "./permission/plan-mode.ts";

/** What the REPL needs from the run that opens it. */
export interface ReplHooks {
  warn(message: string): void;
  /** where lines about background work go once the prompt is drawn (the REPL's `aside`) */
  aside(print: (line: string) => void): void;
  /** saves the hand-off of a message whose run stopped at its limit */
  handOff(runtime: Runtime, limit: HandOffLimit): Promise<void>;
  /** plan mode, which `/plan` and Shift+Tab turn on and off (`--plan` starts it on) */
  plan: PlanMode;
}

const PROMPT = "› ";
const PLAN_PROMPT = "plan › ";
const DIM = "\x1b[2m";
const RESET = "\x1b[0m";

/** Runs the REPL until it is left; its exit code. `message`: a first line to run, as if typed. */
export async function repl(first: Runtime, here: Places, message: string, skillsOn: boolean, hooks: ReplHooks): Promise<number> {
  let runtime = first; // `/resume` and `/clear` swap it
  let left: Spent = { usage: emptyUsage(), requests: 0 }; // what this run sent in the sessions it left, for `/usage`
  const leave = (was: Runtime) => {
    const { total, requests } = was.agent.usage;
    left = { usage: addUsage(left.usage, total), requests: left.requests + requests };
  };
  /** sessions `/clear` or `/resume` left while the disk refused lines they hold: tried again after each line, given up at exit */
  let behind: SessionWriter[] = [];
  const retryBehind = () => {
    for (const writer of behind) writer.sync();
    for (const writer of behind) if (writer.holding() === undefined) writer.close();
    behind = behind.filter((writer) => writer.holding() !== undefined);
  };
  // the session's checkpoints (`/undo`): kept with its outputs, so a /resume or /clear reaches the new session's, and a
  // resumed session's turns of an earlier hey are rebuilt from their record there
  const checkpoints = () => checkpointsIn(runtime.userShell().keeping.outputDir, { seen: runtime.seen, history: runtime.agent.messages, root: here.root });
  /** `/plan` (on: true, off: false, undefined: over) and Shift+Tab; the model hears of it with the next message (withPlanNote) */
  const togglePlan = (on = !hooks.plan.on) => {
    hooks.plan.on = on;
    return planToggled(on);
  };
  /** `!` commands, `/undo`s and `/jobs stop`s since the last message, each a note for the next one */
  const notes: string[] = [];
  const toldJobs = new Set<number>(); // the jobs said after a turn (process groups)
  const color = wantsColor(isTty(1), process.env);
  const say = (text: string) => void process.stdout.write(text);
  const dim = (text: string) => (color ? DIM + text + RESET : text);
  const answerFormat = {
    color,
    stringWidth: terminalWidth,
    get columns() {
      return process.stdout.columns || 0;
    },
  };
  const wrapped = (text: string) => wrapColumns(text, answerFormat.columns, terminalWidth);
  const { model } = runtime.agent.settings;
  const { urlVar, baseUrl, modelVar } = runtime.settings.provider; // a variable moved the address its key goes to: said before the first prompt
  const via = urlVar ? { via: { urlVar, baseUrl: hideCredentials(baseUrl) } } : {};
  const fromVar = modelVar && model.model === runtime.settings.model ? { modelVar } : {};
  say(
    wrapped(
      banner({ version: VERSION, provider: model.provider, model: model.model, ...fromVar, ...via, cwd: here.cwd, root: here.root, home: here.home, color }),
    ),
  );
  say(lastExchange(runtime.agent.messages, PROMPT, answerFormat));
  // what a provider with no models configured lists: asked in the background the first time /model or Tab needs it
  const lists = endpointLists((p) =>
    endpointModels({ ...runtime.settings, provider: p, model: p.models[0] ?? "" }, runtime.fetch(), new AbortController().signal),
  );
  const source = () => ({
    listed: lists.of,
    cwd: here.cwd,
    providers: runtime.settings.providers,
    skills: offeredSkillNames(runtime.skills()),
    remoteServers: runtime.settings.mcp.servers.filter((s) => s.url).map((s) => s.name),
    prompts: runtime.mcp.prompts(),
    projectFiles: () => files.known(),
  });
  // listed now, so the first Tab after `@cli` finds app/deep/cli.py; listed again in the background as it ages
  const files = projectFiles(here.root, here.cwd, () => ripgrepFor(runtime.settings.tools.rg, here.home, here.cacheDir));
  files.known();

  async function command(line: string, signal: AbortSignal, io: ReplIo): Promise<"quit" | void> {
    // a question of several lines (what a /reload would give the agent): the lines above the prompt, the last one asked
    const ask = (question: string) => {
      const lines = question.split("\n");
      say(
        lines
          .slice(0, -1)
          .map((l) => wrapped(l) + "\n")
          .join(""),
      );
      return io.ask(lines.at(-1)!);
    };
    const pickSession = (arg: string) =>
      resumeCommand(arg, {
        dir: here.sessionsDir,
        cwd: here.cwd,
        root: here.root,
        home: here.home,
        current: runtime.session.path,
        holding: (path) => behind.find((writer) => writer.path === path)?.holding(),
        ask: io.ask,
        say,
        fit: { columns: answerFormat.columns, width: terminalWidth },
        color,
      });
    // one of the agent's commands answers no question of /reload or /trust (agent-mark.ts)
    const answered = agentCommand(process.env) ? undefined : ask;
    const context = { ...commandContext(runtime, here, signal, (t) => say(`${t}\n`), answered, skillsOn), listed: lists.of };
    const result = await runCommand(line, {
      ...context,
      ...(answered ? { ask: answered } : {}),
      pickSession,
      plan: togglePlan,
      columns: answerFormat.columns,
      leftSessions: () => left,
      undo: () => checkpoints().undo(),
      color,
    });
    if (result.text) say((result.fitted ? result.text : wrapped(result.text)) + "\n");
    if (result.note) notes.push(result.note);
    for (const job of result.stopped ?? []) notes.push(runtime.redact(stoppedJobNote(job)));
    const was = runtime;
    if (result.resume) {
      runtime = await runtime.resume(result.resume);
      leave(was);
      notes.length = 0;
      const held = was.session.holding(); // not said to be saved: it is not, yet
      if (held) behind.push(was.session);
      if (held) say(dim(wrapped(`the last session ${held}`)) + "\n");
      say(lastExchange(runtime.agent.messages, PROMPT, answerFormat));
    }
    if (result.fresh) {
      const ended = runtime.session.path;
      runtime = await runtime.fresh();
      leave(was);
      notes.length = 0;
      const held = was.session.holding();
      if (held) behind.push(was.session);
      // a session that never got an answer left no file: there is nothing to resume
      say(
        dim(
          wrapped(held ? `new session; the last session ${held}` : existsSync(ended) ? "new session; the last one is saved (/resume lists it)" : "new session"),
        ) + "\n",
      );
    }
    return result.quit ? "quit" : undefined;
  }

  /** `!COMMAND`: run with the terminal, under the permission lists a bash call is under; its output waits for the next message. */
  async function shell(command: string, signal: AbortSignal, io: ReplIo): Promise<void> {
    if (command === "") return say("hey: ! runs a command in your shell, e.g. !git status\n");
    const user = runtime.userShell();
    const refusal = user.refusal(command);
    if (refusal) return say(wrapped(`hey: not run: ${refusal}`) + "\n");
    const show = (text: string) => void (text !== "" && say(text));
    const files = outputFiles(user.keeping.outputDir);
    try {
      const run = await io.lend(() => runShellCommand(command, { ...user, cwd: here.cwd, signal, show, spill: files.spill }));
      say(freshLine(answerFormat.columns)); // after its last output or the terminal's ^C, wherever the cursor stands
      // hey is ending (SIGTERM, SIGHUP: the REPL aborts with the signal's words): no next message will
      // carry the command, so none is promised, and the line says why hey stopped it
      if (typeof signal.reason === "string")
        return say(
          wrapped(`${ending(run)} · ${signal.reason}: hey is exiting; the command is not sent`)
            .split("\n")
            .map(dim)
            .join("\n") + "\n",
        );
      notes.push(await shellNote(command, run, { ...user, ...user.keeping, cwd: here.cwd, signal, files, redact: runtime.redact }));
      // broken between words to the width, not left to the terminal's wrap mid-word
      const view = /^git\s+diff\b/.test(command) ? " (/diff shows a diff without sending it)" : "";
      const status = wrapped(`${ending(run)} · the command and its output go with your next message${view}`);
      say(status.split("\n").map(dim).join("\n") + "\n");
    } catch (e) {
      say(`${cannotRun(user.shell.program, here.cwd, e)}\n`);
    }
  }

  // start-up ran under the binary's reluctant JIT policy (scripts/build.ts); what follows is interactive
  Bun.unsafe.setJITPolicy(1);
  try {
    return await runRepl(
      {
        get prompt() {
          return hooks.plan.on ? PLAN_PROMPT : PROMPT;
        },
        togglePlan: () => togglePlan(),
        isFile: (path) => {
          const where = resolveUserPath(path, here.cwd, here.home);
          return "abs" in where && statSync(where.abs, { throwIfNoEntry: false })?.isFile() === true;
        },
        color,
        history: { project: projectHistoryFile(here.historiesDir, here.root), global: here.historyFile, hide: (entry) => runtime.redact(entry) },
        aside: hooks.aside,
        stopping: (moved) => runtime.terminal?.suspend(moved) ?? (() => {}),
        typing: (rows) => runtime.terminal?.typing(rows),
        quitMidTurn: () => {
          runtime.terminal?.suspend(false); // the status row cleared, the answer's unfinished line ended
          runtime.session.quit(INTERRUPTED); // the calls still running: the user stopped them, as `hey -c` tells the model
          runtime.session.close(); // synced as it stands
          return existsSync(runtime.session.path) ? "the session is saved (hey -c continues it)" : "";
        },
        complete: (line) => completions(line, source()),
        onLine: async (line, signal, io) => {
          retryBehind(); // before a /resume of one of them, say
          if (line.trimStart().startsWith("!")) return shell(line.trimStart().slice(1).trim(), signal, io);
          const kind = lineKind(line);
          if (kind === "command") return command(line, signal, io);
          const mistake = slashMistake(line, slashNames(runtime, here)); // `/cost`, a skill's name: not sent
          if (mistake) {
            say(`hey: ${mistake}\n`);
            return "failed"; // what was queued after it waits: it may have counted on the command
          }
          // a bad @file, an unknown skill or prompt, a resource that cannot be read: printed by the REPL, and nothing is sent
          const content = await lineContent(line, runtime, here, skillsOn, hooks.warn, signal);
          const noted = withSessionNotes(runtime, here.cwd, notes.splice(0), []); // `hey -c`, `/resume` elsewhere in the project, a skills list caught up
          checkpoints().beginTurn(); // what edit and write_file change from here on is this turn's
          // a run at its limit saves its hand-off before it ends
          const run = await runtime.agent.send(withPlanNote(hooks.plan, runtime.agent.messages, [...noted, ...content]), signal, {
            keepHandOff: (limit) => hooks.handOff(runtime, limit),
          });
          retryBehind(); // at the turn's end, as the session in use tries its own
          // a job the turn left running (a dev server) is said once, dim, with how to list and stop it
          const jobs = jobsLeft();
          const said = jobsLine(jobs, toldJobs);
          for (const j of jobs) toldJobs.add(j.pgid);
          if (said) say(wrapped(said).split("\n").map(dim).join("\n") + "\n");
          // a run that ended in an error, at its turn or token limit, or with its answer cut off did not finish: what the user
          // queued during it waits, lest it go into the same failure or act on a state they have not read
          return run.stop === "end" ? undefined : "failed";
        },
      },
      message, // already checked by firstPrompt; onLine expands it again
    );
  } finally {
    await runtime.close();
    for (const writer of behind) writer.close(); // what the disk still refuses is said lost, now that hey ends
  }
}

/**
 * What the model is told with the next message of a job the user stopped with `/jobs stop`: its
 * history still says the server it started runs, and it would curl it or debug a refused connection.
 */
function stoppedJobNote(job: RunningJob): string {
  return heyNote(`the user stopped a job your commands left running, with /jobs stop: \`${jobName(job.command, 200)}\` (pid ${job.pid}); it no longer runs`);
}
