// x5 #6: under `bash: git *` with no deny entry, `git -c protocol.ext.allow=always ls-remote
// 'ext::sh -c CMD'` ran CMD and `git -c remote.x.vcs=/x fetch x` ran the agent's
// `./git-remote-/x`; a deny entry changed the outcome. Now what a transport runs is judged whatever
// the list's shape (git-transports.ts): an `ext::` URL's command and a helper as commands of their
// own, `protocol.ext.allow` as what lets git run commands the rules cannot see. Fetches, clones and
// submodule updates over git's own transports still run.
import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { permissionCheck } from "../../src/wire.ts";
import { tempDir } from "../helpers/e2e.ts";
import { testNeeding } from "../helpers/tools.ts";
import { controlFixture } from "./control-corpus.ts";

const tmp = tempDir("hey-git-transports-x5-");
afterAll(() => tmp.remove());
const root = realpathSync(tmp.path);
const { home, project, controls } = controlFixture(join(root, "fx"));
const place = { cwd: project, home, controls };
const README_ALLOW = ["read_file", "grep", "bash: git *", "bash: ls", "bash: npm run test *"];
const lists = {
  "README's list": permissionCheck({ allow: README_ALLOW, deny: ["bash: git push *"], narrow: [] }, "sh", place),
  "README's allow entries, no deny entry": permissionCheck({ allow: README_ALLOW, deny: [], narrow: [] }, "sh", place),
};
const run = (check: ReturnType<typeof permissionCheck>, command: string) => check("bash", { command }) ?? "allowed";

describe.each(Object.entries(lists))("under %s", (_name, check) => {
  test.each([
    [
      "git -c protocol.ext.allow=always ls-remote 'ext::sh -c touch% /tmp/x'",
      "sets git's protocol.ext.allow to `always`: git then runs the command of any `ext::` URL",
    ],
    ["git -c protocol.allow=always fetch 'ext::sh -c touch% /tmp/x'", "sets git's protocol.allow to `always`"],
    ["git -c protocol.ext.allow=user submodule update --init", "sets git's protocol.ext.allow to `user`"],
    ["git --config-env=protocol.ext.allow=PWD ls-remote x", "known only at run time: `protocol.ext.allow=PWD`"],
    [
      "git ls-remote 'ext::sh -c touch% /tmp/x'",
      "gives git ls-remote an `ext::` URL, whose command git runs: `'sh' '-c' 'touch /tmp/x'` matches no allow entry",
    ],
    ["git clone 'EXT::touch /tmp/x' d", "`'touch' '/tmp/x'` matches no allow entry"],
    [
      "git -c remote.x.url=foo -c remote.x.vcs=/x fetch x",
      "sets git's remote.x.vcs, for which git runs the helper `git-remote-/x`: `'git-remote-/x'` matches no allow entry",
    ],
    ["git -c remote.x.url='ext::touch /tmp/x' fetch x", "sets git's remote.x.url, which gives git an `ext::` URL"],
    ["git -c remote.x.vcs=ext -c remote.x.url='touch /tmp/x' fetch x", "sets git's remote.x.vcs to `ext`: git runs the remote's URL"],
    ["git -C src fetch --multiple a 'ext::touch /tmp/x'", "gives git fetch an `ext::` URL"],
    ["git submodule add 'ext::touch /tmp/x' m", "gives git submodule an `ext::` URL"],
    ["git --config-env=remote.x.vcs=PWD fetch x", "known only at run time: `remote.x.vcs=PWD`"],
    ["git -c Protocol.EXT.Allow=always fetch x", "sets git's protocol.ext.allow to `always`"],
    [
      "git -c 'url.ext::touch /tmp/x #.insteadOf=gh:' ls-remote gh:a/b",
      "an `ext::` URL, whose command git runs: `'touch' '/tmp/x' '#'` matches no allow entry",
    ],
    ["git -c 'url.ext::sh -c touch% /tmp/x.pushInsteadOf=https://example.com/' fetch origin", "whose command git runs"],
    ["git archive --remote='ext::touch /tmp/x' HEAD", "gives git archive an `ext::` URL"],
    ["git ls-remote 'ext::sh %x'", "whose `%x` hey does not read"],
    ["GIT_ALLOW_PROTOCOL=ext git ls-remote 'ext::ls'", "assigning `GIT_ALLOW_PROTOCOL` before `git` changes what that command runs"],
  ])("refuses %s", (command, why) => {
    const reason = run(check, command);
    expect(reason).toStartWith("blocked by permission rules");
    expect(reason).toContain(why);
  });

  test.each([
    "git fetch origin",
    "git ls-remote https://github.com/x/y",
    "git clone -q https://example.com/x.git",
    "git clone -q codecommit::us-east-1://repo x",
    "git fetch fd::3",
    "git ls-remote 'ext::ls'",
    "git -c protocol.file.allow=always submodule update --init",
    "git -c protocol.ext.allow=never fetch origin",
    "git -c url.https://github.com/.insteadOf=gh: ls-remote gh:x/y",
    "git grep 'std::string'",
    "git log -S 'Foo::bar'",
  ])("allows %s", (command) => expect(run(check, command)).toBe("allowed"));
});

test("an entry for a program lets an `ext::` URL run it; a list that allows every command lets the transport be allowed", () => {
  const withSh = permissionCheck({ allow: [...README_ALLOW, "bash: touch *"], deny: [], narrow: [] }, "sh", place);
  expect(run(withSh, "git ls-remote 'ext::touch /tmp/x'")).toBe("allowed");
  const everything = permissionCheck({ allow: ["bash"], deny: [], narrow: [] }, "sh", place);
  expect(run(everything, "git -c protocol.ext.allow=always ls-remote 'ext::touch x'")).toBe("allowed");
  // but what the command does is still judged by the control checks
  expect(run(everything, "git -c protocol.ext.allow=always ls-remote 'ext::cp x dirlink/config.toml'")).toContain("names hey's own configuration");
});

testNeeding(["git"])("real git runs what each refused form names: an ext:: URL's command, remote.x.vcs's helper by its path", () => {
  const at = join(root, "real");
  mkdirSync(join(at, "git-remote-"), { recursive: true });
  const env = { PATH: process.env.PATH, HOME: home, GIT_CONFIG_NOSYSTEM: "1" };
  const git = (args: string[]) => Bun.spawnSync(["git", ...args], { cwd: at, env, stdin: "ignore", stdout: "ignore", stderr: "ignore", timeout: 20_000 });
  git(["init", "-q", "."]);
  const check = permissionCheck({ allow: README_ALLOW, deny: [], narrow: [] }, "sh", { cwd: at, home, controls });
  const ext = join(at, "ext-ran");
  const command = `git -c protocol.ext.allow=always ls-remote 'ext::touch ${ext}'`;
  expect(run(check, command)).toStartWith("blocked by permission rules");
  git(["-c", "protocol.ext.allow=always", "ls-remote", `ext::touch ${ext}`]);
  expect(existsSync(ext)).toBe(true);
  const helper = join(at, "helper-ran");
  writeFileSync(join(at, "git-remote-", "x"), `#!/bin/sh\ntouch '${helper}'\n`);
  chmodSync(join(at, "git-remote-", "x"), 0o755);
  expect(run(check, "git -c remote.x.url=foo -c remote.x.vcs=/x fetch x")).toStartWith("blocked by permission rules");
  git(["-c", "remote.x.url=foo", "-c", "remote.x.vcs=/x", "fetch", "x"]);
  expect(existsSync(helper)).toBe(true);
});
