// A prompt the provider's content filter refuses with an error (r6 #5): Azure OpenAI's 400
// `content_filter`, OpenAI's flagged prompt. Sent again it is refused again, so the session keeps the
// message marked as refused and no later request sends it: the next message is answered, in the same
// run (the REPL's history) and after `hey -c`. The user is told once, in the error.
import { afterEach, beforeEach, expect, setDefaultTimeout, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { jsonEvents, runHey, tempDir } from "../helpers/e2e.ts";
import { lastUserText, startModelServer, textOf, type ChatRequest, type ModelServer } from "../helpers/model-server.ts";

setDefaultTimeout(90_000); // the first test may build dist/hey

const AZURE = {
  error: {
    message: "The response was filtered due to the prompt triggering Azure OpenAI's content management policy.",
    type: null,
    param: "prompt",
    code: "content_filter",
    status: 400,
  },
};
const OPENAI = {
  error: {
    message: "Invalid prompt: your prompt was flagged as potentially violating our usage policy.",
    type: "invalid_request_error",
    code: "invalid_prompt",
  },
};

let home: ReturnType<typeof tempDir>;
let project: ReturnType<typeof tempDir>;
let model: ModelServer;
let body: unknown = AZURE;
beforeEach(() => {
  home = tempDir("hey-home-");
  project = tempDir("hey-project-");
  // the filter: any request that holds the word "flagged" is refused
  model = startModelServer((req: ChatRequest) =>
    req.messages.some((m) => textOf(m).includes("flagged")) ? { error: { status: 400, body } } : { text: `answer to ${lastUserText(req).split(/\s/)[0]}` },
  );
});
afterEach(() => {
  model.stop();
  home.remove();
  project.remove();
});

const hey = (...args: string[]) => runHey([...args, "--base-url", model.baseUrl, "-m", "m"], { cwd: project.path, env: { HOME: home.path } });

for (const [name, refusal] of [
  ["Azure's content_filter", AZURE],
  ["OpenAI's flagged prompt", OPENAI],
] as const) {
  test(`${name}: the refused message is said once, kept in the session marked refused, and never sent again`, async () => {
    body = refusal;
    expect(await hey("-p", "first question")).toMatchObject({ code: 0, stdout: "answer to first\n" });
    const refused = await hey("-c", "-p", "flagged words");
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toContain("content filter refused the request (400)");
    expect(refused.stderr).toContain("your message is left out of the conversation from now on");
    expect(model.requests).toHaveLength(2); // not retried: the same prompt is refused again

    const next = await hey("-c", "-p", "hello again");
    expect(next).toMatchObject({ code: 0, stdout: "answer to hello\n" });
    const sent = model.requests.at(-1)!;
    expect(sent.messages.map((m) => textOf(m)).join("\n")).not.toContain("flagged");
    expect(next.stderr).not.toContain("content filter");
    // the session file keeps the message, and the marker in place of an answer
    const dir = join(home.path, ".local", "state", "hey", "sessions");
    const file = readFileSync(join(dir, readdirSync(dir).find((f) => f.endsWith(".jsonl"))!), "utf8");
    expect(file).toContain("flagged words");
    expect(file).toContain("[refused (content filter): this request was not answered]");
  });
}

test("--output json: the refusal is an error of kind refusal, and result.text the marker the session keeps", async () => {
  body = AZURE;
  const run = await hey("--output", "json", "-p", "flagged words");
  expect(run.code).toBe(1);
  const events = jsonEvents(run.stdout);
  expect(events.find((e) => e.type === "error")).toMatchObject({ kind: "refusal" });
  expect(events.find((e) => e.type === "result")).toMatchObject({ text: "[refused (content filter): this request was not answered]", stop_reason: "error" });
});
