// A loopback OpenAI-compatible model server for the benchmarks that run dist/hey: each request
// body is parsed and handed to `answer`, which returns the SSE body of the reply (built with
// `textSse` / `toolCallSse`). Bodies are not kept, so a 500-turn run costs the bench little memory.
import { existsSync, readFileSync } from "node:fs";
import { chatChunk, sse } from "../test/helpers/sse.ts";
import { SUMMARY_ASK_START } from "../src/context/summary-cached.ts";

export interface ChatBody {
  messages: { role: string; content: unknown; tool_calls?: unknown[]; tool_call_id?: string }[];
  tools?: unknown[];
}

/** What `answer` learns about one request. */
export interface MockRequest {
  body: ChatBody;
  bytes: number;
  /** performance.now() when the request arrived, before its body was read */
  at: number;
  /** 0-based count of requests served so far by this server */
  index: number;
}

export interface MockServer {
  url: string;
  stop(): void;
}

export function startMock(answer: (req: MockRequest) => string): MockServer {
  let index = 0;
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    idleTimeout: 0,
    async fetch(req) {
      // hey asks the model list once a request follows an answer (the window it states): this one states none
      if (req.method === "GET") return Response.json({ object: "list", data: [] });
      const at = performance.now();
      const text = await req.text();
      const body = JSON.parse(text) as ChatBody;
      const reply = answer({ body, bytes: Buffer.byteLength(text), at, index: index++ });
      return new Response(reply, { headers: { "content-type": "text/event-stream" } });
    },
  });
  return { url: `http://127.0.0.1:${server.port}/v1`, stop: () => server.stop(true) };
}

/**
 * The usage chunk. hey corrects its token estimate with the reported prompt tokens, so a mock
 * that always reports a tiny count would shrink the estimate until nothing is ever compacted:
 * pass a realistic count (e.g. body bytes / 4).
 */
const usage = (promptTokens: number) => chatChunk({ usage: { prompt_tokens: promptTokens, completion_tokens: 10, total_tokens: promptTokens + 10 } });

export const textSse = (text: string, promptTokens = 100) => sse([chatChunk({ content: text }), chatChunk({ finish: "stop" }), usage(promptTokens)]);

/** One assistant turn calling `calls`, the arguments streamed in two pieces as real servers do. */
export function toolCallSse(calls: { id: string; name: string; args: unknown }[], promptTokens = 100): string {
  const chunks = calls.flatMap((c, index) => {
    const json = JSON.stringify(c.args);
    return [
      chatChunk({ toolCall: { index, id: c.id, name: c.name, arguments: "" } }),
      chatChunk({ toolCall: { index, arguments: json.slice(0, 7) } }),
      chatChunk({ toolCall: { index, arguments: json.slice(7) } }),
    ];
  });
  return sse([...chunks, chatChunk({ finish: "tool_calls" }), usage(promptTokens)]);
}

/**
 * A summary request (compaction): the transcript carries no tool schemas (the agent's own requests
 * always do); the one asked after the cached conversation ends with hey's ask (context/summary-cached.ts).
 */
export const isSummaryRequest = (body: ChatBody) =>
  !body.tools || body.tools.length === 0 || JSON.stringify(body.messages.at(-1)?.content ?? "").includes(SUMMARY_ASK_START);

/**
 * Writes `file` back and drops it from the page cache (Linux; elsewhere nothing happens), so a
 * binary the build has just written runs as one read back from disk does. A just-written file sits
 * in the cache in large pieces and a run maps whole pieces of it: the same dist/hey peaked 4.5 MB
 * higher in the short task right after `bun run build` (RssFile 45.9 MB against 41.3 MB) than once
 * dropped and read again (s52), which made the memory figures depend on when the build ran.
 */
export function fromDisk(file: string): void {
  if (process.platform !== "linux") return;
  Bun.spawnSync(["sync", file]);
  Bun.spawnSync(["dd", `if=${file}`, "iflag=nocache", "count=0", "status=none"]);
}

/**
 * Runs `cmd` with stdout and stderr drained and returns the exit code, the wall time and the peak
 * RSS in bytes: the highest VmHWM (the kernel's own high-water mark of the process) read from
 * /proc/PID/status every 10 ms while it runs, so only growth in its last ~10 ms can be missed.
 * Bun's `resourceUsage().maxRSS` is no use here: Bun spawns with a shared address space until
 * exec, so a child's ru_maxrss starts at the parent's RSS (a child of this bench reports ≥ the
 * bench's own peak). It is returned only for platforms without /proc, or after 5 runs all too short to sample.
 */
export async function runMeasured(cmd: string[], opts: { cwd: string; env: Record<string, string>; timeoutMs: number }) {
  // a run over before the first sample (a 14 ms refusal) would report the bench's own RSS: run it again
  for (let tries = 1; ; tries++) {
    const run = await measuredOnce(cmd, opts);
    if (run.fromProc || tries === 5 || !existsSync("/proc/self/status")) return run;
  }
}

async function measuredOnce(cmd: string[], opts: { cwd: string; env: Record<string, string>; timeoutMs: number }) {
  const t0 = performance.now();
  const proc = Bun.spawn(cmd, {
    cwd: opts.cwd,
    env: opts.env,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
    timeout: opts.timeoutMs,
    killSignal: "SIGKILL",
  });
  let hwm = 0;
  /** the largest RSS sampled and its parts: anonymous (heap, allocator, JIT) and file-backed (the binary's pages) */
  let parts = { rss: 0, anon: 0, file: 0 };
  const status = `/proc/${proc.pid}/status`;
  const sample = () => {
    try {
      const text = readFileSync(status, "latin1");
      const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(text)?.[1] ?? 0) * 1024;
      hwm = Math.max(hwm, kb("VmHWM"));
      if (kb("VmRSS") > parts.rss) parts = { rss: kb("VmRSS"), anon: kb("RssAnon"), file: kb("RssFile") };
    } catch {} // gone, or not Linux
  };
  const sampler = setInterval(sample, 10);
  const [stdout, stderr, code] = await Promise.all([proc.stdout.text(), proc.stderr.text(), proc.exited]);
  const ms = performance.now() - t0;
  clearInterval(sampler);
  return { code, ms, stdout, stderr, peakRss: hwm > 0 ? hwm : (proc.resourceUsage()?.maxRSS ?? 0), fromProc: hwm > 0, peakParts: parts };
}
