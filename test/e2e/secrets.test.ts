// Issue 13 rows 9–10: an API key hey uses is never printed or saved, and the commands the model
// runs do not see the variable that holds it (unless `[tools] keep_env` says so). Through the
// compiled binary against local mock servers.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { jsonEvents, runHey, tempDir } from "../helpers/e2e.ts";
import { resultText, startModelServer, type ModelServer } from "../helpers/model-server.ts";
import { sseReply, startReplayServer } from "../helpers/replay-server.ts";
import { chatChunk, sse } from "../helpers/sse.ts";

const KEY = "sk-proj-e2e-secret-0123456789";
let root: ReturnType<typeof tempDir>;
let model: ModelServer;
let echoing: ReturnType<typeof Bun.serve>;
beforeAll(() => {
  root = tempDir("hey-secrets-");
  // a command that prints the key variable, then an answer that quotes the tool result
  model = startModelServer((req) => {
    const last = req.messages.at(-1)!;
    if (last.role === "tool") return { text: `the command said: ${resultText(last)}` };
    return { calls: [["bash", { command: 'echo "key=[$OPENAI_API_KEY]"; echo "hey=[$HEY_API_KEY]"' }]] };
  });
  // a gateway whose 401 body echoes the credentials it was sent
  echoing = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: (req) =>
      Response.json({ error: { message: `invalid api key: ${req.headers.get("authorization")}`, type: "invalid_request_error" } }, { status: 401 }),
  });
});
afterAll(() => {
  model.stop();
  echoing.stop(true);
  root.remove();
});

function config(name: string, baseUrl: string, extra = ""): string {
  const path = join(root.path, `${name}.toml`);
  writeFileSync(
    path,
    `[default]\nprovider = "gw"\nmodel = "m"\n[provider.gw]\nbase_url = "${baseUrl}"\napi_key = "\${OPENAI_API_KEY}"\nmodels = ["m"]\n${extra}`,
  );
  return path;
}

const sessionText = (state: string) => {
  const dir = join(state, "hey", "sessions");
  return readdirSync(dir)
    .map((f) => readFileSync(join(dir, f), "utf8"))
    .join("");
};

test("a 401 body that echoes the key: not on stderr, not in the JSON error event", async () => {
  const cfg = config("echo", `http://127.0.0.1:${echoing.port}/v1`);
  for (const output of ["text", "json"]) {
    const run = await runHey(["--config", cfg, "--output", output, "-p", "hi"], { cwd: root.path, env: { OPENAI_API_KEY: KEY } });
    expect(run.code).toBe(1);
    expect(run.stdout + run.stderr).not.toContain(KEY);
    expect(run.stderr).toContain("invalid api key: Bearer [redacted]");
    if (output === "json") expect(jsonEvents(run.stdout).find((e) => e.type === "error")!.message).toContain("[redacted]");
  }
});

test("a password in the base_url (fetch sends it as Basic auth) is hidden where the URL is named: the run's error, its JSON event, hey doctor", async () => {
  const url = "http://user:hunter2secret@127.0.0.1:1/v1"; // nothing listens there: the error names the URL
  for (const output of ["text", "json"]) {
    const run = await runHey(["--base-url", url, "-m", "m", "--output", output, "-p", "hi"], { cwd: root.path });
    expect(run.code).toBe(1);
    expect(run.stdout + run.stderr).not.toContain("hunter2secret");
    expect(run.stderr).toContain("http://user:[redacted]@127.0.0.1:1/v1");
  }
  const doctor = await runHey(["doctor", "--base-url", url, "-m", "m"], { cwd: root.path });
  expect(doctor.stdout).toStartWith("hey doctor: cli (openai) http://user:[redacted]@127.0.0.1:1/v1, model m\n");
  expect(doctor.stdout + doctor.stderr).not.toContain("hunter2secret");
});

test("`echo $OPENAI_API_KEY` through bash: the variable is gone; the model, the output and the session never hold the key", async () => {
  const state = join(root.path, "state1");
  const run = await runHey(["--config", config("plain", model.baseUrl), "--output", "json", "-p", "print the key"], {
    cwd: root.path,
    env: { OPENAI_API_KEY: KEY, HEY_API_KEY: KEY, XDG_STATE_HOME: state },
  });
  expect(run.code).toBe(0);
  const result = resultText(model.requests.at(-1)!.messages.at(-1));
  expect(result).toBe("key=[]\nhey=[]\n[exit code 0]");
  expect(run.stdout).not.toContain(KEY);
  expect(sessionText(state)).not.toContain(KEY);
});

test("[tools] keep_env keeps the variable; what it prints is still redacted everywhere", async () => {
  const state = join(root.path, "state2");
  const cfg = config("keep", model.baseUrl, '[tools]\nkeep_env = ["OPENAI_API_KEY"]\n');
  const run = await runHey(["--config", cfg, "--output", "json", "-p", "print the key"], {
    cwd: root.path,
    env: { OPENAI_API_KEY: KEY, XDG_STATE_HOME: state },
  });
  expect(run.code).toBe(0);
  expect(resultText(model.requests.at(-1)!.messages.at(-1))).toBe("key=[[redacted]]\nhey=[]\n[exit code 0]");
  expect(JSON.stringify(model.requests.at(-1))).not.toContain(KEY);
  expect(run.stdout).toContain("key=[[redacted]]");
  expect(run.stdout).not.toContain(KEY);
  expect(sessionText(state)).not.toContain(KEY);
});

test("a key the model streams in two pieces is redacted on the terminal and in the JSON text_delta events", async () => {
  const replay = startReplayServer();
  try {
    const cfg = config("split", `${replay.url}/v1`);
    const split = KEY.length - 20; // "sk-proj-e" | "2e-secret-0123456789 …"
    const answer = () =>
      sseReply(
        sse([
          chatChunk({ content: `your key ${KEY.slice(0, split)}` }),
          chatChunk({ content: `${KEY.slice(split)} looks fine` }),
          chatChunk({ finish: "stop" }),
        ]),
        { delayMs: 20 },
      );
    replay.enqueue(answer(), answer());
    const text = await runHey(["--config", cfg, "-p", `is my key ${KEY} valid?`], { cwd: root.path, env: { OPENAI_API_KEY: KEY } });
    expect(text.code).toBe(0);
    expect(text.stdout).toBe("your key [redacted] looks fine\n");
    const json = await runHey(["--config", cfg, "--output", "json", "-p", `is my key ${KEY} valid?`], { cwd: root.path, env: { OPENAI_API_KEY: KEY } });
    expect(json.code).toBe(0);
    const deltas = jsonEvents(json.stdout)
      .filter((e) => e.type === "text_delta")
      .map((e) => e.text as string);
    expect(deltas.join("")).toBe("your key [redacted] looks fine");
    expect(json.stdout).not.toContain(KEY.slice(0, split));
  } finally {
    replay.stop();
  }
});
