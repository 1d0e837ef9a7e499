// A sign-in stored outside this hey, as servers waiting for one take it up (sign-in-watch.ts):
// every server at its URL does, and a server the watch started again that is refused again is
// left alone, so two heys sharing a sign-in the server refuses do not reconnect and refresh at
// every request. Against the fake OAuth-protected server (test/helpers/oauth-server.ts).
import { afterEach, beforeEach, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { connectServer } from "../../src/mcp/client.ts";
import { createCredentialStore, watchStore } from "../../src/mcp/credentials.ts";
import { signIn } from "../../src/mcp/login.ts";
import { createMcpManager } from "../../src/mcp/manager.ts";
import { signedIn } from "../../src/mcp/oauth.ts";
import { watchSignIns } from "../../src/mcp/sign-in-watch.ts";
import { createToolStore } from "../../src/mcp/store.ts";
import { tempDir } from "../helpers/e2e.ts";
import { serverSettings } from "../helpers/mcp.ts";
import { type OAuthFake, startOAuthFake } from "../helpers/oauth-server.ts";

setDefaultTimeout(30_000);

const BROWSER = `node ${join(import.meta.dir, "..", "fixtures", "mcp", "browser.mjs")}`;
let dir: ReturnType<typeof tempDir>;
const fakes: OAuthFake[] = [];
const cleanup: (() => Promise<void>)[] = [];
beforeEach(() => {
  dir = tempDir("hey-sign-in-watch-");
});
afterEach(async () => {
  for (const c of cleanup.splice(0)) await c();
  for (const f of fakes.splice(0)) f.stop();
  dir.remove();
});

const fake = (opts: Parameters<typeof startOAuthFake>[0] = {}) => {
  const f = startOAuthFake(opts);
  fakes.push(f);
  return f;
};
const store = () => createCredentialStore(join(dir.path, "config"));
/** `hey mcp login` in a shell: its own store over the shared directory */
const login = (url: string) =>
  signIn(serverSettings("remote", { url }), {
    store: store(),
    fetch,
    env: { BROWSER, PATH: process.env.PATH ?? "" },
    print: () => {},
    signal: new AbortController().signal,
    timeoutMs: 10_000,
  });

/** A hey (its own store over the shared directory, its own cache) with a server named each of `names` at `url`, reached through `send`. */
function hey(url: string, names = ["remote"], send: typeof fetch = fetch) {
  const events: { server: string; state: string }[] = [];
  const creds = store();
  const m = createMcpManager(
    { servers: names.map((n) => serverSettings(n, { url })), startupWaitMs: 10_000, off: false },
    {
      connect: (s, hooks, signal) =>
        connectServer(s, hooks, { version: "test", env: {}, fetch: send, auth: (s, refresh) => signedIn(s, creds, Date.now, refresh) }, signal),
      store: createToolStore(join(dir.path, `cache-${crypto.randomUUID()}`)),
      missingCommand: () => undefined,
      report: (e) => void events.push(e as never),
      warn: () => {},
      refused: () => false,
      budget: () => 40_000,
      signIns: watchStore(() => creds),
      now: Date.now,
    },
  );
  cleanup.push(() => m.close());
  /** one request, and a call of whoami when it is offered */
  const call = async () => {
    const tool = (await m.tools([], new AbortController().signal)).find((t) => t.name === "whoami");
    return tool ? (await tool.run({}, { signal: new AbortController().signal, cwd: dir.path })).output : "(no whoami offered)";
  };
  const states = () => Object.fromEntries(m.status().map((s) => [s.name, s.state]));
  return { m, events, call, states };
}

test("two heys whose server refuses every token its sign-in server still refreshes stop trying after one restart each: no refresh at every request", async () => {
  const f = fake();
  expect((await login(f.url)).ok).toBe(true);
  const a = hey(f.url);
  const b = hey(f.url);
  expect(await a.call()).toBe(`you sent: Bearer ${f.issued[0]}`);
  expect(await b.call()).toBe(`you sent: Bearer ${f.issued[0]}`);
  f.refuseTokens();
  for (let i = 0; i < 3; i++) await a.call(), await b.call();
  expect(a.states()).toEqual({ remote: "auth_required" });
  expect(b.states()).toEqual({ remote: "auth_required" });
  const asked = { mcp: f.seen.length, grants: f.grants.length };
  const said = a.events.length + b.events.length;
  for (let i = 0; i < 5; i++) await a.call(), await b.call();
  expect({ mcp: f.seen.length, grants: f.grants.length }).toEqual(asked); // quiet: no reconnect, no refresh grant
  expect(a.events.length + b.events.length).toBe(said); // and no new line to the user
  expect(f.grants.filter((g) => g === "refresh_token").length).toBeLessThanOrEqual(4);
});

test("two heys whose server connects with every token but refuses every call stop after one restart each: connecting does not renew the watch's restart", async () => {
  const f = fake();
  expect((await login(f.url)).ok).toBe(true);
  const a = hey(f.url);
  const b = hey(f.url);
  expect(await a.call()).toBe(`you sent: Bearer ${f.issued[0]}`);
  expect(await b.call()).toBe(`you sent: Bearer ${f.issued[0]}`);
  f.refuseCalls();
  for (let i = 0; i < 4; i++) await a.call(), await b.call();
  const asked = { mcp: f.seen.length, grants: f.grants.length };
  const said = a.events.length + b.events.length;
  for (let i = 0; i < 5; i++) await a.call(), await b.call();
  expect({ mcp: f.seen.length, grants: f.grants.length }).toEqual(asked); // quiet: no reconnect, no refresh grant
  expect(a.events.length + b.events.length).toBe(said);
  expect(a.states()).toEqual({ remote: "auth_required" });
  expect(b.states()).toEqual({ remote: "auth_required" });
});

test("a sign-in made elsewhere is taken up by every server at its URL, not the first only", async () => {
  const f = fake();
  const { m, states } = hey(f.url, ["work", "work-ro"]);
  await m.tools([], new AbortController().signal);
  expect(states()).toEqual({ work: "auth_required", "work-ro": "auth_required" });
  expect((await login(f.url)).ok).toBe(true);
  await m.tools([], new AbortController().signal);
  expect(states()).toEqual({ work: "connected", "work-ro": "connected" });
});

test("the watch: each server takes up a new token once; a restart it made that is refused again is watched no more, until the server answers or the user starts it", () => {
  let file = { stamp: "1", token: "t1" };
  const watch = watchSignIns({ stamp: () => file.stamp, read: () => ({ tokens: { access_token: file.token } }) });
  const url = "https://x/mcp";
  watch.refused("a", url, file.token);
  watch.refused("b", url, file.token);
  expect([watch.fresh("a", url), watch.fresh("b", url)]).toEqual([false, false]); // nothing new
  file = { stamp: "2", token: "t2" };
  expect([watch.fresh("a", url), watch.fresh("b", url)]).toEqual([true, true]);
  expect([watch.fresh("a", url), watch.fresh("b", url)]).toEqual([false, false]); // once
  watch.refused("a", url, file.token); // the restart was refused: t2 is refused too
  file = { stamp: "3", token: "t3" }; // another hey's refused attempt refreshed it
  expect(watch.fresh("a", url)).toBe(false);
  watch.cleared("a"); // `/mcp login` brought it back
  watch.refused("a", url, file.token);
  file = { stamp: "4", token: "t4" };
  expect(watch.fresh("a", url)).toBe(true);
  watch.refused("a", url, file.token); // connected with t4, then refused at its first call
  file = { stamp: "5", token: "t5" };
  expect(watch.fresh("a", url)).toBe(false);
  watch.cleared("a"); // a call answered: the sign-in worked
  watch.refused("a", url, file.token);
  file = { stamp: "6", token: "t6" };
  expect(watch.fresh("a", url)).toBe(true);
});

test("a sign-in another hey stores while this one's attempt is being refused is taken up, not held for the refused one", async () => {
  const f = fake({ refresh: false }); // no refresh token: a refused token is the end of that sign-in
  expect((await login(f.url)).ok).toBe(true);
  let signedInElsewhere: Promise<unknown> | undefined;
  // the server refuses this hey's token; before the refusal reaches it, another hey signs in anew
  const send = (async (input: string | URL | Request, init?: RequestInit) => {
    const res = await fetch(input, init);
    if (res.status === 401 && !signedInElsewhere) await (signedInElsewhere = login(f.url));
    return res;
  }) as typeof fetch;
  const a = hey(f.url, ["remote"], send);
  expect(await a.call()).toBe(`you sent: Bearer ${f.issued[0]}`);
  f.expireAll(); // the token it holds runs out
  expect(await a.call()).toContain("sign");
  expect(signedInElsewhere).toBeDefined();
  expect(a.states()).toEqual({ remote: "auth_required" });
  // old code: the new token was held for the refused one, and the server waited for a sign-in the user had made
  expect(await a.call()).toBe(`you sent: Bearer ${f.issued.at(-1)}`);
  expect(a.states()).toEqual({ remote: "connected" });
});

test("the watch takes the token the refused attempt sent, not what is stored when the refusal is recorded", () => {
  let file = { stamp: "1", token: "t1" };
  const watch = watchSignIns({ stamp: () => file.stamp, read: () => ({ tokens: { access_token: file.token } }) });
  const url = "https://x/mcp";
  file = { stamp: "2", token: "t2" }; // another hey's new sign-in, stored before the refusal of t1 was recorded
  watch.refused("a", url, "t1");
  expect(watch.fresh("a", url)).toBe(true);
  expect(watch.fresh("a", url)).toBe(false); // once
  watch.refused("b", url, "t2"); // refused with what is stored: nothing new
  expect(watch.fresh("b", url)).toBe(false);
  watch.refused("c", url, undefined); // no token sent (the stored one past its expiry): the stored one is what it refused
  expect(watch.fresh("c", url)).toBe(false);
});

test("a refreshed token the server's auth layer refuses with 500 server_error is what the watch holds refused, not the expired one before it: a new sign-in made elsewhere is still taken up", async () => {
  const f = fake();
  expect((await login(f.url)).ok).toBe(true);
  // the refreshed token is refused as the SDK's bearer middleware refuses a token it cannot verify; others pass
  const send = (async (input: string | URL | Request, init?: RequestInit) => {
    const bearer = /^Bearer\s+(\S+)/.exec(new Headers(init?.headers).get("authorization") ?? "")?.[1];
    if (bearer !== undefined && bearer === f.issued[1])
      return Response.json({ error: "server_error", error_description: "Internal Server Error" }, { status: 500 });
    return fetch(input, init);
  }) as typeof fetch;
  const a = hey(f.url, ["remote"], send);
  expect(await a.call()).toBe(`you sent: Bearer ${f.issued[0]}`);
  f.expireAll(); // 401 for the first token; its refresh gives the second, which is refused with 500
  expect(await a.call()).toContain("refused hey's sign-in with HTTP 500 server_error");
  expect(f.issued.length).toBe(2);
  expect(a.states()).toEqual({ remote: "auth_required" });
  const seen = f.seen.length;
  await a.call(); // the stored token is the refused one: no restart spent on it, no request
  expect(f.seen.length).toBe(seen);
  expect((await login(f.url)).ok).toBe(true); // a real new sign-in, made elsewhere
  expect(await a.call()).toBe(`you sent: Bearer ${f.issued.at(-1)}`);
});
