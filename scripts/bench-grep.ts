// README: a search of a big repository takes about as long as ripgrep itself, a common word too.
// A generated tree (4,000 source files with 25 matching lines each and a 40 MB dump in which every
// line matches: 1.1M matching lines) searched for that word by the grep tool with ripgrep, against
// ripgrep printing every match (`rg -n`) and counting them (`rg -c`), interleaved so machine load
// hits all alike.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createGrepTool } from "../src/tools/grep.ts";
import { callTool } from "../test/helpers/call-tool.ts";
import { findRg } from "../test/helpers/find-rg.ts";

const FILES = 4000;
const DUMP_ROWS = 600_000;

/** `dir` is an empty scratch directory. Undefined when no ripgrep is found (test/helpers/find-rg.ts). */
export async function grepBench(dir: string, runs: number) {
  const rg = await findRg();
  if (!rg) return undefined;
  const body = Array.from({ length: 50 }, (_, i) => (i % 2 ? `export function handler${i}(x: number) { return x + ${i}; }` : `const v${i} = ${i};`)).join("\n");
  for (let i = 0; i < FILES; i++) {
    const sub = join(dir, `packages/pkg${i % 40}/src`);
    mkdirSync(sub, { recursive: true });
    writeFileSync(join(sub, `file${i}.ts`), `${body}\n`);
  }
  mkdirSync(join(dir, "data"));
  writeFileSync(
    join(dir, "data/dump.sql"),
    `${Array.from({ length: DUMP_ROWS }, (_, i) => `INSERT INTO t VALUES (${i}, "row ${i} handler", 0.5);`).join("\n")}\n`,
  );
  const tool = createGrepTool({ rg });
  const ctx = { cwd: dir, signal: new AbortController().signal };
  const shell = (args: string) => async () => {
    const p = Bun.spawn([rg, "--no-config", "--hidden", "--binary", "--null", "--with-filename", ...args.split(" "), "handler"], { cwd: dir, stdout: "pipe" });
    await new Response(p.stdout).arrayBuffer();
    await p.exited;
  };
  const ways: Record<"grep" | "rgPrint" | "rgCount", () => Promise<unknown>> = {
    grep: () => callTool(tool, { pattern: "handler" }, ctx),
    rgPrint: shell("-n"),
    rgCount: shell("-c"),
  };
  const times = { grep: [] as number[], rgPrint: [] as number[], rgCount: [] as number[] };
  for (let i = 0; i < runs + 1; i++)
    for (const [name, run] of Object.entries(ways) as [keyof typeof ways, () => Promise<unknown>][]) {
      const t0 = performance.now();
      await run();
      if (i > 0) times[name].push(performance.now() - t0); // the first round warms the page cache
    }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
  return { grep: median(times.grep), rgPrint: median(times.rgPrint), rgCount: median(times.rgCount), matches: FILES * 25 + DUMP_ROWS };
}
