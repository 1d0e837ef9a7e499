// Issue 23: what the economy session (bench-economy.ts: reads, re-reads, failing calls, noisy test
// runs and builds) costs where users pay, with the providers' prompt caches emulated from the
// request bodies (cache-emulator.ts). The same script runs raw (filter and DCP off), with DCP off
// (filter and budget on) and with hey's defaults; each request is rendered as the OpenAI chat and
// the Anthropic adapters send it. Then a long session hovering at the budget (long-session.ts):
// how often its request prefix is rewritten, with summaries answered and with summaries failing.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { ModelRequest } from "../src/kernel/provider.ts";
import { toRequest as anthropicRequest } from "../src/providers/anthropic.ts";
import { toRequest as openaiRequest } from "../src/providers/openai.ts";
import { session, type Mechanisms } from "./bench-economy.ts";
import { anthropicBlocks, anthropicCache, billed, openaiCache, openaiPrompt, total, type Block, type CacheCount } from "./cache-emulator.ts";
import { longSessionLines, longSessions } from "./long-session.ts";

export interface CacheRun {
  requests: number;
  summaries: number;
  /** Σ chat body bytes */
  bytes: number;
  openai: CacheCount;
  anthropic: CacheCount;
}

/** The session twice: to an OpenAI-compatible provider (chat bodies) and to an Anthropic one (Messages bodies), each deciding with its own cache prices. */
async function run(dir: string, m: Mechanisms): Promise<CacheRun> {
  const prompts: string[] = [];
  const blocks: Block[][] = [];
  let bytes = 0;
  mkdirSync(dir);
  mkdirSync(join(dir, "openai"));
  const count = await session(join(dir, "openai"), m, (request: ModelRequest) => {
    const chat = openaiRequest(request, { model: "m" });
    bytes += Buffer.byteLength(JSON.stringify(chat));
    prompts.push(openaiPrompt(chat as { tools?: unknown; messages: unknown[] }));
  });
  mkdirSync(join(dir, "anthropic"));
  const seen = (request: ModelRequest) => blocks.push(anthropicBlocks(anthropicRequest(request, { model: "m" }) as Parameters<typeof anthropicBlocks>[0]));
  await session(join(dir, "anthropic"), m, seen, "anthropic");
  return { requests: count.requests, summaries: count.summaries, bytes, openai: total(openaiCache(prompts)), anthropic: total(anthropicCache(blocks)) };
}

/** The three runs; TMPDIR points into `dir` meanwhile (bash keeps full outputs there). */
export async function cacheBench(dir: string) {
  const saved = process.env.TMPDIR;
  process.env.TMPDIR = join(dir, "tmp");
  mkdirSync(process.env.TMPDIR, { recursive: true });
  const off = { filter: false, dedup: false, purge: false, compress: false, budget: false };
  try {
    const raw = await run(join(dir, "raw"), off);
    const noDcp = await run(join(dir, "no-dcp"), { ...off, filter: true, budget: true });
    const defaults = await run(join(dir, "defaults"), { filter: true, dedup: true, purge: true, compress: true, budget: true });
    return { raw, noDcp, defaults, long: await longSessions() };
  } finally {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
  }
}

const pct = (part: number, whole: number) => `${((part / whole) * 100).toFixed(1)} %`;
const num = (n: number) => Math.round(n).toLocaleString("en-US");

/** The lines `bun run bench` prints. */
export function cacheLines(r: Awaited<ReturnType<typeof cacheBench>>): string[] {
  const line = (name: string, c: CacheRun) =>
    `cache     ${name.padEnd(9)} ${c.requests} requests (${c.summaries} summaries), ${num(c.bytes / 1024)} KB sent; ` +
    `OpenAI-style cached ${pct(c.openai.read, c.openai.sent)}, billed ${num(billed(c.openai))}; ` +
    `Anthropic cached ${pct(c.anthropic.read, c.anthropic.sent)}, written ${pct(c.anthropic.write, c.anthropic.sent)}, billed ${num(billed(c.anthropic))}`;
  return [
    line("defaults", r.defaults),
    line("DCP off", r.noDcp),
    line("raw", r.raw),
    `cache     defaults vs DCP off, billed: OpenAI-style ${(billed(r.defaults.openai) / billed(r.noDcp.openai)).toFixed(2)}×, Anthropic ${(billed(r.defaults.anthropic) / billed(r.noDcp.anthropic)).toFixed(2)}× ` +
      `(target ≤ 1); bytes vs raw ${(r.defaults.bytes / r.raw.bytes).toFixed(2)}× (target ≤ 0.6); cached share targets ≥ 80 %`,
    ...longSessionLines(r.long),
  ];
}

if (import.meta.main) {
  const { mkdtempSync, realpathSync, rmSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "hey-bench-cache-")));
  try {
    for (const l of cacheLines(await cacheBench(dir))) console.log(l);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
