// What MCP servers send or cause carries no secret hey knows, through dist/hey: a remote server
// that answers 500 echoing the Authorization header hey sent, a local one that prints the token its
// `env` gave it on stderr as it dies, and one whose tool description holds that token. The terminal,
// the requests to the model (descriptions, the note of a server that failed in a recent run),
// `hey -p /mcp` and the MCP cache all show `[redacted]` where the token was. And a `${VAR}` in an MCP
// server's url query or after a credential flag in its args is such a secret too: shown redacted,
// and not in the environment of the commands the model runs.
import { afterEach, beforeEach, expect, setDefaultTimeout, test } from "bun:test";
import { appendFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureBinary, runHey } from "../helpers/e2e.ts";
import { startTerm, type Term } from "../helpers/tmux.ts";
import { reloadNoteOf } from "../helpers/model-server.ts";
import { lastLine } from "./repl-helpers.ts";
import { eachModelServers, eachTempDir, writeUserConfig } from "../helpers/fixtures.ts";
import { BUN, FAKE_SERVER } from "../helpers/mcp.ts";

setDefaultTimeout(120_000);

const MCP_TOKEN = "mcpTok_2222abcdef";
const SVC_TOKEN = "svcTok_plain_abc12345";
const home = eachTempDir("hey-mcp-secrets-");
const model = eachModelServers();
let echoing: ReturnType<typeof Bun.serve>;
beforeEach(() => {
  // a server whose error page shows the request's Authorization header
  echoing = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: (req) => Response.json({ error: `internal: auth=${req.headers.get("authorization")} (request rejected) at ${req.url}` }, { status: 500 }),
  });
});
let term: Term | undefined;
afterEach(async () => {
  echoing.stop(true);
  await term?.close();
  term = undefined;
});

const hey = (args: string[], env: Record<string, string> = {}) =>
  runHey(args, { env: { HOME: home.path, MCP_TOKEN, SVC_TOKEN, ...env }, cwd: home.path, timeoutMs: 60_000 });
const cacheFiles = () => {
  const dir = join(home.path, ".cache", "hey", "mcp");
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .map((f) => readFileSync(join(dir, f), "utf8"))
    .join("\n");
};

test("an MCP server's failure, stderr and tool descriptions show the tokens hey knows as [redacted], everywhere", async () => {
  await ensureBinary();
  const m = model((req) => (req.messages.at(-1)!.role === "tool" ? { text: "done" } : { calls: [["bash", { command: "echo hi" }]] }));
  writeUserConfig(
    home.path,
    `[default]\nprovider = "mock"\nmodel = "m"\n\n[provider.mock]\nbase_url = "${m.baseUrl}"\nmodels = ["m"]\n\n[mcp]\nstartup_wait_ms = 30000\n\n` +
      `[mcp.r500]\nurl = "http://127.0.0.1:${echoing.port}/mcp500"\nheaders = { Authorization = "Bearer \${MCP_TOKEN}" }\n\n` +
      `[mcp.bad]\ncommand = ${JSON.stringify(BUN)}\nargs = [${JSON.stringify(FAKE_SERVER)}, "exit-on-init"]\n` +
      `env = { SVC_TOKEN = "\${SVC_TOKEN}", FAKE_SAY = "starting with token \${SVC_TOKEN}" }\n\n` +
      `[mcp.good]\ncommand = ${JSON.stringify(BUN)}\nargs = [${JSON.stringify(FAKE_SERVER)}, "ok", "good"]\n` +
      `env = { API_TOKEN = "\${SVC_TOKEN}", FAKE_DESCRIBE = "(signed in with \${SVC_TOKEN})" }\n`,
  );

  const first = await hey(["-p", "go"]);
  expect(first.stdout).toBe("done\n");
  expect(first.stderr).toContain("hey: MCP server r500 failed, its tools are left out: HTTP 500");
  expect(first.stderr).toContain("auth=[redacted] (request rejected)");
  expect(first.stderr).toContain("fatal: cannot open the database at /nope (starting with token [redacted])");
  const echo = m.requests[0]!.tools!.find((t) => t.function.name === "echo")!.function as { description?: string };
  const description = echo.description;
  expect(description).toBe("echoes text (good) (signed in with [redacted])");

  // the next run tells the model why the servers failed in a recent run (from the cache), and tries them again
  const second = await hey(["-p", "go"]);
  expect(second.stdout).toBe("done\n");
  const told = JSON.stringify(m.requests.slice(2));
  expect(told).toContain("MCP server r500 failed to start in a recent run: HTTP 500");
  expect(told).toContain("it exited with code 3 before it was ready (its stderr: fatal: cannot open the database at /nope (starting with token [redacted]))"); // bad's stderr too, redacted
  expect(told).toContain("auth=[redacted] (request rejected)");

  const status = await hey(["-p", "/mcp"]);
  expect(status.stdout).toContain("auth=[redacted] (request rejected)");
  expect(status.stdout).toContain("starting with token [redacted]");

  const cache = cacheFiles();
  expect(cache).toContain("auth=[redacted]");
  expect(cache).toContain("(signed in with [redacted])");
  for (const text of [first.stdout + first.stderr, second.stdout + second.stderr, status.stdout + status.stderr, JSON.stringify(m.requests), cache]) {
    expect(text).not.toContain(MCP_TOKEN);
    expect(text).not.toContain(SVC_TOKEN);
  }
});

test("a ${VAR} in an MCP url's query or after --api-key in its args is a secret: redacted, and not in the commands' environment", async () => {
  await ensureBinary();
  const QUERY_KEY = "mcpQueryKey_1111abcd";
  const ARG_KEY = "argTok_plain_8888abcd";
  // the model reads its environment, and the command lines of the processes it can see (the MCP server's, with its key)
  const look = 'echo "q=$MCPQ a=$ARGT"; for f in /proc/[0-9]*/cmdline; do tr "\\0" " " < "$f"; echo; done 2>/dev/null | grep -- "--api-key" | grep -v grep';
  const m = model((req) => (req.messages.at(-1)!.role === "tool" ? { text: "done" } : { calls: [["bash", { command: look }]] }));
  writeUserConfig(
    home.path,
    `[default]\nprovider = "mock"\nmodel = "m"\n\n[provider.mock]\nbase_url = "${m.baseUrl}"\nmodels = ["m"]\n\n[mcp]\nstartup_wait_ms = 30000\n\n` +
      `[mcp.q]\nurl = "http://127.0.0.1:${echoing.port}/mcp500?api_key=\${MCPQ}"\n\n` +
      `[mcp.a]\ncommand = ${JSON.stringify(BUN)}\nargs = [${JSON.stringify(FAKE_SERVER)}, "ok", "keyed", "echo", "--api-key", "\${ARGT}"]\n`,
  );
  const run = await hey(["-p", "go"], { MCPQ: QUERY_KEY, ARGT: ARG_KEY });
  expect(run.stdout).toBe("done\n");
  expect(run.stderr).toContain("hey: MCP server q failed, its tools are left out: HTTP 500");
  expect(run.stderr).toContain("/mcp500?api_key=[redacted]");
  const result = JSON.stringify(m.requests[1]!.messages.at(-1));
  expect(result).toContain("q= a=");
  expect(result).toContain("ok keyed echo --api-key [redacted]");
  for (const text of [run.stdout + run.stderr, JSON.stringify(m.requests)]) {
    expect(text).not.toContain(QUERY_KEY);
    expect(text).not.toContain(ARG_KEY);
  }
});

test("a ${VAR} that says where things are is no secret: a base_url's host, HOME inside a credential's path; the commands keep them and the model reads them", async () => {
  await ensureBinary();
  const m = model((req) => {
    const last = req.messages.at(-1)!;
    if (last.role === "tool") return { text: "done" };
    const root = m.baseUrl.replace(/\/v1$/, "");
    return { calls: [["bash", { command: `echo OLLAMA_HOST=$OLLAMA_HOST; echo the server is at ${root}; pwd; echo HOME=$HOME; ls ~/proj` }]] };
  });
  const root = m.baseUrl.replace(/\/v1$/, "");
  mkdirSync(join(home.path, "proj"));
  writeFileSync(join(home.path, "proj", "notes.txt"), "x");
  writeUserConfig(
    home.path,
    `[default]\nprovider = "mock"\nmodel = "m"\n\n[provider.mock]\nbase_url = "\${OLLAMA_HOST}/v1"\nmodels = ["m"]\n\n[mcp]\nstartup_wait_ms = 30000\n\n` +
      `[mcp.gdrive]\ncommand = ${JSON.stringify(BUN)}\nargs = [${JSON.stringify(FAKE_SERVER)}, "ok", "--token-file", "\${HOME}/.tok", "--author=\${USER}"]\n` +
      `env = { GOOGLE_APPLICATION_CREDENTIALS = "\${HOME}/.config/gcloud/key.json" }\n`,
  );
  const run = await hey(["-p", "go"], { OLLAMA_HOST: root, USER: "ana-lovelace" });
  expect(run.stdout).toBe("done\n");
  expect(run.stderr).toContain(`the server is at ${root}\n    ${home.path}\n    HOME=${home.path}\n`);
  expect(run.stderr).not.toContain("[redacted]");
  const result = JSON.stringify(m.requests[1]!.messages.at(-1));
  expect(result).toContain(`OLLAMA_HOST=${root}\\nthe server is at ${root}\\n${home.path}\\nHOME=${home.path}\\nnotes.txt`);
  expect(result).not.toContain("[redacted]");
});

test("a server a /reload starts that fails: the terminal and the reload's note to the model show its stderr's token as [redacted]", async () => {
  const m = model(() => ({ text: "noted" }));
  const configFile = writeUserConfig(home.path, `[default]\nprovider = "mock"\nmodel = "m"\n\n[provider.mock]\nbase_url = "${m.baseUrl}"\nmodels = ["m"]\n`);
  term = await startTerm({ env: { HOME: home.path, SVC_TOKEN }, cols: 160, rows: 40 });
  const t = term;
  const atPrompt = (s: string) => lastLine(s).trimEnd() === "›";
  await t.waitFor(atPrompt);
  appendFileSync(
    configFile,
    `\n[mcp.bad]\ncommand = ${JSON.stringify(BUN)}\nargs = [${JSON.stringify(FAKE_SERVER)}, "exit-on-init"]\n` +
      `env = { SVC_TOKEN = "\${SVC_TOKEN}", FAKE_SAY = "starting with token \${SVC_TOKEN}" }\n`,
  );
  await t.type("/reload");
  await t.keys("Enter");
  // (no approvals record before the first answer: nothing to ask)
  const failed = await t.waitFor((s) => s.includes("starting with token [redacted]") && atPrompt(s), { joined: true });
  expect(failed).toContain("hey: MCP server bad failed, its tools are left out");
  await t.type("is it up?");
  await t.keys("Enter");
  const answered = await t.waitFor("noted", { scrollback: true, joined: true });
  const note = reloadNoteOf(m.requests.at(-1)!) ?? "";
  expect(note).toContain("MCP server bad did not start");
  expect(note).toContain("starting with token [redacted]");
  expect(answered + JSON.stringify(m.requests)).not.toContain(SVC_TOKEN);
});

test("a server not approved yet: its env's and args' secrets are still redacted and kept from the commands' environment", async () => {
  await ensureBinary();
  const ENV_TOKEN = "svcTok_9f8e7d6c5b4a";
  const ARG_TOKEN = "argTok_1a2b3c4d5e6f";
  const m = model((req) =>
    req.messages.at(-1)!.role === "tool" ? { text: "done" } : { calls: [["bash", { command: 'echo "env=$SVC_TOKEN_VAR arg=$SVC_ARG_TOKEN"' }]] },
  );
  const base = `[default]\nprovider = "mock"\nmodel = "m"\n\n[provider.mock]\nbase_url = "${m.baseUrl}"\nmodels = ["m"]\n`;
  writeUserConfig(home.path, base);
  expect((await hey(["-p", "first"])).stdout).toBe("done\n"); // the record approves the file as it was
  writeUserConfig(
    home.path,
    `${base}\n[mcp.svc]\ncommand = ${JSON.stringify(BUN)}\nargs = [${JSON.stringify(FAKE_SERVER)}, "ok", "--token", "\${SVC_ARG_TOKEN}"]\nenv = { SVC_TOKEN = "\${SVC_TOKEN_VAR}" }\n`,
  );
  const run = await hey(["-p", "go"], { SVC_TOKEN_VAR: ENV_TOKEN, SVC_ARG_TOKEN: ARG_TOKEN });
  expect(run.stdout).toBe("done\n");
  expect(run.stderr).toContain("hey: not used: + [mcp.svc]"); // waits for the yes at a terminal
  const result = JSON.stringify(m.requests.at(-1)!.messages.at(-1));
  expect(result).toContain("env= arg=");
  for (const text of [run.stdout + run.stderr, JSON.stringify(m.requests)]) {
    expect(text).not.toContain(ENV_TOKEN);
    expect(text).not.toContain(ARG_TOKEN);
  }
});
