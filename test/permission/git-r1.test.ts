// r1's git findings: `--config-env` naming a variable the shell already holds (PWD, HOME), `-c
// core.hooksPath`/`include.path` under an allow list with no deny entry, a git directory made by
// `init --separate-git-dir`, ls-remote's `--exec`, clone's `-c` in a cluster of short options,
// fast-import's `option git export-pack-edges=FILE` in its input; and the over-strict refusals of
// `git merge-index -o git-merge-one-file`, of `git daemon` under an entry naming it. Everyday
// commands of the same programs still run.
import { afterAll, describe, expect, test } from "bun:test";
import { realpathSync } from "node:fs";
import { permissionCheck } from "../../src/wire.ts";
import { tempDir } from "../helpers/e2e.ts";
import { controlFixture } from "./control-corpus.ts";

const tmp = tempDir("hey-git-r1-");
afterAll(() => tmp.remove());
const { home, project, controls } = controlFixture(realpathSync(tmp.path));
const place = { cwd: project, home, controls };
const README_ALLOW = ["read_file", "grep", "bash: git *", "bash: ls", "bash: npm run test *"];
const lists = {
  "README's list": permissionCheck({ allow: README_ALLOW, deny: ["bash: git push *"], narrow: [] }, "bash", place),
  "README's allow entries, no deny entry": permissionCheck({ allow: README_ALLOW, deny: [], narrow: [] }, "bash", place),
};
const denyOnly = permissionCheck({ allow: [], deny: ["bash: git push *", "bash: touch *"], narrow: [] }, "bash", place);
const run = (check: ReturnType<typeof permissionCheck>, command: string) => check("bash", { command }) ?? "allowed";
const blobs = Array.from({ length: 3 }, (_, i) => `blob\nmark :${i + 1}\ndata 1\n${i}\n`).join("");

describe.each(Object.entries(lists))("under %s", (_name, check) => {
  test.each([
    // #2: the value comes from a variable the shell holds: PWD after `cd`, HOME, one exported before
    ["cd src/hk && git --config-env=core.hooksPath=PWD commit -q --allow-empty -m x", "known only at run time: `core.hooksPath=PWD`"],
    ["git --config-env core.fsmonitor=OLDPWD status", "known only at run time: `core.fsmonitor=OLDPWD`"],
    ["export HK=src/hk; git --config-env=core.hooksPath=HK commit", "known only at run time"],
    // HOME is known: its value is judged as `-c core.fsmonitor=/home/…` would be
    ["git --config-env=core.fsmonitor=HOME status", `sets git's core.fsmonitor, which git runs with the shell: \`${home}\` matches no allow entry`],
    // #3: a hooks directory or config file the agent may have written, deny entry or not
    ["git -c core.hooksPath=src/hk commit -q --allow-empty -m x", "sets git's core.hookspath: git reads commands from files there"],
    ["git -c core.hookspath=src/hk commit -m x", "sets git's core.hookspath"],
    ["git -c include.path=/tmp/cfg.inc status --short", "include.path"],
    // #4: a git directory outside `.git`, which a `.git` file in src/w points to
    ["git init -q --separate-git-dir=src/ev src/w", "`--separate-git-dir=src/ev` names a git directory outside `.git`"],
    ["git init --separate-git-dir src/ev src/w", "`--separate-git-dir` names a git directory outside `.git`"],
    ["git init --sep=src/ev src/w", "`--sep=src/ev` names a git directory outside `.git`"],
    ["git clone --separate-git-dir=src/ev https://example.com/x.git src/w", "names a git directory outside `.git`"],
    // #9: ls-remote's other name for --upload-pack
    ["git ls-remote --exec='touch /tmp/x; git-upload-pack' .", "gives git ls-remote a command it runs with the shell: `touch /tmp/x` matches no allow entry"],
    ["git ls-remote --exec 'touch /tmp/x; git-upload-pack' .", "`touch /tmp/x` matches no allow entry"],
    // #10: clone's `-c` in a cluster, its value the next word or the rest of the word
    ["git clone -qc core.fsmonitor='touch /tmp/x' . ../cl", "`-qc` writes a file, which a pattern must spell out"],
    ["git clone -qccore.fsmonitor='touch /tmp/x' . ../cl", "writes a file, which a pattern must spell out"],
    // #14: fast-import's input naming the file it appends pack edges to, or input the checker cannot read
    ["git fast-export --all | git -C ../n fast-import", "input the checker cannot read (a pipe or a file)"],
    ["git fast-import < src/stream", "input the checker cannot read"],
  ])("refuses %s", (command, why) => {
    const reason = run(check, command);
    expect(reason).toStartWith("blocked by permission rules");
    expect(reason).toContain(why);
  });

  test.each([
    "git clone -q https://example.com/x.git",
    "git clone -b main -q https://example.com/x.git",
    "git clone -bmain -q https://example.com/x.git",
    "git fetch",
    "git fetch --prune origin",
    "git init",
    "git init -q src/w",
    "git -c user.name=x commit -m y",
    "git ls-remote --heads origin",
    "git --config-env=user.name=NAME commit -m x",
    "git -c core.hooksPath=/dev/null commit -m x",
    "git -c core.hooksPath=.git/hooks commit -m x",
    `git fast-import --quiet <<'EOF'\n${blobs}EOF`,
    // #8: git's own program, which git-merge-index(1) names
    "git merge-index -o git-merge-one-file -a",
  ])("lets %s run", (command) => {
    expect(run(check, command)).toBe("allowed");
  });
});

// with a deny entry naming git the heredoc is refused for its `option git` line alone (it names `git`)
const EDGES = `git fast-import --quiet <<'EOF'\noption git export-pack-edges=../home/.config/hey/config.toml\n${blobs}EOF`;
test("fast-import's input naming a file it appends to is refused under an allow list and a deny list with no git entry (#14)", () => {
  expect(run(lists["README's allow entries, no deny entry"], EDGES)).toContain("gives git fast-import `option git export-pack-edges=FILE` in its input");
  const curl = permissionCheck({ allow: [], deny: ["bash: curl *"], narrow: [] }, "bash", place);
  expect(run(curl, EDGES)).toContain("gives git fast-import `option git export-pack-edges=FILE` in its input");
});

describe("an entry naming a server allows it (#15)", () => {
  const daemon = permissionCheck({ allow: ["bash: git daemon *"], deny: [], narrow: [] }, "bash", place);
  test("`bash: git daemon *` lets git daemon run, and still judges its access hook", () => {
    expect(run(daemon, "git daemon --export-all --base-path=. --listen=127.0.0.1 --port=41231")).toBe("allowed");
    expect(run(daemon, "git daemon --access-hook='touch /tmp/x' --export-all")).toContain("gives git daemon a command it runs with the shell: `touch /tmp/x`");
    expect(run(lists["README's list"], "git daemon --export-all --base-path=.")).toContain("keeps running after the command");
  });
  test("git merge-index with a program not git's own is still judged", () => {
    expect(run(lists["README's list"], "git merge-index -o ./merge.sh -a")).toContain("`./merge.sh` matches no allow entry");
  });
  test("`git maintenance unregister` stays refused, and says why", () => {
    expect(run(lists["README's list"], "git maintenance unregister")).toContain(
      "it only takes this repository out, but git rewrites the whole file; run it yourself",
    );
  });
});

describe("under a deny list (git push, touch)", () => {
  test.each([["cd src/hk && git --config-env=core.hooksPath=PWD commit -m x", "known only at run time: `core.hooksPath=PWD`"]])(
    "refuses %s",
    (command, why) => {
      expect(run(denyOnly, command)).toContain(why);
    },
  );
  test.each(["git --config-env=core.pager=HOME status", "git init --separate-git-dir=src/ev src/w", "git fast-import --quiet"])("lets %s run", (command) => {
    expect(run(denyOnly, command)).toBe("allowed");
  });
});
