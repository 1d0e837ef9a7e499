// A fallback on another provider talks to that provider as `-m` would: with its own key (never the
// one --api-key or HEY_API_KEY gave for the model in use, which would reach another vendor), and a
// failure of the fallback is explained by the fallback's endpoint. The compiled binary against two
// loopback model servers, the first rate-limited, the second answering.
import { afterAll, expect, test } from "bun:test";
import { runHey, tempDir } from "../helpers/e2e.ts";
import { fileModelServer, writeUserConfig } from "../helpers/fixtures.ts";

/** A server that answers every POST with `body`, and keeps each POST's Authorization header. */
function failing(body: () => Response) {
  const auth: (string | null)[] = [];
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: (req) => (req.method === "POST" && auth.push(req.headers.get("authorization")), body()),
  });
  afterAll(() => server.stop(true));
  return { url: `http://127.0.0.1:${server.port}/v1`, auth };
}

const limited = failing(() => Response.json({ error: { message: "slow down" } }, { status: 429 }));
const routerless = failing(() => new Response("404 page not found", { status: 404 }));
const answering = fileModelServer(() => ({ text: "hello from b" }));

/** a home whose config names `a` (at `aUrl`, key ${A_KEY}) and `b` (at `bUrl`, key ${B_KEY}), without retries */
function home(aUrl: string, bUrl = answering.baseUrl): string {
  const dir = tempDir("hey-fallback-keys-");
  afterAll(() => dir.remove());
  writeUserConfig(
    dir.path,
    `[provider.a]\nbase_url = "${aUrl}"\napi_key = "\${A_KEY}"\nmodels = ["m1"]\n` +
      `[provider.b]\nbase_url = "${bUrl}"\napi_key = "\${B_KEY}"\nmodels = ["m2"]\n[retry]\nmax_retries = 0\n`,
  );
  return dir.path;
}

test.each([
  ["--api-key", ["--api-key", "SECRET-FOR-A"], {}],
  ["HEY_API_KEY", [], { HEY_API_KEY: "SECRET-FOR-A" }],
] as const)("a key given by %s goes to the model in use only: the fallback on another provider gets its own provider's key", async (_, flags, env) => {
  const h = home(limited.url);
  const [asked, answered] = [limited.auth.length, answering.headers.length];
  const run = await runHey(["-m", "a/m1", ...flags, "--fallback-model", "b/m2", "-p", "hi"], { cwd: h, env: { HOME: h, B_KEY: "key-of-b", ...env } });
  expect(run.stdout).toBe("hello from b\n");
  expect(run.code).toBe(0);
  expect(limited.auth.slice(asked)).toEqual(["Bearer SECRET-FOR-A"]);
  expect(answering.headers.slice(answered).map((h) => h.authorization)).toEqual(["Bearer key-of-b"]);
  expect(run.stderr).toContain("falling back from a/m1 to b/m2");
});

test("a fallback whose own key variable has no value: warned of at start-up, and still never sent the key given for the model in use", async () => {
  const h = home(limited.url);
  const answered = answering.headers.length;
  const run = await runHey(["-m", "a/m1", "--api-key", "SECRET-FOR-A", "--fallback-model", "b/m2", "-p", "hi"], { cwd: h, env: { HOME: h } });
  expect(run.stderr).toContain('hey: --fallback-model "b/m2": ');
  expect(run.stderr).toContain("[provider.b] api_key: ${B_KEY} has no value, so provider b sends no API key");
  expect(answering.headers.slice(answered).map((h) => h.authorization)).toEqual([undefined]);
});

test("a fallback that fails too is explained by its own endpoint: the setup advice names the fallback's base_url, not the first model's", async () => {
  const h = home(limited.url, routerless.url);
  const run = await runHey(["-m", "a/m1", "--fallback-model", "b/m2", "-p", "hi"], { cwd: h, env: { HOME: h, A_KEY: "ka", B_KEY: "kb" } });
  expect(run.code).toBe(1);
  expect(run.stderr).toContain("falling back from a/m1 to b/m2");
  const advice = run.stderr.split("\n").find((l) => l.includes("check the path of base_url"));
  expect(advice).toContain(`(${routerless.url})`);
  expect(advice).not.toContain(limited.url);
});
