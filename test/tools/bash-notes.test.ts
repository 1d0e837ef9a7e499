// What the bash tool tells the model beyond a command's output, and what its commands cannot wait
// for: an editor or a pager (they have no terminal), bash syntax under dash, a `cd` or `export` that
// the next call will not see. Real commands in a temp directory.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BashToolOptions, createBashTool } from "../../src/tools/bash.ts";
import { commandNotes, needsTerminal } from "../../src/tools/bash-notes.ts";
import { chooseShell } from "../../src/tools/shell.ts";

const shell = chooseShell({ platform: process.platform, findOnPath: (name) => Bun.which(name) ?? undefined });
/** sh as Debian and Ubuntu have it: a link to dash, with bash on PATH */
const dash = chooseShell({ platform: "linux", findOnPath: (name) => `/usr/bin/${name}`, realPath: (p) => (p === "/usr/bin/sh" ? "/usr/bin/dash" : p) });
let dir: string;
beforeAll(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), "hey-bash-notes-")));
  mkdirSync(join(dir, "web"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = (command: string, opts: Partial<BashToolOptions> = {}) =>
  createBashTool({ shell, timeoutMs: 10_000, filter: "builtin", raw: false, outputDir: join(dir, ".out"), ...opts }).run(
    { command },
    { signal: new AbortController().signal, cwd: dir },
  );

test("an editor the user set (EDITOR=vim) is not what the tool's commands get: `git commit` without -m fails at once saying what to do", async () => {
  const repo = join(dir, "repo");
  mkdirSync(repo);
  writeFileSync(join(repo, "f.txt"), "a\n");
  const git = "git -c user.name=t -c user.email=t@t -c commit.gpgsign=false";
  const env = { ...process.env, EDITOR: "vim", VISUAL: "vim", GIT_EDITOR: "vim", TERM: "xterm-256color", PAGER: "less", GIT_PAGER: "less" };
  const r = await run(`cd repo && git init -q . && git add f.txt && ${git} commit`, { env });
  expect(r.isError).toBe(true);
  expect(r.output).toContain("hey: no editor: bash commands have no terminal; give the text in the command: git commit -m MSG");
  expect(r.output).toContain("[exit code 1]");
  expect(r.output).not.toContain("timed out");
  const pagers = await run('echo "$PAGER $GIT_PAGER $GIT_TERMINAL_PROMPT"', { env });
  expect(pagers.output).toBe("cat cat 0\n[exit code 0]");
});

test("a full-screen editor is not started (it would wait for keys until the timeout); its batch forms are", async () => {
  const r = await run("vim f.txt");
  expect(r).toEqual({
    output:
      "not run: vim is a full-screen editor and bash commands have no terminal (it would wait until the timeout). Change files with edit or write_file, or script it (sed -i, vim -es, or commands that end with a quit: vim -c 'normal dd' -c wq f)",
    isError: true,
  });
  expect(needsTerminal("git add . && nano notes.md", shell)).toStartWith("not run: nano is a full-screen editor");
  expect(needsTerminal("timeout 5 /usr/bin/vi x", shell)).toStartWith("not run: vi is a full-screen editor");
  for (const batch of ["vim -es -c '%s/a/b/g' -c wq f.txt", "nvim --headless +q", "vim +%s/a/b/g +wq f.txt", "git config core.editor vim", "echo vim"])
    expect(needsTerminal(batch, shell)).toBeUndefined();
});

test("vi's forms that still wait for keys are not started either: commands given that do not quit, Ex mode, vi's other names, git's difftool with vimdiff; those that quit or run silent are", () => {
  for (const waits of [
    "vim -c 'normal dd' g.txt",
    "vim +/line g.txt",
    "vim --cmd 'set nu' g.txt",
    "vim -E g.txt",
    "ex g.txt",
    "editor g.txt",
    "vim.basic g.txt",
    "vim.tiny g.txt",
    "rvim g.txt",
    "gvim -v g.txt",
  ])
    expect(needsTerminal(waits, shell)).toStartWith(`not run: ${waits.split(" ")[0]} is a full-screen editor`);
  for (const tool of ["git difftool -y --tool=vimdiff HEAD~1", "git mergetool -t nvimdiff"])
    expect(needsTerminal(tool, shell)).toBe(
      "not run: vimdiff is a full-screen editor and bash commands have no terminal (it would wait until the timeout). Read the change with git diff; resolve a conflict with edit",
    );
  for (const batch of [
    "vim -c 'normal dd' -c wq g.txt",
    "vim -c x g.txt",
    "vim +'%s/a/b/g|wq' g.txt",
    "vim -c ':wq!' g.txt",
    "ex -s g.txt",
    "vim -e -s g.txt",
    "{ vim -E g.txt; } <<EOF\nwq\nEOF", // Ex mode fed by the group around it
    "while false; do vim -e g.txt; done < cmds.vim",
    "vim -s keys.vim g.txt",
    "gvim g.txt",
    "git difftool --tool=meld",
    "cat vim.txt",
    "grep -rn ex .",
  ])
    expect(needsTerminal(batch, shell)).toBeUndefined();
});

const STOPPED =
  "[stopped: it started vim, which has no terminal here and was waiting for keys (it would have until the timeout); the process group was killed]\n[change files with edit or write_file, or script vim (vim -es, or commands that end with a quit: vim -c 'normal dd' -c wq f); read a change with git diff]";
const longRun = (command: string) =>
  createBashTool({ shell, timeoutMs: 60_000, filter: "builtin", raw: false, outputDir: join(dir, ".out") }).run(
    { command },
    { signal: new AbortController().signal, cwd: dir },
  );

test("a vim the refusal cannot see (started by a script) that waits for keys is stopped, not at the timeout: at once when given nothing to do, after vim's pause when given commands that do not quit, told then of the swap file vim keeps", async () => {
  writeFileSync(join(dir, "g.txt"), "l1\nl2\n");
  writeFileSync(join(dir, "edit.sh"), "#!/bin/sh\nvim -c 'normal dd' \"$@\"\n", { mode: 0o755 });
  writeFileSync(join(dir, "open.sh"), '#!/bin/sh\nvim "$@"\necho never\n', { mode: 0o755 });
  const blind = await longRun("./open.sh g.txt");
  expect(blind.output).toEndWith(STOPPED);
  expect(existsSync(join(dir, ".g.txt.swp"))).toBe(false);
  for (const [script, after] of [
    ["./open.sh g.txt", STOPPED],
    [
      "./edit.sh g.txt",
      `${STOPPED}\n[vim had opened its files: it leaves a swap file beside each (.NAME.swp), and the next vim of that file stops to ask about it; check the file (git diff), then rm the swap file]`,
    ],
  ] as const) {
    const r = await longRun(script);
    expect(r.isError).toBe(true);
    expect(r.output).toContain("Vim: Warning:");
    expect(r.output).toEndWith(after);
    expect(r.output).not.toContain("timed out");
    expect(r.output).not.toContain("never");
  }
  // stopped during its pause, vim had opened nothing; given commands, it had (vim keeps the swap file of a changed buffer), as the note says
  expect(existsSync(join(dir, ".g.txt.swp"))).toBe(true);
  rmSync(join(dir, ".g.txt.swp"));
  const batch = await run("vim -c 'normal dd' -c wq g.txt && cat g.txt"); // it warns too, and is left to finish
  expect(batch.output).toContain("l2\n");
  expect(batch.output).toEndWith("[exit code 0]");
});

test("Ex mode fed its commands on stdin (a pipe, `<`, `<<`) runs and edits: `ex`, `vim -e`, `vim -E`; with nothing on stdin it is still not started", async () => {
  writeFileSync(join(dir, "ex.txt"), "hello\n");
  writeFileSync(join(dir, "ex.cmds"), "%s/D/F/\nwq\n");
  for (const [command, after] of [
    ["printf '%%s/hello/A/\\nwq\\n' | vim -e ex.txt", "A"],
    ["printf '%%s/A/B/\\nwq\\n' | ex ex.txt", "B"],
    ["ex ex.txt <<EOF\n%s/B/C/\nwq\nEOF", "C"],
    ["vim -E ex.txt <<'EOF'\n%s/C/D/|wq\nEOF", "D"],
    ["ex -u NONE ex.txt < ex.cmds", "F"],
  ] as const) {
    const r = await run(`${command}\ncat ex.txt`);
    expect(r.output).not.toContain("not run");
    expect(r.output).toContain(`${after}\n`);
    expect(await Bun.file(join(dir, "ex.txt")).text()).toBe(`${after}\n`);
  }
  for (const waits of ["ex ex.txt", "vim -E ex.txt", "vim -e ex.txt > out.txt"])
    expect(needsTerminal(waits, shell)).toStartWith(`not run: ${waits.split(" ")[0]} is a full-screen editor`);
});

test("a script's batch vim (commands that end with a quit) prints the warning, pauses, edits the file and the script goes on", async () => {
  writeFileSync(join(dir, "hello.txt"), "hello\n");
  writeFileSync(join(dir, "fix.sh"), '#!/bin/sh\nvim -c "%s/hello/HI/" -c wq hello.txt; echo script-done\n', { mode: 0o755 });
  const r = await longRun("./fix.sh | grep -a script-done; cat hello.txt");
  expect(r.output).toContain("Vim: Warning:");
  expect(r.output).toStartWith("script-done\nHI\n[stderr]\nVim: Warning:");
  expect(r.output).toEndWith("[exit code 0]");
  expect(r.output).not.toContain("stopped");
  expect(await Bun.file(join(dir, "hello.txt")).text()).toBe("HI\n");
});

test("output that only quotes vim's warning (grep or git log in vim's or hey's sources, a CI log on stderr) runs to its end", async () => {
  writeFileSync(join(dir, "warn.txt"), "Vim: Warning: Input is not from a terminal\n  Vim: Warning: Output is not to a terminal\n");
  for (const command of [
    "grep -n 'Vim: Warning' warn.txt; sleep 1; echo AFTER",
    "cat warn.txt >&2; sleep 1; echo AFTER",
    "echo x; cat warn.txt; sleep 1; echo AFTER",
  ]) {
    const r = await longRun(command);
    expect(r.output).toContain("AFTER\n");
    expect(r.output).toEndWith("[exit code 0]");
    expect(r.output).not.toContain("stopped");
  }
});

test("a call that ends with a `cd` or an `export` is told the next call will not see it; one that uses them is not", async () => {
  const cd = await run("cd web");
  expect(cd.output).toBe(
    "(no output)\n[exit code 0]\n[`cd web` lasts for this call only: the next bash call starts in the working directory with hey's environment; chain it: cd web && …]",
  );
  const exported = await run("npm config get prefix >/dev/null 2>&1; export NODE_ENV=test");
  expect(exported.output).toEndWith(
    "[`export NODE_ENV=test` lasts for this call only: the next bash call starts in the working directory with hey's environment; chain it: export NODE_ENV=test && …]",
  );
  expect((await run("cd web && pwd")).output).toBe(`${join(dir, "web")}\n[exit code 0]`);
  expect((await run("(cd web; ls)")).output).toBe("(no output)\n[exit code 0]");
  expect((await run("cd nowhere")).output).not.toContain("lasts for this call only"); // it did nothing to lose
});

test("a command whose cds go somewhere and back (`cd web; pwd; cd ..`) gets no note that its last cd is lost", async () => {
  expect((await run("cd web; pwd; cd ..")).output).toBe(`${join(dir, "web")}\n[exit code 0]`);
  expect(
    (await run("pushd web >/dev/null; pwd; popd >/dev/null", { shell: chooseShell({ configured: "bash", platform: "linux", findOnPath: () => undefined }) }))
      .output,
  ).toBe(`${join(dir, "web")}\n[exit code 0]`);
  expect((await run("export A=1; cd web")).output).toEndWith("chain it: cd web && …]"); // one move, at the end: lost
});

test("an editor asked only for its version or help runs: `vim --version | head -1`, `nano --help`", async () => {
  const version = await run("vim --version | head -1");
  expect(version.output).not.toContain("full-screen editor");
  for (const info of ["vim --version | head -1", "nvim -h", "nano --help", "nano -V", "hx --health", "vim -es +q"])
    expect(needsTerminal(info, shell)).toBeUndefined();
  for (const opens of ["vim -V f.txt", "vim f.txt --", "nano f.txt"]) expect(needsTerminal(opens, shell)).toStartWith("not run:");
});

test("bash syntax dash rejected gets one line saying the shell is dash and how to run bash, even at exit code 0", () => {
  for (const stderr of [
    "/usr/bin/sh: 1: [[: not found\n",
    '/usr/bin/sh: 1: Syntax error: "(" unexpected\n',
    "/usr/bin/sh: 1: set: Illegal option -o pipefail\n",
    "/usr/bin/sh: 1: Bad substitution\n",
    "/usr/bin/sh: 1: source: not found\n",
  ])
    expect(commandNotes("if [[ -f f ]]; then echo y; fi", stderr, dash)).toEqual([
      "[the shell is dash, not bash: it rejected bash syntax above, so the command did not do what it says, whatever its exit code; run it with bash -c '…' or write POSIX sh]",
    ]);
  expect(commandNotes("make", "make: *** [all] Error 1\n", dash)).toEqual([]);
  const bash = chooseShell({ configured: "bash", platform: "linux", findOnPath: () => undefined });
  expect(commandNotes("x", "sh: 1: [[: not found\n", bash)).toEqual([]); // bash has [[: that is something else
});

test("what dash does quietly otherwise than bash gets a line too: a brace expansion left as written, echo -e, $RANDOM", async () => {
  // a real dash: `mkdir -p src/{a,b}` makes one directory named `{a,b}` and exits 0
  const r = await run("mkdir -p braces/{a,b} && ls braces", { shell: dash });
  expect(r.output).toBe(
    "{a,b}\n[exit code 0]\n[the shell is dash, not bash: it does no brace expansion: `braces/{a,b}` stayed one word, as written; run it with bash -c '…' or write POSIX sh]",
  );
  const note = (command: string) => commandNotes(command, "", dash);
  expect(note("for i in {1..3}; do echo $i; done")).toEqual([
    "[the shell is dash, not bash: it does no brace expansion: `{1..3}` stayed one word, as written; run it with bash -c '…' or write POSIX sh]",
  ]);
  expect(note("echo -ne 'a\\tb' && echo $RANDOM")).toEqual([
    "[the shell is dash, not bash: its echo printed `-e` as text (and reads \\ escapes without it): printf '…\\n' works in both; $RANDOM is bash's: empty in dash; run it with bash -c '…' or write POSIX sh]",
  ]);
  // quoted, in a here-document, given to bash, or not a brace expansion: nothing to say
  for (const command of [
    "awk '{print $1,$2}' f",
    "bash -c 'mkdir -p src/{a,b}'",
    "cat > run.sh <<'EOF'\necho -e {a,b} $RANDOM\nEOF",
    'echo "${x}" {} \\$RANDOM',
    "find . -name '*.ts' -exec grep -l x {} +",
    "echo -n done",
  ])
    expect(note(command)).toEqual([]);
  // hey writes a name that is not UTF-8 as bash's $'…' reads it; dash has no $'…'
  expect(note("cat $'caf\\xE9.txt'")).toEqual([
    "[the shell is dash, not bash: it has no $'…' quoting: `$'caf\\xE9.txt'` was read as a $ then '…' (printf '\\351' writes a byte such as \\xE9; a glob, caf?.txt, names a file with one); run it with bash -c '…' or write POSIX sh]",
  ]);
  expect(note(`bash -c "cat $'caf\\xE9.txt'"`)).toEqual([]);
  // a long unquoted word (base64, a URL) is looked at once, not from each of its characters
  const blob = "A".repeat(200_000);
  expect(note(`echo ${blob} && cp f{,.bak} && echo ${blob}`)).toEqual([
    "[the shell is dash, not bash: it does no brace expansion: `f{,.bak}` stayed one word, as written; run it with bash -c '…' or write POSIX sh]",
  ]);
  expect(note(`echo ${blob}{`)).toEqual([]);
  // bash does these itself
  const bash = chooseShell({ configured: "bash", platform: "linux", findOnPath: () => undefined });
  expect(commandNotes("mkdir -p src/{a,b}", "", bash)).toEqual([]);
  // `[ a == b ]`: dash's `[` says "unexpected operator" and the test is false
  expect(commandNotes('[ "$a" == b ] && echo same', "/usr/bin/sh: 1: [: x: unexpected operator\n", dash)).toHaveLength(1);
  expect(commandNotes("[ $a = b ]", "/usr/bin/sh: 1: [: =: unexpected operator\n", dash)).toEqual([]); // a POSIX script's own slip
});

test("dash's words for bash's `function f { … }`, `$((2**3))` and `disown` get the dash line too, from a real dash", async () => {
  const line =
    "[the shell is dash, not bash: it rejected bash syntax above, so the command did not do what it says, whatever its exit code; run it with bash -c '…' or write POSIX sh]";
  for (const command of [
    "function f { echo hi; }; f",
    "function f {\n  echo hi\n}\nf",
    "echo $((2**3))",
    "x=2; echo $(( x ** 10 ))",
    "sleep 0 & disown",
    "let n=1+1",
  ]) {
    const r = await run(command, { shell: dash });
    expect(r.output.endsWith(line)).toBe(true);
  }
  // the same words from something else say nothing: a POSIX function with a stray brace, a product
  expect(commandNotes("f() { echo; }; }", '/usr/bin/sh: 1: Syntax error: "}" unexpected\n', dash)).toEqual([]);
  expect(commandNotes("echo $((2*))", '/usr/bin/sh: 1: arithmetic expression: expecting primary: "2*"\n', dash)).toEqual([]);
});

test("the description says which shell runs the commands when it is dash, what it lacks, and that each call starts in the working directory", () => {
  const description = createBashTool({ shell: dash, timeoutMs: 120_000, filter: "builtin", raw: false }).description;
  expect(description).toStartWith(
    "Run a command in dash (no [[ ]], arrays, {a..b}, pipefail), no stdin; each call starts in the working directory (cd DIR && …).",
  );
  const noBash = chooseShell({ platform: "linux", findOnPath: (n) => (n === "sh" ? "/bin/sh" : undefined), realPath: () => "/bin/dash" });
  expect(noBash.lacks).toEqual({ syntax: "no [[ ]], arrays, {a..b}, pipefail", bash: false });
  expect(commandNotes("arr=(a b)", '/bin/sh: 1: Syntax error: "(" unexpected\n', noBash)).toEqual([
    "[the shell is dash, not bash: it rejected bash syntax above, so the command did not do what it says, whatever its exit code; write POSIX sh]",
  ]);
  // macOS' sh is bash: it lacks nothing of this
  expect(chooseShell({ platform: "darwin", findOnPath: (n) => `/bin/${n}`, realPath: (p) => p }).lacks).toBeUndefined();
});
