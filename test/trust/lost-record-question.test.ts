// After the approvals record was removed (hey's sessions left), what hey asks and says is true:
// a project's .hey/config.toml that nothing shows ever existed is not asked about — not even
// after a yes to the trust question of this run — a gone one's line says what a yes lets through
// (the allow list of the files before it, or every tool call where none has one), a project
// trusted at hey's question is said to have lost its record, not to have had trust.json changed,
// and a yes to the trust question in that run is kept by the record the run writes.
import { INSTRUCTIONS_KEPT } from "../../src/config/approvals.ts";
import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beginConfig } from "../../src/trust/start.ts";
import { decideWidenings, recordApprovals } from "../../src/trust/approve.ts";
import type { Places } from "../../src/fs/places.ts";
import { tempDir } from "../helpers/e2e.ts";
import { configInputs } from "../helpers/places.ts";

let tmp: ReturnType<typeof tempDir>;
let here: Places;
let env: Record<string, string | undefined>;
beforeEach(() => {
  tmp = tempDir("hey-lost-record-");
  const project = join(realpathSync(tmp.path), "project");
  mkdirSync(join(project, ".git"), { recursive: true });
  ({ env, here } = configInputs({ HOME: join(realpathSync(tmp.path), "home") }, project));
  // an earlier run's session, and no approvals record: it was removed
  mkdirSync(here.sessionsDir, { recursive: true });
  writeFileSync(join(here.sessionsDir, "s.jsonl"), "{}\n");
  mkdirSync(here.configDir, { recursive: true });
  writeFileSync(here.userConfig, '[permission]\nallow = ["read_file", "bash: git *"]\n');
});
afterEach(() => tmp.remove());

/** A run's start with `answer` at each question (none: a one-shot run), and the record it writes (`record`: as at the model's first answer): what it asked and said. */
async function start(answer?: string, record = false) {
  const said: string[] = [];
  const asked: string[] = [];
  const warn = (m: string) => said.push(m);
  const ask = answer === undefined ? undefined : async (q: string) => (asked.push(q), answer);
  const begun = await beginConfig(here, env, {}, { approve: false, configFile: undefined, warn, ...(ask ? { ask } : {}) });
  if (begun === "cancelled") throw new Error("cancelled");
  const config = await decideWidenings(begun.config, ask, warn);
  if (record) await recordApprovals(config, begun.approvals, here.trustFile, warn);
  return { said, asked: asked.join("\n"), trusted: begun.trust.trusted, servers: config.settings.mcp.servers.map((s) => s.name) };
}

const withServer = () => writeFileSync(join(here.root, ".mcp.json"), JSON.stringify({ mcpServers: { fs: { command: "true" } } }));

test("a project with no .hey/ that was never trusted: the question is about the user's config only", async () => {
  const run = await start("n");
  expect(run.asked).toContain(`${here.userConfig} would give the agent more than you approved`);
  expect(run.asked).not.toContain(here.projectConfig);
  expect(run.asked).not.toContain("every tool call would run");
});

test("a project whose .hey/ is there but its config.toml gone: asked about, and a yes lets through the user's allow list, not every call", async () => {
  mkdirSync(join(here.root, ".hey"), { recursive: true });
  const run = await start("n");
  expect(run.asked).toContain(`${here.projectConfig} is not there, and the record of what you approved was removed`);
  expect(run.asked).toContain("- [permission] allow (the whole list: what the allow list of the files before it allows would run)");
  expect(run.asked).not.toContain("every tool call would run");
});

test("a project trusted at hey's question, then the record removed: the notice says the record went, not that trust.json was changed", async () => {
  writeFileSync(join(here.root, ".mcp.json"), JSON.stringify({ mcpServers: { fs: { command: "true" } } }));
  writeFileSync(here.trustFile, JSON.stringify({ version: 1, projects: { [here.root]: { trusted: true, decided: "" } } }));
  const run = await start();
  expect(run.said).toContain(
    `${here.trustFile} trusts ${here.root}, but the record of your answer was removed with the approvals record: its files are not loaded; the interactive prompt asks again, --approve trusts it for one run`,
  );
  expect(run.said.join("\n")).not.toContain("changed outside hey");
});

test("a project with only .mcp.json, trusted at this run's question: its .hey/config.toml, never there, is not asked about", async () => {
  withServer();
  const run = await start("y");
  expect(run.asked).toContain("Trust this project?");
  expect(run.asked).not.toContain(here.projectConfig);
  expect(run.asked).not.toContain("every tool call would run");
});

test("no allow list in any file before a gone project config: its line says a yes lets every tool call run", async () => {
  rmSync(here.userConfig);
  mkdirSync(join(here.root, ".hey"), { recursive: true });
  const run = await start("n");
  expect(run.asked).toContain(`${here.projectConfig} is not there, and the record of what you approved was removed`);
  expect(run.asked).toContain(
    `${here.projectConfig} is not there, and the record of what you approved was removed (what it set cannot be known); going on without it:\n  - [permission] allow (the whole list: every tool call would run)`,
  );
  expect(run.asked).not.toContain("the allow list of the files before it");
});

test("a user config with no allow list (only a model) before a gone project config: a yes lets every tool call run, and the question says so", async () => {
  writeFileSync(here.userConfig, 'model = "m1"\n');
  mkdirSync(join(here.root, ".hey"), { recursive: true });
  const run = await start("n");
  expect(run.asked).toContain("- [permission] allow (the whole list: every tool call would run)");
  expect(run.asked).not.toContain("the allow list of the files before it");
});

test("a yes to the trust question in the run that finds the record removed is kept: the next start neither asks again nor blames trust.json", async () => {
  withServer();
  const first = await start("y", true);
  expect(first.asked).toContain("Trust this project?");
  expect(first.trusted).toBe(true);
  expect((JSON.parse(readFileSync(here.approvalsFile, "utf8")) as { trusted: string[] }).trusted.filter((p) => p !== INSTRUCTIONS_KEPT)).toEqual([here.root]);
  const next = await start(undefined, true);
  expect(next.trusted).toBe(true);
  expect(next.said.join("\n")).not.toContain(here.trustFile);
  expect(next.servers).toContain("fs");
  const asked = await start("n");
  expect(asked.asked).not.toContain("Trust this project?");
});

test("after a removed record, trust.json's other yeses (not given at this run's question) stay unconfirmed in the record it writes", async () => {
  withServer();
  const elsewhere = join(realpathSync(tmp.path), "elsewhere");
  writeFileSync(here.trustFile, JSON.stringify({ version: 1, projects: { [elsewhere]: { trusted: true, decided: "" } } }));
  await start("y", true);
  expect((JSON.parse(readFileSync(here.approvalsFile, "utf8")) as { trusted: string[] }).trusted.filter((p) => p !== INSTRUCTIONS_KEPT)).toEqual([here.root]);
});
