// A process's line of Linux's /proc/PID/stat, as fields: the lock checks (file-lock.ts: its state,
// its start time) and the process tree (tools/process-tree.ts) read the same line the same way.
import { readFileSync } from "node:fs";

/**
 * The fields of /proc/`pid`/stat after the command's name (which may hold spaces and parentheses):
 * [0] is the state (field 3: `R`, `S`, `Z`…), [1] the parent's pid, [2] the process group, [19] the
 * start time in clock ticks since boot (field 22). Undefined where there is no /proc (macOS,
 * Windows) or the process is gone.
 */
export function procStat(pid: number | string): string[] | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "latin1");
  } catch {
    return undefined;
  }
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
}
