// The bash tool (SPEC §7, §13.1): one shell command in a fresh process group (run-process.ts), its
// output captured, filtered and truncated, the full output kept in the user's cache when anything
// was cut (command-result.ts, which `!COMMAND`'s note shares).
import { realpathSync } from "node:fs";
import { homedir } from "node:os";
import { delimiter, dirname, join, resolve } from "node:path";
import { stampOf } from "../fs/file-stamps.ts";
import { newId } from "../kernel/ir.ts";
import { abortReason, type Tool, type ToolContext, type ToolResult } from "../kernel/tool.ts";
import { commandResult, MAX_RESULT_BYTES, MAX_RESULT_LINES, outputFiles, seconds } from "./command-result.ts";
import { places } from "../fs/places.ts";
import { goneDirectory } from "../fs/dir-problem.ts";
import { inWorkDir } from "../fs/work-dir.ts";
import { runProcess } from "./run-process.ts";
import { unguardedNotice } from "./group-guard.ts";
import { chooseShell, inDirectory, type ShellChoice } from "./shell.ts";
import { TOOL } from "../kernel/tool-names.ts";
import { liveTail } from "./live-tail.ts";
import { clixmlText } from "./clixml.ts";
import { shellArgv } from "./long-command.ts";
import { type Env, gitBefore231, terminalNotes, timeoutNotes, unansweredNotes, VIM_STOPPED, VIM_SWAP, withoutTerminal } from "./no-terminal.ts";
import { vimWatch } from "./vim-watch.ts";
import { type FilterWatch, watchFilter } from "./filter-watch.ts";

export { MAX_RESULT_BYTES, MAX_RESULT_LINES };
export const MAX_TIMEOUT_MS = 600_000;
/** Exit code reported on timeout, as timeout(1) does. */
const TIMEOUT_EXIT_CODE = 124;
/**
 * Below this a call's `timeout_ms` is most likely seconds a model meant (`60` for a minute): the call
 * is refused before anything runs, as the command cut off after a few steps would leave a half-done
 * migration or install for the model to find and repair. `[tools] bash_timeout_ms` may be less.
 */
const SECONDS_LIKELY_BELOW_MS = 1000;

export interface BashToolOptions {
  shell: ShellChoice;
  /** default per call (`[tools] bash_timeout_ms`) */
  timeoutMs: number;
  /** the most a call may ask for with `timeout_ms` */
  maxTimeoutMs?: number;
  /** "builtin", "none", or an external command that reads the output on stdin (e.g. "rtk") */
  filter: string;
  /** `--raw`: no filtering at all (truncation still applies) */
  raw: boolean;
  /** where full outputs go, created 0700 when first needed: the session's folder under outputs.ts's root by default */
  outputDir?: string;
  /** the commands' environment, or what makes it for each command (given its text and the call's abort signal; it may take a while: plan mode reads repositories' config); process.env by default */
  env?: Env | ((command: string, signal?: AbortSignal) => Env | Promise<Env>);
  /** what a leading `~` in a `workdir` means, as in the file tools' paths; the user's home by default */
  home?: string;
  /** the id of the session its commands run for, whose the jobs they leave running are (group-guard.ts jobsLeft) */
  session?: string;
  /** told (a `hey: ` line, once a run each) what the user should know of how commands run: unguarded, full outputs not kept; never throws */
  notice?: (line: string) => void;
  /** what a saved full output hides (command-result.ts OutputKeeping) */
  hide?: (text: string) => string;
  /** the external filter's state over the run, shared with `!COMMAND` (filter-watch.ts); by default the tool's own, telling `notice` */
  watch?: FilterWatch;
}

/** The shell the bash tool runs on this machine (SPEC §7.1): `[tools] shell` when `configured`, looked up on PATH, its links followed (is `sh` dash?). */
export function systemShell(configured?: string): ShellChoice {
  const realPath = (path: string) => {
    try {
      return realpathSync(path);
    } catch {
      return undefined;
    }
  };
  return chooseShell({ configured, platform: process.platform, findOnPath: (name) => Bun.which(name) ?? undefined, realPath });
}

/** `env` (process.env when undefined), made for each command when it is a function, with `variables` added. */
export function withVariables(env: BashToolOptions["env"], variables: Env): (command: string, signal?: AbortSignal) => Promise<Env> {
  return async (command, signal) => ({ ...((typeof env === "function" ? await env(command, signal) : env) ?? process.env), ...variables });
}

/** The bash tool. `run` never throws: spawn failures, non-zero exits, timeouts and aborts are error results. */
export function createBashTool(opts: BashToolOptions): Tool {
  const maxTimeoutMs = Math.max(opts.maxTimeoutMs ?? MAX_TIMEOUT_MS, opts.timeoutMs);
  // an embedder's tool without a watch: the filter's failure is said through `notice`, once per tool
  const watch = opts.watch ?? watchFilter(opts.filter, undefined, (line) => opts.notice?.(line));
  const outputDir = opts.outputDir ?? join(places(process.env, homedir(), process.cwd(), process.platform).outputsDir, newId());
  const cut = `${MAX_RESULT_LINES} lines/${MAX_RESULT_BYTES >> 10} KB, all saved to a file the result names.`;
  const { label, lacks, name } = opts.shell;
  const shell = label ? `a command with ${label}` : lacks ? `a command in dash (${lacks.syntax})` : "a shell command";
  const description =
    `Run ${shell}, no stdin; each call starts in the working directory (${name === "powershell" ? "cd DIR; …" : "cd DIR && …"}). ` +
    `timeout_ms: default ${opts.timeoutMs} ms, max ${maxTimeoutMs} ms. ` +
    (opts.raw || opts.filter === "none"
      ? `Long output is cut to ${cut}`
      : `Long output (never git diff/status/log/show) is cut to its errors, failures, summaries and ends, then to ${cut}`);
  return {
    name: TOOL.bash,
    description,
    parameters: {
      type: "object",
      properties: { command: { type: "string" }, timeout_ms: { type: "integer" } },
      required: ["command"],
    },
    // calls that change nothing run beside each other; any other runs alone, in call order (kernel/tool-calls.ts)
    readOnly: (args) => typeof args.command === "string" && reader().readsOnly(args.command, opts.shell.name),
    inDirectory: (command, dir) => inDirectory(opts.shell, command, dir, opts.home ?? homedir()),
    // run at the old path of a project moved since hey started, a command would work in a ghost of it, or fail as a missing shell
    run: (args, ctx) =>
      inWorkDir(
        ctx.cwd,
        (moved) => ({ output: `bash: not run: ${moved}`, isError: true }),
        async () => {
          const given = (typeof opts.env === "function" ? await opts.env(String(args.command), ctx.signal) : opts.env) ?? process.env;
          const env = withoutTerminal(given, oldGit(given.PATH, ctx.cwd));
          return runBash({ ...opts, outputDir, env, watch }, maxTimeoutMs, args, ctx);
        },
      ),
  };
}

async function runBash(
  opts: Omit<BashToolOptions, "env"> & { outputDir: string; env: Env | undefined },
  maxTimeoutMs: number,
  args: Record<string, unknown>,
  ctx: ToolContext,
): Promise<ToolResult> {
  const { command, timeout_ms: asked } = args as { command: string; timeout_ms?: number }; // types checked by the pipeline
  if (command.trim() === "") return { output: "bash: `command` must be a non-empty string", isError: true };
  const small = unitRefusal(asked);
  if (small) return { output: small, isError: true };
  const timeoutMs = asked !== undefined && asked > 0 ? Math.min(asked, maxTimeoutMs) : opts.timeoutMs;
  if (ctx.signal.aborted) return { output: `[${abortReason(ctx.signal)} before the command started]`, isError: true };
  const refusal = reader().needsTerminal(command, opts.shell);
  if (refusal) return { output: refusal, isError: true };
  const files = outputFiles(opts.outputDir);

  const script = shellArgv(opts.shell, command, files.script);
  if (script.error) return { output: `bash: could not write the command to a script file to run it from: ${script.error}`, isError: true };
  const live = ctx.output ? liveTail(ctx.output) : undefined; // the terminal's last lines while it runs
  // a vim the refusal could not see (a script, git difftool) is stopped once it waits for keys with no terminal (vim-watch.ts)
  const vim = reader().viBatch(command, opts.shell) ? undefined : new AbortController();
  let opened = false; // stopped after vim opened its files
  const watch = vim && vimWatch((late) => ((opened = late), vim.abort()));
  const listen = (chunk: Uint8Array, stream: "stdout" | "stderr") => {
    live?.take(chunk);
    if (stream === "stderr") watch?.take(chunk);
  };
  const run = await runProcess(script.argv, {
    cwd: ctx.cwd,
    env: opts.env,
    timeoutMs,
    signal: vim ? AbortSignal.any([ctx.signal, vim.signal]) : ctx.signal,
    spill: files.spill,
    verbatim: opts.shell.verbatim,
    guard: true,
    ...(opts.session !== undefined ? { owner: opts.session } : {}),
    label: command,
    listen,
    ...(watch ? { started: (pid: number) => watch.started(pid) } : {}),
    jobLog: files.job,
    ...(opts.hide ? { hide: opts.hide } : {}),
    ...(opts.shell.name === "powershell" ? { stderrText: clixmlText } : {}),
  }).finally(() => {
    live?.stop();
    watch?.stop();
    script.done();
  });
  const unguarded = unguardedNotice(); // no place for the guard's pipe (group-guard.ts): said once, at the first call
  if (unguarded) opts.notice?.(`hey: ${unguarded}`);
  if ("error" in run) return { output: startError(opts.shell.program, command, run.error, ctx.cwd), isError: true };
  const exitCode = run.ended === "timeout" ? TIMEOUT_EXIT_CODE : run.exitCode;
  const notes: string[] = [];
  if (run.ended === "timeout") notes.push(...timeoutNotes(command, seconds(timeoutMs)));
  if (run.ended === "abort")
    notes.push(
      ...(vim?.signal.aborted && !ctx.signal.aborted
        ? [...VIM_STOPPED, ...(opened ? [VIM_SWAP] : [])]
        : [`[${abortReason(ctx.signal)}; the process group was killed]`]),
    );
  if (run.ended === "exit" && run.signal) notes.push(`[the shell was killed by ${run.signal}]`);
  notes.push(...reader().commandNotes(command, run.stderr.head.slice(0, 16_384), opts.shell, exitCode));
  notes.push(...terminalNotes(run.stderr.head.slice(0, 16_384) + run.stderr.tail));
  if (run.ended === "exit") notes.push(...unansweredNotes([run.stdout, run.stderr].map((s) => (s.tail || s.head).slice(-512))));
  const output = await commandResult(run, command, exitCode, { ...opts, cwd: ctx.cwd, signal: ctx.signal, files, notes });
  // a command that failed (non-zero exit, killed, timed out, interrupted) is a failed call: for the model, the terminal and JSON alike
  return run.ended === "exit" && exitCode === 0 && !run.signal ? { output } : { output, isError: true };
}

/** Why a call with a `timeout_ms` under a second is not run (`60` meant as a minute); undefined for any other. */
export function unitRefusal(asked: number | undefined): string | undefined {
  if (asked === undefined || asked <= 0 || asked >= SECONDS_LIKELY_BELOW_MS) return undefined;
  const minute = asked === 60 ? "a minute" : `${asked} s`;
  return `bash: not run: timeout_ms is in milliseconds: ${asked} would stop the command after ${asked / 1000} s; for ${minute} send ${asked * 1000} (the least is ${SECONDS_LIKELY_BELOW_MS})`;
}

/**
 * Why the shell could not start: the command's size when the system refused its arguments (E2BIG),
 * the working directory when it is gone, else the shell setting.
 */
function startError(program: string, command: string, error: string, cwd: string): string {
  if (/E2BIG|ENAMETOOLONG|argument list too long|command line is too long/i.test(error))
    return `bash: the command (${Buffer.byteLength(command) >> 10} KB) is longer than the system lets a program's arguments be (${error}); write long content with write_file and run a short command`;
  const gone = goneDirectory(cwd);
  if (gone) return `bash: ${gone}`;
  return `bash: could not start ${program}: ${error} (the shell is [tools] shell, or HEY_SHELL)`;
}

/**
 * Whether the git the commands find on `path` is older than 2.31 (no GIT_CONFIG_COUNT: hey's editor
 * must be GIT_EDITOR there); asked once per git found (`git --version`, ~2 ms), false without one.
 */
export function oldGit(path: string | undefined, cwd = process.cwd()): boolean {
  const found = gitOn(path, cwd);
  if (found === undefined) return false;
  const key = `${found.git}\0${found.stamp}`; // a git replaced in place is asked again
  let old = gitVersions.get(key);
  if (old === undefined) {
    const ran = Bun.spawnSync([found.git, "--version"], { stdin: "ignore", stdout: "pipe", stderr: "ignore" });
    old = gitBefore231(ran.stdout.toString());
    gitVersions.set(key, old);
  }
  return old;
}
const gitVersions = new Map<string, boolean>();

/**
 * The git the commands find on `path` from `cwd`, with its stamp (fs/file-stamps.ts), looked up once
 * per PATH value (a stat of each of its directories: on a slow disk ~50 ms a bash call) while the
 * directories up to git's and the git file keep their stamps: a git installed ahead on PATH later,
 * or a new one in its place, is found at the next call, for one stat per directory up to git's.
 * Where none is found it is looked for again at the next call, so a git the agent installs is found.
 */
function gitOn(path: string | undefined, cwd: string): { git: string; stamp: string } | undefined {
  const dirs = (path ?? process.env.PATH ?? "").split(delimiter).map((dir) => resolve(cwd, dir)); // "" and "." are cwd, as the shell reads them
  const key = `${path ?? "\0inherited"}\0${dirs.join(delimiter)}`; // a relative entry is another directory in another cwd
  const known = gitPaths.get(key);
  if (known?.stamps.every(([p, stamp]) => stampOf(p) === stamp)) return { git: known.git, stamp: known.stamps.at(-1)![1] };
  const git = Bun.which("git", { PATH: dirs.join(delimiter) }) ?? undefined;
  if (git === undefined) return undefined;
  const at = dirs.indexOf(dirname(git));
  // a name added to a directory changes its times; not git's racy rule: a git is installed once, not rewritten each tick
  const stamps = [...(at < 0 ? dirs : dirs.slice(0, at + 1)), git].map((p): [string, string] => [p, stampOf(p)]);
  gitPaths.set(key, { git, stamps });
  return { git, stamp: stamps.at(-1)![1] };
}
const gitPaths = new Map<string, { git: string; stamps: [string, string][] }>();

type Reader = typeof import("./bash-notes.ts") & typeof import("../permission/read-only.ts");
/**
 * What reads commands with the permission checker's shell parser (bash-notes.ts, permission/read-only.ts),
 * loaded at the first call that needs it: its tables cost every run at start-up ~1 MB, and a lone
 * bash call of a plain command never parses it.
 */
function reader(): Reader {
  loaded ??= {
    ...(require("./bash-notes.ts") as typeof import("./bash-notes.ts")),
    ...(require("../permission/read-only.ts") as typeof import("../permission/read-only.ts")),
  };
  return loaded;
}
let loaded: Reader | undefined;
