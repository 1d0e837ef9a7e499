// r1 #5, #6, #13: an allow entry for a package manager's script covers the scripts of the project's
// own packages — its root, the workspace's packages it declares, a folder of it a `cd` or `--prefix`
// leads to — as it covers `npm run test` at the root; a package.json outside the project
// (`--prefix ../other`, `-C ~`, `cd ../other`) has the scripts it runs judged as commands, however
// npm's option is spelled (`--prefi`, `-prefix`). monorepo-scripts-real.test.ts runs them with real npm.
import { afterAll, expect, test } from "bun:test";
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { permissionCheck } from "../../src/wire.ts";
import { tempDir } from "../helpers/e2e.ts";
import { controlFixture } from "./control-corpus.ts";

const tmp = tempDir("hey-monorepo-");
afterAll(() => tmp.remove());
const root = realpathSync(tmp.path);
const { home, project, controls } = controlFixture(join(root, "f"));
const json = (path: string, value: unknown) => {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, JSON.stringify(value));
};
json(join(project, "package.json"), { name: "mono", workspaces: ["web", "api"], scripts: { test: "echo root" } });
json(join(project, "web", "package.json"), { name: "web", scripts: { test: "vitest run" } });
json(join(project, "api", "package.json"), { name: "api", scripts: { test: "jest" } });
json(join(project, "src", "package.json"), { scripts: { test: "touch /tmp/fr4-pwned" } });
writeFileSync(join(project, "pnpm-workspace.yaml"), "packages:\n  - web\n  - api\n");
json(join(root, "f", "other", "package.json"), { scripts: { test: "touch /tmp/fr4-pwned" } });
symlinkSync(join(root, "f", "other"), join(project, "lnk"));
json(join(home, "package.json"), { scripts: { test: "touch /tmp/fr4-pwned" } });

const LIST = ["read_file", "write_file: src/**", "bash: npm run test *", "bash: npm test *", "bash: pnpm *", "bash: yarn *", "bash: bun *"];
const at = (cwd: string) => permissionCheck({ allow: LIST, deny: [], narrow: [] }, "bash", { cwd, home, controls });
const decide = (c: ReturnType<typeof at>, command: string) => c("bash", { command }) ?? "allowed";

test("a monorepo's workspace scripts run under the entry that runs the root's, by every manager's spelling (r1 #6)", () => {
  const c = at(project);
  for (const command of [
    "npm run test -w web",
    "npm run test --workspace=web",
    "npm run test --workspaces",
    "npm run test --ws",
    "npm test -w api",
    "pnpm -r test",
    "pnpm --filter web test",
    "pnpm -C web test",
    "yarn --cwd web test",
    "bun run --filter '*' test",
    "bun --cwd web run test",
  ])
    expect([command, decide(c, command)]).toEqual([command, "allowed"]);
});

test("a folder of the project reached by a cd or an option, npm's abbreviation too, is the project's (r1 #5, #13)", () => {
  const c = at(project);
  for (const command of ["cd src && npm run test", "(cd src; npm run test)", "npm run test --prefix=src", "npm run test --prefi=src", "npm run test -Csrc"])
    expect([command, decide(c, command)]).toEqual([command, "allowed"]);
  // started in a workspace's package: the root above and its other packages are the project's
  const web = at(join(project, "web"));
  for (const command of ["npm test", "cd .. && npm run test", "npm run test --prefix ../api", "cd ../api && npm test", "npm run test -w api --prefix .."])
    expect([command, decide(web, command)]).toEqual([command, "allowed"]);
});

test("a package.json outside the project has its scripts judged, however npm's option is spelled (r1 #5)", () => {
  const c = at(project);
  for (const command of [
    "npm run test --prefix=../other",
    "npm run test --prefix ../other",
    "npm run test --prefi=../other",
    "npm run test -prefix=../other",
    "npm run test ---prefix ../other",
    "npm run test -C ../other",
    "npm run test --prefix ~",
    "pnpm -C ../other test",
    "pnpm --dir=../other test",
    "yarn --cwd ../other test",
    "bun --cwd ../other run test",
    "cd ../other && npm run test",
    "cd ~ && npm test",
    "npm run test --prefix=lnk", // a folder of the project that is a link to ../other
  ])
    expect([command, decide(c, command)]).toEqual([
      command,
      expect.stringMatching(
        /^blocked by permission rules: `.*` runs .*package\.json's script `test`, a package.json outside the project: `touch \/tmp\/fr4-pwned` matches no allow entry/,
      ),
    ]);
  // a directory only the run knows: refused
  expect(decide(c, 'npm run test --prefix "$D"')).toMatch(/^blocked by permission rules: .*`"\$D"` is known only at run time/);
  // an entry that spells the option and its value allows that package.json's scripts
  const spelled = permissionCheck({ allow: [...LIST, "bash: npm run test --prefix=../other"], deny: [], narrow: [] }, "bash", { cwd: project, home, controls });
  expect(decide(spelled, "npm run test --prefix=../other")).toBe("allowed");
  expect(decide(spelled, "npm run test -C ../other")).toMatch(/a package.json outside the project/);
});

test("a deny entry still refuses a workspace's script (deny reads every package's scripts)", () => {
  const c = permissionCheck({ allow: LIST, deny: ["bash: vitest *"], narrow: [] }, "bash", { cwd: project, home, controls });
  for (const command of ["npm run test -w web", "pnpm -r test", "cd web && npm test"])
    expect([command, decide(c, command)]).toEqual([command, expect.stringMatching(/vitest/)]);
  expect(decide(c, "npm run test")).toBe("allowed");
});
