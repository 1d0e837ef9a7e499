// Finding the processes a test started, by a unique marker in their command line (`sleep 123.456`),
// to check that hey killed them and to clean up any it did not.
import { found } from "./wait.ts";

/** Live (non-zombie) processes: pid, process group and command line. */
export function processes(): { pid: number; pgid: number; args: string }[] {
  const ps = Bun.spawnSync(["ps", "-eo", "pid=,pgid=,stat=,args="]).stdout.toString();
  return ps
    .split("\n")
    .map((l) => l.trim().match(/^(\d+)\s+(\d+)\s+(\S+)\s+(.*)$/))
    .filter((m): m is RegExpMatchArray => m !== null && !m[3]!.startsWith("Z"))
    .map((m) => ({ pid: Number(m[1]), pgid: Number(m[2]), args: m[4]! }));
}

/** A unique `sleep` duration, so a test finds only its own processes. */
export const marker = () => `${100 + Math.floor(Math.random() * 800)}.${Math.floor(Math.random() * 1e6)}`;
export const withMarker = (m: string) => processes().filter((p) => p.args.includes(m));

/** The process group of the first `sleep <m>` to appear. */
export async function waitForGroup(m: string, timeoutMs?: number): Promise<number> {
  return (await found(() => withMarker(m).find((p) => p.args.startsWith("sleep")), `a process with ${m}`, timeoutMs)).pgid;
}

/** SIGKILLs whatever still carries one of `markers`. */
export function killMarked(markers: string[]): void {
  for (const m of markers) for (const p of withMarker(m)) process.kill(p.pid, "SIGKILL");
}

/** Whether the process `pid` still exists (signal 0: nothing is sent). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
