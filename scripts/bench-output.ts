// What a bash call printing 45 MB (`seq 1 6000000`) costs hey itself, on dist/hey against a local
// mock: the step from the tool call's answer to the next request, less the command's own time, and
// hey's CPU for the whole run. The filter reads every line and the full output is saved (secrets hidden).
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { startMock, textSse, toolCallSse } from "./bench-mock.ts";

const COMMAND = "seq 1 6000000";

export async function outputBench(hey: string, dir: string, env: Record<string, string>, runs: number) {
  const steps: number[] = [];
  const cpus: number[] = [];
  for (let i = 0; i < runs; i++) {
    const work = join(dir, `output-${i}`);
    mkdirSync(work, { recursive: true });
    const at: number[] = [];
    const server = startMock((req) => {
      at.push(req.at);
      return req.index === 0 ? toolCallSse([{ id: "b1", name: "bash", args: { command: COMMAND } }]) : textSse("done");
    });
    try {
      const proc = Bun.spawn([hey, "--base-url", server.url, "-m", "m", "-p", "count"], {
        cwd: work,
        env: { ...env, XDG_STATE_HOME: join(work, "state"), XDG_CACHE_HOME: join(work, "cache") },
        stdin: "ignore",
        stdout: "ignore",
        stderr: "ignore",
      });
      if ((await proc.exited) !== 0 || at.length !== 2) throw new Error(`output bench: exit ${proc.exitCode}, ${at.length} requests`);
      steps.push(at[1]! - at[0]!);
      const cpu = proc.resourceUsage()?.cpuTime;
      if (cpu) cpus.push(Number(cpu.user + cpu.system) / 1000);
    } finally {
      server.stop();
    }
  }
  const t0 = performance.now();
  await Bun.spawn(["sh", "-c", `${COMMAND} > /dev/null`]).exited;
  return { command: COMMAND, step: median(steps), commandMs: performance.now() - t0, cpu: median(cpus) };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? 0;
