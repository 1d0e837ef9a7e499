import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chooseShell, cmdLine, encodePowerShell, inDirectory, NOT_ENTERED } from "../../src/tools/shell.ts";

const decode = (b64: string) => Buffer.from(b64, "base64").toString("utf16le");
// what every PowerShell script hey runs begins and ends with: UTF-8 output and no progress records;
// the exit code of the last program when the last statement failed
const PROLOGUE = "[Console]::OutputEncoding=[Text.Encoding]::UTF8;$ProgressPreference='SilentlyContinue';";
const EXIT = "if (-not $?) { exit $(if ($LASTEXITCODE) { $LASTEXITCODE } else { 1 }) }";
const path = (entries: Record<string, string>) => (name: string) => entries[name];

describe("chooseShell", () => {
  // the permission checker reads `$(…)` as bash 3.x would too only where it may run the commands
  test.each<[string, Parameters<typeof chooseShell>[0], boolean]>([
    ["macOS's sh", { platform: "darwin", findOnPath: path({ sh: "/bin/sh" }), realPath: (p) => p }, true],
    ["macOS's bash, configured", { configured: "bash", platform: "darwin", findOnPath: path({ bash: "/bin/bash" }), realPath: (p) => p }, true],
    [
      "Homebrew's bash 5 on macOS",
      {
        configured: "bash",
        platform: "darwin",
        findOnPath: path({ bash: "/opt/homebrew/bin/bash" }),
        realPath: () => "/opt/homebrew/Cellar/bash/5.2.37/bin/bash",
      },
      false,
    ],
    ["Linux's sh (dash)", { platform: "linux", findOnPath: path({ sh: "/usr/bin/sh", bash: "/usr/bin/bash" }), realPath: () => "/usr/bin/dash" }, false],
    ["Linux's sh (bash 5)", { platform: "linux", findOnPath: path({ sh: "/usr/bin/sh" }), realPath: () => "/usr/bin/bash" }, false],
    ["a bash 3.2 built on Linux", { configured: "/opt/bash-3.2/bin/bash", platform: "linux", findOnPath: path({}), realPath: (p) => p }, true],
    [
      "Nix's bash 5 on macOS",
      {
        configured: "bash",
        platform: "darwin",
        findOnPath: path({ bash: "/run/current-system/sw/bin/bash" }),
        realPath: () => "/nix/store/x-bash-interactive-5.2p37/bin/bash",
      },
      false,
    ],
  ])("%s: bash3 %p", (_, opts, bash3) => {
    expect(chooseShell(opts).bash3 === true).toBe(bash3);
  });

  test.each([
    ["linux, sh on PATH", { platform: "linux", findOnPath: path({ sh: "/usr/bin/sh" }) }, "/usr/bin/sh", "sh"],
    ["darwin, no PATH lookup result", { platform: "darwin", findOnPath: path({}) }, "/bin/sh", "sh"],
    ["linux, configured bash", { configured: "bash", platform: "linux", findOnPath: path({}) }, "bash", "bash"],
    ["linux, configured zsh path", { configured: "/usr/local/bin/zsh", platform: "linux", findOnPath: path({}) }, "/usr/local/bin/zsh", "zsh"],
    ["configured sh with spaces", { configured: "  sh ", platform: "linux", findOnPath: path({}) }, "sh", "sh"],
    [
      "windows, Git Bash sh",
      { platform: "win32", findOnPath: path({ sh: "C:\\Program Files\\Git\\usr\\bin\\sh.exe" }) },
      "C:\\Program Files\\Git\\usr\\bin\\sh.exe",
      "sh",
    ],
    ["windows, bash when no sh", { platform: "win32", findOnPath: path({ bash: "C:\\msys64\\usr\\bin\\bash.exe" }) }, "C:\\msys64\\usr\\bin\\bash.exe", "bash"],
    [
      "windows, configured Git Bash",
      { configured: "C:\\Program Files\\Git\\bin\\bash.exe", platform: "win32", findOnPath: path({}) },
      "C:\\Program Files\\Git\\bin\\bash.exe",
      "bash",
    ],
  ])("%s", (_name, opts, program, name) => {
    const shell = chooseShell(opts);
    expect(shell.program).toBe(program);
    expect(shell.name).toBe(name);
    expect(shell.args("echo 'a b' && ls")).toEqual(["-c", "echo 'a b' && ls"]);
  });

  test("windows skips WindowsApps alias stubs and falls back to PowerShell", () => {
    const stubs = {
      sh: "C:\\Users\\ann\\AppData\\Local\\Microsoft\\WindowsApps\\sh.exe",
      bash: "C:\\Users\\ann\\AppData\\Local\\Microsoft\\WindowsApps\\bash.exe",
    };
    const shell = chooseShell({ platform: "win32", findOnPath: path(stubs) });
    expect(shell.program).toBe("powershell.exe");
    expect(shell.name).toBe("powershell");
  });

  test("windows skips WSL's launcher in System32: it runs commands in a Linux distribution, not on Windows", () => {
    const shell = chooseShell({ platform: "win32", findOnPath: path({ bash: "C:\\WINDOWS\\system32\\bash.exe" }) });
    expect(shell.program).toBe("powershell.exe");
  });

  // Git for Windows' default install puts only Git\cmd on PATH: git.exe, no sh
  test.each([["C:\\Program Files\\Git\\cmd\\git.exe"], ["C:\\Program Files\\Git\\mingw64\\bin\\git.exe"], ["C:\\Program Files\\Git\\bin\\git.exe"]])(
    "windows finds Git Bash next to %s when no sh or bash is on PATH",
    (git) => {
      const bash = "C:\\Program Files\\Git\\bin\\bash.exe";
      const shell = chooseShell({ platform: "win32", findOnPath: path({ git, [bash]: bash, pwsh: "C:\\pwsh.exe" }) });
      expect(shell.program).toBe(bash);
      expect(shell.name).toBe("bash");
      expect(shell.label).toBeUndefined();
      expect(shell.args("ls && echo ok")).toEqual(["-c", "ls && echo ok"]);
    },
  );

  test("windows: a git elsewhere (scoop's shim), or no bash.exe beside it, leaves PowerShell", () => {
    const everything = (name: string) => (name.includes("\\") ? name : undefined); // any absolute path exists
    expect(chooseShell({ platform: "win32", findOnPath: (n) => (n === "git" ? "C:\\Users\\ann\\scoop\\shims\\git.exe" : everything(n)) }).program).toBe(
      "powershell.exe",
    );
    expect(chooseShell({ platform: "win32", findOnPath: path({ git: "C:\\Git\\cmd\\git.exe" }) }).program).toBe("powershell.exe");
  });

  test("the model is told which PowerShell: Windows PowerShell 5.1 has no && or ||, pwsh has", () => {
    expect(chooseShell({ platform: "win32", findOnPath: path({}) }).label).toBe("Windows PowerShell 5.1 (it has no && or ||: separate commands with ;)");
    expect(chooseShell({ platform: "win32", findOnPath: path({ pwsh: "C:\\pwsh.exe" }) }).label).toBe("PowerShell 7 (pwsh)");
    expect(chooseShell({ configured: "powershell.exe", platform: "win32", findOnPath: path({}) }).label).toContain("5.1");
    expect(chooseShell({ configured: "pwsh", platform: "win32", findOnPath: path({}) }).label).toBe("PowerShell 7 (pwsh)");
    expect(chooseShell({ platform: "linux", findOnPath: path({}) }).label).toBeUndefined();
  });

  test("windows skips a stub sh but takes a real bash", () => {
    const shell = chooseShell({
      platform: "win32",
      findOnPath: path({ sh: "C:/Users/ann/AppData/Local/Microsoft/WindowsApps/sh.exe", bash: "D:\\Git\\bin\\bash.exe" }),
    });
    expect(shell.program).toBe("D:\\Git\\bin\\bash.exe");
  });

  test("windows prefers pwsh over Windows PowerShell when there is no sh", () => {
    const shell = chooseShell({ platform: "win32", findOnPath: path({ pwsh: "C:\\Program Files\\PowerShell\\7\\pwsh.exe" }) });
    expect(shell.program).toBe("C:\\Program Files\\PowerShell\\7\\pwsh.exe");
    expect(shell.name).toBe("powershell");
  });

  test.each([["pwsh"], ["powershell"], ["C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe"], ["PWSH.EXE"]])(
    "configured %s gets the encoded-command form",
    (configured) => {
      const shell = chooseShell({ configured, platform: "linux", findOnPath: path({}) });
      expect(shell.program).toBe(configured);
      expect(shell.name).toBe("powershell");
      const args = shell.args("echo hi");
      expect(args.slice(0, 5)).toEqual(["-NoProfile", "-NonInteractive", "-OutputFormat", "Text", "-EncodedCommand"]);
      expect(decode(args[5]!)).toBe(`${PROLOGUE}\necho hi\n${EXIT}`);
    },
  );

  // PowerShell writes to a pipe, and decodes what the programs it runs print, in the console's code
  // page (OEM: 437, 850) unless told UTF-8; a script of several lines runs whole (-EncodedCommand)
  test("PowerShell (5.1 and 7) is told to write UTF-8 first, and gets a command of several lines whole", () => {
    for (const configured of ["powershell", "pwsh"]) {
      const args = chooseShell({ configured, platform: "win32", findOnPath: path({}) }).args("echo one\necho café");
      expect(decode(args[5]!).split("\n")).toEqual([PROLOGUE, "echo one", "echo café", EXIT]);
    }
  });

  test.each([["using namespace System.IO\n[File]::ReadAllText('a')"], ["param($x = 1)\necho $x"], ["#Requires -Version 7\necho hi"]])(
    "a script that must begin with its own statement is left as written: %p",
    (command) => {
      const args = chooseShell({ configured: "pwsh", platform: "win32", findOnPath: path({}) }).args(command);
      expect(decode(args[5]!)).toBe(`${command}\n${EXIT}`);
    },
  );

  test('configured cmd gets /d /s /c and the command in quotes, spawned verbatim (cmd reads \\" as text)', () => {
    const cmd = chooseShell({ configured: "cmd.exe", platform: "win32", findOnPath: path({}) });
    expect(cmd.args('echo "a b" & dir')).toEqual(["/d", "/s", "/c", '"chcp 65001>nul 2>&1& echo "a b" & dir"']);
    expect(cmd.verbatim).toBe(true);
    expect(cmd.label).toBe("cmd.exe (a command of several lines runs as a batch file: write %% for a literal %, %%i in for)");
    expect(chooseShell({ configured: "pwsh", platform: "win32", findOnPath: path({}) }).verbatim).toBeUndefined();
  });
});

// cmd.exe writes to a pipe in the OEM code page (café.txt listed as `caf‚.txt`): chcp 65001 first.
// And `cmd /c` runs only the first line of what it is given: the lines are joined as a batch
// file would run them, each after the one before.
describe("cmd.exe", () => {
  const cmd = chooseShell({ configured: "cmd", platform: "win32", findOnPath: path({}) });
  test("the console is made UTF-8 before the command runs", () => {
    expect(cmd.args("dir /b *.txt")[3]).toBe('"chcp 65001>nul 2>&1& dir /b *.txt"');
  });

  test.each([
    ["each line runs, whatever the one before returned", "echo one\necho two\r\necho three", "echo one& echo two& echo three"],
    ["blank lines and indentation are dropped", "\n  cd sub\n\n  dir\n", "cd sub& dir"],
    [
      "a ( … ) block keeps its lines inside it",
      "if exist a.txt (\n  echo yes\n  type a.txt\n) else (\n  echo no\n)",
      "if exist a.txt ( echo yes& type a.txt) else ( echo no)",
    ],
    ["a line ending in ^ goes on on the next", "echo a ^\nb", "echo a b"],
    ["a line ending in an operator is not joined again", "build &&\necho built", "build && echo built"],
    ["comment lines would hide the rest: left out", "rem first\necho one\n:: second\necho two", "echo one& echo two"],
    ["one line is as written", 'echo "a b" & dir', 'echo "a b" & dir'],
  ])("%s", (_why, command, line) => {
    expect(cmdLine(command)).toBe(line);
    expect(cmd.args(command)[3]).toBe(`"chcp 65001>nul 2>&1& ${line}"`);
  });
});

describe("encodePowerShell", () => {
  test.each([
    ["plain", "Get-ChildItem"],
    ["quotes", `Write-Output "a 'b' \\"c\\"" ; echo 'it''s'`],
    ["non-ASCII", "echo 'héllo wörld ✓ 日本'"],
    ["astral plane", "echo '🎉 done'"],
    ["newlines and $", "$x = 1\nif ($x) { exit 3 }"],
    ["empty", ""],
  ])("%s round-trips through base64 UTF-16LE", (_name, command) => {
    const encoded = encodePowerShell(command);
    expect(decode(encoded)).toBe(command);
    expect(encoded).toBe(Buffer.from(command, "utf16le").toString("base64"));
  });
});

describe("inDirectory: a workdir folded into the command as its shell writes it", () => {
  const sh = chooseShell({ platform: "linux", findOnPath: path({ sh: "/bin/sh" }) });
  const cmd = chooseShell({ configured: "cmd.exe", platform: "win32", findOnPath: path({}) });
  const ps51 = chooseShell({ platform: "win32", findOnPath: path({}) });
  // a failed cd ends the whole command, saying so (explorer finding x83 #3: a later line ran in the project)
  const shGuard = (dir: string) => `cd "${dir}" || { echo '${NOT_ENTERED}' >&2; exit 1; }\n`;
  const cmdGuard = (dir: string) => `cd /d "${dir}" || (echo ${NOT_ENTERED}>&2& exit /b 1)`;
  test.each([
    ["sh", sh, "web", "/home/u", `${shGuard("web")}npm test`],
    ["sh, ~ is the home", sh, "~/x y", "/home/u", `${shGuard("/home/u/x y")}npm test`],
    ["sh, ~ alone", sh, "~", "/home/u", `${shGuard("/home/u")}npm test`],
    ["sh, a backslash kept", sh, "C:\\proj\\", "/home/u", `${shGuard("C:\\\\proj\\\\")}npm test`],
    ["cmd, another drive, one line stays one line", cmd, "D:\\proj\\sub", "C:\\Users\\u", `${cmdGuard("D:\\proj\\sub")} & npm test`],
    ["cmd, ~\\ is the home", cmd, "~\\src", "C:\\Users\\u", `${cmdGuard("C:\\Users\\u\\src")} & npm test`],
    ["Windows PowerShell 5.1: no &&", ps51, "C:\\proj\\sub", "C:\\Users\\u", "Set-Location -LiteralPath 'C:\\proj\\sub' -ErrorAction Stop; npm test"],
    ["PowerShell, a quote doubled", ps51, "~/it's", "C:\\Users\\u", "Set-Location -LiteralPath 'C:\\Users\\u/it''s' -ErrorAction Stop; npm test"],
  ])("%s", (_name, shell, dir, home, want) => {
    expect(inDirectory(shell, "npm test", dir, home)).toEqual({ command: want });
  });

  test("cmd: before a command of several lines (a batch file) the cd is a line of its own, so a failed one stops every line", () => {
    expect(inDirectory(cmd, "del *.o\r\necho done", "D:\\proj", "C:\\Users\\u")).toEqual({ command: `${cmdGuard("D:\\proj")}\ndel *.o\r\necho done` });
  });

  test.each([
    ["$(rm -rf ~)", sh, "cannot be put in front of the command (the shell would read its $); start the command with cd instead"],
    ["-P", sh, "cannot be put in front of the command (cd would read it as an option); start the command with cd instead"],
    ["%TEMP%\\x", cmd, "cannot be put in front of the command (cmd would read its %); start the command with cd instead"],
    ["a\nb", ps51, "cannot be put in front of the command (it holds a line break); start the command with cd instead"],
    ["~bob/src", sh, "names another user's home (~bob), which is not supported; give the full path"],
  ])("refused: %j", (dir, shell, error) => {
    expect(inDirectory(shell, "ls", dir, "/home/u")).toEqual({ error });
  });

  test("sh runs the folded command in the directory: ~ expanded, a backslash in a name kept", () => {
    const home = mkdtempSync(join(tmpdir(), "hey-indir-"));
    try {
      mkdirSync(join(home, "a\\b"), { recursive: true });
      const folded = inDirectory(sh, "pwd", "~/a\\b", home);
      if (!("command" in folded)) throw new Error(folded.error);
      const run = Bun.spawnSync(["sh", "-c", folded.command]);
      expect(run.stdout.toString().trim()).toBe(join(realpathSync(home), "a\\b"));
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  test.each([["sh"], ["bash"]])("%s: a workdir that is not there runs no line of the command, and the result says so", (program) => {
    const project = mkdtempSync(join(tmpdir(), "hey-indir-"));
    try {
      writeFileSync(join(project, "keep.o"), "");
      const folded = inDirectory(sh, "echo first\nrm -f *.o; echo removed", "nope", project);
      if (!("command" in folded)) throw new Error(folded.error);
      const run = Bun.spawnSync([program, "-c", folded.command], { cwd: project });
      expect(run.exitCode).toBe(1);
      expect(run.stdout.toString()).toBe("");
      expect(run.stderr.toString()).toEndWith(`${NOT_ENTERED}\n`);
      expect(existsSync(join(project, "keep.o"))).toBe(true);
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });
});
