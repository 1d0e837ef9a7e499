// A key variable exported empty (`OPENAI_API_KEY=`: a CI secret this job cannot read) at a provider
// that may take no key (a gateway, a local server) sends no key; when the endpoint then answers
// 401, the error says the variable is set but empty — it used to say "set OPENAI_API_KEY", as if
// the user had not.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { ensureBinary, runHey } from "../helpers/e2e.ts";
import { fileTempDir, writeUserConfig } from "../helpers/fixtures.ts";

/** every request refused as an endpoint refuses one without a key */
let server: ReturnType<typeof Bun.serve>;
const home = fileTempDir("hey-empty-key-");
const url = () => `http://127.0.0.1:${server.port}`;

beforeAll(async () => {
  server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: () => Response.json({ error: { message: "Missing bearer authentication in header", type: "invalid_request_error" } }, { status: 401 }),
  });
  await ensureBinary();
});
afterAll(() => server.stop(true));

const CI = "(a CI secret that is not available to this job?)";

test.each([
  ["OpenAI behind OPENAI_BASE_URL", () => ({ OPENAI_BASE_URL: `${url()}/v1`, OPENAI_API_KEY: "" }), `OPENAI_API_KEY is set but empty ${CI}`],
  ["Anthropic behind ANTHROPIC_BASE_URL", () => ({ ANTHROPIC_BASE_URL: url(), ANTHROPIC_API_KEY: " " }), `ANTHROPIC_API_KEY is set but empty ${CI}`],
  [
    "Anthropic with both its variables empty",
    () => ({ ANTHROPIC_BASE_URL: url(), ANTHROPIC_API_KEY: "", ANTHROPIC_AUTH_TOKEN: "" }),
    `ANTHROPIC_API_KEY and ANTHROPIC_AUTH_TOKEN are set but empty ${CI}`,
  ],
  ["Gemini behind GOOGLE_GEMINI_BASE_URL", () => ({ GOOGLE_GEMINI_BASE_URL: url(), GEMINI_API_KEY: "" }), `GEMINI_API_KEY is set but empty ${CI}`],
  ["HEY_BASE_URL", () => ({ HEY_BASE_URL: `${url()}/v1`, HEY_MODEL: "m", HEY_API_KEY: "" }), `HEY_API_KEY is set but empty ${CI}`],
])("%s, its key variable empty: the 401 names the variable as set but empty", async (_, env, said) => {
  const run = await runHey(["-p", "hi"], { env: env() });
  expect(run.code).toBe(1);
  expect(run.stderr).toContain(`no API key was sent to ${url()}`);
  expect(run.stderr).toContain(`: ${said}; give it the key (or use `);
  expect(run.stderr).not.toMatch(/; set [A-Z_]+ \(/);
});

test("--api-key '' with --base-url: the 401 says the flag was given empty", async () => {
  const run = await runHey(["--base-url", `${url()}/v1`, "-m", "m", "--api-key", "", "-p", "hi"]);
  expect(run.code).toBe(1);
  expect(run.stderr).toContain(`no API key was sent to ${url()}/v1: --api-key was given empty; give it the key (or use --api-key or HEY_API_KEY)`);
});

test.each([
  ["empty", ""],
  ["a space", " "],
])('an OpenRouter table with api_key = "${OPENROUTER_API_KEY}", the variable %s: no key is sent, and the 401 names it', async (_, blank) => {
  writeUserConfig(
    home.path,
    `[default]\nprovider = "openrouter"\n[provider.openrouter]\nbase_url = "${url()}/api/v1"\napi_key = "\${OPENROUTER_API_KEY}"\nmodels = ["x/y"]\n`,
  );
  const run = await runHey(["-p", "hi"], { env: { HOME: home.path, OPENROUTER_API_KEY: blank } });
  expect(run.code).toBe(1);
  expect(run.stderr).toContain(`no API key was sent to ${url()}/api/v1: OPENROUTER_API_KEY is set but empty ${CI}; give it the key`);
});

test("a key that is set is still the one to check", async () => {
  const run = await runHey(["-p", "hi"], { env: { OPENAI_BASE_URL: `${url()}/v1`, OPENAI_API_KEY: "sk-wrong" } });
  expect(run.stderr).toContain("— check OPENAI_API_KEY");
});
