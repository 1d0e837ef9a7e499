// Through dist/hey against a loopback model, under an allow list with an exact entry (f90b):
// "bash: rm -rf build $" runs `rm -rf build` and refuses `rm -rf build keep`, offering that command's
// own exact entry. Before, the `$` was a word of the command, so the entry allowed neither (and the
// advice offered "bash: rm -rf build keep", which also allowed `rm -rf build keep ~`). A `$` ending
// a deny entry is a config error `hey doctor` names with the file, line and key; one glued to an
// allow entry's word is the word's, said as a warning.
import { expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { runHey } from "../helpers/e2e.ts";
import { eachScriptedRun } from "../helpers/scripted-run.ts";

setDefaultTimeout(60_000); // the first test may build dist/hey

const scripted = eachScriptedRun();

test("an exact entry runs its command, and the same command with one more word is refused with its own exact entry offered", async () => {
  const { home, project } = scripted;
  scripted.userConfig(`[permission]\nallow = ["read_file", "bash: rm -rf build $"]\n`);
  for (const dir of ["build", "keep"]) mkdirSync(join(project.path, dir));
  scripted.calls = [
    ["bash", { command: "rm -rf build keep" }],
    ["bash", { command: "rm -rf build" }],
  ];
  const run = await runHey(["-p", "clean"], { cwd: project.path, env: { HOME: home.path } });
  expect(run.code).toBe(0);
  const [extra, exact] = scripted.results();
  expect(extra).toBe(
    'blocked by permission rules: `rm -rf build keep` matches no allow entry in ~/.config/hey/config.toml: add "bash: rm -rf build keep $" there (`$`: this command exactly, no words after it) (allowed: bash: rm -rf build $)',
  );
  expect(exact).not.toContain("blocked");
  expect(existsSync(join(project.path, "build"))).toBe(false);
  expect(existsSync(join(project.path, "keep"))).toBe(true);
});

test("hey doctor names a `$` in a deny list as an error, with the file, line and key", async () => {
  const { home, project } = scripted;
  scripted.userConfig(`[permission]\nallow = [\n  "bash: ls *",\n]\ndeny = ["bash: rm -rf / $"]\n`);
  const run = await runHey(["doctor"], { cwd: project.path, env: { HOME: home.path } });
  const file = join(home.path, ".config", "hey", "config.toml");
  const lines = scripted.provider().split("\n").length - 1; // the permission table follows the provider's lines; an entry is named at its key's line
  expect(run.stdout + run.stderr).toContain(
    `${file}:${lines + 5}: [permission] deny: "bash: rm -rf / $" ends in the exact mark \`$\`, which a deny entry cannot have: it refuses whatever follows its words; drop the \`$\``,
  );
});

// x93 #4: a `$` glued to an allow entry's last word was valid before the mark; it stopped hey
test("a `$` glued to an allow entry's word starts hey with a warning, the entry as it was, and hey doctor names it", async () => {
  const { home, project } = scripted;
  scripted.userConfig(`[permission]\nallow = [\n  "bash: ls *",\n  "bash: npm test$",\n]\n`);
  const file = join(home.path, ".config", "hey", "config.toml");
  const lines = scripted.provider().split("\n").length - 1;
  const said = `${file}:${lines + 2}: [permission] allow "bash: npm test$" ends in \`test$\`, whose \`$\` is the word's`;
  const run = await runHey(["-p", "hi"], { cwd: project.path, env: { HOME: home.path } });
  expect(run.code).toBe(0);
  expect(run.stderr).toContain(said);
  const doctor = await runHey(["doctor"], { cwd: project.path, env: { HOME: home.path } });
  expect(doctor.stdout + doctor.stderr).toContain(said);
});
