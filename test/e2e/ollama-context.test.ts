// A local Ollama that runs the model with a 4,096-token context cuts longer prompts from the start
// without an error (test/helpers/ollama-server.ts does as its documentation says). Through
// dist/hey: hey asks the server's /api/ps after the first answer that names Ollama, builds the
// later requests to fit, and says once how to raise the context; LM Studio and llama-server are
// asked their own APIs the same way; a server that says nothing, or an older one, leaves the run
// as it was.
import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { jsonEvents, runHey, tempDir } from "../helpers/e2e.ts";
import { startOllama, type OllamaServer } from "../helpers/ollama-server.ts";
import { startHttpProxy, type HttpProxyRequest, type TestProxy } from "../helpers/proxies.ts";
import { startTerm, type Term } from "../helpers/tmux.ts";

/** A ~3 KB source file: six of them and hey's first request are far more than 4,096 tokens. */
const source = (n: number) => Array.from({ length: 60 }, (_, i) => `export const f${n}_${i} = "${"abcdefghij".repeat(3)}";`).join("\n") + "\n";

let work: ReturnType<typeof tempDir> | undefined;
let ollama: OllamaServer | undefined;
let term: Term | undefined;
afterEach(async () => {
  await term?.close();
  term = undefined;
  ollama?.stop();
  work?.remove();
  ollama = work = undefined;
});

/**
 * A run reading the files (those of `big` ten times as long: ~30 KB, more than a 4,096-token
 * context alone); `baseUrl` in place of the server's own (a host name the proxy of `args` resolves to it).
 */
async function session(server: OllamaServer, config = "", opts: { baseUrl?: string; args?: string[]; big?: number[]; name?: string } = {}) {
  work = tempDir("hey-ollama-");
  mkdirSync(join(work.path, "src"));
  for (let n = 1; n <= 8; n++) writeFileSync(join(work.path, "src", `file${n}.ts`), opts.big?.includes(n) ? source(n).repeat(10) : source(n));
  const name = opts.name ?? "ollama"; // a table named ollama is asked before the first request too: the model may be loaded
  writeFileSync(join(work.path, "hey.toml"), `[provider.${name}]\nbase_url = "${opts.baseUrl ?? server.baseUrl}"\nmodels = ["qwen3"]\n${config}`);
  const args = [
    "-m",
    `${name}/qwen3`,
    "--config",
    join(work.path, "hey.toml"),
    "--output",
    "json",
    ...(opts.args ?? []),
    "-p",
    "read the files in src/ one by one",
  ];
  return runHey(args, { cwd: work.path, timeoutMs: 60_000, env: { XDG_STATE_HOME: join(work.path, "state") } });
}

const NOTICE =
  /^hey: Ollama runs qwen3 with a context of 4,096 tokens, too small for an agent .*OLLAMA_CONTEXT_LENGTH=32768 ollama serve.*context_window in \[provider\.ollama\]/m;

test("a 4,096-token Ollama context: no request is cut by the server, and the user is told once how to raise it", async () => {
  ollama = startOllama({ model: "qwen3", context: 4096, reads: 6 });
  const run = await session(ollama);
  expect(run.code).toBe(0);
  expect(jsonEvents(run.stdout).find((e) => e.type === "result")).toMatchObject({ text: "Read all 6 files." });
  expect(ollama.log.reduce((n, x) => n + x.tokens, 0)).toBeGreaterThan(3 * 4096); // the session grows well past the context
  // every request the model saw held hey's system prompt and the task: Ollama dropped nothing
  expect(ollama.log.map((x) => x.dropped)).toEqual(ollama.log.map(() => 0));
  expect(ollama.psRequests).toBe(2); // before the first request (not loaded yet: its Modelfile asked too), and after it
  expect(ollama.shows).toBe(1);
  expect(run.stderr.match(new RegExp(NOTICE.source, "gm"))?.length).toBe(1);
}, 90_000);

test("no configuration, OLLAMA_HOST naming where Ollama listens: hey talks to that Ollama, as Ollama's own client does", async () => {
  ollama = startOllama({ model: "qwen3", context: 32_768, reads: 2 });
  work = tempDir("hey-ollama-");
  mkdirSync(join(work.path, "src"));
  for (let n = 1; n <= 2; n++) writeFileSync(join(work.path, "src", `file${n}.ts`), source(n));
  const host = new URL(ollama.baseUrl).host; // 127.0.0.1:PORT, as `OLLAMA_HOST=127.0.0.1:PORT ollama serve` is told
  const run = await runHey(["--output", "json", "-p", "read the files in src/ one by one"], {
    cwd: work.path,
    env: { OLLAMA_HOST: host, XDG_STATE_HOME: join(work.path, "state") },
  });
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  expect(jsonEvents(run.stdout).find((e) => e.type === "result")).toMatchObject({ text: "Read all 2 files." });
  expect(ollama.log.length).toBe(3);
}, 90_000);

test("a 32,768-token Ollama context: asked before the first request and after it, nothing said, the run as before", async () => {
  ollama = startOllama({ model: "qwen3", context: 32_768, reads: 3 });
  const run = await session(ollama);
  expect(run.code).toBe(0);
  expect(run.stderr).toBe("");
  expect(ollama.psRequests).toBe(2);
  expect(ollama.log.map((x) => x.dropped)).toEqual(ollama.log.map(() => 0));
}, 90_000);

test("a proxy in front that passes only /v1, or an Ollama older than context_length: the run goes on, nothing said", async () => {
  for (const ps of ["none", "old"] as const) {
    ollama = startOllama({ model: "qwen3", context: 32_768, reads: 2, ps });
    const run = await session(ollama);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
    expect(jsonEvents(run.stdout).find((e) => e.type === "result")).toMatchObject({ text: "Read all 2 files." });
    ollama.stop();
    work?.remove();
    ollama = work = undefined;
  }
}, 90_000);

test("an Ollama behind a key: the probe carries the key the model requests carry", async () => {
  ollama = startOllama({ model: "qwen3", context: 32_768, reads: 1 });
  const run = await session(ollama, 'api_key = "sk-local-1"\n');
  expect(run.code).toBe(0);
  expect(ollama.gets).toEqual(["/api/ps", "/api/ps"]);
  expect(ollama.getAuth).toEqual(["Bearer sk-local-1", "Bearer sk-local-1"]);
}, 90_000);

test("context_window below what the server runs: it stands, nothing said", async () => {
  ollama = startOllama({ model: "qwen3", context: 32_768, reads: 1 });
  const run = await session(ollama, "context_window = 16384\n");
  expect(run.code).toBe(0);
  expect(run.stderr).toBe("");
  expect(ollama.psRequests).toBe(2); // asked all the same: context_window is no setting of the server's
}, 90_000);

const BELOW =
  /^hey: Ollama runs qwen3 with a context of (about )?4,\d{3} tokens, less than context_window = 32768 in \[provider\.ollama\]: context_window tells hey the model's window, it does not change the server's, so hey keeps each request within 4,\d{3}\. Give the server more: OLLAMA_CONTEXT_LENGTH=32768 ollama serve .*PARAMETER num_ctx 32768/m;

test("context_window = 32768 as the notice suggests, the server running 4,096: said with both numbers, and no request cut", async () => {
  ollama = startOllama({ model: "qwen3", context: 4096, reads: 8 });
  const run = await session(ollama, "context_window = 32768\n");
  expect(run.code).toBe(0);
  expect(jsonEvents(run.stdout).find((e) => e.type === "result")).toMatchObject({ text: "Read all 8 files." });
  expect(ollama.log.map((x) => x.dropped)).toEqual(ollama.log.map(() => 0));
  expect(run.stderr.match(new RegExp(BELOW.source, "gm"))?.length).toBe(1);
}, 90_000);

test("…and behind a proxy that passes only /v1: its usage shows it, said with both numbers", async () => {
  ollama = startOllama({ model: "qwen3", context: 4096, reads: 8, ps: "none" });
  const run = await session(ollama, "context_window = 32768\n");
  expect(run.code).toBe(0);
  const cut = ollama.log.map((x) => x.dropped > 0);
  expect(cut.slice(cut.lastIndexOf(true) + 1).length).toBeGreaterThanOrEqual(4); // every request after it fits
  expect(run.stderr.match(new RegExp(BELOW.source, "gm"))?.length).toBe(1);
}, 90_000);

test("a server on this machine whose answers name no server (vLLM, on a port of its own) is asked none of the local servers' own APIs", async () => {
  ollama = startOllama({ model: "qwen3", context: 32_768, reads: 2, fingerprint: false });
  const run = await session(ollama, "", { name: "local" });
  expect(run.code).toBe(0);
  expect(run.stderr).toBe("");
  expect(ollama.gets.filter((g) => g !== "/v1/models")).toEqual([]); // only its model list (test/e2e/listed-window.test.ts)
}, 90_000);

test("llama-server (its build as the answers' fingerprint) with -c 4096: GET /props, no request cut, the user told how to raise it", async () => {
  ollama = startOllama({ model: "qwen3", context: 4096, reads: 6, as: "llama.cpp" });
  const run = await session(ollama, "", { name: "local" });
  expect(run.code).toBe(0);
  expect(ollama.log.map((x) => x.dropped)).toEqual(ollama.log.map(() => 0));
  expect(ollama.gets).toEqual(["/props"]);
  expect(run.stderr).toMatch(/^hey: llama-server runs qwen3 with a context of 4,096 tokens, too small for an agent; .*-c 32768/m);
}, 90_000);

describe("on another machine, reached through a proxy", () => {
  let proxy: TestProxy<HttpProxyRequest> | undefined;
  afterEach(() => {
    proxy?.close();
    proxy = undefined;
  });
  /** A run against `host` (at `port`, else the server's own), which the proxy resolves to the server. */
  const through = async (server: OllamaServer, host: string, port = new URL(server.baseUrl).port, name = "local") => {
    proxy = await startHttpProxy({ hosts: { [host]: `127.0.0.1:${new URL(server.baseUrl).port}` } });
    return session(server, "", { baseUrl: `http://${host}:${port}/v1`, args: ["--proxy", proxy.url], name });
  };

  const LM_STUDIO =
    /^hey: LM Studio runs qwen3 with a context of 4,096 tokens, too small for an agent; .*lms load MODEL --context-length 32768.*\[provider\.local\]/m;

  test.each(["lmstudio", "lmstudio-v0"] as const)(
    "LM Studio (%s) on its port 1234 of a machine on the network, with a 4,096-token context: asked its loaded context, no request cut, the user told once",
    async (as) => {
      ollama = startOllama({ model: "qwen3", context: 4096, reads: 6, as });
      const run = await through(ollama, "studio.lan", "1234");
      expect(run.code).toBe(0);
      expect(jsonEvents(run.stdout).find((e) => e.type === "result")).toMatchObject({ text: "Read all 6 files." });
      expect(ollama.log.map((x) => x.dropped)).toEqual(ollama.log.map(() => 0));
      expect(ollama.gets).toEqual(as === "lmstudio" ? ["/api/v1/models"] : ["/api/v1/models", "/api/v0/models"]);
      expect(run.stderr.match(new RegExp(LM_STUDIO.source, "gm"))?.length).toBe(1);
    },
    90_000,
  );

  test("hey doctor names LM Studio and the GET that told its context (/api/v0/models of an LM Studio before 0.4)", async () => {
    ollama = startOllama({ model: "qwen3", context: 4096, reads: 0, as: "lmstudio-v0" });
    proxy = await startHttpProxy({ hosts: { "studio.lan": `127.0.0.1:${new URL(ollama.baseUrl).port}` } });
    work = tempDir("hey-ollama-");
    writeFileSync(join(work.path, "hey.toml"), `[provider.lms]\nbase_url = "http://studio.lan:1234/v1"\nmodels = ["qwen3"]\n`);
    const run = await runHey(["doctor", "-m", "lms/qwen3", "--config", join(work.path, "hey.toml"), "--proxy", proxy.url], {
      cwd: work.path,
      timeoutMs: 60_000,
    });
    const lines = run.stdout.split("\n");
    const at = lines.findIndex((l) => l.slice(2).startsWith("server context"));
    expect(lines[at]).toContain("LM Studio runs qwen3 with 4,096 tokens (GET /api/v0/models)");
    expect(lines.slice(at, at + 3).join(" ")).toContain("lms load MODEL --context-length 32768");
  }, 90_000);

  test("a remote Ollama (any host, any port: its answers name it) is asked /api/ps there, and no request is cut", async () => {
    ollama = startOllama({ model: "qwen3", context: 4096, reads: 6 });
    const run = await through(ollama, "gpu-box.example.com", undefined, "ollama");
    expect(run.code).toBe(0);
    expect(ollama.log.map((x) => x.dropped)).toEqual(ollama.log.map(() => 0));
    const ps = `http://gpu-box.example.com:${new URL(ollama.baseUrl).port}/api/ps`;
    expect(proxy!.log.filter((r) => r.method === "GET").map((r) => r.target)).toEqual([ps, ps]); // its table's name says Ollama: asked before the first request too
    expect(run.stderr.match(new RegExp(NOTICE.source, "gm"))?.length).toBe(1);
  }, 90_000);

  test("a public host whose answers name no server is asked nothing beyond the model requests and its model list, even on port 1234", async () => {
    ollama = startOllama({ model: "qwen3", context: 32_768, reads: 1, fingerprint: false });
    const run = await through(ollama, "api.example.com", "1234");
    expect(run.code).toBe(0);
    expect(ollama.gets.filter((g) => g !== "/v1/models")).toEqual([]);
  }, 90_000);
});

test("hey doctor reports the context a local Ollama runs the model with, and how to raise a small one", async () => {
  ollama = startOllama({ model: "qwen3", context: 4096, reads: 0 });
  work = tempDir("hey-ollama-");
  writeFileSync(join(work.path, "hey.toml"), `[provider.ollama]\nbase_url = "${ollama.baseUrl}"\nmodels = ["qwen3"]\ncontext_window = 32768\n`);
  const run = await runHey(["doctor", "-m", "ollama/qwen3", "--config", join(work.path, "hey.toml")], { cwd: work.path, timeoutMs: 60_000 });
  const lines = run.stdout.split("\n");
  const at = lines.findIndex((l) => l.slice(2).startsWith("server context"));
  expect(lines[at]).toContain("Ollama runs qwen3 with 4,096 tokens (GET /api/ps)"); // asked even with context_window set: it may be wrong
  expect(lines[at]).toContain("too small for an agent");
  expect(lines.slice(at, at + 3).join(" ")).toContain("OLLAMA_CONTEXT_LENGTH=32768 ollama serve");
}, 90_000);

test("an Ollama older than /api/ps's context_length: its prompt tokens stop growing, hey sees the cut, fits the rest and says so once", async () => {
  ollama = startOllama({ model: "qwen3", context: 4096, reads: 8, ps: "old" });
  const run = await session(ollama);
  expect(run.code).toBe(0);
  expect(jsonEvents(run.stdout).find((e) => e.type === "result")).toMatchObject({ text: "Read all 8 files." });
  const cut = ollama.log.map((x) => x.dropped > 0);
  expect(cut.filter(Boolean).length).toBe(2); // two cut answers are how it shows…
  expect(cut.slice(cut.lastIndexOf(true) + 1).length).toBeGreaterThanOrEqual(4); // …and every request after them fits
  expect(run.stderr.match(/^hey: Ollama runs qwen3 with a context of about 4,0\d\d tokens, too small for an agent/gm)?.length).toBe(1);
}, 90_000);

test("an older Ollama whose last message alone overflows (two big files read in a row): it reads half its context of them, and hey finds the whole, not the half", async () => {
  ollama = startOllama({ model: "qwen3", context: 4096, reads: 5, ps: "old" });
  const run = await session(ollama, "", { big: [3, 4] });
  expect(run.code).toBe(0);
  expect(ollama.log.filter((x) => x.halved).length).toBeGreaterThan(0);
  // half of a round context read: the cut said at once, a notice of the run (test/e2e/ollama-first-request.test.ts)
  const told = jsonEvents(run.stdout).filter(
    (e) => e.type === "notice" && String(e.message).startsWith("Ollama cut hey's request to the 4,096 tokens it runs qwen3 with"),
  );
  expect(told.length).toBe(1);
}, 90_000);

test("hey -c on that Ollama starts within the context found before: its first request is not cut either", async () => {
  ollama = startOllama({ model: "qwen3", context: 4096, reads: 8 });
  expect((await session(ollama)).code).toBe(0);
  const before = ollama.log.length;
  const args = ["-m", "ollama/qwen3", "--config", join(work!.path, "hey.toml"), "--output", "json", "-c", "-p", "which file came last?"];
  const next = await runHey(args, { cwd: work!.path, timeoutMs: 60_000, env: { XDG_STATE_HOME: join(work!.path, "state") } });
  expect(next.code).toBe(0);
  const resumed = ollama.log.slice(before);
  expect(resumed[0]?.body).toContain("which file came last?");
  expect(resumed.map((x) => x.dropped)).toEqual(resumed.map(() => 0));
}, 90_000);

test("in the REPL the line comes once, on a line of its own, however many prompts follow", async () => {
  ollama = startOllama({ model: "qwen3", context: 4096, reads: 3 });
  work = tempDir("hey-ollama-");
  mkdirSync(join(work.path, "src"));
  for (let n = 1; n <= 3; n++) writeFileSync(join(work.path, "src", `file${n}.ts`), source(n));
  writeFileSync(join(work.path, "hey.toml"), `[provider.ollama]\nbase_url = "${ollama.baseUrl}"\nmodels = ["qwen3"]\n`);
  const config = join(work.path, "hey.toml");
  term = await startTerm({ args: ["-m", "ollama/qwen3", "--config", config], cwd: work.path, cols: 120, env: { XDG_STATE_HOME: join(work.path, "state") } });
  await term.waitFor((s) => s.trimEnd().split("\n").at(-1)?.trimEnd() === "›");
  await term.type("read the files in src/ one by one");
  await term.keys("Enter");
  await term.waitFor("Read all 3 files.");
  await term.type("and again");
  await term.keys("Enter");
  await term.waitFor((s) => s.split("Read all 3 files.").length > 2);
  const screen = await term.screen({ scrollback: true, joined: true });
  const told = screen.split("\n").filter((l) => l.includes("Ollama runs qwen3 with a context of 4,096 tokens"));
  expect(told.length).toBe(1);
  expect(told[0]).toMatch(/^hey: Ollama runs qwen3/);
}, 90_000);
