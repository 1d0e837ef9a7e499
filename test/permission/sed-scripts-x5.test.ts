// x5 #3: `bash: sed -n *`, an entry for reading line ranges, let the agent run any command
// (`sed -n '1e CMD' f`, `s///e`) and write git's config, hooks and hey's files through links
// (`w FILE`, `W FILE`, `s///w FILE`, also in a `-f` script): sed was taken for a reader. Now its
// script is read (sed-scripts.ts): `e CMD` is a command of its own, what runs input or hides in a
// file hey does not read cannot be verified, a `w` file is a write. Reading forms still run.
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, linkSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readScript } from "../../src/permission/sed-scripts.ts";
import { permissionCheck } from "../../src/wire.ts";
import { tempDir } from "../helpers/e2e.ts";
import { testNeeding } from "../helpers/tools.ts";
import { controlFixture, snapshot } from "./control-corpus.ts";

const tmp = tempDir("hey-sed-x5-");
afterAll(() => tmp.remove());
const root = realpathSync(tmp.path);
const { home, project, controls } = controlFixture(join(root, "fx"));
const place = { cwd: project, home, controls };
const READS = ["read_file", "grep", "bash: git status *", "bash: sed -n *"];
const check = (allow: string[], deny: string[] = []) => {
  const c = permissionCheck({ allow, deny, narrow: [] }, "sh", place);
  return (command: string) => c("bash", { command }) ?? "allowed";
};
const reader = check(READS);
const whole = check([...READS, "bash: sed *", "bash: ls *"]);

describe("under allow = [… bash: sed -n *] (no deny entry)", () => {
  test.each([
    ["sed -n '1e touch /tmp/pwned' src/p", "`touch /tmp/pwned` matches no allow entry"],
    ["sed -n --expression='1e touch /tmp/pwned' src/p", "`touch /tmp/pwned` matches no allow entry"],
    ["sed -n '1{e touch /tmp/pwned\n}' src/p", "`touch /tmp/pwned` matches no allow entry"],
    ["sed -n 's/.*/touch \\/tmp\\/pwned/e' src/p", "sed's `e` (alone, or the `e` of `s///e`) runs a line it reads as a command"],
    ["sed -n 'e' src/p", "runs a line it reads as a command"],
    ["sed -n 'w .git/config' src/evilcfg", "`.git/config` names git's own files"],
    ["sed -n -e '1w .git/con''fig' src/evilcfg", "`.git/config` names git's own files"],
    ["sed -n 's/x/y/w .git/hooks/pre-commit' src/hook", "`.git/hooks/pre-commit` names git's own files"],
    ["sed -n '$!{p};W .git/hooks/pre-commit' src/hook", "`.git/hooks/pre-commit` names git's own files"],
    ["sed -n 'w dirlink/config.toml' src/p", "names hey's own configuration or trust file (the file sed's `w` writes, by another name)"],
    ["sed -n 'w apl' src/ap", "names hey's own configuration or trust file"],
    ["sed -n 'W hard' src/p", "names hey's own configuration or trust file"],
    ["sed -n 'w ../home/.config/hey/config.toml' src/p", "names hey's own configuration or trust file"],
    ["sed -n -f src/script.sed src/p", "sed reads its script from `src/script.sed`, which hey does not read"],
    ["sed -n --file=src/script.sed src/p", "which hey does not read"],
    ["sed -n '1k' src/p", "hey cannot read sed's script (an unknown command `k` at character 3)"],
  ])("refuses %s", (command, why) => {
    const reason = reader(command);
    expect(reason).toStartWith("blocked by permission rules");
    expect(reason).toContain(why);
  });

  test.each([
    "sed -n '1,20p' src/p",
    "sed -n '/re/p' src/p",
    "sed -n '100,200p' src/p",
    "sed -n '/^a/,/^b/{/x/!p}' src/p",
    "sed -n 's/[/]/x/p' src/p",
    "sed -n '\\,a/b,p' src/p",
    "sed -n '1a\\\nw .git/config\np' src/p",
    "sed -n 's/a/b/w /dev/stdout' src/p",
    "sed -n 'w out.txt' src/p",
    "sed -n '#n\n1p' src/p",
    "sed -n --sandbox -f src/script.sed src/p",
  ])("allows %s", (command) => expect(reader(command)).toBe("allowed"));
});

describe("under an entry for all of sed (`bash: sed *`)", () => {
  test("a command sed's `e` runs is judged as a command of its own: one the list allows runs, another is refused", () => {
    expect(whole("sed -n '1e ls -la' src/p")).toBe("allowed");
    expect(whole("sed '1e touch /tmp/pwned' src/p")).toContain("`touch /tmp/pwned` matches no allow entry");
  });
  test("edits and reads still run", () => {
    for (const command of ["sed 's/a/b/' src/p", "sed -i 's/a/b/g' src/p", "sed -E 's/(a|b)+/x/;y/abc/xyz/' src/p", "sed -i.bak '/^#/d' src/p"])
      expect(whole(command)).toBe("allowed");
  });
});

test("sed's `w` into a file with other hard links is refused as any write to one is (one could be git's or hey's own)", () => {
  mkdirSync(join(project, "src"), { recursive: true });
  writeFileSync(join(project, "src", "one"), "x\n");
  linkSync(join(project, "src", "one"), join(project, "src", "two"));
  expect(reader("sed -n 'w src/two' src/p")).toContain("`src/two` is a file with other hard links");
  expect(reader("cat src/p > src/two")).toContain("`src/two` is a file with other hard links");
  expect(reader("sed -n 'w src/new' src/p")).toBe("allowed");
});

test("a deny list sees the command sed's `e` runs, and the control guard its `w` file, with no allow list", () => {
  const deny = check([], ["bash: rm *"]);
  expect(deny("sed -n '1e rm -rf src' src/p")).toContain("`rm -rf src` matches deny entry `bash: rm *`");
  expect(deny("sed -n 'w .git/config' src/p")).toContain("`.git/config` names git's own files");
  expect(deny("sed -n '1,5p' src/p")).toBe("allowed");
  const everything = check(["bash"]);
  expect(everything("sed -n '1e cp src/p dirlink/config.toml' src/p")).toContain("names hey's own configuration or trust file");
  expect(everything("sed -n '1e touch x' src/p")).toBe("allowed");
});

test('r5 #5: `sed -f FILE` and sed\'s `e` run under a deny list alone and `allow = ["bash"]`, as `awk -f` and `bash x.sh` do; an allow list still cannot verify them', () => {
  writeFileSync(join(project, "src", "fix.sed"), "s/foo/bar/\n");
  for (const list of [check([], ["bash: curl *"]), check(["bash"])]) {
    for (const command of [
      "sed -f src/fix.sed src/p",
      "sed -i -f src/fix.sed src/p",
      "sed -e e src/p",
      "sed 's/x/y/e' src/p",
      "awk -f src/x.awk src/p",
      "bash src/x.sh",
    ])
      expect([command, list(command)]).toEqual([command, "allowed"]);
    // what hey does read still counts: the `w` file of a script given with -e
    expect(list("sed -e 'w .git/config' src/p")).toContain("`.git/config` names git's own files");
  }
  // the deny entries judge sed's own words as any program's
  expect(check([], ["bash: sed -i *"])("sed -i -f src/fix.sed src/p")).toContain("matches deny entry `bash: sed -i *`");
  const allow = check([...READS, "bash: sed *", "bash: awk *"]);
  expect(allow("sed -f src/fix.sed src/p")).toContain(
    "cannot verify `sed -f src/fix.sed src/p`: sed reads its script from `src/fix.sed`, which hey does not read",
  );
  expect(allow("sed -e e src/p")).toContain("cannot verify");
  expect(allow("sed --sandbox -f src/fix.sed src/p")).toBe("allowed");
});

test("sed's script is read as GNU sed reads it: commands after addresses, braces and `;`, text of a/i/c, any delimiter", () => {
  expect(readScript("1e touch x")).toEqual({ commands: ["touch x"], input: false, writes: [] });
  expect(readScript("/a/I,+2{s|x|y|gw out\n}")).toEqual({ commands: [], input: false, writes: ["out"] });
  expect(readScript("\\%a/b%!{y/ab/cd/;W w2\n}")).toEqual({ commands: [], input: false, writes: ["w2"] });
  expect(readScript("1~2a foo; w bar")).toEqual({ commands: [], input: false, writes: [] });
  expect(readScript("s/a/b/3e")).toEqual({ commands: [], input: true, writes: [] });
  expect(readScript(":a;N;$!ba;s/\\n/ /g")).toEqual({ commands: [], input: false, writes: [] });
  // a `/` in a bracket expression does not end the regex (GNU sed 4.9); a sed that ends it there reads `w` as a flag: both count
  expect(readScript("s/[/]w x/y/")).toEqual({ commands: [], input: false, writes: [] });
  expect(readScript("s/a[/]/b/w f")).toEqual({ commands: [], input: false, writes: ["f"] });
  for (const bad of ["1{p", "s/a/b", "p x", "k"]) expect(readScript(bad)).toHaveProperty("error");
});

testNeeding(["sed", "git"])("each refused form does what it was refused for when real sed runs it", () => {
  const marker = join(root, "ran");
  const project2 = join(root, "real");
  const fixture = controlFixture(project2);
  const at = fixture.project;
  const sh = (command: string) =>
    Bun.spawnSync(["sh", "-c", command], { cwd: at, env: { PATH: process.env.PATH, HOME: fixture.home }, stdout: "ignore", stderr: "ignore" });
  sh("git init -q . && mkdir -p src");
  writeFileSync(join(at, "src", "p"), "line\n");
  writeFileSync(join(at, "src", "q"), "other\n");
  writeFileSync(join(at, "src", "script.sed"), "w dirlink/config.toml\n");
  const real = permissionCheck({ allow: READS, deny: [], narrow: [] }, "sh", { cwd: at, home: fixture.home, controls: fixture.controls });
  const refusedThenRun = (command: string) => {
    expect(real("bash", { command }) ?? "allowed").toStartWith("blocked by permission rules");
    sh(command);
  };
  refusedThenRun(`sed -n '1e touch ${marker}' src/p`);
  expect(existsSync(marker)).toBe(true);
  rmSync(marker);
  refusedThenRun(`sed -n 's/.*/touch ${marker.replaceAll("/", "\\/")}/e' src/p`);
  expect(existsSync(marker)).toBe(true);
  refusedThenRun("sed -n 'w .git/config' src/p");
  expect(readFileSync(join(at, ".git", "config"), "utf8")).toBe("line\n");
  const before = snapshot(fixture.controls);
  refusedThenRun("sed -n -f src/script.sed src/p");
  expect(snapshot(fixture.controls)).not.toEqual(before);
  const again = snapshot(fixture.controls);
  refusedThenRun("sed -n 'W hard' src/q");
  expect(snapshot(fixture.controls)).not.toEqual(again);
});
