// MCP sign-in and prompts in the REPL, in a real terminal (tmux; issue 27): a server that wants a
// sign-in is said to above the prompt; `/mcp:` completes a server's prompts with Tab and the
// prompt runs as the next message; `/mcp login NAME` signs in through the browser (a stand-in that
// follows the URL), the server starts again at once, and its tool answers the next message, its
// token redacted.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers/e2e.ts";
import { BROWSER, EVERYTHING_SERVER } from "../helpers/mcp.ts";
import { lastUserText, resultText, startModelServer, type ChatRequest, type ModelServer } from "../helpers/model-server.ts";
import { startOAuthFake, type OAuthFake } from "../helpers/oauth-server.ts";
import { startTerm, type Term } from "../helpers/tmux.ts";

const E2E_TIMEOUT = 120_000;
let home: ReturnType<typeof tempDir>;
let model: ModelServer | undefined;
let fake: OAuthFake | undefined;
let term: Term | undefined;
beforeEach(() => {
  home = tempDir("hey-repl-mcp-auth-");
});
afterEach(async () => {
  await term?.close();
  model?.stop();
  fake?.stop();
  home.remove();
});

const atPrompt = (s: string) => (s.trimEnd().split("\n").at(-1) ?? "").trimEnd() === "›";
const toolNames = (req: ChatRequest) => (req.tools ?? []).map((t) => t.function.name);

test(
  "auth required said above the prompt; /mcp: Tab-completes a prompt that then runs; /mcp login signs in and the server's tool answers next",
  async () => {
    fake = startOAuthFake();
    model = startModelServer((req) => {
      const last = req.messages.at(-1)!;
      if (last.role === "tool") return { text: `whoami: ${resultText(last)}` };
      if (lastUserText(req).startsWith("What's weather in")) return { text: `Sunny, says the prompt: ${lastUserText(req)}` };
      return toolNames(req).includes("whoami") ? { calls: [["whoami", {}]] } : { text: "no whoami yet" };
    });
    mkdirSync(join(home.path, ".config", "hey"), { recursive: true });
    writeFileSync(
      join(home.path, ".config", "hey", "config.toml"),
      `[default]\nprovider = "mock"\nmodel = "m"\n\n[provider.mock]\nbase_url = "${model.baseUrl}"\nmodels = ["m"]\n\n` +
        `[mcp.remote]\nurl = "${fake.url}"\n\n[mcp.everything]\ncommand = "node"\nargs = [${JSON.stringify(EVERYTHING_SERVER)}, "stdio"]\n`,
    );
    term = await startTerm({ env: { HOME: home.path, BROWSER }, cols: 160, rows: 50 });
    const t = term;
    await t.waitFor(
      (s) =>
        // a notice is wrapped at spaces: matched across its breaks
        s
          .replace(/\s+/g, " ")
          .includes(
            "hey: MCP server remote needs a sign-in, its tools are left out (it answers HTTP 401 without one); sign in with hey mcp login remote (or /mcp login remote in hey)",
          ) &&
        /connected: everything \((\d+ of its )?\d+ tools/.test(s) &&
        atPrompt(s),
      { joined: true },
    );

    await t.type("/mcp:ev");
    await t.keys("Tab");
    await t.waitFor(/› \/mcp:everything:\s*$/);
    await t.type("ar");
    await t.keys("Tab");
    await t.waitFor(/› \/mcp:everything:args-prompt\s*$/);
    await t.type(' city="Porto Alegre"');
    await t.keys("Enter");
    await t.waitFor("Sunny, says the prompt: What's weather in Porto Alegre?");

    await t.waitFor(atPrompt);
    await t.type("/mcp login remote");
    await t.keys("Enter");
    const signedIn = await t.waitFor((s) => /connected: remote \(1 tool\)/.test(s) && atPrompt(s), { joined: true, scrollback: true });
    expect(signedIn).toContain("Signing in to MCP server remote at http://127.0.0.1:");
    expect(signedIn).toMatch(
      /Opened your browser \(\$BROWSER: node \S+browser\.mjs\) on this address; if nothing opened, open it yourself:\n\n {2}http:\/\/127\.0\.0\.1:\d+\/authorize\?/,
    );
    expect(signedIn).toContain("Signed in to remote. The token is kept in");

    await t.type("who am I?");
    await t.keys("Enter");
    const answered = await t.waitFor("whoami: you sent: Bearer [redacted]");
    expect(answered).not.toContain(fake.issued[0]!);
    expect(fake.seen).toContain(fake.issued[0]!);
  },
  E2E_TIMEOUT,
);
