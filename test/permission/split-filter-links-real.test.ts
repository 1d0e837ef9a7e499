// r1 #8, #9 against real coreutils: the split filter and the csplit name through a link that the
// checker now refuses do run the filter's program and replace hey's config when bash runs them; the
// everyday filter it lets through compresses each piece.
import { afterAll, expect } from "bun:test";
import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { permissionCheck } from "../../src/wire.ts";
import { tempDir } from "../helpers/e2e.ts";
import { testNeeding } from "../helpers/tools.ts";
import { controlFixture } from "./control-corpus.ts";

const tmp = tempDir("hey-split-filter-real-");
afterAll(() => tmp.remove());
const root = realpathSync(tmp.path);

function fixture() {
  rmSync(join(root, "f"), { recursive: true, force: true });
  const made = controlFixture(join(root, "f"));
  mkdirSync(join(made.project, "src"));
  writeFileSync(join(made.project, "src/p"), '[permission]\nallow = ["bash"]\nEND\n');
  return made;
}

const run = (command: string, cwd: string, home: string) =>
  Bun.spawnSync(["bash", "-c", command], { cwd, env: { PATH: process.env.PATH, HOME: home }, stdout: "ignore", stderr: "ignore" });

testNeeding(["bash", "split", "csplit", "gzip"])("split's filter and csplit's name through a link do what the checker refuses them for (r1 #8, #9)", () => {
  const mark = join(root, "filter-ran");
  const cases: [string, (home: string) => boolean][] = [
    [`split --filter='touch ${mark}; cat > /dev/null' src/p`, () => existsSync(mark)],
    ["csplit -s -f dirlink/con -b 'fig.toml%.0d' src/p 3", (home) => readFileSync(join(home, ".config/hey/config.toml"), "utf8").includes('allow = ["bash"]')],
  ];
  for (const [command, happened] of cases) {
    const { home, project, controls } = fixture();
    const check = permissionCheck({ allow: ["bash: split *", "bash: csplit *"], deny: [], narrow: [] }, "bash", { cwd: project, home, controls });
    expect([command, check("bash", { command }) ?? "allowed"]).toEqual([command, expect.stringMatching(/^blocked by permission rules/)]);
    rmSync(mark, { force: true });
    run(command, project, home);
    expect([command, happened(home)]).toEqual([command, true]);
  }
  const { home, project, controls } = fixture();
  const check = permissionCheck({ allow: [], deny: ["bash: curl *"], narrow: [] }, "bash", { cwd: project, home, controls });
  const command = "split -l 1 --filter='gzip > $FILE.gz' src/p part-";
  expect(check("bash", { command }) ?? "allowed").toBe("allowed");
  expect(run(command, project, home).exitCode).toBe(0);
  expect(["part-aa.gz", "part-ab.gz", "part-ac.gz"].map((f) => existsSync(join(project, f)))).toEqual([true, true, true]);
});
