// A remote MCP server over a long REPL session, in a real terminal (tmux; SPEC §14): the MCP SDK's
// own server in the test process (test/helpers/mcp-http.ts) restarts — the next call is answered
// on a new session, nothing said; it goes away — a line above the prompt says so without a call,
// and /mcp says stopped and why; it comes back — the next message's call connects again and is
// answered; a tool it adds meanwhile is offered, and one it adds while connected is said.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers/e2e.ts";
import { startRemoteMcp, type RemoteMcp } from "../helpers/mcp-http.ts";
import { lastUserText, resultText, startModelServer, type ModelServer } from "../helpers/model-server.ts";
import { startTerm, type Term } from "../helpers/tmux.ts";

const E2E_TIMEOUT = 120_000;
let home: ReturnType<typeof tempDir>;
let model: ModelServer | undefined;
let remote: RemoteMcp | undefined;
let term: Term | undefined;
beforeEach(() => {
  home = tempDir("hey-repl-mcp-remote-");
});
afterEach(async () => {
  await term?.close();
  model?.stop();
  await remote?.stop();
  home.remove();
});

const atPrompt = (s: string) => (s.trimEnd().split("\n").at(-1) ?? "").trimEnd() === "›";

test(
  "a remote server that restarts, goes away and comes back: calls go through a new session, the loss is said above the prompt and in /mcp, the next call connects again",
  async () => {
    remote = startRemoteMcp({ label: "far" });
    const r = remote;
    // "say X" calls echo with X; "run T" calls the tool T; a tool result is answered with what it said
    model = startModelServer((req) => {
      const last = req.messages.at(-1)!;
      if (last.role === "tool") return { text: `the server said: ${resultText(last)}` };
      const [verb, rest = ""] = lastUserText(req).split(/ (.*)/s);
      return verb === "run" ? { calls: [[rest, {}]] } : { calls: [["echo", { text: rest }]] };
    });
    mkdirSync(join(home.path, ".config", "hey"), { recursive: true });
    writeFileSync(
      join(home.path, ".config", "hey", "config.toml"),
      `[default]\nprovider = "mock"\nmodel = "m"\n\n[provider.mock]\nbase_url = "${model.baseUrl}"\nmodels = ["m"]\n\n[mcp.far]\nurl = "${r.url}"\n`,
    );
    term = await startTerm({ env: { HOME: home.path }, cols: 160, rows: 50 });
    const t = term;
    await t.waitFor((s) => s.includes("connected: far (1 tool)") && atPrompt(s));
    const ask = async (line: string, want: string) => {
      await t.waitFor(atPrompt);
      await t.type(line);
      await t.keys("Enter");
      return t.waitFor((s) => s.includes(want) && atPrompt(s), { joined: true });
    };
    await ask("say one", "the server said: far: one");

    // a restart: hey's session is gone (404); the call is answered on a new one, nothing said
    await r.down();
    r.up();
    const two = await ask("say two", "the server said: far: two");
    expect(two).not.toContain("hey: MCP server far");
    expect(r.initializes()).toBe(2);

    // gone: said above the prompt without a call, and /mcp tells the same
    await r.down();
    const port = new URL(r.url).port;
    await t.waitFor((s) => s.includes(`hey: MCP server far stopped: cannot reach 127.0.0.1:${port} (connection refused)`) && atPrompt(s), { joined: true });
    const status = await ask("/mcp", "MCP tools in every request");
    expect(status).toContain(`far: stopped · 1 tool`);
    expect(status).toContain(`  cannot reach 127.0.0.1:${port} (connection refused)\n`);

    // back, with a tool more: the next message's call connects again, and the new tool is offered
    r.addTool("later");
    r.up();
    await ask("say three", "the server said: far: three");
    // and one it adds while connected is said above the prompt
    r.addTool("latest");
    await t.waitFor((s) => s.includes("hey: MCP server far's tools changed: + latest (3 tools now)") && atPrompt(s), { joined: true });
    await ask("run later", "the server said: later ran");
    await ask("/mcp", "far: connected · 3 tools"); // the earlier /mcp is still on the screen: wait for this one's line
  },
  E2E_TIMEOUT,
);
