// `/diff` (x57): what changed in the project, to look at — `git diff` against the index and the
// untracked files' names — printed in the REPL with the colours of the tools' diffs; nothing of
// it goes to the model (`!git diff` would send it all with the next message).
import { diffColor } from "./terminal.ts";
import { visible } from "./visible.ts";
import { cutToWidth } from "./wrap.ts";
import { terminalWidth } from "./term.ts";

/** Lines of diff shown at most: a whole rewritten tree would bury the prompt. */
export const DIFF_VIEW_MAX_LINES = 2000;
/** How long git may take before /diff gives up (a huge repository, a stuck filesystem). */
const GIT_TIMEOUT_MS = 20_000;
const RESET = "\x1b[0m";

/**
 * `/diff` in `cwd`: the text to show, each line cut to `columns` (0: not cut) and never wrapped,
 * as the tools' diffs are, so a line keeps its +/- in front; `color`: their colours. Never throws.
 */
export function diffView(cwd: string, color: boolean, columns: number): { text: string; ok: boolean; fitted?: true } {
  const git = (...args: string[]) => {
    const run = Bun.spawnSync(["git", "-c", "core.quotePath=false", ...args], { cwd, stdout: "pipe", stderr: "pipe", timeout: GIT_TIMEOUT_MS });
    return { ok: run.exitCode === 0, out: run.stdout.toString(), err: run.stderr.toString().trim() };
  };
  let inside: ReturnType<typeof git>;
  try {
    inside = git("rev-parse", "--is-inside-work-tree");
  } catch {
    return { text: "hey: /diff shows git's changes, and git is not installed here", ok: false };
  }
  if (!inside.ok || inside.out.trim() !== "true") return { text: `hey: /diff shows git's changes; ${cwd} is not in a git work tree`, ok: false };
  const diff = git("diff", "--no-color", "--no-ext-diff");
  if (!diff.ok) return { text: `hey: git diff failed: ${diff.err || "no reason given"}`, ok: false };
  const untracked = git("ls-files", "--others", "--exclude-standard");
  return { text: formatDiffView(diff.out, untracked.ok ? untracked.out : "", color, columns), ok: true, fitted: true };
}

/** The view of `git diff`'s output and the untracked files (one a line), capped at DIFF_VIEW_MAX_LINES. Pure. */
export function formatDiffView(diff: string, untracked: string, color: boolean, columns = 0): string {
  const cut = (line: string) => (columns > 1 ? cutToWidth(line, columns - 1, terminalWidth) : line);
  const paint = (line: string) => (color ? diffColor(line) + cut(line) + RESET : cut(line));
  const lines = diff.split("\n").filter((l, i, all) => l !== "" || i < all.length - 1);
  const shown = lines.slice(0, DIFF_VIEW_MAX_LINES).map((l) => paint(visible(l)));
  if (lines.length > DIFF_VIEW_MAX_LINES) shown.push(`… ${lines.length - DIFF_VIEW_MAX_LINES} more lines (git diff in a shell of your own shows them)`);
  const fresh = untracked.split("\n").filter(Boolean);
  if (fresh.length > 0) shown.push(`untracked: ${fresh.map(visible).join(", ")}`); // a list of names: wrapped by the terminal, never cut
  if (shown.length === 0) return "no changes: the work tree is as git's index has it, and no untracked files";
  return `${shown.join("\n")}\n(shown only: nothing of it goes to the model)`;
}
