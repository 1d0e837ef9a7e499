// Requests a prompt cache can serve (issue 23), through dist/hey over OpenAI chat and Anthropic: a
// session with a re-read (dedup material) and a failed command (error-purge material) sends each
// request as the previous one plus its new tail, byte for byte — the same system prompt and tools,
// every earlier message unchanged — and Anthropic requests mark where the previous one ended.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Protocol } from "../../src/kernel/ir.ts";
import { runHey, tempDir } from "../helpers/e2e.ts";
import { textReply, toolCallsReply } from "../helpers/protocol-streams.ts";
import { startReplayServer, type ReplayServer } from "../helpers/replay-server.ts";

const STEPS: [string, unknown][] = [
  ["read_file", { path: "a.txt" }],
  ["bash", { command: "ls no-such-file" }],
  ["read_file", { path: "b.txt" }],
  ["read_file", { path: "a.txt" }], // the same call again: the first result becomes a duplicate
  ["bash", { command: "echo step five" }],
  ["read_file", { path: "c.txt" }],
  ["bash", { command: "echo step seven" }], // the failed ls is now old enough to lose its arguments
];

let work: ReturnType<typeof tempDir>;
let server: ReplayServer;
beforeEach(() => {
  work = tempDir("hey-cache-");
  // a.txt is small and b.txt large: pruning the first a.txt saves too little to pay for re-sending b.txt uncached
  for (const [name, lines] of [
    ["a", 3],
    ["b", 40],
    ["c", 20],
  ] as const)
    writeFileSync(join(work.path, `${name}.txt`), `${name}: ${"some words of a file ".repeat(40)}\n`.repeat(lines));
  server = startReplayServer();
});
afterEach(() => {
  server.stop();
  work.remove();
});

const strip = (v: unknown): unknown => (v === undefined ? v : JSON.parse(JSON.stringify(v, (k, x) => (k === "cache_control" ? undefined : x))));

for (const protocol of ["openai", "anthropic"] as const satisfies Protocol[]) {
  test(`${protocol}: every request is the previous one plus its new tail, byte for byte`, async () => {
    for (const [i, [name, args]] of STEPS.entries()) server.enqueue(toolCallsReply(protocol, [{ id: `call_${i}`, name, args }]));
    server.enqueue(textReply(protocol, "done"));
    const run = await runHey(["--base-url", `${server.url}/v1`, "--protocol", protocol, "-m", "m", "-p", "look at the files"], { cwd: work.path });
    expect(run.code).toBe(0);
    const bodies = server.requests.map((r) => r.body as { system?: unknown; tools: unknown; messages: unknown[] });
    expect(bodies).toHaveLength(STEPS.length + 1);
    for (let i = 1; i < bodies.length; i++) {
      const [before, now] = [bodies[i - 1]!, bodies[i]!];
      expect(JSON.stringify(now.tools)).toBe(JSON.stringify(before.tools));
      expect(JSON.stringify(strip(now.system))).toBe(JSON.stringify(strip(before.system)));
      const earlier = strip(before.messages) as unknown[];
      const repeated = (strip(now.messages) as unknown[]).slice(0, earlier.length);
      // Anthropic merges a turn's results into one user message, which the next request extends
      if (protocol === "anthropic") expect(JSON.stringify(repeated.slice(0, -1))).toBe(JSON.stringify(earlier.slice(0, -1)));
      else expect(JSON.stringify(repeated)).toBe(JSON.stringify(earlier));
    }
    const last = bodies.at(-1)!;
    expect(JSON.stringify(last.messages)).toContain("ls no-such-file"); // not purged: that would have cost a cache miss for little
    if (protocol === "anthropic") {
      expect(JSON.stringify(last.system)).toContain('"cache_control":{"type":"ephemeral"}');
      const marks = (last.messages as { content: unknown }[]).flatMap((m, i) => (JSON.stringify(m.content).includes("cache_control") ? [i] : []));
      expect(marks).toEqual([last.messages.length - 3, last.messages.length - 1]); // where the previous request ended, and the end
    }
  }, 60_000);
}
