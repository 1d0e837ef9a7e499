// Whether a command's process group is held (Ctrl-Z; src/tools/run-process.ts holdCommands), read
// from /proc. Stopped is not always state `T`: dash starts a program with vfork(), and a SIGSTOP
// that reaches the child before its exec leaves the shell in `D` (the kernel holds a vfork parent
// until its child execs, and a stopped child never does) for as long as the group is stopped. Such
// a shell runs no more of the command than a stopped one; a test that waited for it to show `T`
// waited for ever: 20 s timeouts in 2 of ~8 full CI runs, and in 6 of 100 runs of held-commands.test.ts
// (`--rerun-each 100`, the machine loaded), every one a shell in `D` over a child in `T`.
import { readdirSync, readFileSync } from "node:fs";
import { procStat } from "../../src/fs/proc-stat.ts";

/** A live (non-zombie) process of a group: its state letter as /proc shows it, and whether it is the group's guard. */
export interface Member {
  pid: number;
  ppid: number;
  state: string;
  guard: boolean;
}

/**
 * Whether every process of the group but its guard is stopped: in `T`, or in `D` with a child in
 * `T` (a vfork parent whose child stopped before its exec). False for a group with none but a guard.
 */
export function held(members: Member[]): boolean {
  const stopped = (p: Member) => p.state === "T";
  const command = members.filter((p) => !p.guard);
  return command.length > 0 && command.every((p) => stopped(p) || (p.state === "D" && members.some((c) => c.ppid === p.pid && stopped(c))));
}

/** The live processes of group `pgid` (zombies left out: they have ended); [] once it has ended. */
export function groupMembers(pgid: number): Member[] {
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .flatMap((name) => {
      const stat = procStat(name);
      if (!stat || Number(stat[2]) !== pgid || /^[ZX]/.test(stat[0]!)) return [];
      return [{ pid: Number(name), ppid: Number(stat[1]), state: stat[0]!, guard: commandLine(name).endsWith(" hey-guard") }];
    });
}

const commandLine = (pid: string) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0+$/, "").replaceAll("\0", " ");
  } catch {
    return ""; // gone meanwhile
  }
};

/** The group as one line for a failure message: `PID STATE [guard]; …`. */
export const shown = (members: Member[]) => members.map((p) => `${p.pid} ${p.state}${p.guard ? " guard" : ""} (parent ${p.ppid})`).join("; ");
