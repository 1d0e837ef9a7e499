// Through dist/hey started in a project's subfolder (web/), as monorepo users start it: the entries
// hey suggests for the project's Claude rule `Read(.env)` name the project's root .env, and pasted —
// into the user's config, or the project's .hey/config.toml written by hand as `**/.env` — they
// refuse ../.env to read_file, and a grep of the project (`..`) passes it by, whose matches would
// hand the model its lines.
import { expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey } from "../helpers/e2e.ts";
import { eachScriptedRun } from "../helpers/scripted-run.ts";

setDefaultTimeout(60_000); // the first test may build dist/hey

const scripted = eachScriptedRun();

const write = (path: string, text: string) => {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
};

/** A git project whose root .env holds a PIN, with a web/ folder to start in; its real path. */
function project(): string {
  const root = realpathSync(scripted.project.path);
  mkdirSync(join(root, ".git"));
  write(join(root, ".env"), "ADMIN_PIN=4711-horse-battery\n");
  write(join(root, "web", "index.html"), "<p>hi</p>\n");
  return root;
}

const CALLS: [string, unknown][] = [
  ["read_file", { path: "../.env" }],
  ["grep", { pattern: "PIN", path: ".." }],
  ["read_file", { path: "index.html" }],
];

test("Claude's project rule Read(.env) becomes entries anchored at the project; pasted, they refuse the root .env from web/", async () => {
  const root = project();
  write(join(root, ".claude", "settings.json"), JSON.stringify({ permissions: { deny: ["Read(.env)"] } }));
  scripted.userConfig("");
  const first = await runHey(["-p", "hi"], { cwd: join(root, "web"), env: { HOME: scripted.home.path } });
  const deny = `deny = ["read_file: ${root}/**/.env", "grep: ${root}/**/.env", "edit: ${root}/**/.env"]`;
  // the project's own file gets the relative form, which it anchors at the project (the next test pastes it)
  expect(first.stderr).toContain(
    'write in .hey/config.toml (loaded once the project is trusted):\n  [permission]\n  deny = ["read_file: **/.env", "grep: **/.env", "edit: **/.env"]',
  );
  expect(first.stderr).toContain(`  Or for you alone, in ~/.config/hey/config.toml (its paths named under the project's folder):\n  [permission]\n  ${deny}`);

  scripted.userConfig(`[permission]\n${deny}\n`);
  scripted.calls = CALLS;
  const run = await runHey(["-p", "show the pin"], { cwd: join(root, "web"), env: { HOME: scripted.home.path } });
  expect(run.code).toBe(0);
  const got = scripted.results();
  expect(got[0]).toBe(`blocked by permission rules: read_file of \`../.env\` matches deny entry \`read_file: ${root}/**/.env\` in ~/.config/hey/config.toml:8`);
  expect(got[1]).toStartWith('no matches for "PIN" in ..');
  expect(got[1]).toContain("[1 file not searched: the permission rules keep it from grep]");
  expect(got[2]).toBe("1\t<p>hi</p>");
  expect(got.join("\n")).not.toContain("4711");
});

test("a project's own .hey/config.toml deny of **/.env holds from web/: its patterns are the project's, not the working directory's", async () => {
  const root = project();
  write(join(root, ".hey", "config.toml"), '[permission]\ndeny = ["read_file: **/.env", "grep: **/.env"]\n');
  write(join(root, ".claude", "settings.json"), JSON.stringify({ permissions: { deny: ["Bash(rm:*)"] } }));
  scripted.userConfig("");
  scripted.calls = CALLS;
  const run = await runHey(["-p", "show the pin"], { cwd: join(root, "web"), env: { HOME: scripted.home.path } });
  expect(run.code).toBe(0);
  // the untrusted project's deny entries are no list of the user's: Claude's rules are still said
  expect(run.stderr).toContain(".claude/settings.json has Claude Code permission rules (1 deny)");
  const got = scripted.results();
  expect(got[0]).toBe(`blocked by permission rules: read_file of \`../.env\` matches deny entry \`read_file: ${root}/**/.env\` in ${root}/.hey/config.toml`);
  expect(got[1]).toContain("[1 file not searched: the permission rules keep it from grep]");
  expect(got[2]).toBe("1\t<p>hi</p>");
  expect(got.join("\n")).not.toContain("4711");
});

test("a hand-written read_file deny with no grep or edit entry is said once, with the entries to add, and by hey doctor every time", async () => {
  const root = project();
  scripted.userConfig('[permission]\ndeny = ["read_file: ~/.ssh/**"]\n');
  const said = `config.toml:8: [permission] deny "read_file: ~/.ssh/**" keeps those files from read_file only: grep still searches them`;
  const env = { HOME: scripted.home.path };
  expect((await runHey(["-p", "hi"], { cwd: root, env })).stderr).toContain(said);
  expect((await runHey(["-p", "hi"], { cwd: root, env })).stderr).not.toContain("read_file only");
  expect((await runHey(["doctor"], { cwd: root, env })).stdout).toContain(`add "grep: ~/.ssh/**", "edit: ~/.ssh/**" too`);
  scripted.userConfig('[permission]\ndeny = ["read_file: ~/.ssh/**", "grep: ~/.ssh", "edit: ~/.ssh/**"]\n');
  expect((await runHey(["doctor"], { cwd: root, env })).stdout).not.toContain("read_file only");
});
