// A directory the user made unsearchable (`chmod 000 secret/`) says nothing of an AGENTS.md it
// may or may not hold: no "cannot read" warning naming a file that may not exist, in the system
// prompt's reading or when a file tool touches it. A file that is there but unreadable still is
// one. Permissions bind only a user other than root: as root, the reading runs as nobody (setpriv).
import { expect, test } from "bun:test";
import { chmodSync, mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { eachTempDir } from "../helpers/fixtures.ts";

const tmp = eachTempDir("hey-unreadable-");
const NOBODY = 65534;

/** What readAgentsFiles and forPath warn of for `secret/` and `locked/` of `repo`, read by a user other than root. */
function warningsAsUser(repo: string): string[] {
  const src = (file: string) => JSON.stringify(join(import.meta.dir, "../../src/prompt", file));
  const script = `
    const { readAgentsFiles, PROJECT_NAMES } = await import(${src("agents-md.ts")});
    const { createNestedAgents } = await import(${src("nested-agents.ts")});
    const repo = ${JSON.stringify(repo)};
    const warnings = readAgentsFiles(["secret", "locked"].map((d) => ({ dir: repo + "/" + d, names: PROJECT_NAMES, within: repo }))).warnings;
    const nested = createNestedAgents({ cwd: repo, configDir: repo + "/none", warn: (w) => warnings.push(w) });
    nested.forPath(repo + "/secret/x.ts", { id: {}, has: () => false });
    console.log(JSON.stringify(warnings));`;
  const asRoot = process.getuid?.() === 0;
  const user = asRoot ? ["setpriv", `--reuid=${NOBODY}`, `--regid=${NOBODY}`, "--clear-groups"] : [];
  const run = Bun.spawnSync([...user, process.execPath, "-e", script], { cwd: repo, env: { ...process.env, HOME: repo } });
  expect(run.stderr.toString()).toBe("");
  return JSON.parse(run.stdout.toString());
}

test("an unsearchable directory is no warning; an unreadable AGENTS.md is one, naming it", () => {
  const repo = join(realpathSync(tmp.path), "repo");
  for (const d of [".git", "secret", "locked"]) mkdirSync(join(repo, d), { recursive: true });
  writeFileSync(join(repo, "locked", "AGENTS.md"), "rules");
  chmodSync(join(repo, "locked", "AGENTS.md"), 0o000);
  chmodSync(join(repo, "secret"), 0o000);
  for (const d of [tmp.path, repo]) chmodSync(d, 0o755);
  try {
    expect(warningsAsUser(repo)).toEqual([`${join(repo, "locked", "AGENTS.md")}: cannot read (EACCES); left out of the prompt`]);
  } finally {
    chmodSync(join(repo, "secret"), 0o755); // so the temporary directory can be removed
  }
});
