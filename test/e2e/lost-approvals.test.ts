// An approvals record removed (README "The agent never widens its own rules"): with the user's
// config gone too, no list is taken as dropped, this run or the next; only hey's sessions, which
// live with the record, tell that hey ran before — saved outputs in a cache restored apart (CI) do
// not lock a run out — and only a yes at the interactive question confirms the files: `--approve`
// does not, with CI set or at a pseudo-terminal alike, and `hey doctor --approve` says what a run
// does; a run the model never answered rewrites no record, but a yes at the trust question or to
// /trust is kept. A run without a terminal names the ways out a CI job has: the record restored with
// the sessions, or both removed. One-shot runs of dist/hey, and the REPL in tmux.
import { expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { INSTRUCTIONS_KEPT } from "../../src/config/approvals.ts";
import { ensureBinary, runHey, tempDir } from "../helpers/e2e.ts";
import { eachScriptedRun } from "../helpers/scripted-run.ts";
import { startTerm } from "../helpers/tmux.ts";
import { testNeeding } from "../helpers/tools.ts";

setDefaultTimeout(60_000); // the first test may build dist/hey

const scripted = eachScriptedRun();
const record = () => join(scripted.home.path, ".local", "state", "hey", "approvals.json");
const sessions = () => join(scripted.home.path, ".local", "state", "hey", "sessions");
const victim = () => join(scripted.project.path, "victim.txt");
const hey = (args: string[], env: Record<string, string> = {}) => runHey(args, { cwd: scripted.project.path, env: { HOME: scripted.home.path, ...env } });
/** The provider from the environment, as a run without the user config reaches the model. */
const fromEnv = () => ({ HEY_BASE_URL: scripted.model.baseUrl });
const missing = () => `${record()} is missing, though hey ran here before (${sessions()}): it was removed`;

/** A first run that leaves a session and a record, then the record removed. */
async function recordRemoved(config: string) {
  scripted.userConfig(config);
  expect((await hey(["-p", "hi"])).code).toBe(0);
  expect(existsSync(sessions())).toBe(true);
  rmSync(record());
}

test("the config and approvals.json both removed: rm is refused in the run that finds it, which says what to do; the file is not recorded as allowing nothing", async () => {
  await recordRemoved('[permission]\nallow = ["read_file", "bash: ls *"]\ndeny = ["bash: rm *"]\n');
  rmSync(join(scripted.home.path, ".config"), { recursive: true }); // as `git clean -fdx` in ~/.config does
  writeFileSync(victim(), "keep me\n");
  scripted.calls = [["bash", { command: "rm -v victim.txt" }]];
  const r = await hey(["-m", "m1", "-p", "tidy up"], fromEnv());
  expect(r.stderr).toContain(missing());
  expect(r.stderr).toContain("config.toml is not there, and the record of what you approved was removed");
  const refusal = scripted.results()[0]!;
  expect(refusal).toStartWith("blocked by permission rules:");
  // what to do, not an edit of a file that is not there
  expect(refusal).toContain("run `hey` at a terminal and answer its question");
  expect(refusal).not.toContain("config.toml: add");
  expect(existsSync(victim())).toBe(true);
  expect(readFileSync(record(), "utf8")).not.toContain("<nothing until approved>");
});

test("sessions and no config ever, the record removed (a new machine with synced sessions): only the run that finds it is held back", async () => {
  scripted.calls = [["bash", { command: "touch made-by-agent" }]];
  expect((await hey(["-m", "m1", "-p", "hi"], fromEnv())).code).toBe(0);
  expect(existsSync(join(scripted.project.path, "made-by-agent"))).toBe(true);
  rmSync(record());
  rmSync(join(scripted.project.path, "made-by-agent"));
  const found = await hey(["-m", "m1", "-p", "hi"], fromEnv());
  expect(found.stderr).toContain(missing());
  expect(scripted.results()[0]).toContain("run `hey` at a terminal and answer its question");
  const next = await hey(["-m", "m1", "-p", "hi"], fromEnv());
  expect(next.stderr).not.toContain("missing");
  expect(next.stderr).not.toContain("was removed");
  expect(scripted.results()[0]).not.toStartWith("blocked");
  expect(existsSync(join(scripted.project.path, "made-by-agent"))).toBe(true);
});

test("a sync tool's marker or a .DS_Store in the sessions folder is no earlier run: no config at all, and the call runs", async () => {
  mkdirSync(sessions(), { recursive: true });
  writeFileSync(join(sessions(), ".stfolder"), "");
  writeFileSync(join(sessions(), ".DS_Store"), "x");
  scripted.calls = [["bash", { command: "touch made-by-agent" }]];
  const r = await hey(["-m", "m1", "-p", "hi"], fromEnv());
  expect(r.stderr).not.toContain("missing");
  expect(scripted.results()[0]).not.toStartWith("blocked");
  expect(existsSync(join(scripted.project.path, "made-by-agent"))).toBe(true);
});

test("saved outputs in a cache restored without the state (CI) are no trace: a fresh state is a first run, and the call runs", async () => {
  const outputs = join(scripted.home.path, ".cache", "hey", "outputs", "01JOLDSESSION");
  mkdirSync(outputs, { recursive: true });
  writeFileSync(join(outputs, "1.log"), "1\n2\n3\n");
  scripted.userConfig("");
  scripted.calls = [["bash", { command: "seq 1 3" }]];
  const r = await hey(["-p", "count"]);
  expect(r.stderr).not.toContain("missing");
  expect(scripted.results()[0]).not.toStartWith("blocked");
  expect(scripted.results()[0]).toContain("3");
});

/** `hey ARGS` at a pseudo-terminal `script` holds (stdin and stderr a terminal, as typed in a shell), in the project; what it printed. */
async function atPseudoTerminal(args: string[], env: Record<string, string> = {}) {
  const command = [await ensureBinary(), ...args].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(" ");
  const proc = Bun.spawn(["script", "-qec", command, "/dev/null"], {
    cwd: scripted.project.path,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: scripted.home.path, NO_COLOR: "1", TERM: "dumb", ...env },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
    timeout: 20_000,
    killSignal: "SIGKILL",
  });
  const [out, code] = await Promise.all([proc.stdout.text(), proc.exited]);
  return { code, out: out.replaceAll("\r", "") };
}

/** What a run says of --approve after a removed record: it trusts the project, never confirms the files. */
const UNCONFIRMED = "--approve does not confirm your config files after a removed approvals record";

test("--approve with CI set confirms nothing after a removed record: the call is refused, and the next run still waits", async () => {
  await recordRemoved('[permission]\nallow = ["bash: seq *"]\n');
  scripted.calls = [["bash", { command: "seq 1 3" }]];
  const r = await hey(["-m", "m1", "-p", "--approve", "count"], { ...fromEnv(), CI: "true" }); // as an agent's bash with its mark unset can set it
  expect(r.stderr).toContain(`${missing()}, so nothing in your config files counts as approved`);
  expect(r.stderr).toContain(UNCONFIRMED);
  expect(r.stderr).not.toContain("--approve confirms");
  expect(scripted.results()[0]).toStartWith("blocked by permission rules:");
  const next = await hey(["-m", "m1", "-p", "count"], fromEnv());
  expect(next.stderr).not.toContain("missing"); // the record is written again, keeping the loss
  expect(scripted.results()[0]).toStartWith("blocked by permission rules:");
});

test("a CI job that keeps its state and lost the record is told the ways out it has: restore the record with the sessions, or remove both", async () => {
  await recordRemoved('[permission]\nallow = ["bash: seq *"]\n');
  const exits = `without a terminal (CI), restore ${record()} together with ${sessions()} as they were kept, or remove both for a first run`;
  scripted.calls = [["bash", { command: "seq 1 3" }]];
  const lost = await hey(["-m", "m1", "-p", "--approve", "count"], { ...fromEnv(), CI: "true" });
  expect(lost.stderr).toContain(exits);
  expect(scripted.results()[0]).toStartWith("blocked by permission rules:");
  // the record is written again, keeping the loss: each later run says the same ways out
  const kept = await hey(["-m", "m1", "-p", "count"], { ...fromEnv(), CI: "true" });
  expect(kept.stderr).toContain(`the approvals record still holds that an earlier record was removed`);
  expect(kept.stderr).toContain(exits);
  // the configured provider, whose base_url waits for a yes too: the run ends (exit 2), the ways out said first
  const ended = await hey(["-p", "count"], { CI: "true" });
  expect(ended.code).toBe(2);
  expect(ended.stderr).toContain(exits);
  // and the way out works: both removed, the next run is a first run, and the allow list counts
  rmSync(record());
  rmSync(sessions(), { recursive: true });
  const first = await hey(["-m", "m1", "-p", "count"], { ...fromEnv(), CI: "true" });
  expect(first.stderr).not.toContain("removed");
  expect(scripted.results()[0]).toContain("3");
});

testNeeding(["script"])(
  "--approve at a pseudo-terminal (script, as the agent can make one) confirms nothing after a removed record; hey doctor --approve there says the same",
  async () => {
    await recordRemoved('[permission]\nallow = ["bash: seq *"]\n');
    const doctor = await atPseudoTerminal(["doctor", "--approve"]);
    expect(doctor.out).toContain(UNCONFIRMED);
    expect(doctor.out).not.toContain("from a run with no terminal");
    scripted.calls = [["bash", { command: "seq 1 3" }]];
    const r = await atPseudoTerminal(["-m", "m1", "-p", "--approve", "count"], fromEnv());
    expect(r.out).toContain(UNCONFIRMED);
    expect(r.out).not.toContain("--approve confirms");
    expect(scripted.results()[0]).toStartWith("blocked by permission rules:");
  },
);

test("a run the model never answered rewrites no removed record: the next run still finds it removed", async () => {
  await recordRemoved('[permission]\nallow = ["bash: seq *"]\n');
  // nothing listens there (46158 is this test's own, unused)
  const refused = await hey(["-p", "hi", "-m", "m1", "--base-url", "http://127.0.0.1:46158/v1"]);
  expect(refused.stderr).toContain(missing());
  expect(existsSync(record())).toBe(false);
  const next = await hey(["-p", "hi"]);
  expect(next.stderr).toContain(missing());
});

test("a first REPL that only ran !COMMAND (its output saved, no model answer) leaves the next run a first run", async () => {
  const dead = "http://127.0.0.1:46157/v1"; // nothing listens there: the model never answers
  const term = await startTerm({ args: ["--base-url", dead, "-m", "m1"] });
  try {
    await term.waitFor((s) => s.trimEnd().endsWith("›"));
    await term.type("!seq 1 200000");
    await term.keys("Enter");
    const outputs = join(term.home, ".cache", "hey", "outputs");
    await term.waitFor("exit 0 · the command and its output go with your next message");
    expect(readdirSync(outputs).length).toBeGreaterThan(0); // saved: the trace the old start-up took for an earlier run
    await term.type("/quit");
    await term.keys("Enter");
    await term.waitFor("[exit 0]");
    const r = await runHey(["-p", "hi", "-m", "m1", "--base-url", dead], { cwd: term.cwd, env: { HOME: term.home } });
    expect(r.stderr).not.toContain("missing");
    expect(existsSync(join(term.home, ".local", "state", "hey", "approvals.json"))).toBe(false);
  } finally {
    await term.close();
  }
});

test("after a removed record, a yes at the REPL's question is recorded at once: kept when the model never answers", async () => {
  const dead = "http://127.0.0.1:46401/v1"; // nothing listens there: the model never answers
  const state = "$HOME/.local/state/hey";
  const before = `mkdir -p ${state}/sessions $HOME/.config/hey && echo '{}' > ${state}/sessions/old.jsonl && printf '[permission]\\nallow = ["bash: seq *"]\\n' > $HOME/.config/hey/config.toml`;
  const term = await startTerm({ args: ["--base-url", dead, "-m", "m1"], before });
  try {
    await term.waitFor("(y/N)");
    await term.type("y");
    await term.keys("Enter");
    await term.waitFor((s) => s.trimEnd().endsWith("›"));
    await term.type("/quit");
    await term.keys("Enter");
    await term.waitFor("[exit 0]");
    const kept = readFileSync(join(term.home, ".local", "state", "hey", "approvals.json"), "utf8");
    expect(kept).toContain("bash: seq *");
    const r = await runHey(["-p", "hi", "-m", "m1", "--base-url", dead], { cwd: term.cwd, env: { HOME: term.home } });
    expect(r.stderr).not.toContain("missing");
  } finally {
    await term.close();
  }
});

test("after a removed record, a yes to the trust question is recorded at once: kept when the model never answers, and the next start asks nothing", async () => {
  const dead = "http://127.0.0.1:47341/v1"; // nothing listens there: the model never answers
  const state = "$HOME/.local/state/hey";
  const before = `mkdir -p ${state}/sessions && echo '{}' > ${state}/sessions/old.jsonl && echo '{"mcpServers":{"fs":{"command":"true"}}}' > .mcp.json && git init -q`;
  const project = tempDir("hey-lost-project-"); // a project of its own: the home directory is never trusted
  const term = await startTerm({ cwd: project.path, args: ["--base-url", dead, "-m", "m1"], before });
  try {
    await term.waitFor("Trust this project? (y/N)");
    await term.type("y");
    await term.keys("Enter");
    await term.waitFor("Use this change? (y/N)"); // the user config's loss: .mcp.json was approved with the trust, as listed
    await term.type("n");
    await term.keys("Enter");
    await term.waitFor((s) => s.trimEnd().endsWith("›"));
    await term.type("/quit");
    await term.keys("Enter");
    await term.waitFor("[exit 0]");
    const kept = JSON.parse(readFileSync(join(term.home, ".local", "state", "hey", "approvals.json"), "utf8")) as { trusted: string[] };
    expect(kept.trusted.filter((p) => p !== INSTRUCTIONS_KEPT)).toHaveLength(1); // the project: beside the mark that hashes are kept
    const r = await runHey(["-p", "hi", "-m", "m1", "--base-url", dead], { cwd: term.cwd, env: { HOME: term.home } });
    expect(r.stderr).not.toContain("missing");
    expect(r.stderr).not.toContain("trust.json trusts");
    expect(r.stderr).not.toContain("not loaded");
  } finally {
    await term.close();
    project.remove();
  }
});

test("after a removed record, a yes to /trust is recorded at once: kept when the session ends before the model answers, and the next start asks nothing", async () => {
  const dead = "http://127.0.0.1:47622/v1"; // nothing listens there: the model never answers
  const state = "$HOME/.local/state/hey";
  const before = `mkdir -p ${state}/sessions && echo '{}' > ${state}/sessions/old.jsonl && echo '{"mcpServers":{"fs":{"command":"true"}}}' > .mcp.json && git init -q`;
  const project = tempDir("hey-lost-project-"); // a project of its own: the home directory is never trusted
  const term = await startTerm({ cwd: project.path, args: ["--base-url", dead, "-m", "m1"], before });
  try {
    await term.waitFor("Trust this project? (y/N)");
    await term.keys("Enter"); // not now: nothing recorded
    await term.waitFor("Use this change? (y/N)");
    await term.type("n");
    await term.keys("Enter");
    await term.waitFor((s) => s.trimEnd().endsWith("›"));
    await term.type("/trust");
    await term.keys("Enter");
    await term.waitFor((s) => s.trimEnd().endsWith("Trust this project? (y/N)"));
    await term.type("y");
    await term.keys("Enter");
    await term.waitFor("is trusted now");
    await term.type("/quit");
    await term.keys("Enter");
    await term.waitFor("[exit 0]");
    const kept = JSON.parse(readFileSync(join(term.home, ".local", "state", "hey", "approvals.json"), "utf8")) as { trusted: string[] };
    expect(kept.trusted.filter((p) => p !== INSTRUCTIONS_KEPT)).toHaveLength(1); // the project: beside the mark that hashes are kept
    const r = await runHey(["-p", "hi", "-m", "m1", "--base-url", dead], { cwd: term.cwd, env: { HOME: term.home } });
    expect(r.stderr).not.toContain("missing");
    expect(r.stderr).not.toContain("trust.json trusts");
  } finally {
    await term.close();
    project.remove();
  }
});
