// x105 #3 and #5: an option of an allowed command that runs code or writes a file. `bash: npm test`
// let `npm test --node-options='--import=data:…'` run any JavaScript (and `--script-shell=./x` any
// program), and `bash: git diff *` let `git diff *` run where a file is named `--output=README.md`,
// which overwrote README.md. Such options are words no `*` matches, and so is a glob that could
// expand to one; under a deny list they make a package.json's scripts "cannot verify", as does a
// same-command write to .npmrc. Plain forms still run.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BLOCKED_PREFIX, compileRules, decide } from "../../src/permission/rules.ts";
import { permissionCheck } from "../../src/wire.ts";
import { tempDir } from "../helpers/e2e.ts";

const ALLOW = [
  "bash: npm test",
  "bash: npm ci *",
  "bash: npm run test *",
  "bash: pnpm test *",
  "bash: yarn test *",
  "bash: bun test *",
  "bash: bun run dev *",
  "bash: npx eslint *",
  "bash: git diff *",
  "bash: git log *",
  "bash: git show *",
  "bash: git format-patch *",
  "bash: git add *",
];
const SHELLS = ["sh", "bash"];
const compiled = Object.fromEntries(SHELLS.map((shell) => [shell, compileRules({ allow: ALLOW, deny: [] }, shell).rules]));
const reasons = (command: string) =>
  SHELLS.map((shell) => {
    const d = decide("bash", { command }, compiled[shell]!);
    return d.allowed ? "allowed" : d.reason;
  });

describe("under an allow list, an option that changes what a package manager runs needs an entry naming it", () => {
  test.each([
    "npm test --node-options='--import=data:text/javascript,console.log(1)'",
    "npm test --script-shell=./evil.sh",
    "npm test --script-shell ./evil.sh",
    "npm test --script-sh=./evil.sh", // npm expands a unique beginning of a name (with a warning)
    "npm test -script-shell=./evil.sh", // and reads any number of dashes
    "npm test ---node-options=--require=./x.js",
    "npm test --userconfig ./u.npmrc",
    "npm test --globalconfig=./u.npmrc",
    "npm test --shell=./evil.sh",
    "npm run test --script-shell=./evil.sh",
    "npm test *", // a file named `--script-shell=./x` is that option
    "npm ci --dangerously-allow-all-scripts", // npm 11: every dependency's install script, whatever package.json's allowScripts says
    "pnpm test --config.script-shell=./x",
    "pnpm test --pnpmfile=./hooks.cjs",
    "yarn test --use-yarnrc ./x",
    "bun test --preload ./x.js",
    "bun test -r ./x.js",
    "bun run --preload ./x.js dev",
  ])("%s is refused", (command) => {
    for (const reason of reasons(command)) expect(reason).toStartWith(`${BLOCKED_PREFIX} \``);
  });

  test.each([
    "npm test",
    "npm test -- --grep foo",
    "npm test -- *",
    "npm test --silent",
    "npm test --global",
    "npm ci --no-audit",
    "npm test --all", // a whole name of npm's, not the beginning of --allow-scripts
    "npm run test -- --watch",
    "pnpm test --filter web",
    "bun test src/a.test.ts",
    "bun run dev --preload ./x.js", // the script's words: bun 1.4.5 handed them to `dev`
    "npx eslint --config eslint.config.js .", // the words after the program are eslint's
  ])("%s still runs", (command) => {
    expect(reasons(command)).toEqual(["allowed", "allowed"]);
  });

  test("the refusal says which word and why a pattern must spell it out; an entry that does runs it", () => {
    const [reason] = reasons("npm test --script-shell=./evil.sh");
    expect(reason).toContain(
      "`--script-shell=…` changes what npm runs (the program its scripts run with, node's options or a config file that sets them), which a pattern must spell out",
    );
    const [glob] = reasons("npm test *");
    expect(glob).toContain("`*` is known only at run time and could expand to an option of npm's that changes what it runs");
    const spelled = compileRules({ allow: ["bash: npm test --script-shell=bash *"], deny: [] }, "sh").rules;
    expect(decide("bash", { command: "npm test --script-shell=bash" }, spelled)).toEqual({ allowed: true });
  });
});

describe("under an allow list, a glob that could expand to git's --output needs `--` before it", () => {
  test.each([
    "git diff *",
    "git diff *.md",
    "git diff -*",
    "git diff ?-*",
    "git diff [-]*",
    "git diff --o*",
    "git log *",
    "git show HEAD *",
    "git format-patch -k*",
  ])("%s is refused", (command) => {
    for (const reason of reasons(command)) expect(reason).toStartWith(`${BLOCKED_PREFIX} \``);
  });

  test.each(["git diff -- *", "git diff src/*", "git diff --stat*", "git log --oneline -5", "git add *.ts", "git diff HEAD -- *.md"])(
    "%s still runs",
    (command) => {
      expect(reasons(command)).toEqual(["allowed", "allowed"]);
    },
  );

  test("the refusal names the option the glob could be and the form that runs", () => {
    const [reason] = reasons("git diff *");
    expect(reason).toBe(
      `${BLOCKED_PREFIX} \`git diff *\` matches no allow entry; \`*\` is known only at run time and could expand to git's \`--output=FILE\` (a file may be so named), which writes that file: put \`--\` before paths (\`git diff -- *\`) (allowed: ${ALLOW.slice(0, 6).join(", ")}, …)`,
    );
    expect(reasons("git diff HEAD~1 *.ts")[0]).toContain("put `--` before paths (`git diff HEAD~1 -- *.ts`)");
  });
});

describe("under a deny list, what changes how a package.json's scripts run makes them unreadable", () => {
  const tmp = tempDir("hey-manager-options-");
  afterAll(() => tmp.remove());
  const project = join(realpathSync(tmp.path), "project");
  mkdirSync(project);
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "p", scripts: { test: "node --test", build: "tsc" } }));
  const check = permissionCheck({ allow: [], deny: ["bash: rm *"], narrow: [] }, "sh", { cwd: project, home: join(project, "home"), controls: [] });
  const said = (command: string) => check("bash", { command });

  test.each([
    ["npm test --script-shell=./evil.sh", "cannot verify `npm test --script-shell=./evil.sh`: `--script-shell=…` changes what runs its scripts"],
    ["npm test --node-options=--require=./x.js", "`--node-options=…` changes what runs its scripts"],
    ['npm test "$ARGS"', '`"$ARGS"` is known only at run time and could be an option that changes what runs its scripts'],
    [
      "find . -maxdepth 0 -fprintf .npmrc 'script-shell=./evil.sh\\n' ; npm test",
      "another part of the command may change .npmrc, which says what runs its scripts, before it runs them",
    ],
    ["echo 'node-options=--require=./x.js' > .npmrc && npm run build", "may change .npmrc"],
    // npm given `--prefix DIR` reads DIR/etc/npmrc as its global config (npm 11: its script-shell ran)
    ["mkdir -p etc && echo 'script-shell=./x' > etc/npmrc && npm --prefix . test", "may change ./etc/npmrc"],
  ])("%s is refused", (command, reason) => {
    expect(said(command)).toContain(reason);
  });

  test.each(["npm test", 'npm test -- "$ARGS"', "npm run build --silent"])("%s still runs", (command) => {
    expect(said(command)).toBeUndefined();
  });
});

test("BUN_OPTIONS and yarn's rc file name are refused as npm_config_* is: they change what the manager runs", () => {
  const rules = compileRules({ allow: ["bash: bun test *", "bash: yarn test *"], deny: [] }, "sh").rules;
  for (const command of ["BUN_OPTIONS=--preload=./x.js bun test", "export YARN_RC_FILENAME=x.yml; yarn test", "YARN_YARN_PATH=./x.cjs yarn test"])
    expect(decide("bash", { command }, rules).allowed).toBe(false);
  expect(decide("bash", { command: "bun test" }, rules)).toEqual({ allowed: true });
});
