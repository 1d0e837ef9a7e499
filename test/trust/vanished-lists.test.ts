// The lists the user approved hold when the files behind them vanish (config/vanished.ts): a user or
// project config that is gone keeps its recorded lists until the user's yes drops them; an
// approvals record that is gone while hey's sessions remain approves nothing, not even an allow
// list. A true first run (no hey state) still takes every file as it is.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ALLOWS_NOTHING } from "../../src/permission/rules.ts";
import { beginConfig } from "../../src/trust/start.ts";
import { decideWidenings, readApprovalState, recordApprovals, recordOnAnswer } from "../../src/trust/approve.ts";
import type { Places } from "../../src/fs/places.ts";
import { tempDir } from "../helpers/e2e.ts";
import { configInputs } from "../helpers/places.ts";

let tmp: ReturnType<typeof tempDir>;
let here: Places;
let env: Record<string, string | undefined>;
beforeEach(() => {
  tmp = tempDir("hey-vanished-");
  const project = join(realpathSync(tmp.path), "project");
  mkdirSync(join(project, ".git"), { recursive: true });
  ({ env, here } = configInputs({ HOME: join(realpathSync(tmp.path), "home") }, project));
  mkdirSync(here.stateDir, { recursive: true });
});
afterEach(() => tmp.remove());

const lists = { allow: ["read_file", "bash: git *"], deny: ["bash: rm *"] };
const writeRecord = (configs: Record<string, unknown>, trusted: string[] = []) =>
  writeFileSync(here.approvalsFile, JSON.stringify({ version: 1, configs, trusted }));
const record = () => JSON.parse(readFileSync(here.approvalsFile, "utf8")) as { configs: Record<string, { allow?: string[]; deny?: string[] }> };

/** A run's start (beginConfig), its widenings decided with `answer` at the REPL's question (none: a one-shot run), then recorded. */
async function start(answer?: string, approve = false) {
  const said: string[] = [];
  const asked: string[] = [];
  const warn = (m: string) => said.push(m);
  const ask = answer === undefined ? undefined : async (q: string) => (asked.push(q), answer);
  const begun = await beginConfig(here, env, {}, { approve, configFile: undefined, warn, ...(ask ? { ask } : {}) });
  if (begun === "cancelled") throw new Error("cancelled");
  const config = await decideWidenings(begun.config, ask, warn);
  await recordApprovals(config, begun.approvals, here.trustFile, warn);
  return { permission: config.settings.permission, said, asked };
}

test("a user config that is gone keeps the lists the record holds for it, and a one-shot run says so in one line", async () => {
  writeRecord({ [here.userConfig]: { mcp: {}, ...lists, endpoints: {}, vars: [] } });
  const run = await start();
  expect(run.permission.allow).toEqual(lists.allow);
  expect(run.permission.deny).toEqual(lists.deny);
  expect(run.said).toEqual([`${here.userConfig} is gone; the lists you approved there still apply; run hey at a terminal to drop them`]);
  // a one-shot run drops nothing: the next one finds the same lists
  expect(record().configs[here.userConfig]).toMatchObject(lists);
  expect((await start()).permission.deny).toEqual(lists.deny);
});

test("at the interactive prompt a gone file's lists are asked about: no keeps them, yes drops them from the record", async () => {
  writeRecord({ [here.userConfig]: { mcp: {}, ...lists, endpoints: {}, vars: [] } });
  const no = await start("n");
  expect(no.asked[0]).toStartWith(`${here.userConfig} is gone: the lists you approved there would no longer apply:\n  - [permission] allow`);
  expect(no.asked[0]).toContain('  - [permission] deny "bash: rm *"');
  expect(no.permission.deny).toEqual(lists.deny);
  expect(no.said).toEqual([`${here.userConfig} is gone; the lists you approved there still apply; hey asks again at the next start or /reload`]);
  const yes = await start("y");
  expect(yes.permission).toMatchObject({ allow: [], deny: [] });
  expect(record().configs[here.userConfig]?.deny).toBeUndefined();
  const after = await start("y");
  expect(after.asked).toEqual([]);
  expect(after.said).toEqual([]);
});

test("a trusted project's .hey/config.toml that is gone keeps its recorded lists in a one-shot run, as at the interactive prompt", async () => {
  const projectFile = here.projectConfig;
  mkdirSync(here.configDir, { recursive: true });
  writeFileSync(here.trustFile, JSON.stringify({ version: 1, projects: { [here.root]: { trusted: true, decided: "" } } }));
  writeRecord({ [projectFile]: { mcp: {}, allow: ["read_file"], deny: ["bash: curl *"], endpoints: {}, vars: [] } }, [here.root]);
  const run = await start();
  expect(run.permission.deny.some((e) => e.includes("bash: curl *"))).toBe(true);
  // a one-shot run in a project with nothing left to load reads its trust all the same (x162 #1): its allow list still narrows
  expect(run.permission.narrow).toEqual([{ source: projectFile, allow: ["read_file"] }]);
  expect(run.said).toContain(`${projectFile} is gone; the lists you approved there still apply; run hey at a terminal to drop them`);
});

test("at the interactive prompt, in the trusted project, its gone file's recorded allow and deny lists still narrow until a yes", async () => {
  mkdirSync(here.configDir, { recursive: true });
  writeFileSync(here.trustFile, JSON.stringify({ version: 1, projects: { [here.root]: { trusted: true, decided: "" } } }));
  writeRecord({ [here.projectConfig]: { mcp: {}, allow: ["read_file"], deny: ["bash: curl *"], endpoints: {}, vars: [] } }, [here.root]);
  const no = await start("n");
  expect(no.asked[0]).toStartWith(`${here.projectConfig} is gone: the lists you approved there would no longer apply:`);
  expect(no.permission.narrow).toEqual([{ source: here.projectConfig, allow: ["read_file"] }]);
  expect(no.permission.deny.some((e) => e.includes("bash: curl *"))).toBe(true);
  const yes = await start("y");
  expect(yes.permission).toMatchObject({ deny: [], narrow: [] });
});

test("an untrusted project's deny entries are recorded: removed from its file, or the file gone, they still apply", async () => {
  mkdirSync(join(here.projectConfig, ".."), { recursive: true });
  writeFileSync(here.projectConfig, '[permission]\ndeny = ["bash: curl *"]\n');
  const first = await start();
  expect(first.permission.deny.some((e) => e.includes("bash: curl *"))).toBe(true);
  expect(record().configs[here.projectConfig]?.deny).toEqual(["bash: curl *"]);
  writeFileSync(here.projectConfig, "[permission]\ndeny = []\n");
  const edited = await start();
  expect(edited.permission.deny.some((e) => e.includes("bash: curl *"))).toBe(true);
  expect(edited.said.join("\n")).toContain(`not used: - [permission] deny "bash: curl *" in ${here.projectConfig}: it drops deny entries recorded of it`);
  // nothing else of an untrusted project's file is used: no line says the rest of it is
  expect(edited.said.join("\n")).not.toContain("the rest of the file is used");
  expect(edited.said.join("\n")).toContain("nothing else in the file is used (the project is not trusted)");
  rmSync(join(here.projectConfig, ".."), { recursive: true });
  const gone = await start();
  expect(gone.permission.deny.some((e) => e.includes("bash: curl *"))).toBe(true);
  // recorded from a cloned repository without a question: not "the lists you approved"
  expect(gone.said).toContain(`${here.projectConfig} is gone; the project's deny entries recorded there still apply; run hey at a terminal to drop them`);
});

test("a project reached through a link finds its gone file's record, kept under the real path", async () => {
  const real = here.root;
  writeRecord({ [join(real, ".hey", "config.toml")]: { mcp: {}, deny: ["bash: curl *"], endpoints: {}, vars: [] } });
  const link = join(realpathSync(tmp.path), "link");
  symlinkSync(real, link);
  ({ env, here } = configInputs(env, link));
  const run = await start();
  expect(run.permission.deny.some((e) => e.includes("bash: curl *"))).toBe(true);
});

test("a record that holds no list for a gone file changes nothing and says nothing", async () => {
  writeRecord({ [here.userConfig]: { mcp: {}, endpoints: {}, vars: [] } });
  const run = await start();
  expect(run.permission).toMatchObject({ allow: [], deny: [] });
  expect(run.said).toEqual([]);
});

test("an approvals record removed while sessions remain approves nothing: the config's allow list waits, and no call runs", async () => {
  mkdirSync(join(here.userConfig, ".."), { recursive: true });
  writeFileSync(here.userConfig, '[permission]\nallow = ["bash", "read_file"]\n');
  mkdirSync(here.sessionsDir, { recursive: true });
  writeFileSync(join(here.sessionsDir, "s.jsonl"), "{}\n");
  const run = await start();
  expect(run.permission.allow).toEqual([ALLOWS_NOTHING]);
  expect(run.said[0]).toStartWith(`${here.approvalsFile} is missing, though hey ran here before (${here.sessionsDir}): it was removed`);
  expect(run.said[1]).toStartWith(`not used: + [permission] allow "bash", + [permission] allow "read_file" in ${here.userConfig}`);
  // written at once: the next run goes by it, and a yes at the prompt approves the file
  expect(record().configs[here.userConfig]?.allow).toEqual([ALLOWS_NOTHING]);
  const yes = await start("y");
  expect(yes.permission.allow).toEqual(["bash", "read_file"]);
});

test("a true first run (no sessions, no outputs) takes the file as it is, as before", async () => {
  mkdirSync(join(here.userConfig, ".."), { recursive: true });
  writeFileSync(here.userConfig, '[permission]\nallow = ["bash", "read_file"]\n');
  mkdirSync(here.sessionsDir, { recursive: true }); // an empty directory is no trace of a run
  const run = await start();
  expect(run.permission.allow).toEqual(["bash", "read_file"]);
  expect(run.said).toHaveLength(1);
  expect(run.said[0]).toStartWith(`recorded ${here.userConfig} as approved (no earlier record`);
});

/** A session left by an earlier run, and no record: the record was removed. */
function recordRemoved() {
  mkdirSync(here.sessionsDir, { recursive: true });
  writeFileSync(join(here.sessionsDir, "s.jsonl"), "{}\n");
}

test("the record removed and the user config gone too: no list is taken as dropped in this run, and the record written does not lock out the next", async () => {
  recordRemoved();
  const run = await start();
  expect(run.permission.allow).toEqual([ALLOWS_NOTHING]);
  expect(run.said[0]).toContain(
    "so nothing in your config files counts as approved and no tool call runs by their allow lists (read-only commands still run; a --config file you name is taken as it is) until you confirm the files: run `hey` at a terminal and answer its question",
  );
  expect(run.said.join("\n")).not.toContain("--approve");
  // the record is written only once the model answers (here recordApprovals, as at that answer): the notice says so, not that the next start goes without the file
  expect(run.said).toContain(
    `${here.userConfig} is not there, and the record of what you approved was removed: what it set cannot be known, so no tool call runs by an allow list in this run (read-only commands still run); it is not recorded so: the record hey writes next (at the model's first answer, or at your yes to a question) leaves it out, and the starts after that go without the file; to go on without it now, run \`hey\` at a terminal and answer its question`,
  );
  // most users never had the file: an "allow nothing" kept for it would refuse every writing tool call for good
  expect(record().configs[here.userConfig]).toBeUndefined();
  const next = await start();
  expect(next.permission.allow).toEqual([]);
  expect(next.said).toEqual([]);
});

test.each([
  ["a run with no terminal (an agent's bash, its mark unset)", {}],
  ["CI set (as the agent can set it)", { CI: "true" }],
])("--approve confirms nothing after a removed record, %s: it says so, and only the yes at the question confirms the files", async (_, extra) => {
  Object.assign(env, extra);
  mkdirSync(join(here.userConfig, ".."), { recursive: true });
  writeFileSync(here.userConfig, '[permission]\nallow = ["bash: git *"]\n');
  recordRemoved();
  const run = await start(undefined, true);
  expect(run.permission.allow).toEqual([ALLOWS_NOTHING]);
  expect(run.said).toContain(
    "--approve does not confirm your config files after a removed approvals record (a flag is as easy for the agent to pass as for you): it trusts the project for this run alone; run `hey` at a terminal and answer its question to confirm them, or, without one, restore or remove the record with the sessions as said above",
  );
  expect(run.said.join("\n")).not.toContain("--approve confirms");
  expect(record().configs[here.userConfig]?.allow).toEqual([ALLOWS_NOTHING]);
  // the interactive prompt's question, answered by a person, does
  const asked = await start("y");
  expect(asked.asked.join("\n")).toContain('+ [permission] allow "bash: git *"');
  expect(asked.permission.allow).toEqual(["bash: git *"]);
  const next = await start();
  expect(next.permission.allow).toEqual(["bash: git *"]);
  expect(next.said).toEqual([]);
});

test("saved command outputs alone (a cache restored without the state, a first REPL that ran only !COMMAND) are no trace of a removed record", async () => {
  mkdirSync(join(here.userConfig, ".."), { recursive: true });
  writeFileSync(here.userConfig, '[permission]\nallow = ["bash: seq *"]\n');
  mkdirSync(join(here.outputsDir, "s1"), { recursive: true });
  writeFileSync(join(here.outputsDir, "s1", "1.log"), "1\n2\n");
  const run = await start();
  expect(run.permission.allow).toEqual(["bash: seq *"]);
  expect(run.said.join("\n")).not.toContain("missing");
});

test("a removed record is rewritten only once the model answers, as a first record is", async () => {
  recordRemoved();
  const state = readApprovalState(here.approvalsFile, () => {}, [here.sessionsDir]);
  expect(state.lost).toBe(true);
  let written = 0;
  await recordOnAnswer(state, async () => (written++, { version: 1, configs: {}, trusted: [] }) as never);
  expect(written).toBe(0);
  expect(existsSync(here.approvalsFile)).toBe(false);
  if (typeof state.owed !== "object") throw new Error("owed nothing");
  await state.owed.write();
  expect(written).toBe(1);
});

test.each(["the link removed", "its target moved (a dangling link)"])(
  "a linked user config (dotfiles) that disappears keeps its approved lists: %s",
  async (how) => {
    const dotfiles = join(here.home, "dotfiles");
    mkdirSync(join(dotfiles, "hey"), { recursive: true });
    writeFileSync(join(dotfiles, "hey", "config.toml"), '[permission]\ndeny = ["bash: seq *"]\n');
    mkdirSync(join(here.userConfig, ".."), { recursive: true });
    symlinkSync(join(dotfiles, "hey", "config.toml"), here.userConfig);
    await start(); // the first run records the file
    if (how === "the link removed") rmSync(here.userConfig);
    else renameSync(dotfiles, `${dotfiles}.moved`);
    const run = await start();
    expect(run.permission.deny).toEqual(["bash: seq *"]);
    expect(run.said).toEqual([`${here.userConfig} is gone; the lists you approved there still apply; run hey at a terminal to drop them`]);
  },
);

test("a /reload before the model's first answer still finds the record removed: the allow list keeps waiting", async () => {
  mkdirSync(join(here.userConfig, ".."), { recursive: true });
  writeFileSync(here.userConfig, '[permission]\nallow = ["bash"]\n');
  recordRemoved();
  const begun = await beginConfig(here, env, {}, { approve: false, configFile: undefined, warn: () => {} });
  if (begun === "cancelled") throw new Error("cancelled");
  const reloaded = begun.config.reload({}, begun.approvals.record, false);
  expect(reloaded.config?.settings.permission.allow).toEqual([ALLOWS_NOTHING]);
});
