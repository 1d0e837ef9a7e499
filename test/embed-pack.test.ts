// hey as a package (issue 25): `npm pack` makes the tarball (its prepack builds dist/lib and the
// type declarations), a scratch project installs it as npm ci would — offline, from npm's cache,
// which `npm ci` in this repository filled — type-checks examples/embed.ts against the packed
// declarations, and runs it against a loopback mock model: one turn of tool calls (one to a tool
// the example's permission list refuses, so it is not offered), then the answer.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, tempDir } from "./helpers/e2e.ts";
import { sseReply, startReplayServer } from "./helpers/replay-server.ts";
import { chatChunk, sse } from "./helpers/sse.ts";

const scratch = tempDir("hey-embed-");
const model = startReplayServer();
afterAll(() => {
  model.stop();
  scratch.remove();
});

/** Runs a command to its end; its output, and a failure that shows both streams. */
function run(cmd: string[], cwd: string, env: Record<string, string | undefined> = process.env): { stdout: string; stderr: string; exitCode: number } {
  const p = Bun.spawnSync(cmd, { cwd, env, stdout: "pipe", stderr: "pipe" });
  return { stdout: p.stdout.toString(), stderr: p.stderr.toString(), exitCode: p.exitCode ?? -1 };
}

/**
 * The scratch project: package.json naming the tarball, and a lockfile with hey's runtime
 * dependencies as this repository's lockfile resolves them, so `npm ci --offline` installs them
 * from the cache without asking the registry anything.
 */
function scratchProject(dir: string, tarball: string, integrity: string): void {
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string; license: string; dependencies: Record<string, string> };
  const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8")) as {
    packages: Record<string, { dev?: boolean; link?: boolean; devOptional?: boolean }>;
  };
  const dependencies = { hey: `file:${tarball}` };
  const packages: Record<string, unknown> = {
    "": { name: "scratch", version: "1.0.0", dependencies },
    "node_modules/hey": { version: pkg.version, resolved: `file:${tarball}`, integrity, license: pkg.license, dependencies: pkg.dependencies },
  };
  for (const [path, entry] of Object.entries(lock.packages))
    if (path !== "" && !entry.dev && !entry.link) packages[path] = { ...entry, devOptional: undefined };
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "scratch", version: "1.0.0", type: "module", dependencies }, null, 2));
  writeFileSync(join(dir, "package-lock.json"), JSON.stringify({ name: "scratch", version: "1.0.0", lockfileVersion: 3, requires: true, packages }, null, 2));
  writeFileSync(
    join(dir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        target: "ESNext",
        module: "Preserve",
        moduleResolution: "bundler",
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        typeRoots: [join(ROOT, "node_modules", "@types")],
        types: ["bun"],
      },
      include: ["embed.ts", "typed.ts"],
    }),
  );
  copyFileSync(join(ROOT, "examples", "embed.ts"), join(dir, "embed.ts"));
  writeFileSync(join(dir, "typed.ts"), TYPED);
}

/**
 * What a program writes against the declarations with no cast: a fetch of its own (Bun's `typeof
 * fetch` wants `preconnect` too), settings given in part, why a run failed; and what it cannot
 * reach: the CLI's parts of the MCP manager. Type-checked, never run.
 */
const TYPED = `import { ConfigError, NetConfigError, createAgent, createMcp, createProvider, defaultTools, defineTool, embeddedDirs, permissionCheck, type AgentEvent, type RunResult } from "hey";
import { z } from "zod";
const logged = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => fetch(input, init);
const provider = await createProvider({ protocol: "openai", baseUrl: "http://127.0.0.1:9/v1", model: "m", fetch: logged });
const permission = permissionCheck({ allow: ["read_file"] });
const mcp = createMcp([{ name: "docs", url: "http://127.0.0.1:9/mcp" }], { fetch: logged, permission, output: { emit: (e: AgentEvent) => void e } });
const agent = createAgent({ provider, permission, settings: { context: { budgetTokens: 100_000 }, retry: { maxRetries: 0 } }, tools: (signal) => mcp.tools([], signal) });
const result: RunResult = await agent.send("hi", AbortSignal.timeout(1));
export const why: string | undefined = result.error?.message;
// a typed tool: run's arguments are what its schema parses to, no cast
const lookup = defineTool({ name: "lookup", description: "Looks up.", parameters: z.object({ word: z.string(), limit: z.number().default(3) }), run: (args) => args.word.repeat(args.limit) });
// @ts-expect-error a field its schema does not have
defineTool({ name: "bad", description: "", parameters: z.object({ word: z.string() }), run: (args) => args.wrd });
// the program's own places for what the agent writes
void createAgent({ provider, outputDir: "outputs", tools: [...defaultTools({ outputDir: "outputs", secrets: ["t"] }), lookup] });
void createMcp([], { cacheDir: embeddedDirs().cache });
// the servers given to the agent (their late tools waited for), and a run read as a stream
for await (const item of createAgent({ provider, tools: [lookup], mcp }).stream("hi")) {
  if (item.type === "result") console.log(item.result.stop satisfies RunResult["stop"]);
  else if (item.type === "tool_call") console.log(item.name);
}
// @ts-expect-error the CLI's /reload swap is not the program's to call
void mcp.reloadable;
// an output that writes to a socket, and createProvider's errors told apart
void createAgent({ provider, output: { async emit(e: AgentEvent) { await Bun.write("/dev/null", e.type); } } });
export const kind = (e: unknown): string => (e instanceof ConfigError ? e.message : e instanceof NetConfigError ? e.name : "other");
`;

beforeAll(() => {
  const packed = run(["npm", "pack", "--json", "--pack-destination", scratch.path], ROOT);
  expect(packed.exitCode).toBe(0);
  const { filename, integrity } = (JSON.parse(packed.stdout.slice(packed.stdout.indexOf("["))) as { filename: string; integrity: string }[])[0]!;
  scratchProject(scratch.path, filename, integrity);
  const installed = run(["npm", "ci", "--offline", "--ignore-scripts", "--no-audit", "--no-fund"], scratch.path);
  if (installed.exitCode !== 0)
    throw new Error(`npm ci --offline in the scratch project failed (its packages come from npm's cache: run npm ci here first):\n${installed.stderr}`);
}, 120_000);

test("the tarball holds the library, its declarations and no binary", () => {
  const hey = join(scratch.path, "node_modules", "hey");
  expect(readdirSync(hey).sort()).toEqual(["LICENSE", "README.md", "dist", "package.json"]);
  expect(readdirSync(join(hey, "dist"))).toEqual(["lib"]);
  expect(existsSync(join(hey, "dist", "lib", "index.js"))).toBe(true);
  expect(readFileSync(join(hey, "dist", "lib", "types", "src", "lib.d.ts"), "utf8")).toContain(
    "export declare function createAgent(options: AgentOptions): EmbeddedAgent;",
  );
});

test("examples/embed.ts, and a program that brings its own fetch and gives settings in part, type-check against the packed declarations", () => {
  const checked = run([join(ROOT, "node_modules", ".bin", "tsc"), "-p", scratch.path], scratch.path);
  expect(checked.stdout + checked.stderr).toBe("");
  expect(checked.exitCode).toBe(0);
}, 60_000);

/** A loopback URL nothing listens on: a model server that is down. */
function downUrl(): string {
  const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("") });
  const url = `http://127.0.0.1:${server.port}/v1`;
  server.stop(true);
  return url;
}

/** examples/embed.ts run with `args` in the scratch project against the model at `baseUrl`. */
async function example(args: string[], baseUrl: string): Promise<{ stdout: string; stderr: string; exitCode: number }> {
  const env = { PATH: process.env.PATH, HOME: scratch.path, MODEL_BASE_URL: baseUrl, MODEL: "mock" };
  // not spawnSync: the mock model answers from this process
  const child = Bun.spawn([process.execPath, "embed.ts", ...args], { cwd: scratch.path, env, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, exitCode] = await Promise.all([child.stdout.text(), child.stderr.text(), child.exited]);
  return { stdout, stderr, exitCode };
}

test("examples/embed.ts -c with no session yet says so and starts a new one; its server down, it saves nothing", async () => {
  const ran = await example(["-c", "hello?"], downUrl());
  // before: a raw ENOENT stack trace for .sessions
  expect(ran.stderr).toStartWith("no earlier session in .sessions/; starting a new one\n");
  expect(ran.stderr).not.toContain("ENOENT");
  expect(ran.exitCode).toBe(1);
  expect(existsSync(join(scratch.path, ".sessions")) ? readdirSync(join(scratch.path, ".sessions")) : []).toEqual([]);
}, 60_000);

test("examples/embed.ts runs a task from the scratch project: tools, a refusal, the answer, the session file", async () => {
  writeFileSync(join(scratch.path, "big.txt"), "x".repeat(1_000_000)); // larger than the tarball beside it
  model.enqueue(
    sseReply(
      sse([
        chatChunk({ toolCall: { index: 0, id: "c1", name: "bash", arguments: '{"command":"ls -S"}' } }),
        chatChunk({ toolCall: { index: 1, id: "c2", name: "write_file", arguments: '{"path":"x.txt","content":"no"}' } }),
        chatChunk({ finish: "tool_calls" }),
      ]),
    ),
    sseReply(sse([chatChunk({ content: "big.txt" }), chatChunk({ finish: "stop", usage: { prompt_tokens: 90, completion_tokens: 3 } })])),
  );
  const ran = await example(["Which file here is the largest?"], `${model.url}/v1`);

  expect(ran.exitCode).toBe(0);
  expect(ran.stdout).toBe("big.txt\n");
  expect(ran.stderr).toContain('→ bash {"command":"ls -S"}');
  expect(ran.stderr).toContain("✓ big.txt"); // ls -S: the largest first
  // the list refuses write_file whatever its arguments: it is not offered, and a call to it runs nothing
  expect(ran.stderr).toContain("✗ blocked by permission rules: tool `write_file` matches no allow entry (allowed: read_file, grep)");
  expect(existsSync(join(scratch.path, "x.txt"))).toBe(false);
  // what the model was sent: hey's tools, its system prompt, the user's task
  const first = model.requests[0]!.body as { model: string; messages: { role: string; content: string }[]; tools: { function: { name: string } }[] };
  expect(first.model).toBe("mock");
  expect(first.tools.map((t) => t.function.name)).toEqual(["bash", "read_file", "grep"]);
  expect(first.messages.at(-1)).toEqual({ role: "user", content: "Which file here is the largest?" });
  const [file] = readdirSync(join(scratch.path, ".sessions")).filter((f) => f.endsWith(".jsonl"));
  const entries = readFileSync(join(scratch.path, ".sessions", file!), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { type: string; message?: { role: string; content: { text?: string }[] } });
  const said = entries.filter((e) => e.type === "message" && e.message?.role === "assistant").map((e) => e.message!.content.map((c) => c.text ?? "").join(""));
  expect(said.at(-1)).toBe("big.txt");
  expect(entries.filter((e) => e.message?.role === "tool")).toHaveLength(2);
}, 60_000);

test("under Node.js, importing the package throws one error that says it needs Bun and what to do instead", () => {
  writeFileSync(join(scratch.path, "on-node.mjs"), 'import { createAgent } from "hey";\nconsole.log(typeof createAgent);\n');
  const ran = run(["node", "on-node.mjs"], scratch.path);
  expect(ran.exitCode).toBe(1);
  expect(ran.stdout).toBe("");
  expect(ran.stderr).toContain(
    `the hey package runs on Bun (https://bun.sh), not on Node.js ${run(["node", "-p", "process.versions.node"], scratch.path).stdout.trim()}`,
  );
  expect(ran.stderr).toContain("Run your program with bun");
});

test("examples/embed.ts -c with its server down adds nothing to the session: the next -c does not send two user messages in a row", async () => {
  const sessions = join(scratch.path, ".sessions");
  const [file] = readdirSync(sessions).filter((f) => f.endsWith(".jsonl"));
  const before = readFileSync(join(sessions, file!), "utf8");
  const ran = await example(["-c", "Is it still there?"], downUrl());
  expect(ran.exitCode).toBe(1);
  // before: the unanswered message was saved, and the next -c resumed it
  expect(readFileSync(join(sessions, file!), "utf8")).toBe(before);
}, 60_000);

test("examples/embed.ts -c goes on with that session in a new process: the model hears the whole conversation, the file holds both runs", async () => {
  const before = model.requests.length;
  model.enqueue(sseReply(sse([chatChunk({ content: "x.txt is not there" }), chatChunk({ finish: "stop" })])));
  const { stdout, stderr, exitCode } = await example(["-c", "And the smallest?"], `${model.url}/v1`);
  expect({ stdout, exitCode }).toEqual({ stdout: "x.txt is not there\n", exitCode: 0 });
  expect(stderr).toContain("1 requests");

  const sent = model.requests.slice(before)[0]!.body as { messages: { role: string; content: unknown }[] };
  expect(sent.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool", "tool", "assistant", "user"]);
  expect(sent.messages.at(-1)).toEqual({ role: "user", content: "And the smallest?" });
  const files = readdirSync(join(scratch.path, ".sessions")).filter((f) => f.endsWith(".jsonl"));
  expect(files).toHaveLength(1); // appended to, not a second session
  const saved = readFileSync(join(scratch.path, ".sessions", files[0]!), "utf8");
  expect(saved.indexOf("And the smallest?")).toBeGreaterThan(saved.indexOf("big.txt"));
  expect(readdirSync(join(scratch.path, ".sessions")).filter((f) => f.endsWith(".lock"))).toEqual([]); // the writer let go of it
}, 60_000);

test("from the installed package, a typed tool refuses what its schema does not allow and runs what it does, read as a stream", async () => {
  writeFileSync(
    join(scratch.path, "streamed.ts"),
    `import { createAgent, createProvider, defineTool } from "hey";
import { z } from "zod";
const provider = await createProvider({ protocol: "openai", baseUrl: process.env.MODEL_BASE_URL!, model: "mock" });
const say = defineTool({ name: "say", description: "Says a word.", parameters: z.object({ word: z.string().max(5), times: z.number().default(2) }), run: ({ word, times }) => word.repeat(times) });
for await (const item of createAgent({ provider, tools: [say] }).stream("say hi")) {
  if (item.type === "tool_result") console.log(item.output);
  if (item.type === "result") console.log(item.result.stop);
}
`,
  );
  model.enqueue(
    sseReply(
      sse([
        chatChunk({ toolCall: { index: 0, id: "s1", name: "say", arguments: '{"word":"toolong"}' } }),
        chatChunk({ toolCall: { index: 1, id: "s2", name: "say", arguments: '{"word":"hi"}' } }),
        chatChunk({ finish: "tool_calls" }),
      ]),
    ),
    sseReply(sse([chatChunk({ content: "said" }), chatChunk({ finish: "stop" })])),
  );
  const env = { PATH: process.env.PATH, HOME: scratch.path, MODEL_BASE_URL: `${model.url}/v1` };
  const child = Bun.spawn([process.execPath, "streamed.ts"], { cwd: scratch.path, env, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, exitCode] = await Promise.all([child.stdout.text(), child.stderr.text(), child.exited]);
  expect({ stdout, stderr, exitCode }).toEqual({ stdout: "say: `word` Too big: expected string to have <=5 characters\nhihi\nend\n", stderr: "", exitCode: 0 });
}, 60_000);

test("from the installed package, an async output that rejects loses its events, not the run: exit 0; createProvider's errors are classes to catch", async () => {
  writeFileSync(
    join(scratch.path, "rejecting.ts"),
    `import { ConfigError, createAgent, createProvider, NetConfigError } from "hey";
const provider = await createProvider({ protocol: "openai", baseUrl: process.env.MODEL_BASE_URL!, model: "mock" });
// a socket's write that fails once the client is gone
const output = { async emit(e: { type: string }) { if (e.type === "text_delta") throw new Error("socket closed"); } };
const result = await createAgent({ provider, tools: [], output }).send("hi", new AbortController().signal);
await Bun.sleep(0); // a rejection left unhandled would end the program here
console.log(result.stop);
const thrown = async (f: () => Promise<unknown>) => f().then(() => undefined, (e: unknown) => e);
console.log(await thrown(() => createProvider({ protocol: "openai", baseUrl: "ftp://example.com/v1", model: "m" })) instanceof ConfigError);
process.env.HTTPS_PROXY = "ftp://proxy.example:1";
console.log(await thrown(() => createProvider({ protocol: "openai", baseUrl: "https://api.example.com/v1", model: "m" })) instanceof NetConfigError);
`,
  );
  model.enqueue(sseReply(sse([chatChunk({ content: "hello" }), chatChunk({ content: " there" }), chatChunk({ finish: "stop" })])));
  const env = { PATH: process.env.PATH, HOME: scratch.path, MODEL_BASE_URL: `${model.url}/v1` };
  const child = Bun.spawn([process.execPath, "rejecting.ts"], { cwd: scratch.path, env, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, exitCode] = await Promise.all([child.stdout.text(), child.stderr.text(), child.exited]);
  expect({ stdout, stderr, exitCode }).toEqual({ stdout: "end\ntrue\ntrue\n", stderr: "", exitCode: 0 });
}, 60_000);
