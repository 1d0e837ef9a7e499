// What the features that add to a request do to the prompt cache (issue 23): dist/hey runs short
// scripted sessions against a loopback mock that records every request body, and the providers'
// caches are emulated from those bodies (cache-emulator.ts). Each scenario prints, per request,
// the share of its tokens read from the cache — what the user pays a tenth for — under
// OpenAI-style automatic caching (chat bodies) or Anthropic's cache_control (Messages bodies).
// Scenarios: a plain tool loop (the reference), MCP servers still starting (the request note,
// then their tools joining), an effort level refused and replaced (a notice), a paused Anthropic
// turn continued, a refused answer then `hey -c`. A scenario that keeps the prefix shows the tool
// loop's shares (a continuation or a resumed request near 100 %); tools joining the list are a
// miss of the whole prefix (tools come first), once. `npx bun scripts/bench-prefix.ts` prints them.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Protocol } from "../src/kernel/ir.ts";
import { runHey } from "../test/helpers/e2e.ts";
import { BUN, FAKE_SERVER } from "../test/helpers/mcp.ts";
import { baseUrlFor, textReply, toolCallsReply } from "../test/helpers/protocol-streams.ts";
import { jsonReply, sseReply, startReplayServer, type Reply } from "../test/helpers/replay-server.ts";
import { anthropicBlocks, anthropicCache, openaiCache, openaiPrompt, type CacheCount } from "./cache-emulator.ts";

type Wire = "openai" | "anthropic";
const event = (type: string, data: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;

/** An Anthropic response that stops with pause_turn after a server tool (as test/e2e/anthropic-pause.test.ts makes it). */
const pausedReply = (n: number): Reply =>
  sseReply(
    [
      event("message_start", {
        message: {
          id: `msg_p${n}`,
          type: "message",
          role: "assistant",
          model: "m",
          content: [],
          stop_reason: null,
          usage: { input_tokens: 100, output_tokens: 1 },
        },
      }),
      event("content_block_start", { index: 0, content_block: { type: "text", text: "" } }),
      event("content_block_delta", { index: 0, delta: { type: "text_delta", text: `Searching ${n}. ` } }),
      event("content_block_stop", { index: 0 }),
      event("content_block_start", { index: 1, content_block: { type: "server_tool_use", id: `srvtoolu_${n}`, name: "web_search", input: {} } }),
      event("content_block_delta", { index: 1, delta: { type: "input_json_delta", partial_json: `{"query": "release ${n}"}` } }),
      event("content_block_stop", { index: 1 }),
      event("message_delta", { delta: { stop_reason: "pause_turn", stop_sequence: null }, usage: { output_tokens: 20 } }),
      event("message_stop", {}),
    ].join(""),
  );

/** An Anthropic refusal after some text (as test/e2e/refused-turn.test.ts makes it). */
const refusedReply = (): Reply =>
  sseReply(
    [
      event("message_start", {
        message: { id: "msg_r", type: "message", role: "assistant", model: "m", content: [], stop_reason: null, usage: { input_tokens: 9, output_tokens: 1 } },
      }),
      event("content_block_start", { index: 0, content_block: { type: "text", text: "" } }),
      event("content_block_delta", { index: 0, delta: { type: "text_delta", text: "Here is how to get into" } }),
      event("content_block_stop", { index: 0 }),
      event("message_delta", {
        delta: { stop_reason: "refusal", stop_details: { type: "refusal", category: "cyber", explanation: "declined" } },
        usage: { output_tokens: 3 },
      }),
      event("message_stop", {}),
    ].join(""),
  );

const EFFORT_REFUSAL = "output_config.effort 'xhigh' is not supported when thinking is disabled on this model. Use effort 'high' or below, or enable thinking.";

const read = (p: Wire, n: number) => toolCallsReply(p, [{ id: `call_${n}`, name: "read_file", args: { path: `f${n}.txt` } }]);

interface Scenario {
  name: string;
  wires: Wire[];
  /** runs of hey, in order, each with its replies; later runs pass `-c` unless `fresh` */
  runs: (p: Wire) => { args?: string[]; replies: Reply[]; fresh?: boolean }[];
  config?: string;
}

const SCENARIOS: Scenario[] = [
  { name: "tool loop", wires: ["openai", "anthropic"], runs: (p) => [{ replies: [read(p, 1), read(p, 2), read(p, 3), textReply(p, "done")] }] },
  {
    name: "MCP starting",
    wires: ["openai", "anthropic"],
    // the server lists its tools 1.5 s after it starts; a 2 s bash call lets it join mid-run
    config: `[mcp]\nstartup_wait_ms = 0\n\n[mcp.slow]\ncommand = ${JSON.stringify(BUN)}\nargs = ${JSON.stringify([FAKE_SERVER, "slow-start", "1500"])}\n`,
    runs: (p) => [
      {
        replies: [
          read(p, 1),
          toolCallsReply(p, [{ id: "call_s", name: "bash", args: { command: "sleep 2.5" } }]),
          read(p, 2),
          read(p, 3),
          textReply(p, "done"),
        ],
      },
    ],
  },
  {
    // the same twice: the second run offers the server's tools from its cached list at once
    name: "MCP cached list",
    wires: ["openai", "anthropic"],
    config: `[mcp]\nstartup_wait_ms = 0\n\n[mcp.slow]\ncommand = ${JSON.stringify(BUN)}\nargs = ${JSON.stringify([FAKE_SERVER, "slow-start", "1500"])}\n`,
    runs: (p) =>
      [
        [1, 2, 3],
        [3, 1, 2], // no file read twice in one run: dedup would rewrite the prefix for reasons of its own
      ].map(([a, b, c]) => ({
        fresh: true,
        replies: [
          read(p, a!),
          toolCallsReply(p, [{ id: "call_s", name: "bash", args: { command: "sleep 2.5" } }]),
          read(p, b!),
          read(p, c!),
          textReply(p, "done"),
        ],
      })),
  },
  {
    name: "effort refused",
    wires: ["anthropic"],
    runs: (p) => [
      {
        args: ["--effort", "xhigh"],
        replies: [
          jsonReply(400, { type: "error", error: { type: "invalid_request_error", message: EFFORT_REFUSAL } }),
          read(p, 1),
          read(p, 2),
          read(p, 3),
          textReply(p, "done"),
        ],
      },
    ],
  },
  { name: "pause_turn", wires: ["anthropic"], runs: (p) => [{ replies: [read(p, 1), pausedReply(1), read(p, 2), read(p, 3), textReply(p, "done")] }] },
  {
    name: "refused, -c",
    wires: ["anthropic"],
    runs: (p) => [{ replies: [read(p, 1), read(p, 2), refusedReply()] }, { replies: [read(p, 3), textReply(p, "done")] }],
  },
];

/** Per request: tokens sent and the share read from the emulated cache. */
function shares(wire: Wire, bodies: unknown[]): CacheCount[] {
  if (wire === "openai") return openaiCache(bodies.map((b) => openaiPrompt(b as { tools?: unknown; messages: unknown[] })));
  return anthropicCache(bodies.map((b) => anthropicBlocks(b as Parameters<typeof anthropicBlocks>[0])));
}

export async function prefixBench(): Promise<string[]> {
  const lines: string[] = [];
  for (const s of SCENARIOS)
    for (const wire of s.wires) {
      const server = startReplayServer();
      const dir = realpathSync(mkdtempSync(join(tmpdir(), "hey-bench-prefix-")));
      try {
        const home = join(dir, "home");
        const work = join(dir, "work");
        mkdirSync(home);
        mkdirSync(work);
        for (let n = 1; n <= 3; n++)
          writeFileSync(join(work, `f${n}.txt`), `${Array.from({ length: 120 }, (_, i) => `line ${i} of file ${n}: some text to read`).join("\n")}\n`);
        const protocol: Protocol = wire;
        const provider = `[default]\nprovider = "mock"\nmodel = "m"\n\n[provider.mock]\nprotocol = "${protocol}"\nbase_url = "${baseUrlFor(protocol, server.url)}"\nmodels = ["m"]\n`;
        mkdirSync(join(home, ".config", "hey"), { recursive: true });
        writeFileSync(join(home, ".config", "hey", "config.toml"), `${provider}\n${s.config ?? ""}`);
        const statuses: number[] = [];
        for (const [i, run] of s.runs(wire).entries()) {
          server.enqueue(...run.replies);
          statuses.push(...run.replies.map((r) => r.status));
          const args = [...(i > 0 && !run.fresh ? ["-c"] : []), ...(run.args ?? []), "-p", i > 0 ? "go on" : "read the three files"];
          const r = await runHey(args, { cwd: work, env: { HOME: home }, timeoutMs: 60_000 });
          if (r.code !== 0 && !(s.name.startsWith("refused") && i === 0)) throw new Error(`${s.name} (${wire}) run ${i + 1}: exit ${r.code}: ${r.stderr}`);
        }
        // a request refused with a 400 is neither billed nor cached: left out
        const bodies = server.requests.filter((r) => r.method === "POST").flatMap((r, i) => (statuses[i] === 200 ? [r.body] : []));
        const counts = shares(wire, bodies);
        const pct = counts.map((c) => `${Math.round((c.read / c.sent) * 100)}%`.padStart(4)).join(" ");
        const sent = counts.reduce((a, c) => a + c.sent, 0);
        const read = counts.reduce((a, c) => a + c.read, 0);
        lines.push(
          `prefix    ${s.name.padEnd(15)} ${wire.padEnd(9)} ${counts.length} requests, cached per request: ${pct}; overall ${((read / sent) * 100).toFixed(1)} %`,
        );
      } finally {
        server.stop();
        rmSync(dir, { recursive: true, force: true });
      }
    }
  return lines;
}

if (import.meta.main) for (const l of await prefixBench()) console.log(l);
