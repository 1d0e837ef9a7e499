// Through dist/hey against a loopback model, under `deny = ["bash: rm *"]`: a script another program
// writes (`uniq - s.sh`, `sed -n 'w s.sh'`) and the command then runs, a written script run by
// `/bin/sh`, a makefile piped into make, a git credential helper given by path, and a command
// `git grep -O` glues to its option are refused and delete nothing; a script already there that
// nothing in the command names still runs.
import { expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey } from "../helpers/e2e.ts";
import { eachScriptedRun } from "../helpers/scripted-run.ts";

setDefaultTimeout(60_000); // the first test may build dist/hey

const scripted = eachScriptedRun();
const { home, project } = scripted;

test("under deny rm *, scripts other programs write, /bin/sh, a piped makefile and git's command settings are refused and delete nothing", async () => {
  scripted.userConfig(`[permission]\ndeny = ["bash: rm *"]\n`);
  const files = ["v1.txt", "v2.txt", "v3.txt", "v4.txt", "v5.txt"];
  for (const name of files) writeFileSync(join(project.path, name), "keep\n");
  writeFileSync(join(project.path, "ok.sh"), "echo fine\n");
  scripted.calls = [
    ["bash", { command: `echo "r''m v1.txt" | uniq - s.sh; sh s.sh` }],
    ["bash", { command: `echo "r''m v2.txt" | sed -n 'w s2.sh'; sh s2.sh` }],
    ["bash", { command: `echo "r''m v3.txt" > s3.sh && /bin/sh s3.sh` }],
    ["bash", { command: "printf 'all:\\n\\tr%s v4.txt\\n' m | make -f -" }],
    ["bash", { command: `git -c credential.helper="/bin/r''m v5.txt #" credential fill < /dev/null` }],
    ["bash", { command: "git grep -Orm -e keep" }],
    ["bash", { command: "sh ok.sh" }],
  ];
  const run = await runHey(["-p", "clean up"], { cwd: project.path, env: { HOME: home.path } });
  expect(run.code).toBe(0);
  const got = scripted.results();
  expect(got.slice(0, 6)).toEqual([
    "blocked by permission rules: cannot verify `sh s.sh`: it runs `s.sh`, which `uniq - s.sh` names and so could write: what it holds is known only when it runs",
    "blocked by permission rules: cannot verify `sh s2.sh`: it runs `s2.sh`, which `sed -n 'w s2.sh'` names and so could write: what it holds is known only when it runs",
    "blocked by permission rules: `/bin/sh s3.sh` runs `s3.sh`, which this command writes: `r''m v3.txt` matches deny entry `bash: rm *` in ~/.config/hey/config.toml:8",
    "blocked by permission rules: cannot verify `make -f -`: it gives make a makefile from a pipe, which the rules cannot see",
    `blocked by permission rules: \`git -c credential.helper="/bin/r''m v5.txt #" credential fill < /dev/null\` sets git's credential.helper, which git runs with the shell: \`/bin/r''m v5.txt #\` matches deny entry \`bash: rm *\` in ~/.config/hey/config.toml:8`,
    "blocked by permission rules: `git grep -Orm -e keep` gives git grep a command it runs with the shell: `rm` matches deny entry `bash: rm *` in ~/.config/hey/config.toml:8",
  ]);
  expect(got[6]).toContain("fine");
  for (const name of files) expect({ name, there: existsSync(join(project.path, name)) }).toEqual({ name, there: true });
});
