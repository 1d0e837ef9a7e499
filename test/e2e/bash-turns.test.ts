// The bash tool as a demanding user's model meets it, through dist/hey against a loopback model:
// commands of one turn that change the repository run in call order, an editor or a pager cannot
// hang a call, dash's rejection of bash syntax and a lost `cd` are said, and Codex's `workdir` runs
// the command there — judged by the permission list as the `cd` it becomes.
import { expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey } from "../helpers/e2e.ts";
import { killMarked, marker, withMarker } from "../helpers/processes.ts";
import { eachScriptedRun } from "../helpers/scripted-run.ts";

setDefaultTimeout(60_000); // the first test may build dist/hey

const scripted = eachScriptedRun();
const { home, project } = scripted;
const git = { GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t", GIT_CONFIG_NOSYSTEM: "1" };

test("git add, git add, git commit and git status in one turn: all six files committed, nothing left staged (they ran in call order)", async () => {
  scripted.userConfig("");
  for (let i = 1; i <= 6; i++) writeFileSync(join(project.path, `g${i}`), `${i}\n`);
  scripted.calls = [
    ["bash", { command: "git init -q ." }],
    ["bash", { command: "git add g1 g2 g3" }],
    ["bash", { command: "git add g4 g5 g6" }],
    ["bash", { command: "git commit -q -m 'add g files' && git show --stat --format= HEAD | tail -1" }],
    ["bash", { command: "git status --short" }],
  ];
  const run = await runHey(["-p", "commit the g files"], { cwd: project.path, env: { HOME: home.path, ...git } });
  expect(run.code).toBe(0);
  expect(scripted.results().slice(1)).toEqual([
    "(no output)\n[exit code 0]",
    "(no output)\n[exit code 0]",
    " 6 files changed, 6 insertions(+)\n[exit code 0]",
    "(no output)\n[exit code 0]",
  ]);
});

test("with EDITOR=vim, `git commit` without -m fails at once saying what to do, and `vim f.txt` is not started: neither waits for the timeout", async () => {
  scripted.userConfig("");
  writeFileSync(join(project.path, "f.txt"), "a\n");
  scripted.calls = [
    ["bash", { command: "git init -q . && git add f.txt && git commit", timeout_ms: 120_000 }],
    ["bash", { command: "vim f.txt", timeout_ms: 120_000 }],
    ["bash", { command: "git log", timeout_ms: 120_000 }],
  ];
  const env = { HOME: home.path, ...git, EDITOR: "vim", VISUAL: "vim", TERM: "xterm-256color", GIT_PAGER: "less", PAGER: "less" };
  const run = await runHey(["-p", "commit it"], { cwd: project.path, env, timeoutMs: 30_000 });
  expect(run.code).toBe(0);
  const [commit, vim, log] = scripted.results();
  expect(commit).toContain("hey: no editor: bash commands have no terminal; give the text in the command: git commit -m MSG");
  expect(commit).toContain("[exit code 1]");
  expect(vim).toStartWith("not run: vim is a full-screen editor and bash commands have no terminal");
  expect(log).toContain("fatal: your current branch");
});

test("`vim -c 'normal dd' g.txt` (no quit) is not started, and a vim a script starts is stopped when it says it has no terminal: neither waits for the timeout or leaves a swap file; a script's batch vim finishes its edit, and output quoting the warning stops nothing", async () => {
  scripted.userConfig("");
  writeFileSync(join(project.path, "g.txt"), "l1\nl2\n");
  writeFileSync(join(project.path, "edit.sh"), '#!/bin/sh\nvim "$@"\n', { mode: 0o755 });
  writeFileSync(join(project.path, "fix.sh"), '#!/bin/sh\nvim -c "%s/l2/L2/" -c wq "$@"; echo script-done\n', { mode: 0o755 });
  writeFileSync(join(project.path, "notes.txt"), "Vim: Warning: Input is not from a terminal\n");
  scripted.calls = [
    ["bash", { command: "vim -c 'normal dd' g.txt", timeout_ms: 120_000 }],
    ["bash", { command: "./edit.sh g.txt", timeout_ms: 120_000 }],
    ["bash", { command: "vim -c 'normal dd' -c wq g.txt >/dev/null 2>&1; cat g.txt; ls -A", timeout_ms: 120_000 }],
    ["bash", { command: "./fix.sh g.txt 2>/dev/null | grep -a script-done; cat g.txt", timeout_ms: 120_000 }],
    ["bash", { command: "grep -n 'Vim: Warning' notes.txt >&2; sleep 1; echo AFTER", timeout_ms: 120_000 }],
  ];
  const run = await runHey(["-p", "delete the first line"], { cwd: project.path, env: { HOME: home.path, TERM: "xterm-256color" }, timeoutMs: 40_000 });
  expect(run.code).toBe(0);
  const [refused, stopped, batch, script, quoted] = scripted.results();
  expect(refused).toStartWith("not run: vim is a full-screen editor and bash commands have no terminal");
  expect(stopped).toEndWith(
    "[stopped: it started vim, which has no terminal here and was waiting for keys (it would have until the timeout); the process group was killed]\n[change files with edit or write_file, or script vim (vim -es, or commands that end with a quit: vim -c 'normal dd' -c wq f); read a change with git diff]",
  );
  expect(batch).toBe("l2\nedit.sh\nfix.sh\ng.txt\nnotes.txt\n[exit code 0]");
  expect(script).toBe("script-done\nL2\n[exit code 0]"); // a script's batch vim pauses 2 s, edits, and the script goes on
  expect(quoted).toBe("AFTER\n[stderr]\n1:Vim: Warning: Input is not from a terminal\n[exit code 0]"); // text quoting the warning stops nothing
});

test("a command that timed out leaves nothing running once hey has exited: not even a double-forked child, re-parented to init", async () => {
  scripted.userConfig("");
  const m = marker();
  scripted.calls = [["bash", { command: `(setsid sleep ${m} &); sleep ${m}`, timeout_ms: 1000 }]];
  try {
    const run = await runHey(["-p", "start it"], { cwd: project.path, env: { HOME: home.path } });
    expect(run.code).toBe(0);
    expect(scripted.results()[0]).toContain("[timed out after 1 s; the process group was killed]");
    expect(withMarker(m)).toEqual([]);
  } finally {
    killMarked([m]);
  }
});

test("the commands get no GPG_TTY (gpg's pinentry would draw over hey's screen): a signed commit with a passphrase key fails at once, saying how to go on", async () => {
  scripted.userConfig("");
  const gnupg = join(home.path, "gnupg");
  mkdirSync(gnupg, { mode: 0o700 });
  const gpg = Bun.which("gpg") !== null;
  const env = { HOME: home.path, ...git, GNUPGHOME: gnupg, GPG_TTY: "/dev/pts/9" };
  if (gpg) {
    const key = ["gpg", "--batch", "--pinentry-mode", "loopback", "--passphrase", "pw", "--quick-gen-key", "T <t@t>", "ed25519", "sign", "never"];
    expect(Bun.spawnSync(key, { env: { ...process.env, ...env }, stdout: "ignore", stderr: "ignore" }).exitCode).toBe(0);
  }
  scripted.calls = [
    ["bash", { command: 'echo "${GPG_TTY-none}"' }],
    ...(gpg
      ? [
          ["bash", { command: "git init -q . && git -c commit.gpgsign=true -c user.signingkey=t@t commit -q --allow-empty -m signed", timeout_ms: 20_000 }] as [
            string,
            unknown,
          ],
        ]
      : []),
  ];
  try {
    const run = await runHey(["-p", "commit"], { cwd: project.path, env, timeoutMs: 30_000 });
    expect(run.code).toBe(0);
    const [tty, signed] = scripted.results();
    expect(tty).toBe("none\n[exit code 0]");
    if (gpg) {
      expect(signed).toContain("error: gpg failed to sign the data");
      expect(signed).toMatch(/[Aa]sk the user to run the command themselves with !COMMAND/); // git keeps gpg's reason to itself (2.39)
    }
  } finally {
    if (gpg) Bun.spawnSync(["gpgconf", "--kill", "gpg-agent"], { env: { ...process.env, GNUPGHOME: gnupg } });
  }
});

test("mid-rebase, with the user's editor vim everywhere: `git rebase --continue` fails at once naming `git -c core.editor=true rebase --continue`, which works", async () => {
  scripted.userConfig("");
  writeFileSync(join(home.path, ".gitconfig"), "[core]\n\teditor = vim\n");
  const setup = [
    "git init -q -b main && echo a > f && git add f && git commit -qm one",
    "git checkout -qb topic && echo b > f && git commit -qam topic",
    "git checkout -q main && echo c > f && git commit -qam main",
    "git checkout -q topic && { git rebase main >/dev/null 2>&1; true; } && echo x > f && git add f",
  ].join(" && ");
  const env = { HOME: home.path, ...git, EDITOR: "vim", VISUAL: "vim", GIT_EDITOR: "vim", TERM: "xterm-256color" };
  expect(Bun.spawnSync(["sh", "-c", setup], { cwd: project.path, env: { ...process.env, ...env } }).exitCode).toBe(0);
  scripted.calls = [
    ["bash", { command: "git rebase --continue", timeout_ms: 120_000 }],
    ["bash", { command: "git -c core.editor=true rebase --continue >/dev/null 2>&1 && git log --format=%s", timeout_ms: 120_000 }],
  ];
  const run = await runHey(["-p", "finish the rebase"], { cwd: project.path, env, timeoutMs: 30_000 });
  expect(run.code).toBe(0);
  const [plain, given] = scripted.results();
  expect(plain).toContain(
    "hey: no editor: bash commands have no terminal; give the text in the command: git -c core.editor=true rebase --continue keeps the message",
  );
  expect(plain).toContain("[exit code 1]");
  expect(given).toBe("topic\nmain\none\n[exit code 0]");
});

test("a lone `cd` is said to be lost, the next call runs in the working directory; `workdir` runs the command in that directory (`~/` the home), allowed by `bash: pwd` as the cd it becomes", async () => {
  scripted.userConfig(`[permission]\nallow = ["bash: pwd"]\n`);
  mkdirSync(join(project.path, "web"));
  mkdirSync(join(home.path, "notes"));
  scripted.calls = [
    ["bash", { command: "cd web" }],
    ["bash", { command: "pwd" }],
    ["bash", { command: "pwd", workdir: "web" }],
    ["bash", { command: "pwd", workdir: "~/notes" }],
    ["bash", { command: "pwd", cwd: "$(touch pwned)" }],
  ];
  const run = await runHey(["-p", "where am I"], { cwd: project.path, env: { HOME: home.path } });
  expect(run.code).toBe(0);
  const root = realpathSync(project.path);
  expect(scripted.results()).toEqual([
    "(no output)\n[exit code 0]\n[`cd web` lasts for this call only: the next bash call starts in the working directory with hey's environment; chain it: cd web && …]",
    `${root}\n[exit code 0]`,
    `${join(root, "web")}\n[exit code 0]`,
    `${join(realpathSync(home.path), "notes")}\n[exit code 0]`,
    'bash: `cwd` "$(touch pwned)" cannot be put in front of the command (the shell would read its $); start the command with cd instead',
  ]);
  expect(existsSync(join(project.path, "pwned"))).toBe(false);
});

test("a `workdir` that is not there runs no line of the command (explorer finding x83 #3: the second line deleted a file in the project) and the result says the directory could not be entered", async () => {
  scripted.userConfig("");
  writeFileSync(join(project.path, "keep.o"), "");
  scripted.calls = [["bash", { command: "echo first\nrm -f *.o; echo removed", workdir: "nope" }]];
  const run = await runHey(["-p", "clean the build"], { cwd: project.path, env: { HOME: home.path } });
  expect(run.code).toBe(0);
  const [result] = scripted.results();
  expect(result).toEndWith("\nhey: the workdir could not be entered, so the command did not run\n[exit code 1]");
  expect(result).not.toContain("first");
  expect(existsSync(join(project.path, "keep.o"))).toBe(true);
});

test("bash syntax under sh: where sh is dash, `[[` (exit code 0) gets a line saying so; the description names dash", async () => {
  scripted.userConfig("");
  scripted.calls = [["bash", { command: "if [[ -f f.txt ]]; then echo yes; else echo no; fi" }]];
  const run = await runHey(["-p", "check"], { cwd: project.path, env: { HOME: home.path } });
  expect(run.code).toBe(0);
  const dash = realpathSync(Bun.which("sh")!).endsWith("/dash");
  const [result] = scripted.results();
  const description = (scripted.model.requests[0]!.tools as unknown as { function: { name: string; description: string } }[]).find(
    (t) => t.function.name === "bash",
  )!.function.description;
  if (dash) {
    expect(result).toContain("[[: not found\n[exit code 0]");
    expect(result).toEndWith(
      `[the shell is dash, not bash: it rejected bash syntax above, so the command did not do what it says, whatever its exit code; ${Bun.which("bash") ? "run it with bash -c '…' or write" : "write"} POSIX sh]`,
    );
    expect(description).toStartWith("Run a command in dash (no [[ ]], arrays, {a..b}, pipefail), no stdin;");
  } else {
    expect(result).not.toContain("the shell is dash");
    expect(description).toStartWith("Run a shell command, no stdin;");
  }
});
