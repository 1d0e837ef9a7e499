import { describe, expect, test } from "bun:test";
import { chooseShell, encodePowerShell } from "../../src/tools/shell.ts";

const decode = (b64: string) => Buffer.from(b64, "base64").toString("utf16le");
const path = (entries: Record<string, string>) => (name: string) => entries[name];

describe("chooseShell", () => {
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
      expect(args.slice(0, 3)).toEqual(["-NoProfile", "-NonInteractive", "-EncodedCommand"]);
      expect(decode(args[3]!)).toBe("echo hi");
    },
  );

  test('configured cmd gets /d /s /c and the command in quotes, spawned verbatim (cmd reads \\" as text)', () => {
    const cmd = chooseShell({ configured: "cmd.exe", platform: "win32", findOnPath: path({}) });
    expect(cmd.args('echo "a b" & dir')).toEqual(["/d", "/s", "/c", '"echo "a b" & dir"']);
    expect(cmd.verbatim).toBe(true);
    expect(cmd.label).toBe("cmd.exe");
    expect(chooseShell({ configured: "pwsh", platform: "win32", findOnPath: path({}) }).verbatim).toBeUndefined();
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
