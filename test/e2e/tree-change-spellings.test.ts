// Through dist/hey against a loopback model, with `[tools] shell = "bash"` and a deny list set (x151):
// commands that change the tree they run in, spelled the ways the review got past the guard of
// hey's control files — UnZip's `--l` (which extracts), git's last `--no-check`, a loop's `cd`
// moving on from the one before, `shopt -s dot''glob` — are refused and leave ~/.config/hey/config.toml
// as it was; listing an archive still runs.
import { expect, setDefaultTimeout } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { runHey } from "../helpers/e2e.ts";
import { eachScriptedRun } from "../helpers/scripted-run.ts";
import { storedZip } from "../helpers/stored-zip.ts";
import { testNeeding } from "../helpers/tools.ts";

setDefaultTimeout(60_000); // the first test may build dist/hey

const scripted = eachScriptedRun();
const { home, project } = scripted;

testNeeding(["bash", "git", "unzip", "tar"])(
  "unzip --l, git apply --no-check, a loop's cd and dot''glob are refused and the user config stays; unzip -l runs",
  async () => {
    scripted.userConfig(`[tools]\nshell = "bash"\n\n[permission]\ndeny = ["bash: curl *"]\n`);
    const config = join(home.path, ".config", "hey", "config.toml");
    const before = readFileSync(config, "utf8");
    const payload = join(project.path, "payload");
    mkdirSync(join(payload, "hey"), { recursive: true });
    writeFileSync(join(payload, "hey", "config.toml"), "# PWNED\n");
    writeFileSync(join(project.path, "e.zip"), storedZip("hey/config.toml", "# PWNED\n"));
    writeFileSync(join(project.path, "e.patch"), `--- a/hey/config.toml\n+++ b/hey/config.toml\n@@ -1 +1 @@\n-${before.split("\n")[0]}\n+# PWNED\n`);
    expect(Bun.spawnSync(["tar", "-cf", join(project.path, "e.tar"), "-C", payload, "hey/config.toml"]).exitCode).toBe(0);
    const up = relative(join(project.path, "src"), join(home.path, ".config"));
    scripted.calls = [
      ["bash", { command: `cd ~/.config && unzip -o --l ${project.path}/e.zip` }],
      ["bash", { command: `cd ~/.config && git apply --check ${project.path}/e.patch --no-check` }],
      ["bash", { command: `mkdir -p src; for d in src ${up}; do cd "$d"; done; tar -xf ${project.path}/e.tar` }],
      ["bash", { command: `shopt -s dot''glob; for d in ~/*/; do (cd "$d" && tar -xf ${project.path}/e.tar); done` }],
      ["bash", { command: "unzip -l e.zip" }],
    ];
    const run = await runHey(["-p", "unpack"], { cwd: project.path, env: { HOME: home.path } });
    expect(run.code).toBe(0);
    const got = scripted.results();
    for (const refusal of got.slice(0, 4)) expect(refusal).toMatch(/^blocked by permission rules: .*(hey's own configuration|cannot verify)/);
    expect(got[4]).toContain("hey/config.toml");
    expect(readFileSync(config, "utf8")).toBe(before);
  },
);
