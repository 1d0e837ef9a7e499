// The window an endpoint's model list states is kept a week per endpoint and model
// (fs/listed-windows.ts through endpoint.ts serverOf): a hosted list (OpenRouter's is megabytes) is
// fetched once, not by every run that calls a tool; a list that states no window is remembered as
// such; a server on this machine or its network is asked each run; a failed list is not remembered; the cache
// file holds no credentials.
import { afterAll, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { resolveConfig } from "../src/config/resolve.ts";
import { serverOf } from "../src/endpoint.ts";
import { cachedWindow, LISTED_WINDOW_MS, listedKey, rememberWindow } from "../src/fs/listed-windows.ts";
import { tempDir } from "./helpers/e2e.ts";

const dirs: { remove(): void }[] = [];
afterAll(() => {
  for (const d of dirs) d.remove();
});
const cacheDir = () => {
  const d = tempDir("hey-listed-");
  dirs.push(d);
  return d.path;
};

/** A model list's fetch that counts its calls; `body` per call, or a status. */
function lists(answer: () => Response) {
  const urls: string[] = [];
  const fetchImpl = Object.assign(
    async (input: string | URL | Request) => {
      urls.push(String(input));
      return answer();
    },
    { preconnect: () => {} },
  ) as unknown as typeof fetch;
  return { urls, fetchImpl };
}

const settingsFor = (baseUrl: string, model = "vendor/big-model") => resolveConfig([], {}, { baseUrl, model, apiKey: "sk-test-secret-123" }).settings;
const openRouterList = () =>
  Response.json({
    data: [
      { id: "vendor/big-model", context_length: 131072 },
      { id: "other", context_length: 8192 },
    ],
  });

test("a hosted list is asked once a week per endpoint and model; the cache names neither key nor credentials", async () => {
  const dir = cacheDir();
  const base = "https://user:pw@openrouter.example/api/v1";
  const list = lists(openRouterList);
  expect(await serverOf(settingsFor(base), dir).listed!(list.fetchImpl)).toBe(131072);
  expect(await serverOf(settingsFor(base), dir).listed!(list.fetchImpl)).toBe(131072); // the next run
  expect(list.urls).toHaveLength(1);
  // another model of the same endpoint is its own entry
  expect(await serverOf(settingsFor(base, "other"), dir).listed!(list.fetchImpl)).toBe(8192);
  expect(list.urls).toHaveLength(2);
  const file = readFileSync(join(dir, "model-windows.json"), "utf8");
  expect(file).toContain("https://openrouter.example/api/v1 vendor/big-model");
  expect(file).not.toContain("pw@");
  expect(file).not.toContain("sk-test-secret-123");
});

test("a list that states no window is remembered as such; one that failed is asked again", async () => {
  const dir = cacheDir();
  const silent = lists(() => Response.json({ data: [{ id: "vendor/big-model" }] }));
  expect(await serverOf(settingsFor("https://api.example/v1"), dir).listed!(silent.fetchImpl)).toBeUndefined();
  expect(await serverOf(settingsFor("https://api.example/v1"), dir).listed!(silent.fetchImpl)).toBeUndefined();
  expect(silent.urls).toHaveLength(1);

  const failing = lists(() => new Response("upstream down", { status: 502 }));
  await serverOf(settingsFor("https://down.example/v1"), dir).listed!(failing.fetchImpl);
  await serverOf(settingsFor("https://down.example/v1"), dir).listed!(failing.fetchImpl);
  expect(failing.urls).toHaveLength(2);
});

test("a server on this machine or its network is asked each run: restarted, it may run the model with another window", async () => {
  // a vLLM on the box under the desk, a homelab's name, as served-context.ts isLocalHost knows them
  for (const base of ["http://127.0.0.1:8000/v1", "http://192.168.1.20:8000/v1", "http://gpu-box.lan:8000/v1"]) {
    const dir = cacheDir();
    let window = 4096;
    const local = lists(() => Response.json({ data: [{ id: "vendor/big-model", max_model_len: window }] }));
    expect(await serverOf(settingsFor(base), dir).listed!(local.fetchImpl)).toBe(4096);
    window = 32768;
    expect(await serverOf(settingsFor(base), dir).listed!(local.fetchImpl)).toBe(32768);
    expect(local.urls).toHaveLength(2);
  }
});

test("what a list said is used for a week, then asked again; a broken cache file is no cache", async () => {
  const dir = cacheDir();
  const key = listedKey("openai", "https://api.example/v1/", "m");
  await rememberWindow(dir, key, 65536, 1_000);
  expect(cachedWindow(dir, key, 1_000 + LISTED_WINDOW_MS)).toEqual({ tokens: 65536 });
  expect(cachedWindow(dir, key, 1_001 + LISTED_WINDOW_MS)).toBeUndefined();
  writeFileSync(join(dir, "model-windows.json"), "{ not json");
  expect(cachedWindow(dir, key, 1_000)).toBeUndefined();
  await rememberWindow(dir, key, 8192, 2_000); // a broken file is replaced
  expect(cachedWindow(dir, key, 2_000)).toEqual({ tokens: 8192 });
});
