// A `--config` file named for the first time is adopted (the user just chose it), except when it is
// the user's or a project's own file by another name, or when the agent's command names it.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { emptyApprovals, formatApprovals } from "../../src/config/approvals.ts";
import { loadConfig } from "../../src/config/load.ts";
import { places, type Places } from "../../src/fs/places.ts";
import { readApprovalState, recordApprovals, widenings } from "../../src/trust/approve.ts";
import { tempDir } from "../helpers/e2e.ts";

let tmp: ReturnType<typeof tempDir>;
let home: string;
let project: string;
let files: Places;
beforeEach(() => {
  tmp = tempDir("hey-config-flag-");
  home = join(tmp.path, "home");
  project = join(tmp.path, "project");
  mkdirSync(join(project, ".hey"), { recursive: true });
  files = places({}, home, project, "linux");
  mkdirSync(join(files.userConfig, ".."), { recursive: true });
  mkdirSync(join(files.approvalsFile, ".."), { recursive: true });
  writeFileSync(files.approvalsFile, formatApprovals(emptyApprovals())); // a record, of no config file yet
});
afterEach(() => tmp.remove());

const AGENT_ENDPOINT = '[provider.openai]\nbase_url = "http://127.0.0.1:18080/v1"\napi_key = "${OPENAI_API_KEY}"\nmodels = ["gpt-5.5"]\n';

const FILTER = `[tools]\nbash_filter = "./filter.sh"\n`;

/** One one-shot start-up with `--config configFile`, recorded as run.ts records it; the record after it. */
async function start(configFile: string, opts: { agent?: boolean; trustProject?: boolean } = {}) {
  const state = readApprovalState(files.approvalsFile, () => {});
  const env = { HOME: home, OPENAI_API_KEY: "sk-user-secret" };
  const config = loadConfig({ env, here: files, configFile, trustProject: opts.trustProject ?? false, flags: {}, approvals: state.record, ...opts });
  const record = await recordApprovals(config, state, files.trustFile, () => {});
  return { config, record };
}

test.each([
  ["the user's file", () => files.userConfig],
  ["the user's file through a link", () => (symlinkSync(files.userConfig, join(project, "mine.toml")), join(project, "mine.toml"))],
  ["the user's file through a linked directory", () => (symlinkSync(join(files.userConfig, ".."), join(project, "cfg")), join(project, "cfg", "config.toml"))],
])("--config naming %s is that file, with its approvals: a new endpoint is not adopted", async (_, path) => {
  writeFileSync(files.userConfig, AGENT_ENDPOINT);
  const { config, record } = await start(path());
  expect(config.settings.provider.unapproved).toBeDefined();
  expect(JSON.stringify(record)).not.toContain("18080");
  expect(JSON.stringify(record)).not.toContain("OPENAI_API_KEY");
});

test("--config naming the project's file is that file: what it widens is left out, trusted or not", async () => {
  writeFileSync(files.projectConfig, FILTER);
  for (const trustProject of [false, true]) {
    const { config } = await start(join(project, ".hey", "..", ".hey", "config.toml"), { trustProject });
    expect(config.settings.tools.bashFilter).toBe("builtin");
    expect(widenings(config).map((w) => w.file)).toContain(files.projectConfig);
  }
});

test("under the agent's mark a --config file named for the first time is not adopted; named by the user it is (the agent's stays recorded as approved in nothing)", async () => {
  const ci = join(project, "ci.toml");
  writeFileSync(ci, AGENT_ENDPOINT + FILTER);
  const agent = await start(ci, { agent: true });
  expect(agent.config.settings.provider.unapproved).toBeDefined();
  expect(agent.config.settings.tools.bashFilter).toBe("builtin");
  expect(widenings(agent.config)).toHaveLength(1);
  expect(JSON.stringify(agent.record)).not.toContain("18080");
  const mine = join(project, "mine.toml");
  writeFileSync(mine, AGENT_ENDPOINT + FILTER);
  const user = await start(mine);
  expect(user.config.settings.provider.unapproved).toBeUndefined();
  expect(user.config.settings.tools.bashFilter).not.toBe("builtin");
  expect((await start(ci)).config.settings.tools.bashFilter).toBe("builtin");
});
