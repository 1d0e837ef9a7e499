// r1 #8, #9: `split --filter=COMMAND` runs COMMAND with the shell for each piece, so it is judged as
// a command of its own (`$FILE` standing for a piece's name); and the name csplit or split joins from
// two words is judged where its folder's links lead, as any written path is (`-f dirlink/con -b
// 'fig.toml%.0d'` where dirlink leads to hey's config folder). split-filter-links-real.test.ts runs them.
import { afterAll, expect, test } from "bun:test";
import { realpathSync } from "node:fs";
import { join } from "node:path";
import { permissionCheck } from "../../src/wire.ts";
import { tempDir } from "../helpers/e2e.ts";
import { controlFixture } from "./control-corpus.ts";

const tmp = tempDir("hey-split-filter-");
afterAll(() => tmp.remove());
const root = realpathSync(tmp.path);
const { home, project, controls } = controlFixture(join(root, "f"));
const listed = permissionCheck({ allow: ["bash: split *", "bash: csplit *", "bash: gzip *"], deny: [], narrow: [] }, "bash", { cwd: project, home, controls });
const denyOnly = permissionCheck({ allow: [], deny: ["bash: curl *"], narrow: [] }, "bash", { cwd: project, home, controls });
const decide = (c: typeof listed, command: string) => c("bash", { command }) ?? "allowed";

test("split's --filter is judged as the command it is, by any spelling getopt takes (r1 #8)", () => {
  for (const command of [
    "split --filter='touch /tmp/fr4-pwned; cat > $FILE' src/cfg",
    "split --filter 'touch /tmp/fr4-pwned' src/cfg",
    "split -l 10 --filt='touch /tmp/fr4-pwned' src/cfg",
  ])
    expect([command, decide(listed, command)]).toEqual([
      command,
      expect.stringMatching(/^blocked by permission rules: `touch \/tmp\/fr4-pwned` matches no allow entry/),
    ]);
  expect(decide(listed, 'split --filter="$C" src/cfg')).toMatch(/^blocked by permission rules: .*known only at run time/);
  const deny = permissionCheck({ allow: [], deny: ["bash: rm *"], narrow: [] }, "bash", { cwd: project, home, controls });
  expect(decide(deny, "split --filter='rm -rf src' src/cfg")).toMatch(/`rm -rf src` matches deny entry `bash: rm \*`/);
  // a piece's name: the filter's writes are judged as the joined name's are
  expect(decide(denyOnly, "split -n 2 --filter='cat > $FILE' src/cfg ../home/.config/hey/config.tom")).toMatch(/names hey's own configuration/);
  expect(decide(denyOnly, "split -n 2 --filter='cat > ${FILE}l' src/cfg ../home/.config/hey/config.tom")).toMatch(/^blocked by permission rules/);
  // everyday: compress each piece
  expect(decide(denyOnly, "split -l 1000 --filter='gzip > $FILE.gz' big.log part-")).toBe("allowed");
  expect(decide(listed, "split -l 1000 big.log part-")).toBe("allowed");
});

test("a name csplit or split joins is judged where its folder's links lead (r1 #9)", () => {
  for (const command of [
    "csplit -s -f dirlink/con -b 'fig.toml%.0d' src/p 3",
    "csplit -s -f dirli -b 'nk/config.toml%.0d' src/p 3",
    "split -a 1 src/p dirl --additional-suffix=nk/config.toml",
  ])
    for (const c of [listed, denyOnly])
      expect([command, decide(c, command)]).toEqual([command, expect.stringMatching(/names hey's own configuration .*through a link/)]);
  for (const command of ["csplit -s -f sub/part- src/p 3", "csplit -s -f part- -b '%02d.txt' src/p 3"])
    expect([command, decide(denyOnly, command)]).toEqual([command, "allowed"]);
});
