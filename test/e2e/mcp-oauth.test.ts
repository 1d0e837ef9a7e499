// Signing in to a hosted MCP server, through dist/hey (issue 27). Against the MCP SDK's own example
// server with `--oauth` (its in-memory authorization server beside it, both on 127.0.0.1): before
// a sign-in the server is auth required — in the JSON event, on stderr and in /mcp — and the first
// request goes at once without its tools; `hey mcp login` with a BROWSER that follows the
// authorization URL (the test's stand-in for the user) stores a 0600 token; a later run calls the
// server's tool; a token past its expiry is auth required again. Against the fake OAuth server
// (test/helpers/oauth-server.ts), whose tool answers with the Authorization header it got: the
// token appears in no output, event, session or log. The example restarted (its tokens and its
// registration of hey gone) asks for a sign-in again in plain words, and the next sign-in
// registers hey again on its own.
import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureBinary, jsonEvents, runHey } from "../helpers/e2e.ts";
import { BROWSER, startOAuthExample, type HttpServer, type OAuthExample } from "../helpers/mcp.ts";
import { resultText, type ChatRequest } from "../helpers/model-server.ts";
import { startOAuthFake, type OAuthFake } from "../helpers/oauth-server.ts";
import { eachModelServers, eachTempDir, writeUserConfig } from "../helpers/fixtures.ts";

setDefaultTimeout(120_000);

const home = eachTempDir("hey-oauth-home-");
const model = eachModelServers();
const stops: (() => unknown)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});
const writeConfig = (text: string) => void writeUserConfig(home.path, text);
const provider = (baseUrl: string) => `[default]\nprovider = "mock"\nmodel = "m"\n\n[provider.mock]\nbase_url = "${baseUrl}"\nmodels = ["m"]\n`;
const toolNames = (req: ChatRequest) => (req.tools ?? []).map((t) => t.function.name);
const lastTool = (req: ChatRequest) => (req.messages.at(-1)?.role === "tool" ? req.messages.at(-1) : undefined);
const hey = (args: string[], env: Record<string, string> = {}) => runHey(args, { env: { HOME: home.path, ...env }, cwd: home.path, timeoutMs: 60_000 });
const mcpEvents = (stdout: string) => jsonEvents(stdout).filter((e) => e.type === "mcp");
const resultOf = (stdout: string) => jsonEvents(stdout).find((e) => e.type === "result")?.text;
/** The one sign-in file, and its parsed content. */
function signInFile(): { path: string; data: { tokens: { access_token: string; expires_at?: number } } } {
  const dir = join(home.path, ".config", "hey", "mcp-auth");
  const [name] = readdirSync(dir);
  const path = join(dir, name!);
  return { path, data: JSON.parse(readFileSync(path, "utf8")) };
}
/** Every file hey wrote under HOME except its sign-ins and config: sessions, logs, caches. */
function writtenTexts(): string[] {
  const out: string[] = [];
  for (const e of readdirSync(home.path, { recursive: true, withFileTypes: true }))
    if (e.isFile() && !e.parentPath.includes("mcp-auth") && !e.name.endsWith(".toml")) out.push(readFileSync(join(e.parentPath, e.name), "utf8"));
  return out;
}

test("the SDK's OAuth example: auth required at once before a sign-in; hey mcp login through the browser; a later run calls greet; an expired token is auth required again", async () => {
  await ensureBinary();
  const demo: HttpServer = await startOAuthExample();
  stops.push(() => demo.stop());
  const m = model((req) => {
    const tool = lastTool(req);
    if (tool) return { text: `got ${resultText(tool)}` };
    return toolNames(req).includes("greet") ? { calls: [["greet", { name: "Ana" }]] } : { text: "no greet tool" };
  });
  // the first request may wait 20 s for a server it has no tools of: it must not wait for this one
  writeConfig(provider(m.baseUrl) + `\n[mcp]\nstartup_wait_ms = 20000\n\n[mcp.demo]\nurl = "${demo.url}"\n`);

  const t0 = performance.now();
  const before = await hey(["-p", "greet Ana", "--output", "json"]);
  expect(before.code).toBe(0);
  // not the 20 s wait: half of it, since hey's own start took over 3 s under load (a 3 s bound failed 1 run in 6)
  expect(m.times[0]! - t0).toBeLessThan(10_000);
  expect(toolNames(m.requests[0]!)).not.toContain("greet");
  expect(resultOf(before.stdout)).toBe("no greet tool");
  expect(mcpEvents(before.stdout)).toEqual([{ type: "mcp", server: "demo", state: "auth_required", error: "it answers HTTP 401 without one" }]);
  expect(before.stderr).toContain(
    "hey: MCP server demo needs a sign-in, its tools are left out (it answers HTTP 401 without one); sign in with hey mcp login demo (or /mcp login demo in hey)\n",
  );
  const status = await hey(["-p", "/mcp"]);
  expect(status.stdout).toContain("demo: auth required · sign in with hey mcp login demo (or /mcp login demo in hey)\n  it answers HTTP 401 without one\n");

  const browserLog = join(home.path, "browser.log");
  const login = await hey(["mcp", "login", "demo"], { BROWSER, BROWSER_LOG: browserLog });
  expect(login.stderr).toBe("");
  expect(login.code).toBe(0);
  const visited = readFileSync(browserLog, "utf8").trim();
  expect(visited).toMatch(
    /^http:\/\/localhost:\d+\/authorize\?.*code_challenge=.*code_challenge_method=S256.*redirect_uri=http%3A%2F%2F127\.0\.0\.1%3A\d+%2Fcallback/,
  );
  expect(login.stdout).toContain(`\n\n  ${visited}\n`); // the URL is printed too, for a browser hey cannot open
  expect(login.stdout).toMatch(
    /^Signing in to MCP server demo at http:\/\/localhost:\d+\/mcp\n  authorization server: http:\/\/localhost:\d+\/\n  client: registered as "hey" \(client id [\w-]+\)\n/,
  );
  expect(login.stdout).toMatch(
    /\nSigned in to demo\. The token is kept in .*mcp-auth\/\w+\.json \(0600\); it expires in 1 hour, and the server gave no refresh token: sign in again then\.\nconnected: demo \(\d+ tools\)\n$/,
  );
  const file = signInFile();
  expect(statSync(file.path).mode & 0o777).toBe(0o600);
  const token = file.data.tokens.access_token;
  expect(token.length).toBeGreaterThan(8);
  expect(login.stdout).not.toContain(token);

  const later = await hey(["-p", "greet Ana", "--output", "json", "--verbose"]);
  expect(later.code).toBe(0);
  expect(resultOf(later.stdout)).toBe("got Hello, Ana!");
  // its two task-only tools (delay, collect-user-info-task) are not offered: hey does not run MCP tasks
  expect(mcpEvents(later.stdout)).toEqual([{ type: "mcp", server: "demo", state: "connected", tools: 7, offered: 5 }]);
  for (const text of [later.stdout, later.stderr, ...writtenTexts()]) expect(text).not.toContain(token);

  // the token's stated hour has passed (written so: waiting an hour is not a test)
  writeFileSync(file.path, JSON.stringify({ ...file.data, tokens: { ...file.data.tokens, expires_at: Date.now() - 1000 } }));
  const expired = await hey(["-p", "greet Ana", "--output", "json"]);
  expect(expired.code).toBe(0);
  expect(mcpEvents(expired.stdout)).toEqual([
    { type: "mcp", server: "demo", state: "auth_required", error: "hey's sign-in to it has run out and could not be refreshed" },
  ]);
  // its cached tool was offered to the first request; the call says how to sign in
  expect(resultOf(expired.stdout)).toStartWith(
    "got MCP server demo needs a sign-in (hey's sign-in to it has run out and could not be refreshed): the user signs in with /mcp login demo",
  );
  // and the run after that offers nothing of it
  const after = await hey(["-p", "greet Ana", "--output", "json"]);
  expect(resultOf(after.stdout)).toBe("no greet tool");
});

test("the SDK's OAuth example restarted: the next run says it needs a sign-in (not 'failed'); hey mcp login registers hey again and signs in", async () => {
  await ensureBinary();
  const demo: OAuthExample = await startOAuthExample();
  stops.push(() => demo.stop());
  const m = model((req) => {
    const tool = lastTool(req);
    if (tool) return { text: `got ${resultText(tool)}` };
    return toolNames(req).includes("greet") ? { calls: [["greet", { name: "Ana" }]] } : { text: "no greet tool" };
  });
  writeConfig(provider(m.baseUrl) + `\n[mcp.demo]\nurl = "${demo.url}"\n`);
  expect((await hey(["mcp", "login", "demo"], { BROWSER })).code).toBe(0);
  expect(resultOf((await hey(["-p", "greet Ana", "--output", "json"])).stdout)).toBe("got Hello, Ana!");

  await demo.restart();
  // it answers the token it no longer knows with HTTP 500 server_error, and a request without one with 401
  const why = "it refused hey's sign-in with HTTP 500 server_error (Internal Server Error) and asks for a new one";
  const after = await hey(["-p", "greet Ana", "--output", "json"]);
  expect(mcpEvents(after.stdout)).toEqual([{ type: "mcp", server: "demo", state: "auth_required", error: why }]);
  expect(after.stderr).toContain(
    `hey: MCP server demo needs a sign-in, its tools are left out (${why}); sign in with hey mcp login demo (or /mcp login demo in hey)\n`,
  );
  // its cached greet was offered to the first request: the call says how to sign in
  expect(resultOf(after.stdout)).toStartWith(`got MCP server demo needs a sign-in (${why}): the user signs in with /mcp login demo`);

  const again = await hey(["mcp", "login", "demo"], { BROWSER });
  expect(again.stderr).toBe("");
  expect(again.code).toBe(0);
  expect(again.stdout).toContain("\n  the authorization server no longer knows hey's registration (HTTP 400 invalid_client): registering hey again\n");
  expect(again.stdout).toMatch(/\nconnected: demo \(\d+ tools\)\n$/);
  expect(resultOf((await hey(["-p", "greet Ana", "--output", "json"])).stdout)).toBe("got Hello, Ana!");
});

test("a tool that echoes the Authorization header: the token is redacted from the events, the model's request, the session and the debug log", async () => {
  await ensureBinary();
  const fake: OAuthFake = startOAuthFake();
  stops.push(() => fake.stop());
  const m = model((req) => (lastTool(req) ? { text: `the tool said: ${resultText(lastTool(req))}` } : { calls: [["whoami", {}]] }));
  writeConfig(provider(m.baseUrl) + `\n[mcp.remote]\nurl = "${fake.url}"\n`);
  const login = await hey(["mcp", "login", "remote"], { BROWSER });
  expect(login.code).toBe(0);
  const token = signInFile().data.tokens.access_token;
  expect(token).toBe(fake.issued[0]!);

  const run = await hey(["-p", "who am I?", "--output", "json", "--verbose"]);
  expect(run.code).toBe(0);
  expect(fake.seen).toContain(token); // the call did carry it
  const result = jsonEvents(run.stdout).find((e) => e.type === "tool_result")!;
  expect(result.output).toBe("you sent: Bearer [redacted]");
  expect(JSON.stringify(m.requests.at(-1))).not.toContain(token);
  for (const text of [run.stdout, run.stderr, ...writtenTexts()]) expect(text).not.toContain(token);
  expect(writtenTexts().some((t) => t.includes("Bearer [redacted]"))).toBe(true); // the session holds the result, redacted

  const logout = await hey(["mcp", "logout", "remote"]);
  expect(logout).toMatchObject({ code: 0, stdout: expect.stringContaining("signed out of remote: removed ") });
  expect(readdirSync(join(home.path, ".config", "hey", "mcp-auth"))).toEqual([]);
});

test("hey mcp login whose check connection fails with an error page that shows the new token: the token is [redacted] on stderr", async () => {
  await ensureBinary();
  const fake: OAuthFake = startOAuthFake({ initStatus: 500 });
  stops.push(() => fake.stop());
  const m = model(() => ({ text: "unused" }));
  writeConfig(provider(m.baseUrl) + `\n[mcp.remote]\nurl = "${fake.url}"\n`);
  const login = await hey(["mcp", "login", "remote"], { BROWSER });
  expect(login.code).toBe(1);
  const token = fake.issued[0]!;
  expect(fake.seen).toContain(token); // the check did send it
  expect(login.stderr).toContain("hey: signed in, but connecting to remote with the new token failed: HTTP 500");
  expect(login.stderr).toContain("auth=Bearer [redacted]");
  expect(login.stdout + login.stderr).not.toContain(token);
});

test("a sign-in whose access token has run out is refreshed at the next start (its refresh token still holds): the run calls the tool, no sign-in asked", async () => {
  await ensureBinary();
  const fake: OAuthFake = startOAuthFake({ expiresIn: 20 });
  stops.push(() => fake.stop());
  const m = model((req) => (lastTool(req) ? { text: `the tool said: ${resultText(lastTool(req))}` } : { calls: [["whoami", {}]] }));
  writeConfig(provider(m.baseUrl) + `\n[mcp.remote]\nurl = "${fake.url}"\n`);
  const login = await hey(["mcp", "login", "remote"], { BROWSER });
  expect(login.stdout).toContain("it expires in 20 seconds, and hey refreshes it before then.");
  // 22 seconds later (written so: the stored expiry in the past, and the server's copy run out)
  const file = signInFile();
  writeFileSync(file.path, JSON.stringify({ ...file.data, tokens: { ...file.data.tokens, expires_at: Date.now() - 2000 } }));
  fake.expireAll();
  const sent = fake.seen.length;

  const run = await hey(["-p", "who am I?", "--output", "json"]);
  expect(run.code).toBe(0);
  // before: "MCP server remote needs a sign-in … (hey's sign-in to it has run out and could not be refreshed)", no refresh tried
  expect(mcpEvents(run.stdout)).toEqual([{ type: "mcp", server: "remote", state: "connected", tools: 1 }]);
  expect(resultOf(run.stdout)).toBe("the tool said: you sent: Bearer [redacted]");
  expect(fake.grants).toEqual(["authorization_code", "refresh_token"]);
  expect(fake.seen.slice(sent)).toEqual(fake.seen.slice(sent).map(() => fake.issued[1]!)); // nor the old token nor none
  expect(signInFile().data.tokens.access_token).toBe(fake.issued[1]!);
});

test("hey mcp: usage, an unknown server, a local server, a sign-in that fails names its step", async () => {
  await ensureBinary();
  const fake = startOAuthFake({ registerStatus: 403 });
  stops.push(() => fake.stop());
  writeConfig(`[mcp.local]\ncommand = "node"\n\n[mcp.closed]\nurl = "${fake.url}"\n`);
  // alone, it lists the servers as /mcp does (the one it cannot sign in to is auth required: it never saw a token)
  const listed = await hey(["mcp"]);
  expect(listed.code).toBe(0);
  expect(listed.stdout).toContain(
    "\nclosed: auth required · sign in with hey mcp login closed (or /mcp login closed in hey)\n  it answers HTTP 401 without one\n",
  );
  // hey's own tools' count moves with their descriptions (and with the machine's sh: dash is said): its form is checked
  expect(listed.stdout).toMatch(/\nMCP tools in every request: 0, ~0 tokens \(hey's own tools: ~\d{3}\)\n$/);
  expect(await hey(["mcp", "--help"])).toMatchObject({
    code: 0,
    stdout: expect.stringContaining("usage: hey mcp [list] | hey mcp login NAME | hey mcp logout NAME"),
  });
  // no name: which server, of those that sign in
  expect(await hey(["mcp", "login"])).toMatchObject({ code: 2, stderr: "hey: which server? hey mcp login NAME, one of: closed\n" });
  expect(await hey(["mcp", "login", "a", "b"])).toMatchObject({ code: 2, stderr: expect.stringContaining('hey mcp login takes one server name, got "a b"') });
  expect(await hey(["mcp", "login", "clsoed"])).toMatchObject({
    code: 2,
    stderr: "hey: no [mcp.clsoed] table; did you mean closed?; remote servers configured: closed\n",
  });
  expect(await hey(["mcp", "login", "local"])).toMatchObject({
    code: 1,
    stderr: "hey: sign-in to local failed before it started: [mcp.local] is a local server (command); only remote servers (url) sign in\n",
  });
  const failed = await hey(["mcp", "login", "closed"], { BROWSER });
  expect(failed.code).toBe(1);
  expect(failed.stderr).toMatch(
    /^hey: sign-in to closed failed at client registration \(registering hey with the authorization server\): .*registration is closed\n$/,
  );
  const help = await hey(["--help"]);
  expect(help.stdout).toContain("hey mcp login NAME");
  expect(help.stdout).toContain("hey mcp [list]          list the MCP servers");
  expect(help.stdout).toContain("hey mcp logout NAME");
});

test("hey mcp login of a server that an untrusted project's .mcp.json defines: not contacted, and the error names .mcp.json and --approve", async () => {
  await ensureBinary();
  const fake = startOAuthFake();
  stops.push(() => fake.stop());
  writeConfig(`[mcp.mine]\nurl = "http://127.0.0.1:9/mcp"\n`);
  const project = join(home.path, "shop");
  mkdirSync(join(project, ".git"), { recursive: true });
  writeFileSync(join(project, ".mcp.json"), JSON.stringify({ mcpServers: { tracker: { type: "http", url: fake.url } } }));
  const r = await runHey(["mcp", "login", "tracker"], { env: { HOME: home.path, BROWSER }, cwd: project });
  expect(r).toMatchObject({
    code: 2,
    stderr: expect.stringContaining(
      "hey: no [mcp.tracker] table; remote servers configured: mine (this project is not trusted here, so its .mcp.json is not read: --approve reads it)\n",
    ),
  });
  expect(fake.seen).toEqual([]);
  const approved = await runHey(["mcp", "login", "tracker", "--approve"], { env: { HOME: home.path, BROWSER }, cwd: project, timeoutMs: 60_000 });
  expect(approved.code).toBe(0);
  expect(approved.stdout).toMatch(/\nconnected: tracker \(1 tool\)\n$/);
});

test("hey mcp login (and logout) run by the agent's bash command refuse at once: only the user signs in, at their own terminal", async () => {
  await ensureBinary();
  const f: OAuthFake = startOAuthFake();
  stops.push(() => f.stop());
  writeConfig(`[mcp.o]\nurl = "${f.url}"\n`);
  // a browser that would come back: the agent must not get a sign-in even so
  for (const verb of ["login", "logout"]) {
    const r = await hey(["mcp", verb, "o"], { BROWSER, HEY_AGENT_SESSION: "s-1" });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    const what = verb === "login" ? "signs in" : "signs out";
    expect(r.stderr).toBe(
      `hey: running under an agent's command (HEY_AGENT_SESSION): the user ${what} at their own terminal, with /mcp ${verb} o in hey or hey mcp ${verb} o in a shell\n`,
    );
  }
  expect(f.grants).toEqual([]); // nothing was asked of the authorization server
  expect(f.seen).toEqual([]);
});
