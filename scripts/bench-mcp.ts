// SPEC §14/§22, issue 12: MCP must not slow the first request. Process start → the first request
// at a local mock server, for a config with three stdio servers whose tool lists are cached (a
// warm-up run fills the cache), against the same config with --no-mcp; runs interleaved so
// machine load hits both alike. Also run alone: `bun scripts/bench-mcp.ts`.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureBinary, ROOT } from "../test/helpers/e2e.ts";
import { startMock, textSse } from "./bench-mock.ts";

const SERVERS = 3;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

/** Medians of start → first request byte with three cached servers and with --no-mcp, and how many tools the first request offered. */
export async function mcpBench(hey: string, dir: string, env: Record<string, string>, opts: { runs: number; warmup: number }) {
  const home = join(dir, "home");
  mkdirSync(join(home, ".config", "hey"), { recursive: true });
  let t0 = 0;
  let arrived: (ms: number, tools: number) => void = () => {};
  const mock = startMock((req) => {
    arrived(req.at - t0, req.body.tools?.length ?? 0);
    return textSse("hi");
  });
  const bun = join(ROOT, "node_modules", ".bin", "bun");
  const fake = join(ROOT, "test", "fixtures", "mcp", "fake-server.ts");
  let config = `[default]\nprovider = "mock"\nmodel = "m"\n[provider.mock]\nbase_url = "${mock.url}"\nmodels = ["m"]\n`;
  for (let i = 1; i <= SERVERS; i++)
    config += `[mcp.s${i}]\ncommand = ${JSON.stringify(bun)}\nargs = ${JSON.stringify([fake, "ok", `s${i}`, `tool${i}a,tool${i}b`])}\n`;
  writeFileSync(join(home, ".config", "hey", "config.toml"), config);
  const runEnv = { ...env, HOME: home };
  const once = async (extra: string[]) => {
    const got = new Promise<[number, number]>((resolve) => (arrived = (ms, tools) => resolve([ms, tools])));
    t0 = performance.now();
    const p = Bun.spawn([hey, ...extra, "-p", "say hi"], { cwd: home, env: runEnv, stdout: "ignore", stderr: "ignore", stdin: "ignore" });
    const [ms, tools] = await got;
    await p.exited;
    return { ms, tools };
  };
  try {
    await once([]); // fills the cache
    const on: number[] = [];
    const off: number[] = [];
    let tools = { on: 0, off: 0 };
    for (let i = 0; i < opts.warmup + opts.runs; i++) {
      const a = await once([]);
      const b = await once(["--no-mcp"]);
      tools = { on: a.tools, off: b.tools };
      if (i < opts.warmup) continue;
      on.push(a.ms);
      off.push(b.ms);
    }
    return { on: median(on), off: median(off), tools };
  } finally {
    mock.stop();
  }
}

if (import.meta.main) {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "hey-bench-mcp-")));
  try {
    const runs = Number(process.env.BENCH_RUNS ?? 30);
    const r = await mcpBench(await ensureBinary(), dir, { PATH: process.env.PATH ?? "/usr/bin:/bin", NO_COLOR: "1" }, { runs, warmup: 5 });
    console.log(
      `mcp       start → first request, ${SERVERS} servers with a warm cache: ${r.on.toFixed(1)} ms (${r.tools.on} tools) vs --no-mcp ${r.off.toFixed(1)} ms (${r.tools.off} tools): +${(r.on - r.off).toFixed(1)} ms   (target ≤ 10 ms; ${runs} runs each, medians)`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
