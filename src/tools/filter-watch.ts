// An external `[tools] bash_filter` over a run. One that cannot run is found once: at start when its
// program is plainly missing (config/filter-name.ts unrunnableFilter, said with the config's other problems and by `hey
// doctor`), else at its first sign of it (filterCannotRun: the shell's "not found", "not executable"
// or syntax error, cmd's and PowerShell's "not recognized", a shell that could not be started), at
// its first timeout (a filter waiting on a terminal would cost FILTER_TIMEOUT_MS on every command),
// or when it failed on FAILURES_SAID commands in a row, whatever its exit code (a bad option, a
// program a shell reports otherwise). The user is told once, naming where the filter is set, and
// every later command goes through the built-in filter. A failure between successes is that call's
// only: the built-in filter stands in for it and the filter stays on, and the user hears of it once,
// at its FAILURES_SAID-th failure, so one odd output costs no line but a filter that keeps failing is
// not hidden for the whole run. The model is not told either way, as only the user can fix the
// setting (a note on each result cost ~60 tokens and a saved file a call). Pure.
import { filterName, saidUnrunnable } from "../config/filter-name.ts";

/** An external filter's state over a run. */
export interface FilterWatch {
  /** false once the filter could not run or was found missing at start: the built-in filter is used instead */
  usable(): boolean;
  /**
   * The filter failed with `why` (`exit code 127: sh: 1: rtk: not found`); `unrunnable` (filterCannotRun,
   * or a timeout): it is not run again and the user is told, the first time only; so too at the
   * FAILURES_SAID-th failure in a row; else the user is told at the FAILURES_SAID-th failure only
   */
  failed(why: string, unrunnable: boolean): void;
  /** The filter filtered a command's output: the failures before it were not in a row */
  succeeded(): void;
}

/** Failures of a filter before the user hears of them (and, in a row, before it is switched off): one may be an odd output, three are a pattern. */
export const FAILURES_SAID = 3;

/**
 * The watch over `filter`, set at `source` ("HEY_BASH_FILTER" or "FILE:LINE"); `say` gets the
 * one `hey:` line; `missing`: it was found missing at start (and said then), so it is never run.
 */
export function watchFilter(filter: string, source: string | undefined, say: (line: string) => void, missing = false): FilterWatch {
  let usable = !missing;
  let failures = 0;
  let inRow = 0;
  const rest = "bash output goes through the built-in filter for the rest of this run";
  return {
    usable: () => usable,
    succeeded: () => {
      inRow = 0;
    },
    failed(why, unrunnable) {
      if (!usable) return;
      failures++;
      if (unrunnable) {
        usable = false;
        say(`hey: ${filterName(filter, source)} cannot be run (${why}); ${rest}`);
      } else if (++inRow === FAILURES_SAID) {
        usable = false;
        say(`hey: ${filterName(filter, source)} failed on ${FAILURES_SAID} commands in a row (last: ${why}); ${rest}`);
      } else if (failures === FAILURES_SAID)
        say(
          `hey: ${filterName(filter, source)} failed ${FAILURES_SAID} times in this run (last: ${why}); each time that command's output went through the built-in filter, and the filter stays on`,
        );
    },
  };
}

/**
 * Whether a filter's failure means it cannot run at all: the shell's exit 126 (not executable) or
 * 127 (not found); cmd's 9009 or its and PowerShell's "not recognized" (a program not installed, on
 * Windows); the shell's own syntax error in the filter (`sh: 1: Syntax error: Unterminated quoted
 * string`, `bash: -c: line 1: …`), which `stderr` holds; a shell that could not be started for a
 * reason other than a busy machine (`spawnError`); a timeout: a filter that waits (on a terminal,
 * on input it never gets) would cost every command as long. `exitCode` undefined: it was killed.
 */
export function filterCannotRun(exitCode: number | "timeout" | undefined, spawnError?: string, stderr = ""): boolean {
  if (spawnError !== undefined) return !/EAGAIN|EMFILE|ENFILE|ENOMEM|EBUSY/.test(spawnError);
  if (exitCode === "timeout") return true;
  if (exitCode === 126 || exitCode === 127 || exitCode === 9009) return true;
  if (exitCode === undefined || exitCode === 0) return false;
  return SHELL_REFUSED.test(stderr);
}

/** The shell's (not the filter program's) words for a filter it cannot run: dash, bash, zsh, cmd.exe, PowerShell. */
const SHELL_REFUSED =
  /^(\S*\/)?(sh|dash|bash|zsh|ksh): (\d+: |-c: line \d+: |line \d+: )?(Syntax error|syntax error|unexpected EOF while looking)|is not recognized as (an internal or external command|the name of a cmdlet)|CommandNotFoundException/m;

/**
 * `hey doctor`'s line on an external filter: `! bash filter: ` and the start's line saying it cannot
 * be run (config/filter-name.ts unrunnableFilter) when `warnings` holds it, so the doctor says it once, here; else where it
 * is set. Undefined for `builtin` and `none`.
 */
export function filterLine(filter: string, source: string | undefined, warnings: readonly string[]): string | undefined {
  if (filter === "builtin" || filter === "none") return undefined;
  const trouble = saidUnrunnable(filter, source, warnings);
  return trouble ? `! bash filter: ${trouble}` : `bash filter: ${filterName(filter, source)}`;
}
