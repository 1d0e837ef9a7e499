// bun run bench — the performance budgets of SPEC §22, measured in one run on this machine.
// Numbers, not pass/fail: timed assertions flake on shared machines; the closing notes carry them.
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { ensureBinary } from "../test/helpers/e2e.ts";
import { bigEdit, gcFigures, longSession, SEARCH_TASK, shortTask } from "./bench-memory.ts";
import { fromDisk } from "./bench-mock.ts";
import { hugePromptResume, resumeBench } from "./bench-resume.ts";
import { testPolicy } from "../test/helpers/settings.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const WARMUP = 5;
/** Each resume run reads a 120 MB file and each task run takes ~0.5 s: fewer runs suffice. */
const RESUME_RUNS = 10;
const TASK_RUNS = 3;
/** The 500-turn session takes ~10 s a run. */
const LONG_RUNS = 5;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};
const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const num = (n: number) => n.toLocaleString("en-US");
const fewer = (on: number, off: number) => `${((1 - on / off) * 100).toFixed(1)} % fewer`;

async function timeRun(cmd: string[], env: Record<string, string>): Promise<number> {
  const t0 = performance.now();
  const p = Bun.spawn(cmd, { env, stdout: "ignore", stderr: "ignore", stdin: "ignore" });
  await p.exited;
  return performance.now() - t0;
}

async function buildHello(dir: string): Promise<string> {
  const src = join(dir, "hello.ts");
  writeFileSync(src, 'console.log("hello");\n');
  const out = join(dir, "hello");
  const p = Bun.spawn([process.execPath, "build", "--compile", "--minify", src, "--outfile", out], { stdout: "ignore", stderr: "pipe" });
  if ((await p.exited) !== 0) throw new Error(await p.stderr.text());
  return out;
}

/** `hey --version` vs a compiled hello-world, interleaved so machine load hits both alike. */
async function startup(hey: string, hello: string, env: Record<string, string>) {
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < WARMUP; i++) await Promise.all([timeRun([hey, "--version"], env), timeRun([hello], env)]);
  for (let i = 0; i < RUNS; i++) {
    a.push(await timeRun([hey, "--version"], env));
    b.push(await timeRun([hello], env));
  }
  return { hey: median(a), hello: median(b) };
}

const SSE_ANSWER =
  'data: {"id":"b","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":"hi"},"finish_reason":null}]}\n\n' +
  'data: {"id":"b","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\n' +
  'data: {"id":"b","object":"chat.completion.chunk","created":1,"model":"m","choices":[],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}\n\n' +
  "data: [DONE]\n\n";

/** Process start → the first model request arriving at a local mock server; and that request's size. */
async function firstRequest(hey: string, env: Record<string, string>) {
  let arrived: (t: number, bytes: number) => void = () => {};
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      const t = performance.now();
      const body = await req.text();
      arrived(t, new TextEncoder().encode(body).length);
      return new Response(SSE_ANSWER, { headers: { "content-type": "text/event-stream" } });
    },
  });
  const times: number[] = [];
  let size = 0;
  const cmd = [hey, "--base-url", `http://127.0.0.1:${server.port}/v1`, "-m", "bench-model", "-p", "say hi"];
  try {
    for (let i = 0; i < WARMUP + RUNS; i++) {
      const got = new Promise<[number, number]>((resolve) => (arrived = (t, n) => resolve([t, n])));
      const t0 = performance.now();
      const p = Bun.spawn(cmd, { env, stdout: "ignore", stderr: "ignore", stdin: "ignore" });
      const [t, n] = await got;
      await p.exited;
      if (i >= WARMUP) times.push(t - t0);
      size = n;
    }
  } finally {
    server.stop(true);
  }
  return { median: median(times), size };
}

/**
 * The agent's own cost per turn at 200 messages of context: the loop, the context passes (dedup,
 * purge, handles, budget), history adaptation, the request body of the chat adapter and event
 * emission, with a provider and tools that take no time.
 */
async function turnOverhead() {
  const { runLoop } = await import("../src/kernel/loop.ts");
  const { toRequest } = await import("../src/providers/openai.ts");
  const { newId } = await import("../src/kernel/ir.ts");
  const { createTools } = await import("../src/builtin-tools.ts");
  const { defaultSettingsForTest } = await import("../test/helpers/settings.ts");
  const { chooseShell } = await import("../src/tools/shell.ts");
  const { prepare, newCompactionState } = await import("../src/context/compaction.ts");
  const state = newCompactionState();
  const policy = testPolicy({ budgetTokens: 1_000_000 });
  type Message = import("../src/kernel/ir.ts").Message;
  const settings = defaultSettingsForTest();
  const tools = createTools(settings, { shell: chooseShell({ platform: process.platform, findOnPath: () => "/bin/sh" }), raw: false });
  const history: Message[] = [{ id: newId(), role: "user", content: [{ type: "text", text: "fix the failing tests in src/" }] }];
  for (let i = 0; history.length < 200; i++) {
    const id = `call_${i}`;
    history.push({
      id: newId(),
      role: "assistant",
      content: [{ type: "text", text: "Checking the next file." }],
      toolCalls: [{ id, name: "echo", arguments: JSON.stringify({ path: `src/file${i}.ts` }) }],
    });
    history.push({ id: newId(), role: "tool", toolCallId: id, toolName: "echo", content: [{ type: "text", text: "x".repeat(1500) + "\n".repeat(40) }] });
  }
  const TURNS = 200;
  let served = 0;
  let bodyBytes = 0;
  const provider = {
    protocol: "openai" as const,
    model: "m",
    async *stream(request: import("../src/kernel/provider.ts").ModelRequest) {
      bodyBytes = JSON.stringify(toRequest(request, { model: "m" })).length;
      const last = ++served >= TURNS;
      const id = `call_x${served}`;
      const message: Message = last
        ? { id: newId(), role: "assistant", content: [{ type: "text", text: "done" }] }
        : { id: newId(), role: "assistant", content: [], toolCalls: [{ id, name: "echo", arguments: `{"path":"src/file${served}.ts"}` }] }; // a new file each turn: no repeated call (kernel/repeats.ts would stop the run at the 5th)
      yield { type: "text" as const, delta: "ok" };
      yield { type: "done" as const, message, usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, reasoning: 0 }, stop: "stop" as const };
    },
  };
  const echo = {
    name: "echo",
    description: "",
    parameters: {},
    run: async (args: Record<string, unknown>) => ({ output: `${args.path}\n${"y".repeat(1500)}` }),
  };
  const messages = [...history];
  const trimmed = () => messages.splice(1, messages.length - 200); // keep the context at ~200 messages
  const t0 = performance.now();
  const result = await runLoop(messages, {
    provider,
    output: { emit: () => trimmed() },
    context: async (history: Message[], signal: AbortSignal) => ({
      ...(await prepare(
        history,
        {
          state,
          policy,
          provider,
          output: { emit: () => {} },
          tools: [...tools, echo],
          system: () => "system prompt",
          taskNote: () => undefined,
          now: Date.now,
        },
        signal,
      )),
      tools: [...tools, echo],
    }),
    signal: new AbortController().signal,
    cwd: process.cwd(),
    limits: { maxTurns: TURNS + 5, parallelTools: true },
    retry: settings.retry,
    permission: () => undefined,
    effort: undefined,
    clock: { sleep: async () => {}, random: Math.random },
  });
  if (served < TURNS) throw new Error(`the loop bench ended after ${served} of ${TURNS} turns (${result.stop}): its per-turn figure would mean nothing`);
  return { perTurn: (performance.now() - t0) / TURNS, bodyBytes };
}

/** `path` less its directories that hold an `rg`: grep then runs the one inside hey. */
const withoutRipgrep = (path: string) =>
  path
    .split(delimiter)
    .filter((d) => !existsSync(join(d, "rg")))
    .join(delimiter);

const dir = realpathSync(mkdtempSync(join(tmpdir(), "hey-bench-")));
try {
  const home = join(dir, "home");
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, NO_COLOR: "1" };
  // the runs below that use tools: bash keeps full outputs under HOME/.cache/hey, and TMPDIR stays inside `dir` too
  mkdirSync(join(dir, "tmp"));
  const toolEnv = { ...env, TMPDIR: join(dir, "tmp") };
  const hey = await ensureBinary();
  const hello = await buildHello(dir);
  for (const binary of [hey, hello]) fromDisk(binary);
  console.log(`hey bench — ${RUNS} runs each (medians), ${new Date().toISOString()}`);
  const s = await startup(hey, hello, env);
  console.log(`startup   hey --version ${fmt(s.hey)}   hello-world ${fmt(s.hello)}   ratio ${(s.hey / s.hello).toFixed(2)}×   (targets ≤ 20 ms, ≤ 3×)`);
  const r = await firstRequest(hey, env);
  console.log(`request   start → first request byte ${fmt(r.median)}   (target ≤ 50 ms)`);
  console.log(`request   first request body for "say hi" (system prompt + 5 tools): ${r.size} B   (target ≤ 4500 B)`);
  const { mcpBench } = await import("./bench-mcp.ts");
  mkdirSync(join(dir, "mcp"));
  const mc = await mcpBench(hey, join(dir, "mcp"), env, { runs: RUNS, warmup: WARMUP });
  console.log(
    `mcp       start → first request, 3 servers with a warm cache: ${fmt(mc.on)} (${mc.tools.on} tools) vs --no-mcp ${fmt(mc.off)} (${mc.tools.off} tools): +${fmt(mc.on - mc.off)}   (target ≤ 10 ms)`,
  );
  const { idleCpu } = await import("./bench-idle.ts");
  const idle = await idleCpu();
  const own = await idleCpu({ BUN_GC_TIMER_DISABLE: "1" });
  console.log(
    `idle      REPL at an empty prompt: ${idle.cpuMs.toFixed(0)} ms of CPU in ${(idle.idleMs / 1000).toFixed(1)} s (Bun's 1 Hz GC timer); ${own.cpuMs.toFixed(0)} ms with it off   (target 0; a clock tick is 10 ms)`,
  );
  const o = await turnOverhead();
  console.log(
    `loop      agent overhead per turn at 200 messages: ${o.perTurn.toFixed(2)} ms (request body ${(o.bodyBytes / 1024).toFixed(0)} KB)   (target ≤ 5 ms)`,
  );

  mkdirSync(join(dir, "resume"));
  const rs = await resumeBench(hey, join(dir, "resume"), toolEnv, { runs: RESUME_RUNS, warmup: 1 });
  const describe = (r: (typeof rs.requests)[number]) =>
    r.summary
      ? `compaction summary ${kb(r.bytes)} (${r.messages} messages, a transcript of ${r.transcribed} session messages)`
      : `agent request ${kb(r.bytes)} (${r.messages} messages)`;
  console.log(
    `resume    hey -c on ${num(rs.count)} messages (${mb(rs.fileBytes)}): start → first request byte ${fmt(median(rs.firsts))}, → first agent request ${fmt(median(rs.chats))}   (${RESUME_RUNS} runs; target ≤ 300 ms)`,
  );
  console.log(
    `resume    first request ${kb(rs.requests[0]!.bytes)} (${rs.requests[0]!.summary ? "a compaction summary" : "the agent request"}); requests of one resume: ${rs.requests.map(describe).join("; then ")}`,
  );

  mkdirSync(join(dir, "huge"));
  const huge = await hugePromptResume(hey, join(dir, "huge"), toolEnv);
  console.log(`resume    hey -c on a session whose first prompt is one 200 MB line: ${fmt(huge.ms)}, peak RSS ${mb(huge.peakRss)}   (target: under 100 MB)`);

  mkdirSync(join(dir, "memory"));
  // the peak moves with when the collector runs (±10 MB run to run on a shared machine): the median of LONG_RUNS
  const longs = [];
  for (let i = 0; i < LONG_RUNS; i++) longs.push(await longSession(hey, join(dir, "memory", `long-${i}`), toolEnv));
  const long = longs.toSorted((a, b) => a.peakRss - b.peakRss)[LONG_RUNS >> 1]!;
  const how = long.fromProc ? "VmHWM" : "ru_maxrss, counts the bench's own RSS";
  const split = long.peakParts.rss > 0 ? `; at its largest sample ${mb(long.peakParts.anon)} anonymous, ${mb(long.peakParts.file)} of the binary's pages` : "";
  console.log(
    `memory    500-turn session: peak RSS ${mb(long.peakRss)} (${how}; median of ${LONG_RUNS} runs: ${longs.map((l) => (l.peakRss / 1e6).toFixed(0)).join(", ")} MB${split}), ${(long.ms / 1000).toFixed(1)} s, ${long.agentRequests} requests + ${long.summaries} summaries, largest request ${kb(long.maxBody)}   (target ≤ 150 MB)`,
  );
  // the same run with the collector's log: what is garbage not yet collected and what the session keeps
  const logged = await longSession(hey, join(dir, "memory", "long-gc"), { ...toolEnv, BUN_JSC_logGC: "1" });
  const gc = gcFigures(logged.stderr);
  console.log(
    gc
      ? `memory    500-turn session's JS heap: largest at a collection ${mb(gc.largest)}, left by a full one at most ${gc.keptAfterFull === undefined ? "n/a" : mb(gc.keptAfterFull)}; ${gc.collections} collections (${gc.full} full), ≥ ${mb(gc.allocated)} allocated (peak RSS of this run ${mb(logged.peakRss)})`
      : "memory    500-turn session's JS heap: the runtime logged no collections (BUN_JSC_logGC)",
  );
  const tasks = await shortTask(hey, join(dir, "memory"), toolEnv, TASK_RUNS);
  const rss = tasks.map((t) => t.peakRss);
  console.log(
    `memory    short task (read, run, edit, run, answer): peak RSS ${mb(median(rss))} (max ${mb(Math.max(...rss))}; ${TASK_RUNS} runs of ${fmt(median(tasks.map((t) => t.ms)))})   (target ≤ 60 MB)`,
  );
  // PATH without rg: the first run writes the embedded ripgrep to the cache, the others check it
  const searches = await shortTask(hey, join(dir, "memory"), { ...toolEnv, PATH: withoutRipgrep(toolEnv.PATH) }, TASK_RUNS, SEARCH_TASK);
  const searchRss = searches.map((t) => t.peakRss);
  console.log(
    `memory    search task (grep, edit, run, answer; ${Bun.which("rg", { PATH: withoutRipgrep(toolEnv.PATH) }) ? "rg on PATH" : "embedded ripgrep"}): peak RSS ${mb(median(searchRss))} (first run ${mb(searchRss[0]!)}; max ${mb(Math.max(...searchRss))})   (target ≤ 60 MB)`,
  );

  const { grepBench } = await import("./bench-grep.ts");
  mkdirSync(join(dir, "grep"));
  const g = await grepBench(join(dir, "grep"), TASK_RUNS);
  console.log(
    g
      ? `grep      a word on ${num(g.matches)} lines (4,000 files and a 40 MB dump), grep tool with ripgrep: ${fmt(g.grep)}; rg -n ${fmt(g.rgPrint)}, rg -c ${fmt(g.rgCount)}   (target ≤ rg -n)`
      : "grep      skipped: no ripgrep found (test/helpers/find-rg.ts)",
  );

  const big = await bigEdit(hey, join(dir, "memory"), toolEnv);
  console.log(
    `memory    edit of one line in a ${mb(big.bytes)} dump: peak RSS ${mb(big.edit)} (an answer alone ${mb(big.answer)}: ${((big.edit - big.answer) / big.bytes).toFixed(1)}× the file), ${fmt(big.ms)}   (target ≤ 3×; files over 64 MB are refused)`,
  );

  const { outputBench } = await import("./bench-output.ts");
  mkdirSync(join(dir, "output"));
  const out = await outputBench(hey, join(dir, "output"), toolEnv, TASK_RUNS);
  console.log(
    `bash      a 45 MB output (${out.command}, ${fmt(out.commandMs)} alone): step from the call to the next request ${fmt(out.step)}, hey's CPU for the run ${fmt(out.cpu)}   (target: step ≤ command + 500 ms)`,
  );

  const { faultsBench } = await import("./bench-faults.ts");
  for (const f of await faultsBench(hey, join(dir, "memory"), toolEnv))
    console.log(`faults    ${f.name}: peak RSS ${mb(f.peakRss)}, ${fmt(f.ms)}, exit ${f.code}${f.ok ? "" : " (UNEXPECTED)"}   (target ≤ 100 MB)`);

  const { economyBench } = await import("./bench-economy.ts");
  mkdirSync(join(dir, "economy"));
  const e = await economyBench(join(dir, "economy"));
  console.log(
    `tokens    ${e.turns}-request noisy session, Σ request tokens (chat body bytes / 4): on ${num(e.on.wire)}, off ${num(e.off.wire)}: ${fewer(e.on.wire, e.off.wire)}   (target ≥ 40 % fewer; task completed in all 4 runs)`,
  );
  console.log(
    `tokens    filter only ${fewer(e.filter.wire, e.off.wire)}, dedup + error purge only ${fewer(e.dcp.wire, e.off.wire)}; hey's own estimate on ${num(e.on.estimate)} vs off ${num(e.off.estimate)}: ${fewer(e.on.estimate, e.off.estimate)}; largest request on ${num(e.on.maxWire)}, off ${num(e.off.maxWire)}; ${e.on.summaries} summaries`,
  );

  const { cacheBench, cacheLines } = await import("./bench-cache.ts");
  mkdirSync(join(dir, "cache"));
  for (const line of cacheLines(await cacheBench(join(dir, "cache")))) console.log(line);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
