// Through dist/hey against a loopback model, under `deny = ["bash: rm *", "bash: curl *"]`: text a
// shell will run — a script the same command writes and runs, a git config value git runs with the
// shell, a make recipe — is read as the shell reads it, so quoting that splits `rm` (`r''m`, `r\m`,
// printf's `%s` and `\155`) deletes nothing; an ordinary written script still runs.
import { expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey } from "../helpers/e2e.ts";
import { eachScriptedRun } from "../helpers/scripted-run.ts";

setDefaultTimeout(60_000); // the first test may build dist/hey

const scripted = eachScriptedRun();
const { home, project } = scripted;

test("under deny rm *, scripts written and run, git config values and make recipes that spell rm with quotes are refused and delete nothing", async () => {
  scripted.userConfig(`[permission]\ndeny = ["bash: rm *", "bash: curl *"]\n`);
  const files = ["v1.txt", "v2.txt", "v4.txt", "v5.txt", "v6.txt", "v7.txt"];
  for (const name of files) writeFileSync(join(project.path, name), "keep\n");
  scripted.calls = [
    ["bash", { command: `echo "r''m v1.txt" > s.sh && sh s.sh` }],
    ["bash", { command: "printf 'r%s v2.txt' m > s2.sh && sh s2.sh" }],
    ["bash", { command: "printf 'r\\155 v4.txt' > s4.sh && sh s4.sh" }],
    ["bash", { command: "echo 'r\\m v5.txt' > s5.sh && sh s5.sh" }],
    ["bash", { command: `git -c alias.x="!r''m v6.txt" x` }],
    ["bash", { command: "make -f /dev/stdin <<'X'\nall:\n\tr''m v7.txt\nX" }],
    ["bash", { command: "printf '%s\\n' 'echo fine' > ok.sh && sh ok.sh" }],
  ];
  const run = await runHey(["-p", "clean up"], { cwd: project.path, env: { HOME: home.path } });
  expect(run.code).toBe(0);
  const got = scripted.results();
  expect(got.slice(0, 6)).toEqual([
    "blocked by permission rules: `sh s.sh` runs `s.sh`, which this command writes: `r''m v1.txt` matches deny entry `bash: rm *` in ~/.config/hey/config.toml:8",
    "blocked by permission rules: `sh s2.sh` names `rm`, which `sh` could run: deny entry `bash: rm *` in ~/.config/hey/config.toml:8",
    "blocked by permission rules: `sh s4.sh` names `rm`, which `sh` could run: deny entry `bash: rm *` in ~/.config/hey/config.toml:8",
    "blocked by permission rules: cannot verify `sh s5.sh`: it runs `s5.sh`, which this command writes with `echo` of a backslash, which dash and bash write differently",
    `blocked by permission rules: \`git -c alias.x="!r''m v6.txt" x\` sets git's alias.x, which git runs with the shell: \`r''m v6.txt\` matches deny entry \`bash: rm *\` in ~/.config/hey/config.toml:8`,
    "blocked by permission rules: `make -f /dev/stdin <<'X'` gives make a makefile on stdin: `r''m v7.txt` matches deny entry `bash: rm *` in ~/.config/hey/config.toml:8",
  ]);
  expect(got[6]).toContain("fine");
  for (const name of files) expect({ name, there: existsSync(join(project.path, name)) }).toEqual({ name, there: true });
});
