// `/diff` (x57): what changed in the project, to look at — `git diff` against the index and the
// untracked files' names — printed in the REPL with the colours of the tools' diffs; nothing of
// it goes to the model (`!git diff` would send it all with the next message). git runs in the
// background (x59: it ran synchronously, and a slow textconv driver froze the REPL, Ctrl-C
// included, for up to 40 s): Esc or Ctrl-C stops it, as does GIT_TIMEOUT_MS, and what it printed
// by then is shown. The user's own textconv drivers and filters still run: their text is the view
// the user set up. Nothing a repository's own config names runs (x67: a clone's `.git/config`, or a
// committed `tools/` git took for a bare repository, ran `core.fsmonitor`, a clean filter and a
// textconv driver at /diff): git gets permission/git-env.ts guardedGit's environment, and where the
// repository names a filter or a textconv driver, the files whose attributes select one are sorted
// out (diff-files.ts) and only they are named or shown without it; the others are diffed in full.
import { homedir } from "node:os";
import { repositoryPrograms } from "../permission/repository-programs.ts";
import { abortReason } from "../kernel/tool.ts";
import { type Env, explicitBareRepositories, gitConfigWith, guardedGit, isRefusal } from "../permission/git-env.ts";
import { runProcess } from "../tools/run-process.ts";
import { type Driver, driversOf, type Held, parseAttributes, parseChanged, pathspecCalls, sortChanged, usersOwnKeys } from "./diff-files.ts";
import { diffColor } from "./tool-lines.ts";
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

/** Where and how long git runs: `cwd`, the guarded `env`, the time left, the user's abort. */
interface GitPlace {
  cwd: string;
  env: Env;
  timeoutMs: number;
  signal: AbortSignal;
}

/**
 * Runs git in a process group of its own (a textconv driver's shell goes with it), keeping the
 * first `keep` lines of what it prints and counting the rest; a timeout or abort kills the group.
 * `input`: what git reads on stdin. `{error}`: git could not start. Never throws.
 */
async function git(args: string[], at: GitPlace, keep: number, input?: string): Promise<GitOutput | { error: string }> {
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
  const stdin = input === undefined ? {} : { input: new Response(input).body! };
  const run = await runProcess(["git", "-c", "core.quotePath=false", ...args], { ...at, ...stdin, listen });
  if ("error" in run) return run;
  const lines = Buffer.concat(kept).toString().split("\n").slice(0, keep);
  if (lines.at(-1) === "") lines.pop();
  const total = newlines + (last === NEWLINE ? 0 : 1);
  return { ok: run.exitCode === 0 && run.ended === "exit", lines, total, err: run.stderr.head.trim(), ended: run.ended };
}

/** A NUL-separated listing git prints (`-z`) read whole, up to this: past it, git's answer is not used. */
const LISTING_BYTES = 64 << 20;

/**
 * What a `-z` git command printed, read whole; `exact` false where it printed more than
 * LISTING_BYTES (`text` is then its start) or what is not UTF-8 (a path hey cannot give back to git
 * as it is: `text` shows it as U+FFFD).
 */
async function gitListing(args: string[], at: GitPlace, input?: string) {
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  const listen = (chunk: Uint8Array, stream: "stdout" | "stderr") => {
    if (stream === "stdout" && (bytes += chunk.length) <= LISTING_BYTES) chunks.push(chunk);
  };
  const stdin = input === undefined ? {} : { input: new Response(input).body! };
  const run = await runProcess(["git", ...args], { ...at, ...stdin, listen });
  if ("error" in run) return run;
  const out = Buffer.concat(chunks);
  const text = new TextDecoder().decode(out);
  const exact = bytes <= LISTING_BYTES && Buffer.from(text).equals(out);
  return { ok: run.exitCode === 0 && run.ended === "exit", text, exact, err: run.stderr.head.trim(), ended: run.ended };
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
  const place = (env: Env): GitPlace => ({ cwd, env, timeoutMs: Math.max(until - Date.now(), 1), signal });
  const programs = await repositoryPrograms(cwd, "", homedir(), process.env, signal);
  const refused = programs.find(isRefusal);
  if (refused) return { text: `hey: /diff runs no git here: ${refused.slice("/hey: ".length)}`, ok: false };
  const inside = await git(["rev-parse", "--is-inside-work-tree", "--show-toplevel"], place(guardedGit(process.env, programs)), 2);
  if ("error" in inside) return { text: "hey: /diff shows git's changes, and git is not installed here", ok: false };
  if (inside.ended !== "exit") return { text: `hey: /diff: ${stopped("git rev-parse", inside.ended, signal)}`, ok: false };
  // a committed `tools/` with HEAD, objects/ and refs/: git would take it for a repository and run its config
  if (/cannot use bare repository/.test(inside.err))
    return {
      text: `hey: /diff: git takes ${cwd} for a bare repository of its own, which /diff does not use (git: ${inside.err.replace(/^fatal: /, "")}); /diff from the project's top shows its changes`,
      ok: false,
    };
  if (!inside.ok || inside.lines[0] !== "true") return { text: `hey: /diff shows git's changes; ${cwd} is not in a git work tree`, ok: false };
  const own = driversOf(programs).length > 0 ? await usersOwn(place(explicitBareRepositories(process.env)), programs) : [];
  const theirs = programs.filter((key) => !own.some(([mine]) => mine === key));
  const guarded = guardedGit(process.env, theirs);
  const env = { ...guarded, ...gitConfigWith(guarded, own, false) };
  const drivers = driversOf(theirs);
  const run = (calls: string[][]) => diffs(calls, () => place(env));
  const diff = drivers.length === 0 ? await run([[]]) : await fileByFile(run, () => place(env), inside.lines[1] ?? cwd, drivers);
  if ("failed" in diff) return { text: `hey: git diff failed: ${diff.failed}`, ok: false };
  if (diff.ended !== "exit") {
    const cut = `${stopped("git diff", diff.ended, signal)}; git diff in a shell of your own shows all of it`;
    return { text: formatDiffView(diff.lines.join("\n"), "", color, columns, { cut }), ok: false, fitted: true };
  }
  const untracked = await git(["ls-files", "--others", "--exclude-standard"], place(env), UNTRACKED_MAX);
  const read: DiffRead = { diffLines: diff.total, bytes: diff.bytes, named: diff.named, unsorted: diff.unsorted };
  if (!("error" in untracked)) read.untracked = untracked.total;
  if (!("error" in untracked) && untracked.ended !== "exit") read.unlisted = stopped("git ls-files", untracked.ended, signal);
  const listed = "error" in untracked || !untracked.ok ? "" : untracked.lines.join("\n");
  return { text: formatDiffView(diff.lines.join("\n"), listed, color, columns, read), ok: true, fitted: true };
}

/**
 * The keys of `programs` the repository's config sets as the user's own does (diff-files.ts
 * usersOwnKeys), with the user's values, from git's listing with scopes (`at`: the user's
 * environment, not guarded: git's `command` scope must be the user's alone). None where git
 * cannot list them (before 2.26 it has no `--show-scope`): then every driver is the repository's.
 */
async function usersOwn(at: GitPlace, programs: string[]): Promise<[string, string][]> {
  const listing = await gitListing(["config", "--list", "--show-scope", "--includes", "-z"], at);
  return "error" in listing || !listing.ok || !listing.exact ? [] : usersOwnKeys(listing.text, programs);
}

/** git diff's lines shown (DIFF_VIEW_MAX_LINES at most), how many it printed in all, how it ended, and the changed files not shown in full; or why it failed. */
type Diffs = ({ lines: string[]; total: number; ended: GitOutput["ended"] } & Pick<DiffRead, "bytes" | "named" | "unsorted">) | { failed: string };

/**
 * `git diff` once for each of `calls` (its further arguments: pathspecs, `--no-textconv`), their
 * output one after the other: DIFF_VIEW_MAX_LINES lines of it in all, and the rest counted. Stops
 * at the first that fails or is stopped.
 */
async function diffs(calls: string[][], at: () => GitPlace): Promise<Diffs> {
  const lines: string[] = [];
  let total = 0;
  for (const call of calls) {
    const diff = await git(["diff", "--no-color", "--no-ext-diff", ...call], at(), Math.max(DIFF_VIEW_MAX_LINES - lines.length, 0));
    if ("error" in diff) return { failed: diff.error };
    lines.push(...diff.lines);
    total += diff.total;
    if (diff.ended !== "exit") return { lines, total, ended: diff.ended };
    if (!diff.ok) return { failed: diff.err || "no reason given" };
  }
  return { lines, total, ended: "exit" };
}

/** A submodule's change as its commits (`diff.submodule = diff` would show its files, whose drivers are not sorted out here). */
const SUBMODULE_COMMITS = "--submodule=short";

/**
 * The diff file by file (diff-files.ts): each changed file whose attributes select none of the
 * repository's `drivers` in full, each with its textconv driver as git's own bytes
 * (`--no-textconv`), each a filter of it cleans named. The attributes are git's (`check-attr` from
 * the work tree's `top`, where git's paths start): it reads every `.gitattributes`,
 * `info/attributes` and `core.attributesFile` as `git diff` does. Where git does not say, each file
 * is taken to select every driver.
 */
async function fileByFile(run: (calls: string[][]) => Promise<Diffs>, at: () => GitPlace, top: string, drivers: Driver[]): Promise<Diffs> {
  const names = await gitListing(["diff", "--name-status", "--no-renames", "-z"], at());
  if ("error" in names) return { failed: names.error };
  if (names.ended !== "exit") return { lines: [], total: 0, ended: names.ended };
  if (!names.ok) return { failed: names.err || "no reason given" };
  const changed = parseChanged(names.text);
  const paths = changed.map((file) => `${file.path}\0`).join("");
  const asked =
    names.exact && changed.length > 0 ? await gitListing(["check-attr", "-z", "--stdin", "filter", "diff"], { ...at(), cwd: top }, paths) : undefined;
  // no answer, or paths hey could not give git: each file is taken to select every driver
  const known = !asked || (!("error" in asked) && asked.ok && asked.exact);
  const sorted = sortChanged(changed, known && asked ? parseAttributes(asked.text) : new Map<string, never>(), drivers);
  const unsorted = !names.exact || !known ? { unsorted: true as const } : {};
  if (!names.exact && sorted.bytes.length > 0) return run([[SUBMODULE_COMMITS, "--no-textconv"]]);
  const [bytes, named] = [sorted.bytes.map((file) => file.path), sorted.named.map((file) => file.path)];
  const calls = [
    ...pathspecCalls(sorted.diff, [...bytes, ...named]).map((specs) => [SUBMODULE_COMMITS, "--", ...specs]),
    ...pathspecCalls(bytes, [...sorted.diff, ...named]).map((specs) => [SUBMODULE_COMMITS, "--no-textconv", "--", ...specs]),
  ];
  const diff = await run(calls);
  return "failed" in diff ? diff : { ...diff, bytes: sorted.bytes, named: sorted.named, ...unsorted };
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
  /** changed files shown as git's own bytes (`--no-textconv`), as the repository's own config names their textconv driver */
  bytes?: Held[] | undefined;
  /** changed files not shown, as the repository's own config names their filter */
  named?: Held[] | undefined;
  /** git's answer could not be had file by file (a name that is not UTF-8, check-attr failed): `named` is every changed file */
  unsorted?: true | undefined;
}

/** Files named, not shown, at most (a tree of LFS files: thousands); the rest are counted. */
export const NAMED_MAX = 200;

/** The drivers of `files`, each once: `lfs, evil`. */
const driversIn = (files: Held[]) => [...new Set(files.map((file) => file.driver))].join(", ");

/** What /diff says of the files it did not diff in full (DiffRead's `bytes` and `named`). */
function heldLines(read: DiffRead, cut: (line: string) => string): string[] {
  const lines: string[] = [];
  const bytes = read.bytes ?? [];
  const more = (files: Held[]) => (files.length > NAMED_MAX ? ` and ${files.length - NAMED_MAX} more` : "");
  if (bytes.length > 0)
    lines.push(
      `shown as git's own bytes, without the textconv driver this repository's own config names for them (diff=${driversIn(bytes)}), which /diff does not run: ${bytes
        .slice(0, NAMED_MAX)
        .map((file) => visible(file.path))
        .join(", ")}${more(bytes)}`,
    );
  const named = read.named ?? [];
  if (named.length === 0) return lines;
  lines.push(
    read.unsorted
      ? `changed, not shown: this repository's own config names filters (filter=${driversIn(named)}), which /diff does not run, and /diff could not tell which files they clean (a file name that is not UTF-8, or no answer from git check-attr):`
      : `changed, not shown: this repository's own config names their filter (filter=${driversIn(named)}), which /diff does not run, and only it shows them truthfully:`,
  );
  lines.push(...named.slice(0, NAMED_MAX).map((file) => cut(visible(`${file.status} ${file.path}`))));
  if (named.length > NAMED_MAX) lines.push(`${more(named).trim()} (git status lists them)`);
  return lines;
}

/** The view of `git diff`'s output and the untracked files (one a line), capped at DIFF_VIEW_MAX_LINES and UNTRACKED_MAX. Pure. */
export function formatDiffView(diff: string, untracked: string, color: boolean, columns = 0, read: DiffRead = {}): string {
  const cut = (line: string) => (columns > 1 ? cutToWidth(line, columns - 1, terminalWidth) : line);
  const paint = (line: string) => (color ? diffColor(line) + cut(line) + RESET : cut(line));
  const lines = diff.split("\n").filter((l, i, all) => l !== "" || i < all.length - 1);
  const shown = lines.slice(0, DIFF_VIEW_MAX_LINES).map((l) => paint(visible(l)));
  if (read.cut) return [...shown, `… ${read.cut}`].join("\n");
  const total = Math.max(read.diffLines ?? 0, lines.length);
  if (total > DIFF_VIEW_MAX_LINES) shown.push(`… ${total - DIFF_VIEW_MAX_LINES} more lines (git diff in a shell of your own shows them)`);
  shown.push(...heldLines(read, cut));
  const fresh = untracked.split("\n").filter(Boolean);
  const named = fresh.slice(0, UNTRACKED_MAX).map(visible);
  const more = Math.max(read.untracked ?? 0, fresh.length) - named.length;
  // a list of names: wrapped by the terminal, never cut
  if (named.length > 0) shown.push(`untracked: ${named.join(", ")}${more > 0 ? ` and ${more} more (git status lists them)` : ""}`);
  if (read.unlisted) shown.push(`untracked files not all listed: ${read.unlisted}`);
  if (shown.length === 0) return "no changes: the work tree is as git's index has it, and no untracked files";
  return `${shown.join("\n")}\n(shown only: nothing of it goes to the model)`;
}
