// `/diff` (x57): what changed in the project, to look at — `git diff` against the index and the
// untracked files' names — printed in the REPL with the colours of the tools' diffs; nothing of
// it goes to the model (`!git diff` would send it all with the next message). git runs in the
// background (x59: it ran synchronously, and a slow textconv driver froze the REPL, Ctrl-C
// included, for up to 40 s): Esc or Ctrl-C stops it, as does GIT_TIMEOUT_MS, and what it printed
// by then is shown. The user's own textconv drivers still run: their text is the view the user set
// up. Nothing a repository's own config names runs (x67: a clone's `.git/config`, or a committed
// `tools/` git took for a bare repository, ran `core.fsmonitor`, a clean filter and a textconv
// driver at /diff): git gets permission/git-env.ts guardedGit's environment, `--no-textconv` when
// the repository names a textconv driver, and where it names a filter the changed files are named,
// not shown, as a file can only be shown truthfully through its filter.
import { homedir } from "node:os";
import { repositoryPrograms } from "../permission/repository-programs.ts";
import { abortReason } from "../kernel/tool.ts";
import { guardedGit, isRefusal } from "../permission/git-env.ts";
import { runProcess } from "../tools/run-process.ts";
import { diffColor } from "./terminal.ts";
import { visible } from "./visible.ts";
import { cutToWidth } from "./wrap.ts";
import { terminalWidth } from "./term.ts";

/** Lines of diff shown at most: a whole rewritten tree would bury the prompt. */
export const DIFF_VIEW_MAX_LINES = 2000;
/** Untracked files named at most (a build folder nobody ignored can hold thousands); the rest are counted. */
export const UNTRACKED_MAX = 200;
/** How long /diff waits for git in all (a huge repository, a stuck filesystem, a slow textconv driver). */
export const GIT_TIMEOUT_MS = 20_000;
const RESET = "\x1b[0m";
const NEWLINE = 10;

/** A git command's output read in part: its first lines, how many it printed in all, and how it ended. */
interface GitOutput {
  ok: boolean;
  lines: string[];
  total: number;
  err: string;
  ended: "exit" | "timeout" | "abort";
}

/**
 * Runs git in `cwd` in a process group of its own (a textconv driver's shell goes with it),
 * keeping the first `keep` lines of what it prints and counting the rest; a timeout or abort
 * kills the group. `{error}`: git could not start. Never throws.
 */
async function git(
  args: string[],
  cwd: string,
  env: Record<string, string | undefined>,
  keep: number,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<GitOutput | { error: string }> {
  const kept: Uint8Array[] = [];
  let keptLines = 0;
  let newlines = 0;
  let last = NEWLINE;
  const listen = (chunk: Uint8Array, stream: "stdout" | "stderr") => {
    if (stream !== "stdout" || chunk.length === 0) return;
    last = chunk[chunk.length - 1]!;
    for (let at = chunk.indexOf(NEWLINE); at !== -1; at = chunk.indexOf(NEWLINE, at + 1)) {
      newlines++;
      if (keptLines < keep && ++keptLines === keep) kept.push(chunk.subarray(0, at + 1));
    }
    if (keptLines < keep) kept.push(chunk);
  };
  const run = await runProcess(["git", "-c", "core.quotePath=false", ...args], { cwd, env, timeoutMs, signal, listen });
  if ("error" in run) return run;
  const lines = Buffer.concat(kept).toString().split("\n").slice(0, keep);
  if (lines.at(-1) === "") lines.pop();
  const total = newlines + (last === NEWLINE ? 0 : 1);
  return { ok: run.exitCode === 0 && run.ended === "exit", lines, total, err: run.stderr.head.trim(), ended: run.ended };
}

/** Why git was stopped, in the user's words. */
function stopped(what: string, ended: "timeout" | "abort", signal: AbortSignal): string {
  if (ended === "abort") return `${what} was stopped: ${abortReason(signal)}`;
  return `${what} was still running after ${GIT_TIMEOUT_MS / 1000} s and was stopped (a slow textconv driver or a huge work tree can take that long)`;
}

/**
 * `/diff` in `cwd`: the text to show, each line cut to `columns` (0: not cut) and never wrapped,
 * as the tools' diffs are, so a line keeps its +/- in front; `color`: their colours. `signal`
 * (Esc, Ctrl-C) stops git; what it printed by then is shown. Never throws.
 */
export async function diffView(cwd: string, color: boolean, columns: number, signal: AbortSignal): Promise<{ text: string; ok: boolean; fitted?: true }> {
  const until = Date.now() + GIT_TIMEOUT_MS;
  const programs = await repositoryPrograms(cwd, "", homedir(), process.env, signal);
  const refused = programs.find(isRefusal);
  if (refused) return { text: `hey: /diff runs no git here: ${refused.slice("/hey: ".length)}`, ok: false };
  const env = guardedGit(process.env, programs);
  const run = (keep: number, ...args: string[]) => git(args, cwd, env, keep, Math.max(until - Date.now(), 1), signal);
  const inside = await run(1, "rev-parse", "--is-inside-work-tree");
  if ("error" in inside) return { text: "hey: /diff shows git's changes, and git is not installed here", ok: false };
  if (inside.ended !== "exit") return { text: `hey: /diff: ${stopped("git rev-parse", inside.ended, signal)}`, ok: false };
  // a committed `tools/` with HEAD, objects/ and refs/: git would take it for a repository and run its config
  if (/cannot use bare repository/.test(inside.err))
    return {
      text: `hey: /diff: git takes ${cwd} for a bare repository of its own, which /diff does not use (git: ${inside.err.replace(/^fatal: /, "")}); /diff from the project's top shows its changes`,
      ok: false,
    };
  if (!inside.ok || inside.lines[0] !== "true") return { text: `hey: /diff shows git's changes; ${cwd} is not in a git work tree`, ok: false };
  const filters = programs.filter((k) => k.startsWith("filter."));
  const textconv = filters.length || programs.some((k) => k.endsWith(".textconv")) ? ["--no-textconv"] : [];
  const diff = await run(DIFF_VIEW_MAX_LINES, "diff", "--no-color", "--no-ext-diff", ...textconv, ...(filters.length ? ["--name-status"] : []));
  if ("error" in diff) return { text: `hey: git diff failed: ${diff.error}`, ok: false };
  if (diff.ended !== "exit") {
    const cut = `${stopped("git diff", diff.ended, signal)}; git diff in a shell of your own shows all of it`;
    return { text: formatDiffView(diff.lines.join("\n"), "", color, columns, { cut }), ok: false, fitted: true };
  }
  if (!diff.ok) return { text: `hey: git diff failed: ${diff.err || "no reason given"}`, ok: false };
  const untracked = await run(UNTRACKED_MAX, "ls-files", "--others", "--exclude-standard");
  const read: DiffRead = { diffLines: diff.total, ...(filters.length ? { namesOnly: filters.join(", ") } : {}) };
  if (!("error" in untracked)) read.untracked = untracked.total;
  if (!("error" in untracked) && untracked.ended !== "exit") read.unlisted = stopped("git ls-files", untracked.ended, signal);
  const listed = "error" in untracked || !untracked.ok ? "" : untracked.lines.join("\n");
  return { text: formatDiffView(diff.lines.join("\n"), listed, color, columns, read), ok: true, fitted: true };
}

/** How much git printed beyond the lines given, and why it was stopped, if it was. */
export interface DiffRead {
  /** lines of diff in all (default: those given) */
  diffLines?: number;
  /** untracked files in all (default: those given) */
  untracked?: number;
  /** git diff was stopped: why, said after the lines it printed */
  cut?: string;
  /** the untracked files were not all listed: why */
  unlisted?: string;
  /** the diff is git's names of the changed files, as the repository's config names these filters */
  namesOnly?: string;
}

/** The view of `git diff`'s output and the untracked files (one a line), capped at DIFF_VIEW_MAX_LINES and UNTRACKED_MAX. Pure. */
export function formatDiffView(diff: string, untracked: string, color: boolean, columns = 0, read: DiffRead = {}): string {
  const cut = (line: string) => (columns > 1 ? cutToWidth(line, columns - 1, terminalWidth) : line);
  const paint = (line: string) => (color ? diffColor(line) + cut(line) + RESET : cut(line));
  const lines = diff.split("\n").filter((l, i, all) => l !== "" || i < all.length - 1);
  const shown = lines.slice(0, DIFF_VIEW_MAX_LINES).map((l) => paint(visible(read.namesOnly ? l.replace(/\t/g, " ") : l)));
  if (read.namesOnly && shown.length > 0)
    shown.unshift(`changed, not shown: this repository's own config names filter programs (${read.namesOnly}), which /diff does not run`);
  if (read.cut) return [...shown, `… ${read.cut}`].join("\n");
  const total = Math.max(read.diffLines ?? 0, lines.length);
  if (total > DIFF_VIEW_MAX_LINES) shown.push(`… ${total - DIFF_VIEW_MAX_LINES} more lines (git diff in a shell of your own shows them)`);
  const fresh = untracked.split("\n").filter(Boolean);
  const named = fresh.slice(0, UNTRACKED_MAX).map(visible);
  const more = Math.max(read.untracked ?? 0, fresh.length) - named.length;
  // a list of names: wrapped by the terminal, never cut
  if (named.length > 0) shown.push(`untracked: ${named.join(", ")}${more > 0 ? ` and ${more} more (git status lists them)` : ""}`);
  if (read.unlisted) shown.push(`untracked files not all listed: ${read.unlisted}`);
  if (shown.length === 0) return "no changes: the work tree is as git's index has it, and no untracked files";
  return `${shown.join("\n")}\n(shown only: nothing of it goes to the model)`;
}
