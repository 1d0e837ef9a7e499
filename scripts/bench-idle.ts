// SPEC §22 "zero CPU while idle at the prompt": the REPL in a real terminal (tmux on its own
// socket), the CPU time it uses over IDLE_MS at an empty prompt, read from /proc/PID/stat.
// hey schedules nothing at the prompt (no timer, no polling); what remains is Bun's own garbage
// collection timer, which wakes once a second to read /proc/self/statm (seen with strace). The
// second measurement turns that timer off (BUN_GC_TIMER_DISABLE=1) to show hey's own share.
import { readFileSync } from "node:fs";
import { startTerm } from "../test/helpers/tmux.ts";

const IDLE_MS = 10_000;

/** CPU time (user + system) of `pid` in ms. */
function cpuMs(pid: number, tick: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / tick; // utime, stime (fields 14 and 15)
}

/** CPU ms used over IDLE_MS at the prompt, and how long that was. Needs tmux and /proc. */
export async function idleCpu(env: Record<string, string> = {}): Promise<{ cpuMs: number; idleMs: number }> {
  const tick = Number((await Bun.spawn(["getconf", "CLK_TCK"], { stdout: "pipe" }).stdout.text()).trim()) || 100;
  const term = await startTerm({ args: ["--base-url", "http://127.0.0.1:9/v1", "-m", "idle"], env });
  try {
    await term.waitFor(/^›/m);
    const pid = await term.heyPid();
    await Bun.sleep(500); // start-up work (lazy modules, history) is over
    const before = cpuMs(pid, tick);
    const t0 = performance.now();
    await Bun.sleep(IDLE_MS);
    return { cpuMs: cpuMs(pid, tick) - before, idleMs: performance.now() - t0 };
  } finally {
    await term.close();
  }
}
