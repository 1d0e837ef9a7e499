// One MCP sign-in shared by several heys at once, through dist/hey, against the fake OAuth server
// (test/helpers/oauth-server.ts) with a token endpoint that takes a moment to refresh, as real ones
// do, and rotates refresh tokens (a traded one is refused with invalid_grant). Two heys that start
// with a due token refresh it once and both connect; a `hey mcp login` made while another hey's
// refresh of a revoked sign-in is on its way is kept, not deleted by that refresh's failure.
import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureBinary, jsonEvents, runHey } from "../helpers/e2e.ts";
import { eachModelServers, eachTempDir, writeUserConfig } from "../helpers/fixtures.ts";
import { BROWSER } from "../helpers/mcp.ts";
import { startOAuthFake, type OAuthFake } from "../helpers/oauth-server.ts";
import { until } from "../helpers/wait.ts";

setDefaultTimeout(120_000);

const home = eachTempDir("hey-oauth-shared-");
const model = eachModelServers();
const stops: (() => unknown)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});
const hey = (args: string[], env: Record<string, string> = {}) => runHey(args, { env: { HOME: home.path, ...env }, cwd: home.path, timeoutMs: 60_000 });
const mcpEvents = (stdout: string) => jsonEvents(stdout).filter((e) => e.type === "mcp");
function signInFile(): { path: string; data: { tokens?: { access_token: string; expires_at?: number } } } {
  const dir = join(home.path, ".config", "hey", "mcp-auth");
  const name = readdirSync(dir).find((n) => n.endsWith(".json"));
  const path = join(dir, name!);
  return { path, data: JSON.parse(readFileSync(path, "utf8")) };
}
/** Signs in, then makes the stored token due, as 22 seconds later (the server's copy run out too). */
async function signedInAndDue(fake: OAuthFake): Promise<void> {
  const m = model(() => ({ text: "ok" }));
  writeUserConfig(
    home.path,
    `[default]\nprovider = "mock"\nmodel = "m"\n\n[provider.mock]\nbase_url = "${m.baseUrl}"\nmodels = ["m"]\n\n[mcp.remote]\nurl = "${fake.url}"\n`,
  );
  expect((await hey(["mcp", "login", "remote"], { BROWSER })).code).toBe(0);
  const file = signInFile();
  writeFileSync(file.path, JSON.stringify({ ...file.data, tokens: { ...file.data.tokens, expires_at: Date.now() - 2000 } }));
  fake.expireAll();
}

test("two heys starting at once with a due token: one refresh, both connect, and the new tokens are kept", async () => {
  await ensureBinary();
  const fake = startOAuthFake({ expiresIn: 20, refreshDelayMs: 1000 });
  stops.push(() => fake.stop());
  await signedInAndDue(fake);

  const [a, b] = await Promise.all([hey(["-p", "first", "--output", "json"]), hey(["-p", "second", "--output", "json"])]);
  // before: the second refresh sent the refresh token the first had traded, got invalid_grant, and
  // the sign-in was deleted from disk for every hey ("remote needs a sign-in … hey mcp login remote")
  for (const run of [a, b]) {
    expect(run.code).toBe(0);
    expect(mcpEvents(run.stdout)).toEqual([{ type: "mcp", server: "remote", state: "connected", tools: 1 }]);
  }
  expect(fake.grants).toEqual(["authorization_code", "refresh_token"]);
  expect(signInFile().data.tokens?.access_token).toBe(fake.issued[1]!);
  const later = await hey(["mcp", "list"]);
  expect(later.stdout).toContain("remote: connected");
});

test("hey mcp login while another hey's refresh of a revoked sign-in is on its way: the new sign-in is kept", async () => {
  await ensureBinary();
  const fake = startOAuthFake({ expiresIn: 20, refreshDelayMs: 3000 });
  stops.push(() => fake.stop());
  await signedInAndDue(fake);
  fake.revokeAll(); // the refresh on its way will be refused

  const open = hey(["-p", "hello", "--output", "json"]);
  await until(() => fake.grants.includes("refresh_token"), "the running hey's refresh");
  const login = await hey(["mcp", "login", "remote"], { BROWSER });
  expect(login.code).toBe(0);
  const run = await open;
  expect(run.code).toBe(0); // it started with the revoked sign-in: that run is left without the server
  expect(fake.grants).toEqual(["authorization_code", "refresh_token", "authorization_code"]);
  // before: the refused refresh deleted the tokens the login had just stored
  expect(signInFile().data.tokens?.access_token).toBe(fake.issued.at(-1)!);
  const later = await hey(["-p", "again", "--output", "json"]);
  expect(mcpEvents(later.stdout)).toEqual([{ type: "mcp", server: "remote", state: "connected", tools: 1 }]);
});
