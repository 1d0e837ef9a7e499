// Stopping a vim that a bash command started where the refusal could not see it (a script, `git
// difftool`, an alias) and that waits for keys with no terminal until the timeout (SPEC §7). The
// sign is vim's own warning on stderr at a line's start; it is believed only when a vim runs in the
// command's process group, and a vim given commands (`-c`, `+cmd`, `-s`, Ex mode), which may well
// end by itself after its 2 s pause, is stopped only if it still runs VIM_GRACE_MS after the warning.
import { readFileSync } from "node:fs";
import { commandLine, listProcesses, type Proc } from "./process-tree.ts";

/** What vim prints on stderr, at a line's start, when it starts with no terminal (then it pauses 2 s). */
const VIM_NO_TERMINAL = /^Vim: Warning: (Input is not from|Output is not to) a terminal/m;
/** what of a line that has no end yet is kept for the next chunk: the warning may be split between two */
const CARRY = 64;
/** How long a vim given commands may still run after its warning (vim's own pause is 2 s). */
export const VIM_GRACE_MS = 5000;
/** vi's names, as a process's own name: what the warning is believed from. */
const VI_PROCESS = /^(g?vim|vi|ex|nvim|view|rvim|rview|vimdiff|nvimdiff|vim\.(basic|tiny|nox|gtk3?|athena))$/;
/** A word that gives vim commands to run (`-c`, `+cmd`, `-S`), keys (`-s`) or Ex mode (`-e`, `-es`, `-E`): it may end by itself. */
const GIVEN = /^(-c|-S|-s|-[eE]s?|-s[eE]|--headless|\+.*)$/;

export interface VimWatch {
  /** told of each stderr chunk as it arrives */
  take(chunk: Uint8Array): void;
  /** the process group the command runs in, once it started */
  started(pgid: number): void;
  /** the command ended: no later look */
  stop(): void;
}

/**
 * A watcher of a command's stderr that calls `found` once a vim of the command's group (`pgid`)
 * waits for keys with no terminal: at once when vim was given nothing to do (its arguments have no
 * `-c`, `+cmd`, `-s`, `-e`), else when it still runs VIM_GRACE_MS after its warning. Output that
 * only quotes the warning (`grep`, `git log` in vim's or hey's sources) stops nothing. `opened`:
 * found after vim's pause, when it had opened its files (a swap file may be left). Linux reads
 * /proc; elsewhere ps(1).
 */
export function vimWatch(found: (opened: boolean) => void, graceMs = VIM_GRACE_MS): VimWatch {
  const decoder = new TextDecoder("latin1");
  let carry = "";
  let pgid: number | undefined;
  let said = false;
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const say = (opened: boolean) => {
    if (said) return;
    said = true;
    found(opened);
  };
  const look = () => {
    if (said || pgid === undefined) return;
    const vims = vimsOf(pgid);
    if (vims.length === 0) return; // the warning is text the command printed
    if (vims.some((v) => !v.given)) return say(false);
    const timer = setTimeout(() => {
      timers.delete(timer);
      const now = listProcesses();
      if (vims.some((v) => now.some((p) => p.pid === v.pid && p.start === v.start && p.running))) say(true);
    }, graceMs);
    timers.add(timer);
  };
  return {
    take(chunk) {
      if (said) return;
      const text = carry + decoder.decode(chunk);
      const rest = text.slice(text.lastIndexOf("\n") + 1);
      // a long line's end is kept behind a mark that is no line start: the warning is believed only at one
      carry = rest.length > CARRY ? `\0${rest.slice(-CARRY)}` : rest;
      if (VIM_NO_TERMINAL.test(text)) look();
    },
    started(group) {
      pgid = group;
    },
    stop() {
      for (const t of timers) clearTimeout(t);
      timers.clear();
    },
  };
}

/** The vims running in group `pgid`, each with whether it was given commands (GIVEN). */
function vimsOf(pgid: number): (Proc & { given: boolean })[] {
  return listProcesses()
    .filter((p) => p.pgid === pgid && p.running)
    .flatMap((p) => {
      const argv = argvOf(p.pid);
      const name = argv?.[0]?.slice(argv[0].lastIndexOf("/") + 1);
      if (!argv || name === undefined || !VI_PROCESS.test(name)) return [];
      return [{ ...p, given: name === "ex" || argv.slice(1).some((w) => GIVEN.test(w)) }];
    });
}

/** `pid`'s arguments (Linux: exact; elsewhere split at spaces, as ps(1) shows them). */
function argvOf(pid: number): string[] | undefined {
  if (process.platform !== "linux") return commandLine(pid)?.split(" ");
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0+$/, "").split("\0");
  } catch {
    return undefined;
  }
}
