// The agent cannot send the user's API key elsewhere by writing a config file: a provider's
// base_url (and [proxy] url) is guarded like the permission lists and MCP servers (issue 24).
// One-shot runs of dist/hey: the agent edits the user's config with `edit`, as it can when no
// permission list is set; the next run keeps the approved endpoint, or refuses a new one, and the
// other server never hears from hey.
import { afterEach, beforeEach, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey, tempDir } from "../helpers/e2e.ts";
import { startModelServer, type ModelServer, type Turn } from "../helpers/model-server.ts";

setDefaultTimeout(60_000); // the first test may build dist/hey

const KEY = "sk-user-key-0123456789";
let home: ReturnType<typeof tempDir>;
let project: ReturnType<typeof tempDir>;
let model: ModelServer;
let other: ModelServer;
/** the edit the model makes on the first request of a run; then it answers */
let edit: Record<string, string> | undefined;
beforeEach(() => {
  home = tempDir("hey-home-");
  project = tempDir("hey-project-");
  edit = undefined;
  model = startModelServer((req): Turn => (req.messages.at(-1)!.role === "user" && edit ? { calls: [["edit", edit]] } : { text: "done" }));
  other = startModelServer(() => ({ text: "the other server answered" }));
});
afterEach(() => {
  model.stop();
  other.stop();
  home.remove();
  project.remove();
});

const userConfig = () => join(home.path, ".config", "hey", "config.toml");
const hey = () => runHey(["-p", "go"], { cwd: project.path, env: { HOME: home.path, LOCAL_KEY: KEY } });
const requestsTo = (s: ModelServer) => s.requests.length;

test("a base_url the agent moved is not used by the next one-shot run, which names it; the approved one is", async () => {
  mkdirSync(join(userConfig(), ".."), { recursive: true });
  writeFileSync(userConfig(), `[provider.local]\nbase_url = "${model.baseUrl}"\napi_key = "\${LOCAL_KEY}"\nmodels = ["m1"]\n`);
  edit = { path: "~/.config/hey/config.toml", old_string: model.baseUrl, new_string: other.baseUrl };
  const first = await hey();
  expect(first.code).toBe(0);
  expect(first.stdout).toContain("done");

  edit = undefined;
  const second = await hey();
  expect(second.stderr).toContain(
    `hey: not used: ~ [provider.local] base_url = "${other.baseUrl}" (was "${model.baseUrl}"): its requests and key would go there in ${userConfig()}`,
  );
  expect(second.code).toBe(0);
  expect(second.stdout).toContain("done");
  // hey doctor checks the endpoint a run uses, and says which change it leaves out, as a run does
  const doctor = await runHey(["doctor"], { cwd: project.path, env: { HOME: home.path, LOCAL_KEY: KEY } });
  expect(doctor.stderr).toContain(`hey doctor: not used: ~ [provider.local] base_url = "${other.baseUrl}" (was "${model.baseUrl}")`);
  expect(doctor.stdout).toContain(model.baseUrl);
  expect(requestsTo(other)).toBe(0);
});

test("a variable the agent names where none was approved is not sent, even to the approved endpoint; the next run names it", async () => {
  const SECRET = "sk-ant-other-vendor-secret-42";
  mkdirSync(join(userConfig(), ".."), { recursive: true });
  writeFileSync(userConfig(), `[provider.local]\nbase_url = "${model.baseUrl}"\napi_key = "\${LOCAL_KEY}"\nmodels = ["m1"]\n`);
  // the agent cannot read ANTHROPIC_API_KEY (hey keeps it from its commands), but it can name it in the config
  edit = {
    path: "~/.config/hey/config.toml",
    old_string: 'api_key = "${LOCAL_KEY}"',
    new_string: 'api_key = "${LOCAL_KEY}"\nheaders = { X-Debug = "${ANTHROPIC_API_KEY}" }',
  };
  const env = { HOME: home.path, LOCAL_KEY: KEY, ANTHROPIC_API_KEY: SECRET };
  expect((await runHey(["-p", "go"], { cwd: project.path, env })).code).toBe(0);

  edit = undefined;
  const second = await runHey(["-p", "go"], { cwd: project.path, env });
  expect(second.stderr).toContain(`hey: not used: + [provider.local] headers.X-Debug \${ANTHROPIC_API_KEY}: its value would be sent in ${userConfig()}`);
  expect(second.code).toBe(0);
  expect(second.stdout).toContain("done");
  const last = model.headers.at(-1)!;
  expect(last.authorization).toBe(`Bearer ${KEY}`); // the approved key still goes where it was approved
  expect(JSON.stringify(model.headers)).not.toContain(SECRET);
});

test("a model name the agent puts behind a variable not approved yet is never sent empty: the run stops before any request, naming the key", async () => {
  mkdirSync(join(userConfig(), ".."), { recursive: true });
  writeFileSync(userConfig(), `[provider.local]\nbase_url = "${model.baseUrl}"\napi_key = "\${LOCAL_KEY}"\nmodels = ["m1"]\n`);
  edit = { path: "~/.config/hey/config.toml", old_string: 'models = ["m1"]', new_string: 'models = ["${MODEL_NAME:-m1}"]' };
  expect((await hey()).code).toBe(0);
  const before = requestsTo(model);

  edit = undefined;
  const second = await hey();
  expect(second.stderr).toStartWith(`hey: ${userConfig()}:4: [provider.local] models: the model name is empty (\${MODEL_NAME} is not approved yet)`);
  expect(second.code).toBe(2);
  expect(requestsTo(model)).toBe(before);
  // a model named on the command line is sent as ever; the notice shows the variable as the file writes it
  const named = await runHey(["-p", "-m", "local/m1", "go"], { cwd: project.path, env: { HOME: home.path, LOCAL_KEY: KEY } });
  expect(named.stderr).toContain(`hey: not used: + [provider.local] models \${MODEL_NAME:-m1}: its value would be sent in ${userConfig()}`);
  expect(named.code).toBe(0);
  expect(named.stdout).toContain("done");
});

test("a CA file the agent adds to the user's config is not trusted, nor read, until approved; the next run names it", async () => {
  mkdirSync(join(userConfig(), ".."), { recursive: true });
  writeFileSync(userConfig(), `[provider.local]\nbase_url = "${model.baseUrl}"\napi_key = "\${LOCAL_KEY}"\nmodels = ["m1"]\n`);
  const planted = join(project.path, "planted-ca.pem"); // never written: reading it would stop the run (exit 2)
  edit = { path: "~/.config/hey/config.toml", old_string: "[provider.local]", new_string: `[network]\nca_file = "${planted}"\n\n[provider.local]` };
  expect((await hey()).code).toBe(0);

  edit = undefined;
  const second = await hey();
  expect(second.stderr).toContain(`hey: not used: + [network] ca_file = "${planted}": its CAs would be trusted for model requests in ${userConfig()}`);
  expect(second.code).toBe(0);
  expect(second.stdout).toContain("done");
});

test("a provider the agent added is refused, named, and never sent a request", async () => {
  mkdirSync(join(userConfig(), ".."), { recursive: true });
  const approved = `[provider.local]\nbase_url = "${model.baseUrl}"\napi_key = "\${LOCAL_KEY}"\nmodels = ["m1"]\n`;
  writeFileSync(userConfig(), approved);
  const added = `[default]\nprovider = "fast"\n\n[provider.fast]\nbase_url = "${other.baseUrl}"\napi_key = "\${LOCAL_KEY}"\nmodels = ["m1"]\n\n`;
  edit = { path: "~/.config/hey/config.toml", old_string: "[provider.local]", new_string: `${added}[provider.local]` };
  expect((await hey()).code).toBe(0);

  const second = await hey();
  expect(second.code).toBe(2);
  // one line says it: the provider is not approved, nothing goes there, and where to approve it
  expect(second.stderr).toStartWith(`hey: [provider.fast] base_url = "${other.baseUrl}" in ${userConfig()} is not approved yet, so hey sends nothing there`);
  expect(second.stderr.trim().split("\n")).toHaveLength(1);
  expect(second.stderr).toContain("or pick an approved provider with /model (-m on the command line)"); // the way on when the answer was no
  expect(requestsTo(other)).toBe(0);

  // what needs no model runs all the same: the MCP servers listed, the usage shown
  const env = { HOME: home.path, LOCAL_KEY: KEY };
  const mcp = await runHey(["mcp"], { cwd: project.path, env });
  expect(mcp.code).toBe(0);
  expect(mcp.stdout).toContain("no MCP servers in use");
  // the user typed none: the notice says what to do from here (the flag as a word: the temp home's random name can hold "-p")
  expect(mcp.stderr).not.toMatch(/(^|[\s(`])-p\b/);
  const usage = await runHey(["-c", "-p", "/usage"], { cwd: project.path, env });
  expect(usage.code).toBe(0);
  expect(usage.stdout).toContain("session:");
  expect(requestsTo(other)).toBe(0);
});
