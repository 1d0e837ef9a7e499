// A model that gives up on a request hands it to the fallback at once: the compiled binary against
// two loopback model servers, the first failing, the second answering. The switch is said on stderr
// (and as a `fallback` event in JSON), the session records which model answered, and the next run
// starts on the model again; a bad key is never handed on; a fallback that names no provider stops
// hey at start-up.
import { afterAll, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { jsonEvents, runHey, tempDir } from "../helpers/e2e.ts";
import { fileModelServer, writeUserConfig } from "../helpers/fixtures.ts";

/** A server that answers every request with `status` (and counts them); its body as OpenAI's errors are. */
function failing(status: number, message: string) {
  let requests = 0;
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: (req) => (req.method === "POST" && requests++, Response.json({ error: { message } }, { status })),
  });
  afterAll(() => server.stop(true));
  return { url: `http://127.0.0.1:${server.port}/v1`, requests: () => requests };
}

const busy = failing(503, "busy, try later");
const locked = failing(401, "invalid api key");
const removed = failing(404, "The model `m1` does not exist or you do not have access to it.");
const answering = fileModelServer((req) =>
  req.messages.some((m) => m.role === "tool") ? { text: "done on b" } : { calls: [["bash", { command: "echo hi" }]] },
);

/** a home whose config names `a` (at `aUrl`, the default) and `b` (the answering server), with short retries (and `retry`'s other keys) */
function home(aUrl: string, retry = ""): { path: string; remove(): void } {
  const dir = tempDir("hey-fallback-");
  writeUserConfig(
    dir.path,
    `[default]\nprovider = "a"\nmodel = "m1"\n[provider.a]\nbase_url = "${aUrl}"\napi_key = "k"\nmodels = ["m1"]\n` +
      `[provider.b]\nbase_url = "${answering.baseUrl}"\napi_key = "k"\nmodels = ["m2"]\n` +
      `[retry]\nmax_retries = 1\nbase_delay_ms = 0\njitter = false\n${retry}[permission]\nallow = ["bash: echo *"]\n`,
  );
  afterAll(() => dir.remove());
  return dir;
}

test("a 503 after its retries: the request goes to the fallback, the task completes there, stderr names both models and why", async () => {
  const h = home(busy.url);
  const before = { a: busy.requests(), b: answering.requests.length };
  const run = await runHey(["-p", "run echo hi", "--fallback-model", "b/m2"], { cwd: h.path, env: { HOME: h.path } });
  expect(run.stdout).toBe("done on b\n");
  expect(run.code).toBe(0);
  expect(busy.requests() - before.a).toBe(2); // the try and its one retry, then never again in this run
  expect(answering.requests.length - before.b).toBe(2); // the tool call and the answer after it: the rest of the run stayed on b
  expect(answering.requests.at(-1)!.model).toBe("m2");
  expect(run.stderr).toContain(
    `hey: falling back from a/m1 to b/m2 for the rest of this run: a/m1 is overloaded or failing (${busy.url} (provider a): the provider is failing (503): busy, try later — gave up after 1 retry)\n`,
  );
  // the session says which model answered: b for this run's answers, then a again, which `hey -c` goes on with
  const dir = join(h.path, ".local", "state", "hey", "sessions");
  const file = readdirSync(dir).find((f) => f.endsWith(".jsonl"))!;
  const entries = readFileSync(join(dir, file), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { type: string; model?: string; message?: { role: string } });
  const told = entries.filter((e) => e.type === "model" || e.message?.role === "assistant").map((e) => (e.type === "model" ? e.model : e.message!.role));
  expect(told).toEqual(["m2", "assistant", "assistant", "m1"]); // the file begins with the first answer: b's
  const again = busy.requests();
  const continued = await runHey(["-c", "-p", "again"], { cwd: h.path, env: { HOME: h.path } });
  expect(continued.code).toBe(1); // no fallback named this time: a's error ends it
  expect(busy.requests() - again).toBe(2);
});

test("--output json: a fallback event names both models and the kind, stderr has the line, the result is the fallback's", async () => {
  const h = home(busy.url);
  const run = await runHey(["--output", "json", "-p", "run echo hi", "--fallback-model", "b/m2"], { cwd: h.path, env: { HOME: h.path } });
  expect(run.code).toBe(0);
  const events = jsonEvents(run.stdout);
  const fallback = events.find((e) => e.type === "fallback");
  expect(fallback).toMatchObject({ from: "a/m1", to: "b/m2", kind: "overloaded" });
  expect(String(fallback!.message)).toStartWith("falling back from a/m1 to b/m2");
  expect(events.find((e) => e.type === "result")).toMatchObject({ text: "done on b", stop_reason: "end" });
  expect(events.filter((e) => e.type === "error")).toEqual([]);
  expect(run.stderr).toContain("hey: falling back from a/m1 to b/m2");
});

test("HEY_FALLBACK_MODELS names them as the flag does, several comma-separated: one that names the model in use is passed over", async () => {
  const h = home(busy.url);
  const run = await runHey(["-p", "run echo hi"], { cwd: h.path, env: { HOME: h.path, HEY_FALLBACK_MODELS: "a/m1, b/m2" } });
  expect(run.code).toBe(0);
  expect(run.stdout).toBe("done on b\n");
  expect(run.stderr).toContain("falling back from a/m1 to b/m2");
});

test("a model the endpoint does not have (404 naming it) goes on with the fallback at once, without retries", async () => {
  const h = home(removed.url);
  const run = await runHey(["-p", "run echo hi", "--fallback-model", "b/m2"], { cwd: h.path, env: { HOME: h.path } });
  expect(run.code).toBe(0);
  expect(run.stdout).toBe("done on b\n");
  expect(removed.requests()).toBe(1);
  expect(run.stderr).toContain("hey: falling back from a/m1 to b/m2 for the rest of this run: a/m1 does not have the model (");
});

test("a silent endpoint (accepted, then not a byte) is given up on after two tries, and the fallback answers", async () => {
  let connections = 0;
  const mute = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { open: () => void connections++, data() {} } });
  try {
    const h = home(`http://127.0.0.1:${mute.port}/v1`, "idle_timeout_ms = 300\n");
    const run = await runHey(["-p", "run echo hi", "--fallback-model", "b/m2"], { cwd: h.path, env: { HOME: h.path } });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("done on b\n");
    expect(connections).toBe(2);
    expect(run.stderr).toContain("hey: falling back from a/m1 to b/m2 for the rest of this run: a/m1 cannot be reached or is stuck (no answer from");
  } finally {
    mute.stop(true);
  }
});

test("a bad key (401) is not handed to the fallback: the run ends with it, and the fallback is never asked", async () => {
  const h = home(locked.url);
  const before = answering.requests.length;
  const run = await runHey(["-p", "hi", "--fallback-model", "b/m2"], { cwd: h.path, env: { HOME: h.path } });
  expect(run.code).toBe(1);
  expect(answering.requests.length).toBe(before);
  expect(run.stderr).not.toContain("falling back");
  expect(run.stderr).toContain("invalid api key");
});

test("a fallback naming no provider stops hey at start-up, naming the flag and the name", async () => {
  const h = home(busy.url);
  const run = await runHey(["-p", "hi", "--fallback-model", "b/m2", "--fallback-model", "nope/x"], { cwd: h.path, env: { HOME: h.path } });
  expect(run.code).toBe(2);
  expect(run.stderr).toContain('--fallback-model "nope/x": unknown provider "nope"');
  const fromFile = home(busy.url);
  writeUserConfig(
    fromFile.path,
    `${readFileSync(join(h.path, ".config", "hey", "config.toml"), "utf8").replace("[provider.a]", 'fallback_models = ["nope/x"]\n[provider.a]')}`,
  );
  const filed = await runHey(["-p", "hi"], { cwd: fromFile.path, env: { HOME: fromFile.path } });
  expect(filed.code).toBe(2);
  expect(filed.stderr).toContain('config.toml:4: [default] fallback_models "nope/x": unknown provider "nope"');
});

test("/model lists the fallbacks after the models, the model in use still marked", async () => {
  const h = home(busy.url);
  const run = await runHey(["-p", "/model", "--fallback-model", "b/m2"], { cwd: h.path, env: { HOME: h.path } });
  expect(run.code).toBe(0);
  expect(run.stdout).toContain("* a/m1\n");
  expect(run.stdout).toContain("fallbacks: b/m2 (in order, for the rest of a prompt the model gives up on)\n");
});
