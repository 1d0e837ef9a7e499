// r1 #6 against real npm: in a workspace monorepo, the workspace commands the checker lets run under
// `bash: npm run test *` do run the workspace packages' scripts, as the user meant (before they
// were refused), and `npm run test --ws` (npm's alias) runs them too.
import { afterAll, expect } from "bun:test";
import { existsSync, mkdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { permissionCheck } from "../../src/wire.ts";
import { tempDir } from "../helpers/e2e.ts";
import { testNeeding } from "../helpers/tools.ts";
import { controlFixture } from "./control-corpus.ts";

const tmp = tempDir("hey-monorepo-real-");
afterAll(() => tmp.remove());
const root = realpathSync(tmp.path);

testNeeding(["bash", "npm"])("npm's workspace commands run under the entry and run each workspace's test script (r1 #6)", () => {
  const { home, project, controls } = controlFixture(join(root, "f"));
  const mark = (name: string) => join(root, `ran-${name}`);
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "mono", workspaces: ["web", "api"], scripts: { test: `touch ${mark("root")}` } }));
  for (const name of ["web", "api"]) {
    mkdirSync(join(project, name));
    writeFileSync(join(project, name, "package.json"), JSON.stringify({ name, scripts: { test: `touch ${mark(name)}` } }));
  }
  const check = permissionCheck({ allow: ["read_file", "bash: npm run test *"], deny: [], narrow: [] }, "bash", { cwd: project, home, controls });
  const cases: [string, string[]][] = [
    ["npm run test -w web", ["web"]],
    ["npm run test --workspaces", ["web", "api"]],
    ["npm run test --ws", ["web", "api"]],
    ["cd api && npm run test", ["api"]],
  ];
  for (const [command, ran] of cases) {
    expect([command, check("bash", { command }) ?? "allowed"]).toEqual([command, "allowed"]);
    for (const name of ["root", "web", "api"]) rmSync(mark(name), { force: true });
    Bun.spawnSync(["bash", "-c", command], {
      cwd: project,
      env: { PATH: process.env.PATH, HOME: home, npm_config_update_notifier: "false" },
      stdout: "ignore",
      stderr: "ignore",
    });
    expect([command, ["root", "web", "api"].filter((n) => existsSync(mark(n)))]).toEqual([command, ran]);
  }
});
