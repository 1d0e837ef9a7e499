// x112 #2 and #3: package-manager settings spelled another way. npm reads `npm_config_*` in any
// letter case (`export Npm_Config_Script_Shell=./evil.sh; npm test` ran evil.sh under `bash: npm
// test`), bun reads `-r./p.js` as `--preload ./p.js`, and npx takes the word after `-p` as the
// package, so `npx -p typescript --script-shell=./evil.sh tsc` still sets npm's script shell.
import { expect, test } from "bun:test";
import { permissionCheck } from "../../src/permission-check.ts";

const check = (shell: string, allow: string[], deny: string[], command: string) =>
  permissionCheck({ allow, deny, narrow: [], file: "/h/.config/hey/config.toml" }, shell, { cwd: "/p", home: "/h", controls: [] })("bash", {
    command,
  });
const SHELLS = ["sh", "bash"];

test.each(
  SHELLS.flatMap((shell) =>
    [
      "export Npm_Config_Script_Shell=./evil.sh; npm test",
      "export Npm_Config_Node_Options=--require=./x.js; npm test",
      "npm_CONFIG_SCRIPT_SHELL=./evil.sh npm test",
      "export Pnpm_Config_Script_Shell=./evil.sh; npm test",
      "export YARN_SCRIPT_SHELL=./evil.sh; npm test",
      "export yarn_yarn_path=./evil.js; npm test",
    ].map((command) => [shell, command]),
  ),
)("under %s a package manager's setting in any letter case is refused: %j", (shell, command) => {
  expect(check(shell, ["bash: npm test", "bash: export *"], [], command)).toContain("changes what");
  expect(check(shell, [], ["bash: rm *"], command)).toContain("changes what");
});

test.each([
  [["bash: bun test *"], "bun test -r./p.js a.test.ts", "-r./p.js"],
  [["bash: bun test *"], "bun test -c./bunfig.toml", "-c./bunfig.toml"],
  [["bash: npx -p typescript *"], "npx -p typescript --script-shell=./evil.sh tsc --version", "--script-shell=…"],
  [["bash: npx *"], "npx --package typescript --node-options=--require=./x.js tsc", "--node-options=…"],
  [["bash: npx *"], "npx --registry http://127.0.0.1:1 -p typescript --script-shell ./evil.sh tsc", "--script-shell"],
])("under %j, %j is refused for %j", (allow, command, option) => {
  for (const shell of SHELLS) expect(check(shell, allow, [], command)).toContain(`\`${option}\` changes what`);
});

test.each([
  [["bash: bun test *"], "bun test -t name a.test.ts"],
  [["bash: npx *"], "npx -p typescript tsc --noEmit"],
  [["bash: npx *"], "npx -y eslint --config eslint.config.js ."],
  [["bash: npx *"], "npx --yes prettier --write ."],
  [["bash: npm test", "bash: export *"], "export NPM_TOKEN_FILE=x; npm test"],
])("under %j, %j still runs", (allow, command) => {
  for (const shell of SHELLS) expect(check(shell, allow, [], command)).toBeUndefined();
});
