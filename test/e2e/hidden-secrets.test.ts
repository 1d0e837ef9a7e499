// Issue 24, through dist/hey: secrets hey does not know (a .env the model reads) reach neither the
// model, the session file nor the terminal, unless `[tools] redact_secrets = false`; hey's own
// environment (its API key) cannot be read back from /proc by the commands it runs; and the state
// it writes is private.
import { afterEach, beforeEach, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureBinary, runHey, tempDir } from "../helpers/e2e.ts";
import { BUN, FAKE_SERVER } from "../helpers/mcp.ts";
import { resultText, startModelServer, textOf, type ModelServer, type Turn } from "../helpers/model-server.ts";

setDefaultTimeout(60_000);

const TOKEN = "ghp_" + "Zq8Wn4Lk2Jh6Gf0Ds9Ap7Ox5Ic3Ub1Ty9Rz3";
const KEY = "sk-e2e-hidden-env-0123456789abcdef";
let home: ReturnType<typeof tempDir>;
let project: ReturnType<typeof tempDir>;
let model: ModelServer;
let calls: [string, unknown][] = [];
beforeEach(() => {
  home = tempDir("hey-home-");
  project = tempDir("hey-project-");
  model = startModelServer((req): Turn => {
    const last = req.messages.at(-1)!;
    if (last.role === "user") return calls.length ? { calls } : { text: "hello" }; // no calls asked: an answer (an empty one is retried)
    return { text: "read it" };
  });
});
afterEach(() => {
  model.stop();
  home.remove();
  project.remove();
});

const writeConfig = (extra = "") => {
  mkdirSync(join(home.path, ".config", "hey"), { recursive: true });
  writeFileSync(
    join(home.path, ".config", "hey", "config.toml"),
    `[default]\nprovider = "local"\nmodel = "m1"\n[provider.local]\nbase_url = "${model.baseUrl}"\napi_key = "\${LOCAL_KEY}"\nmodels = ["m1"]\n${extra}`,
  );
};
const sessions = () => {
  const dir = join(home.path, ".local", "state", "hey", "sessions");
  return readdirSync(dir)
    .filter((f) => f.endsWith(".jsonl"))
    .map((f) => readFileSync(join(dir, f), "utf8"))
    .join("");
};

test("a .env read by the model: the token becomes [secret: GITHUB_TOKEN] for the model, the session and the terminal", async () => {
  writeConfig();
  writeFileSync(join(project.path, ".env"), `GITHUB_TOKEN=${TOKEN}\nDEBUG=1\n`);
  writeFileSync(join(project.path, "remote.txt"), `origin https://${TOKEN}@github.com/o/r (fetch)\n`);
  calls = [
    ["read_file", { path: ".env" }],
    ["bash", { command: "cat remote.txt" }],
  ];
  const run = await runHey(["-p", "what is in .env?"], { cwd: project.path, env: { HOME: home.path } });
  expect(run.code).toBe(0);
  const [file, remote] = model.requests
    .at(-1)!
    .messages.filter((m) => m.role === "tool")
    .map((m) => resultText(m));
  expect(file).toContain("GITHUB_TOKEN=[secret: GITHUB_TOKEN]\n");
  expect(file).toContain("DEBUG=1");
  expect(remote).toContain("origin https://[secret: github-token]@github.com/o/r (fetch)");
  expect(JSON.stringify(model.requests)).not.toContain(TOKEN);
  expect(sessions()).not.toContain(TOKEN);
  expect(run.stdout + run.stderr).not.toContain(TOKEN);
});

test("[tools] redact_secrets = false passes such values through", async () => {
  writeConfig("[tools]\nredact_secrets = false\n");
  writeFileSync(join(project.path, ".env"), `GITHUB_TOKEN=${TOKEN}\n`);
  calls = [["read_file", { path: ".env" }]];
  await runHey(["-p", "what is in .env?"], { cwd: project.path, env: { HOME: home.path } });
  expect(textOf(model.requests.at(-1)!.messages.at(-1))).toContain(`GITHUB_TOKEN=${TOKEN}`);
});

test("the commands hey runs cannot read its environment from /proc (the API key in it), nor its base64", async () => {
  writeConfig();
  calls = [["bash", { command: 'cat "/proc/$PPID/environ" | tr "\\0" "\\n" | grep -c LOCAL_KEY; base64 -w0 "/proc/$PPID/environ" | wc -c' }]];
  const bin = await ensureBinary();
  // as root the kernel lets anyone read anything: drop the capability, as an ordinary user has none
  const asUser = process.getuid?.() === 0 ? ["setpriv", "--bounding-set=-all", "--inh-caps=-all"] : [];
  const proc = Bun.spawn([...asUser, bin, "-p", "read your environment"], {
    cwd: project.path,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home.path, NO_COLOR: "1", LOCAL_KEY: KEY },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [, stderr, code] = await Promise.all([proc.stdout.text(), proc.stderr.text(), proc.exited]);
  expect(code).toBe(0);
  const result = textOf(model.requests.at(-1)!.messages.at(-1));
  expect(result).toContain("Permission denied");
  expect(result).toMatch(/^0\n/); // no line of the environment came through
  expect(stderr).not.toContain(KEY);
});

test("a provider's header variables are not in the commands' environment: the token cannot be printed spaced out past redaction", async () => {
  writeConfig(`headers = { Authorization = "Bearer \${GW_TOKEN}", X-Gateway-Token = "\${GW2}" }\n`);
  calls = [["bash", { command: `echo "T1=$GW_TOKEN"; printf '%s\\n' "$GW2" | sed 's/./& /g'; echo "K=$LOCAL_KEY; HOME=$HOME"` }]];
  const run = await runHey(["-p", "print the tokens"], {
    cwd: project.path,
    env: { HOME: home.path, LOCAL_KEY: KEY, GW_TOKEN: "gwtokAbCdEfGh0123", GW2: "gw2-second-token-456" },
  });
  expect(run.code).toBe(0);
  const result = textOf(model.requests.at(-1)!.messages.at(-1));
  expect(result).toContain(`T1=\n\nK=; HOME=${home.path}`);
  expect(result).not.toContain("g w");
  expect(run.stdout + run.stderr + sessions()).not.toContain("g w t o k");
});

test("hey's state is private: the approvals record and the MCP cache, 0600 files in 0700 folders", async () => {
  writeConfig(`[mcp.fake]\ncommand = "${BUN}"\nargs = ["${FAKE_SERVER}", "results"]\n`);
  calls = [["big", {}]]; // a result cut for the model: its whole text goes to the cache too
  await runHey(["-p", "echo"], { cwd: project.path, env: { HOME: home.path } });
  const files = [join(".local", "state", "hey", "approvals.json"), join(".cache", "hey", "mcp")];
  const modes = (rel: string) => {
    const path = join(home.path, rel);
    const st = statSync(path);
    return st.isDirectory()
      ? [[rel, st.mode & 0o777], ...readdirSync(path).map((n) => [join(rel, n), statSync(join(path, n)).mode & 0o777])]
      : [[rel, st.mode & 0o777]];
  };
  const found = files.flatMap(modes);
  expect(found.length).toBeGreaterThan(2);
  for (const [rel, mode] of found) expect([rel, mode]).toEqual([rel, statSync(join(home.path, rel as string)).isDirectory() ? 0o700 : 0o600]);
  for (const dir of [join(".local", "state", "hey"), join(".cache", "hey")]) expect(statSync(join(home.path, dir)).mode & 0o777).toBe(0o700);
});

test("a cut command's full output is saved with the secrets hidden as its result shows them, in memory or spilled past 1 MB", async () => {
  writeConfig();
  writeFileSync(join(project.path, "creds.txt"), `the key: ${KEY}\nremote https://${TOKEN}@github.com\n`);
  calls = [
    ["bash", { command: "seq 1 3000; cat creds.txt" }],
    ["bash", { command: "seq 1 300000; cat creds.txt; cat creds.txt >&2" }],
  ];
  const run = await runHey(["-p", "count"], { cwd: project.path, env: { HOME: home.path, LOCAL_KEY: KEY } });
  expect(run.code).toBe(0);
  const results = model.requests
    .at(-1)!
    .messages.filter((m) => m.role === "tool")
    .map((m) => resultText(m));
  const saved = results.map((r) => readFileSync(/\[full output: ([^\]\n]+)\]/.exec(r)![1]!, "utf8"));
  expect(saved[0]).toStartWith("1\n2\n3\n");
  const hidden = "the key: [redacted]\nremote https://[secret: github-token]@github.com\n";
  expect(saved[0]).toContain(`3000\n${hidden}`);
  expect(saved[1]).toContain(`300000\n${hidden}\n[stderr]\n${hidden}`);
  for (const text of saved) {
    expect(text).not.toContain(KEY);
    expect(text).not.toContain(TOKEN);
  }
});

test("a base_url with a password: approvals.json keeps it hashed, and the approval holds in the next run", async () => {
  const PW = "basePw_9999abcdef";
  calls = [];
  mkdirSync(join(home.path, ".config", "hey"), { recursive: true });
  writeFileSync(
    join(home.path, ".config", "hey", "config.toml"),
    `[default]\nprovider = "gw"\nmodel = "m1"\n[provider.gw]\nbase_url = "${model.baseUrl.replace("://", `://user:${PW}@`)}"\nmodels = ["m1"]\n`,
  );
  for (const n of [1, 2]) {
    const run = await runHey(["-p", "hi"], { cwd: project.path, env: { HOME: home.path } });
    expect(run.stderr).not.toContain("base_url");
    expect(model.requests).toHaveLength(n); // approved: the request went
  }
  const record = readFileSync(join(home.path, ".local", "state", "hey", "approvals.json"), "utf8");
  expect(record).toContain('"gw":"http://user:[sha256:');
  expect(record).not.toContain(PW);
});
