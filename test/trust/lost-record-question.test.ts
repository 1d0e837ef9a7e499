// After the approvals record was removed (hey's sessions left), what hey asks and says is true:
// a project's .hey/config.toml that nothing shows ever existed is not asked about, a gone one's
// line names the allow list still in force rather than "every tool call would run", and a project
// trusted at hey's question is said to have lost its record, not to have had trust.json changed.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beginConfig } from "../../src/trust/start.ts";
import { decideWidenings } from "../../src/trust/approve.ts";
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

/** A run's start with `answer` at each question (none: a one-shot run): what it asked and said. */
async function start(answer?: string) {
  const said: string[] = [];
  const asked: string[] = [];
  const warn = (m: string) => said.push(m);
  const ask = answer === undefined ? undefined : async (q: string) => (asked.push(q), answer);
  const begun = await beginConfig(here, env, {}, { approve: false, terminal: true, configFile: undefined, warn, ...(ask ? { ask } : {}) });
  if (begun === "cancelled") throw new Error("cancelled");
  await decideWidenings(begun.config, ask, warn);
  return { said, asked: asked.join("\n") };
}

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
