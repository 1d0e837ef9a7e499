// `hey -p` at a terminal streams the answer while MCP servers still connect in the background
// (their tools cached or not): a server's `connected: …` line that comes mid-answer waits until
// the answer's text ends, so it neither breaks the answer's line nor ends its markdown mid-block
// (before: the code fence was closed at the notice, and the rest of the answer came out as a new,
// unclosed code block).
import { afterEach, beforeEach, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers/e2e.ts";
import { BUN, FAKE_SERVER } from "../helpers/mcp.ts";
import { sseReply, startReplayServer, type ReplayServer } from "../helpers/replay-server.ts";
import { chatChunk, sseEvents } from "../helpers/sse.ts";
import { startTerm, type Term } from "../helpers/tmux.ts";
import { until } from "../helpers/wait.ts";

const E2E_TIMEOUT = 120_000;
let home: ReturnType<typeof tempDir>;
let server: ReplayServer;
let term: Term | undefined;
beforeEach(() => {
  home = tempDir("hey-print-notices-");
  server = startReplayServer();
});
afterEach(async () => {
  await term?.close();
  server.stop();
  home.remove();
});

test(
  "a server that connects while a -p answer streams is said after the answer, which stays whole: its code block closed, its last line not code",
  async () => {
    const gate = join(home.path, "gate");
    mkdirSync(gate);
    mkdirSync(join(home.path, ".config", "hey"), { recursive: true });
    // startup_wait_ms = 0: the request goes at once, without the server, which connects mid-answer
    writeFileSync(
      join(home.path, ".config", "hey", "config.toml"),
      `[mcp]\nstartup_wait_ms = 0\n\n[mcp.gate]\ncommand = ${JSON.stringify(BUN)}\nargs = [${JSON.stringify(FAKE_SERVER)}, "gated", ${JSON.stringify(gate)}]\n`,
    );
    const usage = chatChunk({ usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } });
    const first = chatChunk({ content: "Here it is:\n\n```ts\nconst x = 1;\n" });
    const rest = [chatChunk({ content: "```\n\nThat sets **x**.\n" }), chatChunk({ finish: "stop" }), usage];
    // the server lists its tools (and hey says it connected) after the answer's first half is shown, before its
    // second: hey has taken the list once its tool cache holds it (on a loaded machine either could come first)
    const cache = join(home.path, ".cache", "hey", "mcp");
    const connected = async () => {
      await term!.waitFor("const x = 1;"); // the answer is on the screen: a notice now comes mid-answer
      writeFileSync(join(gate, "open"), "");
      await until(() => existsSync(join(gate, "listed")), "the MCP server to list its tools");
      await until(() => existsSync(cache) && readdirSync(cache).some((f) => f.startsWith("gate-")), "hey to take the server's tools");
    };
    server.enqueue({ ...sseReply(sseEvents([first, ...rest])), hold: { at: 1, until: connected } });

    term = await startTerm({ env: { HOME: home.path }, cols: 80, rows: 30, args: ["--base-url", `${server.url}/v1`, "-m", "mock-model", "-p", "show me"] });
    const screen = await term.waitFor("[exit 0]");
    const rows = screen.split("\n").map((r) => r.trimEnd());
    const at = (text: string) => rows.findIndex((r) => r.includes(text));
    expect(at("That sets x.")).toBeGreaterThan(at("const x = 1;")); // before: "That sets **x**.", read as code after the broken block
    expect(at("connected: gate (1 tool)")).toBeGreaterThan(at("That sets x."));
    // the fence that opened the block closes it: the last line is prose (its ** rendered), not code
    expect(rows.filter((r) => r.trim().startsWith("```"))).toEqual(["```ts", "```"]);
  },
  E2E_TIMEOUT,
);
