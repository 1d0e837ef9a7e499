// Issue 13 rows 1, 3 and 16: peak memory (VmHWM) and wall time of dist/hey fed hostile input —
// `< /dev/zero`, 40 MB on stdin, a 1 GB @file, @/dev/zero, a FIFO, and 50 MB of bash output —
// against a local mock model server. Target: every peak under 100 MB.
import { closeSync, mkdirSync, openSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { runMeasured, startMock, textSse, toolCallSse } from "./bench-mock.ts";

export interface FaultRun {
  name: string;
  code: number;
  ms: number;
  peakRss: number;
  /** what the run should have done, and whether it did */
  ok: boolean;
}

export async function faultsBench(hey: string, dir: string, env: Record<string, string>): Promise<FaultRun[]> {
  const work = join(dir, "faults");
  mkdirSync(work, { recursive: true });
  const text40 = join(work, "forty.txt");
  writeFileSync(text40, "log line with some words in it, number 0000000\n".repeat((40 << 20) / 48));
  const big = join(work, "big.log");
  const fd = openSync(big, "w");
  writeSync(fd, "first line of the log\n".repeat(20_000));
  closeSync(fd);
  Bun.spawnSync(["truncate", "-s", "1G", big]);
  Bun.spawnSync(["mkfifo", join(work, "fifo")]);

  let bashTurn = false;
  const server = startMock(({ body }) => {
    const last = body.messages.at(-1)!;
    if (bashTurn && last.role !== "tool") {
      const command = 'awk \'BEGIN{for(i=1;i<=2300000;i++){ if(i==1150000) print "error: the middle broke"; else print "compiling unit " i } }\'';
      return toolCallSse([{ id: "call_1", name: "bash", args: { command } }]);
    }
    return textSse("ok");
  });
  const base = [hey, "--base-url", server.url, "-m", "m", "-p"];
  const sh = (args: string[], redirect: string) => ["sh", "-c", `exec ${args.map((a) => `'${a}'`).join(" ")} ${redirect}`];
  const cases: [name: string, cmd: string[], expect: number][] = [
    ["hey -p hi < /dev/zero", sh([...base, "hi"], "< /dev/zero"), 2],
    ["40 MB text on stdin", sh([...base, "summarize"], `< '${text40}'`), 0],
    ["@big.log (1 GB)", [...base, "what is in @big.log"], 0],
    ["@/dev/zero", [...base, "@/dev/zero"], 2],
    ["@fifo", [...base, "look at @fifo"], 2],
    ["bash: 50 MB of output", [...base, "build it"], 0],
  ];
  const runs: FaultRun[] = [];
  try {
    for (const [name, cmd, expected] of cases) {
      bashTurn = name.startsWith("bash");
      const run = await runMeasured(cmd, { cwd: work, env, timeoutMs: 120_000 });
      runs.push({ name, code: run.code, ms: run.ms, peakRss: run.peakRss, ok: run.code === expected });
    }
  } finally {
    server.stop();
  }
  return runs;
}
