// A user with only a key, whose endpoint answers hey's own default model with a 404 (a preview the
// vendor retired, a project without access): the error says it was hey's choice, lists what the
// endpoint serves with the nearest first, and how to choose — through the compiled binary against
// a loopback mock that moves each vendor's address as its SDK variable does.
import { expect, test } from "bun:test";
import { runHey } from "../helpers/e2e.ts";
import { fileReplayServer, fileTempDir } from "../helpers/fixtures.ts";
import { textReply } from "../helpers/protocol-streams.ts";
import { jsonReply } from "../helpers/replay-server.ts";

// each vendor's endpoint with the models it lists (GET …/models answers them, unrecorded)
const gemini = fileReplayServer(undefined, { models: ["gemma-3-27b-it", "gemini-3.1-pro-preview", "gemini-3.8-flash"] });
const openai = fileReplayServer(undefined, { models: ["gpt-4.1", "gpt-5.4-mini", "gpt-5.4"] });
const anthropic = fileReplayServer(undefined, { models: ["claude-sonnet-4-6", "claude-haiku-4-5"] });
const home = fileTempDir("hey-missing-model-");

test("GEMINI_API_KEY only: Gemini's 404 for hey's default names it as hey's, lists the endpoint's models, and says how to choose", async () => {
  gemini.enqueue(
    jsonReply(404, {
      error: {
        code: 404,
        message:
          "models/gemini-3.5-flash is not found for API version v1beta, or is not supported for generateContent. Call ListModels to see the list of available models and their supported methods.",
        status: "NOT_FOUND",
      },
    }),
  );
  const run = await runHey(["-p", "fix the failing test"], { cwd: home.path, env: { GEMINI_API_KEY: "g-key", GOOGLE_GEMINI_BASE_URL: gemini.url } });
  expect(run.code).toBe(1);
  expect(gemini.requests.map((r) => r.path.split("?")[0])).toEqual(["/v1beta/models/gemini-3.5-flash:streamGenerateContent"]); // not retried
  expect(run.stderr).toContain(
    `— gemini-3.5-flash is hey's default model for GEMINI_API_KEY, and ${gemini.url} does not serve it: it lists gemini-3.8-flash, gemini-3.1-pro-preview, gemma-3-27b-it; choose one with -m google/gemini-3.8-flash (HEY_MODEL=google/gemini-3.8-flash, or [default] model = "google/gemini-3.8-flash" in`,
  );
  expect(run.stderr).not.toContain("check the model name");
  expect(run.stderr).not.toContain("the names it serves are listed at"); // said once, in the error
});

test("OPENAI_API_KEY only: 'does not exist or you do not have access' for hey's default says so, with the models the key has", async () => {
  openai.enqueue(
    jsonReply(404, {
      error: {
        message: "The model `gpt-5.5` does not exist or you do not have access to it.",
        type: "invalid_request_error",
        param: null,
        code: "model_not_found",
      },
    }),
  );
  const run = await runHey(["-p", "hi"], { cwd: home.path, env: { OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: `${openai.url}/v1` } });
  expect(run.code).toBe(1);
  expect(run.stderr).toContain(
    `gpt-5.5 is hey's default model for OPENAI_API_KEY, and ${openai.url}/v1 does not serve it: it lists gpt-5.4, gpt-5.4-mini, gpt-4.1; choose one with -m openai/gpt-5.4`,
  );
});

test("ANTHROPIC_API_KEY only: a not_found_error for hey's default says so; a model the user named gets the list and the nearest, no default named", async () => {
  const notFound = (model: string) => jsonReply(404, { type: "error", error: { type: "not_found_error", message: `model: ${model}` } });
  const env = { ANTHROPIC_API_KEY: "sk-ant", ANTHROPIC_BASE_URL: anthropic.url };
  anthropic.enqueue(notFound("claude-sonnet-4-5"));
  const own = await runHey(["-p", "hi"], { cwd: home.path, env });
  expect(own.stderr).toContain(
    `request rejected (404): model: claude-sonnet-4-5 — claude-sonnet-4-5 is hey's default model for ANTHROPIC_API_KEY, and ${anthropic.url} does not serve it: it lists claude-sonnet-4-6, claude-haiku-4-5; choose one with -m anthropic/claude-sonnet-4-6`,
  );
  anthropic.enqueue(notFound("claude-sonet-4-6"));
  const named = await runHey(["-m", "anthropic/claude-sonet-4-6", "-p", "hi"], { cwd: home.path, env });
  expect(named.stderr).toContain(
    `request rejected (404): model: claude-sonet-4-6 — ${anthropic.url} does not serve claude-sonet-4-6: it lists claude-sonnet-4-6, claude-haiku-4-5; nearest: claude-sonnet-4-6 (-m anthropic/claude-sonnet-4-6)`,
  );
  expect(named.stderr).not.toContain("default");
  // the answer after choosing goes through as before
  anthropic.enqueue(textReply("anthropic", "Hello."));
  expect((await runHey(["-m", "anthropic/claude-sonnet-4-6", "-p", "hi"], { cwd: home.path, env })).stdout).toBe("Hello.\n");
});
