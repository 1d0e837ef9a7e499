// What the bash tool's commands get instead of the user's terminal (tools/no-terminal.ts): no
// GPG_TTY, so a signed commit cannot put gpg's pinentry over hey's screen; a failed signature is
// said with how to go on. Real commands (real gpg and git when installed) in a temp directory.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readlinkSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BashToolOptions, createBashTool } from "../../src/tools/bash.ts";
import { compileRules, decide } from "../../src/permission/rules.ts";
import { terminalNotes, unansweredNotes, withoutTerminal } from "../../src/tools/no-terminal.ts";
import { chooseShell } from "../../src/tools/shell.ts";
import { testNeeding } from "../helpers/tools.ts";
import { found } from "../helpers/wait.ts";

const shell = chooseShell({ platform: process.platform, findOnPath: (name) => Bun.which(name) ?? undefined });
let dir: string;
beforeAll(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), "hey-no-terminal-")));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = (command: string, opts: Partial<BashToolOptions> = {}, timeout_ms = 10_000) =>
  createBashTool({ shell, timeoutMs: 10_000, filter: "builtin", raw: false, outputDir: join(dir, ".out"), ...opts }).run(
    { command, timeout_ms },
    { signal: new AbortController().signal, cwd: dir },
  );

test("the commands get no GPG_TTY (the user's terminal, where gpg's pinentry would draw); the askpass programs and the display stay", async () => {
  const env = { ...process.env, GPG_TTY: "/dev/pts/9", SSH_ASKPASS: "/usr/bin/ssh-askpass", DISPLAY: ":0" };
  const r = await run('echo "${GPG_TTY-none} $SSH_ASKPASS $DISPLAY"', { env });
  expect(r.output).toBe("none /usr/bin/ssh-askpass :0\n[exit code 0]");
});

// x144 #6: bash looks in CDPATH's directories before the current one, so the user's `CDPATH=~` sent `cd .config`
// to ~/.config, where the permission check had placed it in the project's .config
testNeeding(["bash"])("a CDPATH exported by the user does not move a relative cd: `cd .config` goes to the project's .config", async () => {
  const elsewhere = join(dir, "cdpath-home");
  mkdirSync(join(elsewhere, ".config"), { recursive: true });
  mkdirSync(join(dir, ".config"), { recursive: true });
  const bash = chooseShell({ configured: "bash", platform: process.platform, findOnPath: (name) => Bun.which(name) ?? undefined });
  const r = await run("cd .config && pwd", { shell: bash, env: { ...process.env, CDPATH: elsewhere } });
  expect(r.output).toBe(`${join(dir, ".config")}\n[exit code 0]`);
});

// Linux: the user's terminal is found through /proc (the pseudo-terminal `script` holds)
(process.platform === "linux" ? testNeeding(["gpg", "gpgconf", "script", "pgrep"]) : test.if(false))(
  "with GPG_TTY set to the user's terminal, a signed `git commit` with a passphrase key fails at once, saying how to go on, and draws nothing on that terminal",
  async () => {
    const home = join(dir, "gpg-home");
    const gnupg = join(home, "gnupg");
    mkdirSync(gnupg, { recursive: true, mode: 0o700 });
    const base = { ...process.env, HOME: home, GNUPGHOME: gnupg, GIT_CONFIG_NOSYSTEM: "1" };
    const made = Bun.spawnSync(
      ["gpg", "--batch", "--pinentry-mode", "loopback", "--passphrase", "pw", "--quick-gen-key", "T <t@t>", "ed25519", "sign", "never"],
      { env: base, stdout: "ignore", stderr: "ignore" },
    );
    expect(made.exitCode).toBe(0);
    // the user's terminal: a pseudo-terminal that `script` holds, a `sleep` on it
    const terminal = Bun.spawn(["script", "-qfc", "sleep 60", "/dev/null"], { stdin: "pipe", stdout: "pipe", stderr: "ignore" });
    try {
      const pts = await found(() => {
        const sleep = Bun.spawnSync(["pgrep", "-P", String(terminal.pid)])
          .stdout.toString()
          .trim()
          .split("\n")[0];
        try {
          const fd = sleep ? readlinkSync(`/proc/${sleep}/fd/0`) : undefined;
          return fd?.startsWith("/dev/pts/") ? fd : undefined; // script's child before it takes the pty still holds script's stdin
        } catch {
          return undefined;
        }
      }, "the terminal");
      expect(pts).toStartWith("/dev/pts/");
      const git = "git -c user.name=T -c user.email=t@t -c commit.gpgsign=true -c user.signingkey=t@t";
      const r = await run(`git init -q repo && cd repo && ${git} commit -q --allow-empty -m signed`, { env: { ...base, GPG_TTY: pts } }, 8_000);
      expect(r.isError).toBe(true);
      expect(r.output).not.toContain("timed out");
      expect(r.output).toContain("error: gpg failed to sign the data");
      // git keeps gpg's reason to itself (2.39): the note says both what to check and how to hand it over
      expect(r.output).toMatch(/[Aa]sk the user to run the command themselves with !COMMAND/);
      expect(r.output).toContain("git -c commit.gpgsign=false commit");
    } finally {
      terminal.kill("SIGKILL");
      Bun.spawnSync(["gpgconf", "--kill", "gpg-agent"], { env: base }); // and its pinentry
    }
  },
);

testNeeding(["gpg", "gpgconf"])(
  "a signature that failed for want of a passphrase prompt is told so; one that failed for a missing key is not blamed on the passphrase, and is told how to see the keys",
  async () => {
    const gnupg = join(dir, "gpg-reasons");
    mkdirSync(gnupg, { recursive: true, mode: 0o700 });
    const env = { ...process.env, HOME: dir, GNUPGHOME: gnupg, GIT_CONFIG_NOSYSTEM: "1" };
    const key = ["gpg", "--batch", "--pinentry-mode", "loopback", "--passphrase", "pw", "--quick-gen-key", "P <p@p>", "ed25519", "sign", "never"];
    expect(Bun.spawnSync(key, { env, stdout: "ignore", stderr: "ignore" }).exitCode).toBe(0);
    try {
      const passphrase = await run("echo hi > m.txt && gpg -u p@p -o m.sig --sign m.txt", { env }, 8_000);
      expect(passphrase.output).toContain("Inappropriate ioctl for device");
      expect(passphrase.output).toContain("[gpg could not ask for the key's passphrase: bash commands have no terminal.");
      const git = "git -c user.name=T -c user.email=t@t -c user.signingkey=DEADBEEF -c commit.gpgsign=true";
      const missing = await run(`git init -q nokey && cd nokey && ${git} commit -q --allow-empty -m x`, { env }, 8_000);
      expect(missing.output).toContain("error: gpg failed to sign the data");
      expect(missing.output).not.toContain("gpg could not ask for the key's passphrase");
      expect(missing.output).toContain("[signing failed, for a reason gpg did not say here: `gpg --list-secret-keys` shows whether the signing key is here;");
    } finally {
      Bun.spawnSync(["gpgconf", "--kill", "gpg-agent"], { env });
    }
    expect(terminalNotes("stty: 'standard input': Inappropriate ioctl for device\n")).toEqual([]);
  },
);

/** A repository in the middle of `git rebase main` whose conflict is resolved and added: `rebase --continue` opens the editor for the message. */
function conflictResolved(name: string, env: Record<string, string | undefined>): string {
  const repo = join(dir, name);
  mkdirSync(repo);
  const script = [
    "git init -q -b main",
    "echo a > f && git add f && git commit -qm one",
    "git checkout -qb topic && echo b > f && git commit -qam topic && echo g > g && git add g && git commit -qm g",
    "git checkout -q main && echo c > f && git commit -qam main",
    "git checkout -q topic && { git rebase main >/dev/null 2>&1; true; }",
    "echo x > f && git add f",
  ].join(" && ");
  expect(Bun.spawnSync(["sh", "-c", script], { cwd: repo, env, stderr: "pipe" }).exitCode).toBe(0);
  return repo;
}

test("git's own ways of giving an editor in the command win over hey's no-editor (`-c core.editor`, `EDITOR=`, `GIT_EDITOR=`, `-c sequence.editor`); the user's editor (~/.gitconfig, GIT_EDITOR) is never started; a failure says the form that fits, once", async () => {
  const home = join(dir, "git-home");
  mkdirSync(home);
  await Bun.write(join(home, ".gitconfig"), "[core]\n\teditor = vim\n[sequence]\n\teditor = vim\n");
  const who = { GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" };
  const env = { ...process.env, ...who, HOME: home, GIT_CONFIG_NOSYSTEM: "1", EDITOR: "vim", VISUAL: "vim", GIT_EDITOR: "vim", GIT_SEQUENCE_EDITOR: "vim" };
  const inRepo = (repo: string, command: string) => run(`cd ${repo} && ${command}`, { env });

  const plain = await inRepo(conflictResolved("plain", env), "git rebase --continue");
  expect(plain.isError).toBe(true);
  expect(plain.output).toContain(
    "hey: no editor: bash commands have no terminal; give the text in the command: git -c core.editor=true rebase --continue keeps the message",
  );
  expect(plain.output.split("hey: no editor").length).toBe(2); // said once: git's quote of the editor is short
  expect(plain.output).not.toContain("timed out");

  for (const [name, command] of [
    ["dash-c", "git -c core.editor=true rebase --continue"],
    ["editor", "EDITOR=true git rebase --continue"],
    ["git-editor", "GIT_EDITOR=true git rebase --continue"],
  ]) {
    const r = await inRepo(conflictResolved(name!, env), `${command} >/dev/null 2>&1 && git log --format=%s`);
    expect(r.output).toBe("g\ntopic\nmain\none\n[exit code 0]");
  }
  const todo = await inRepo("git-editor", "git -c sequence.editor=\"sed -i '2s/^pick/fixup/'\" rebase -q -i HEAD~2 && git log --format=%s");
  expect(todo.output).toBe("topic\nmain\none\n[exit code 0]");
  const noTodo = await inRepo("git-editor", "git rebase -i HEAD~1");
  expect(noTodo.output).toContain('give the text in the command: git -c sequence.editor="sed -i 2s/^pick/fixup/" rebase -i … edits the list');
  const tag = await inRepo("git-editor", "git tag -a v1");
  expect(tag.output).toContain("give the text in the command: git tag -a TAG -m MSG");
});

test("every no-editor hint git's editor gives is a `-c` form: a command `bash: git *` or the subcommand's own entry allows and a deny list reads, never a GIT_EDITOR= prefix", () => {
  const script = withoutTerminal({}).HEY_NO_EDITOR!;
  const hints = [...script.matchAll(/h='([^']*)'/g)].map((m) => m[1]!);
  expect(hints.length).toBeGreaterThan(5);
  expect(hints.filter((h) => /[A-Z_]*EDITOR=/.test(h))).toEqual([]);
  // the sed editor one hint names runs sed: it needs its entry as `GIT_SEQUENCE_EDITOR=sed…` would (x42 finding 5)
  const subcommands = ["rebase", "commit", "merge", "revert", "tag", "notes"].map((sub) => `bash: git ${sub} *`);
  const lists = [
    { allow: ["bash: git *", "bash: sed *"], deny: [] },
    { allow: [...subcommands, "bash: sed *"], deny: [] },
    { allow: [], deny: ["bash: git push *", "bash: rm *"] },
  ];
  // each command a hint names, as the model fills it in
  for (const [said, command] of [
    ["git -c core.editor=true rebase --continue", "git -c core.editor=true rebase --continue"],
    ['git -c sequence.editor="sed -i 2s/^pick/fixup/" rebase -i …', 'git -c sequence.editor="sed -i 2s/^pick/fixup/" rebase -i HEAD~2'],
    ["-c sequence.editor=true keeps it (with --autosquash", "git -c sequence.editor=true rebase -i --autosquash HEAD~3"],
    ["git commit --no-edit", "git commit --no-edit"],
    ["git commit -m MSG; --amend --no-edit", "git commit --amend --no-edit"],
    ["git merge --no-edit", "git merge --no-edit"],
    ["git revert --no-edit", "git revert --no-edit"],
    ["git tag -a TAG -m MSG", "git tag -a v1 -m 'release 1'"],
    ["git -c core.editor=true … keeps the text git offers", "git -c core.editor=true notes add"],
  ]) {
    expect({ said, in: hints.some((h) => h.includes(said!)) }).toEqual({ said, in: true });
    for (const list of lists)
      expect({ command, list, d: decide("bash", { command }, compileRules(list).rules) }).toEqual({ command, list, d: { allowed: true } });
  }
});

test("git config the user gives in the environment (GIT_CONFIG_COUNT) stays, after hey's editors, so that it wins over them", async () => {
  const env = { ...process.env, GIT_CONFIG_COUNT: "1", GIT_CONFIG_KEY_0: "user.name", GIT_CONFIG_VALUE_0: "From Env" };
  const r = await run("git config user.name && git config sequence.editor", { env });
  expect(r.output).toBe('From Env\nsh -c "$HEY_NO_EDITOR" hey-no-editor\n[exit code 0]');
});

test("a command that asked a question and read end-of-input (git add -p, ssh-keygen's passphrase) gets a note saying nothing answered it and how to answer; output that merely ends in a question does not", async () => {
  const env = { ...process.env, HOME: join(dir, "git-home"), GIT_CONFIG_NOSYSTEM: "1" };
  const git = "git -c user.name=t -c user.email=t@t";
  const setup = `git init -q asks && cd asks && printf 'a\\nb\\nc\\nd\\ne\\nf\\ng\\nh\\ni\\nj\\n' > f && git add f && ${git} commit -qm one && sed -i 's/a/A/; s/j/J/' f`;
  expect((await run(setup, { env })).output).toBe("(no output)\n[exit code 0]");
  const addP = await run("cd asks && git add -p", { env });
  expect(addP.output).toEndWith(
    "[exit code 0]\n[the command asked `(1/2) Stage this hunk [y,n,q,a,d,j,J,g,/,e,?]?` and nothing answered: stdin is empty, so it read end-of-input and took its default or did nothing. Give the answers on stdin (printf 'y\\nn\\n' | COMMAND) or use its option that asks nothing (--yes, -y, -f; ssh-keygen -N '')]",
  );
  expect((await run("cd asks && git diff --cached --stat", { env })).output).toBe("(no output)\n[exit code 0]"); // nothing was staged
  if (Bun.which("ssh-keygen")) {
    const key = await run("ssh-keygen -q -t ed25519 -f asks/key", { env });
    expect(key.output).toContain("[the command asked `Enter passphrase (empty for no passphrase): Enter same passphrase again:` and nothing answered");
  }
  const apt = await run("printf 'Do you want to continue? [Y/n] Abort.\\n'");
  expect(apt.output).toContain("[the command asked `Do you want to continue? [Y/n] Abort.` and nothing answered");
  for (const said of [
    "echo 'Did you mean foo?'",
    "printf '✓ does it parse?\\n✓ does it print?\\n'",
    "echo 'password: set in .env'",
    "echo 'sizes (a/b)'",
    "echo 'tests: 3 passed [y/n]'",
  ]) {
    const r = await run(said);
    expect(r.output).toEndWith("\n[exit code 0]");
    expect(r.output).not.toContain("nothing answered");
  }
  expect((await run("printf 'Overwrite config (y/n) '")).output).toContain("[the command asked `Overwrite config (y/n)` and nothing answered");
});

test("a command that never ends by itself (tail -f, watch, a dev server) is told at its timeout to run in the background and read its log; another is not", async () => {
  await Bun.write(join(dir, "app.log"), "started\n");
  const follow = await run("tail -f app.log", {}, 1000);
  expect(follow.output).toBe(
    "started\n[exit code 124]\n[timed out after 1 s; the process group was killed]\n[it does not end by itself (it follows or serves): start it in the background with its output to a file, `CMD > /tmp/NAME.log 2>&1 &`, then read the log (tail -n 50, read_file); or give it an end: tail -n 50 without -f, timeout 10 CMD]",
  );
  const slow = await run("sleep 30", {}, 1000);
  expect(slow.output).toBe("(no output)\n[exit code 124]\n[timed out after 1 s; the process group was killed]");
});

test("concluding a merge whose conflict is resolved: `git commit` without a message is told `git commit --no-edit`, which works", async () => {
  const env = {
    ...process.env,
    HOME: join(dir, "git-home"),
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_AUTHOR_NAME: "t",
    GIT_AUTHOR_EMAIL: "t@t",
    GIT_COMMITTER_NAME: "t",
    GIT_COMMITTER_EMAIL: "t@t",
  };
  const setup = [
    "git init -q -b main merging && cd merging && echo a > f && git add f && git commit -qm one",
    "git checkout -qb topic && echo b > f && git commit -qam topic && git checkout -q main && echo c > f && git commit -qam main",
    "{ git merge topic >/dev/null 2>&1; true; } && echo x > f && git add f",
  ].join(" && ");
  expect((await run(setup, { env })).output).toBe("(no output)\n[exit code 0]");
  const plain = await run("cd merging && git commit", { env });
  expect(plain.output).toContain("give the text in the command: git commit --no-edit keeps the message git prepared, or -m MSG");
  expect((await run("cd merging && git commit -q --no-edit && git log -1 --format=%s", { env })).output).toBe("Merge branch 'topic'\n[exit code 0]");
});

test("sudo that needed a password it could not ask for is told to hand the command to the user", async () => {
  // sudo's own words where a password is needed and there is no terminal (as root here, sudo asks nothing)
  const r = await run(
    "echo 'sudo: a terminal is required to read the password; either use the -S option to read from standard input or configure an askpass helper' >&2; exit 1",
  );
  expect(r.output).toEndWith(
    "[exit code 1]\n[sudo asks for a password, and bash commands have no terminal: ask the user to run the command themselves with !COMMAND, or do it without sudo]",
  );
});

test("the 'nothing answered' note comes for prompts offering choices (git add -p, apt, ssh-keygen, npm init), not for output whose last line merely ends in brackets and a colon (grep hits of Python defs, TypeScript types, log lines)", () => {
  const prompts = [
    "(1/2) Stage this hunk [y,n,q,a,d,j,J,g,/,e,?]? ",
    "(1/2) Stage this hunk [y,n,q,a,d,j,J,g,/,e,?]? \n",
    "Do you want to continue? [Y/n] Abort.\n",
    "Overwrite config (y/n) ",
    "Proceed (yes/no)? \n",
    "Enter passphrase (empty for no passphrase): ",
    "package name: (hey) ",
    "Is this OK? (yes) ",
    "Delete branch [y/N]: ",
  ];
  const outputs = [
    "4:    def get(self, key):\n",
    "src/cache.py:12:    def put(self, key, value):\n",
    "def f(x, y):\n",
    "    if (a || b):\n",
    "  handler(req: Request, res: Response):\n",
    "export type Pair = (a, b):\n",
    "2026-12-06 INFO retrying (1/3):\n",
    "tests: 3 passed [y/n]\n",
    "Did you mean foo?\n",
  ];
  const noted = (end: string) => [end, unansweredNotes([end]).length > 0];
  expect([...prompts, ...outputs].map(noted)).toEqual([...prompts.map((p) => [p, true]), ...outputs.map((o) => [o, false])]);
});

test("grep whose last hit is a Python def ending in `(self, key):` gets its hits and no note", async () => {
  await Bun.write(join(dir, "a.py"), "class C:\n    def __init__(self):\n        pass\n    def get(self, key):\n        return key\n");
  const r = await run("grep -n 'def ' a.py");
  expect(r.output).toBe("2:    def __init__(self):\n4:    def get(self, key):\n[exit code 0]");
});

test("on a git older than 2.31 (it reads no GIT_CONFIG_COUNT) the user's ~/.gitconfig editor is still never started: hey's editor is GIT_EDITOR, and the command's own `-c core.editor` still wins", async () => {
  const bin = join(dir, "old-git-bin");
  mkdirSync(bin);
  // git 2.30 as far as hey can tell: it says so, and ignores GIT_CONFIG_COUNT
  await Bun.write(
    join(bin, "git"),
    `#!/bin/sh\nif [ "$1" = --version ]; then echo "git version 2.30.2"; exit 0; fi\nunset GIT_CONFIG_COUNT\nexec ${Bun.which("git")} "$@"\n`,
  );
  Bun.spawnSync(["chmod", "+x", join(bin, "git")]);
  const home = join(dir, "old-git-home");
  mkdirSync(home);
  const opened = join(dir, "user-editor-opened");
  await Bun.write(join(home, ".gitconfig"), `[core]\n\teditor = touch ${opened} && false\n`);
  const who = { GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" };
  const env = { ...process.env, ...who, HOME: home, GIT_CONFIG_NOSYSTEM: "1", PATH: `${bin}:${process.env.PATH}` };
  const plain = await run("git init -q old && cd old && git commit --allow-empty", { env });
  expect(plain.output).toContain("hey: no editor: bash commands have no terminal; give the text in the command: git commit -m MSG");
  expect(await Bun.file(opened).exists()).toBe(false);
  const own = await run("cd old && git -c core.editor='sed -i 1s/^/own-message/' commit -q --allow-empty && git log --format=%s", { env });
  expect(own.output).toBe("own-message\n[exit code 0]");
  const todo = await run(
    "cd old && git commit -qm two --allow-empty && git commit -qm three --allow-empty && git -c sequence.editor=\"sed -i '2s/^pick/fixup/'\" rebase -q -i HEAD~2 && git log --format=%s",
    { env },
  );
  expect(todo.output).toBe("two\nown-message\n[exit code 0]");
  const noTodo = await run("cd old && git rebase -i HEAD~1", { env });
  expect(noTodo.output).toContain('give the text in the command: git -c sequence.editor="sed -i 2s/^pick/fixup/" rebase -i … edits the list');
  expect(await Bun.file(opened).exists()).toBe(false);
});
