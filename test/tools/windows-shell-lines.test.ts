// How hey runs a command in cmd and PowerShell (explorer finding x79 #2, #3), checked from the
// command lines and files hey builds, which is what Windows runs: cmd ran a command of several lines
// joined into one, every %VAR% expanded before any line ran (`set X=1` then `echo %X%` printed
// `%X%`); PowerShell wrote its errors as CLIXML, and a failing `npm test` came back as exit 1.
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileBashTool } from "../helpers/bash-tool.ts";
import { fileTempDir } from "../helpers/fixtures.ts";
import { clixmlDecoder } from "../../src/tools/clixml.ts";
import { shellArgv } from "../../src/tools/long-command.ts";
import { chooseShell, inDirectory, NOT_ENTERED, powershellScript } from "../../src/tools/shell.ts";

const none = () => undefined;
const cmd = chooseShell({ configured: "cmd.exe", platform: "win32", findOnPath: none });
const dir = fileTempDir("hey-windows-lines-").path;

describe("cmd runs a command of several lines as a batch file", () => {
  test("the lines go to a .cmd file, run with call, and the file is gone after", () => {
    const command = "set NODE_ENV=production\necho building for %NODE_ENV%\ncd src\r\necho now in %CD%";
    const path = join(dir, "call1.cmd");
    const run = shellArgv(cmd, command, (extension) => join(dir, `call1.${extension}`));
    expect(run.argv).toEqual(["cmd.exe", "/d", "/c", `call "${path}"`]);
    // each line on its own, as a batch file runs them: %NODE_ENV% and %CD% read when their line runs
    expect(readFileSync(path, "utf8")).toBe(
      "@echo off\r\nchcp 65001>nul 2>&1\r\nset NODE_ENV=production\r\necho building for %NODE_ENV%\r\ncd src\r\necho now in %CD%\r\n",
    );
    run.done();
    expect(existsSync(path)).toBe(false);
  });

  test("one line runs as typed at cmd's prompt, with no file", () => {
    const run = shellArgv(cmd, "for %i in (*.txt) do echo %i\n", () => {
      throw new Error("no file for one line");
    });
    expect(run.argv).toEqual(["cmd.exe", "/d", "/s", "/c", '"chcp 65001>nul 2>&1& for %i in (*.txt) do echo %i"']);
  });

  test("a batch file that cannot be written is an error, not a command run half", () => {
    const run = shellArgv(cmd, "echo a\necho b", () => join(dir, "missing", "x.cmd"));
    expect(run.argv).toEqual([]);
    expect(run.error).toContain("ENOENT");
  });
});

describe("in the batch file a % reads as on cmd's command line where a batch file would drop it (explorer finding x83 #2)", () => {
  test.each([
    ["a URL escape: %2 would be the batch's (empty) second argument", 'curl "https://h/?q=a%20b"', 'curl "https://h/?q=a%%20b"'],
    ["a lone % at the end", "echo 100%", "echo 100%%"],
    ["set /a's remainder", "set /a x=7%3", "set /a x=7%%3"],
    ["git's format: the text up to the next % is no variable's name", 'git log --format="%h %s"', 'git log --format="%%h %%s"'],
    ["for's variable written as on the command line", "for %i in (*.txt) do echo %i", "for %%i in (*.txt) do echo %%i"],
    [
      "batch syntax kept: %%, variables with their :~ and :a=b, %~",
      "for %%i in (*) do echo %%i %PATH:~0,5% %X:a b=c% %~dp0 100%%",
      "for %%i in (*) do echo %%i %PATH:~0,5% %X:a b=c% %~dp0 100%%",
    ],
  ])("%s", (name, line, want) => {
    const path = join(dir, `percent-${name.length}.cmd`);
    const run = shellArgv(cmd, `cd web\n${line}`, () => path);
    try {
      expect(readFileSync(path, "utf8")).toBe(`@echo off\r\nchcp 65001>nul 2>&1\r\ncd web\r\n${want}\r\n`);
    } finally {
      run.done();
    }
  });

  test("one line, run with /c, is left as typed", () => {
    expect(shellArgv(cmd, "echo 100%", () => "").argv.at(-1)).toBe('"chcp 65001>nul 2>&1& echo 100%"');
  });
});

describe("a workdir that cmd cannot enter stops the batch file before its first line (explorer finding x83 #3)", () => {
  test("the cd is a line of its own that leaves the batch with exit code 1 and says why", () => {
    const folded = inDirectory(cmd, "del *.o\necho done", "D:\\build", "C:\\Users\\u");
    if (!("command" in folded)) throw new Error(folded.error);
    const path = join(dir, "workdir.cmd");
    const run = shellArgv(cmd, folded.command, () => path);
    expect(readFileSync(path, "utf8").split("\r\n").slice(2)).toEqual([`cd /d "D:\\build" || (echo ${NOT_ENTERED}>&2& exit /b 1)`, "del *.o", "echo done", ""]);
    run.done();
    expect(existsSync(path)).toBe(false);
  });
});

describe("PowerShell", () => {
  const decode = (b64: string) => Buffer.from(b64, "base64").toString("utf16le");
  test.each([["powershell.exe"], ["pwsh"]])("%s is asked for text errors, and the script ends with the last program's exit code", (program) => {
    const args = chooseShell({ configured: program, platform: "win32", findOnPath: none }).args("npm test");
    expect(args.slice(0, 5)).toEqual(["-NoProfile", "-NonInteractive", "-OutputFormat", "Text", "-EncodedCommand"]);
    const lines = decode(args[5]!).split("\n");
    expect(lines[0]).toContain("$ProgressPreference='SilentlyContinue';");
    expect(lines.slice(1)).toEqual(["npm test", "if (-not $?) { exit $(if ($LASTEXITCODE) { $LASTEXITCODE } else { 1 }) }"]);
  });

  test("a script that must begin with its own statement keeps it first, and still ends with the exit code", () => {
    expect(powershellScript("param($x)\nnpm test")).toBe("param($x)\nnpm test\nif (-not $?) { exit $(if ($LASTEXITCODE) { $LASTEXITCODE } else { 1 }) }");
  });
});

// What Windows PowerShell 5.1 writes to a stderr pipe (PowerShell/PowerShell#5912), played by sh
// here: the model gets the error's text, no XML and no progress record.
describe("a PowerShell's CLIXML stderr reaches the model as text", () => {
  const { tool, ctx, out, dir: project } = fileBashTool("hey-clixml-");
  const clixml =
    '#< CLIXML\r\n<Objs Version="1.1.0.1" xmlns="http://schemas.microsoft.com/powershell/2004/04">' +
    '<Obj S="progress" RefId="0"><TN RefId="0"><T>System.Management.Automation.PSCustomObject</T></TN><MS><I64 N="SourceId">1</I64>' +
    '<PR N="Record"><AV>Preparing modules for first use.</AV><AI>0</AI><Nil /><PI>-1</PI><PC>-1</PC><T>Completed</T><SR>-1</SR><SD> </SD></PR></MS></Obj>' +
    "<S S=\"Error\">Get-Content : Cannot find path 'C:\\proj\\a_x005F_b &amp; c.txt' because it does not exist._x000D__x000A_</S>" +
    '<S S="Error">At line:2 char:1_x000D__x000A_</S><S S="warning">deprecated</S></Objs>';
  const powershellLike = { program: "/bin/sh", name: "powershell", args: (command: string) => ["-c", command] };

  test("errors and warnings as PowerShell's text, progress dropped, what a program wrote between them kept", async () => {
    writeFileSync(join(project, "stderr.txt"), clixml.replace('<S S="warning">', 'npm ERR! code 2\r\n<S S="warning">'));
    const r = await tool({ shell: powershellLike, outputDir: out }).run({ command: "cat stderr.txt >&2; exit 2" }, ctx());
    expect(r.isError).toBe(true);
    expect(r.output).not.toContain("CLIXML");
    expect(r.output).not.toContain("Preparing modules");
    expect(r.output).toContain("Get-Content : Cannot find path 'C:\\proj\\a_b & c.txt' because it does not exist.");
    expect(r.output).toContain("At line:2 char:1");
    expect(r.output).toContain("npm ERR! code 2");
    expect(r.output).toContain("WARNING: deprecated");
    expect(r.output).toContain("[exit code 2]");
    expect(readdirSync(out)).toEqual([]);
  });

  test("a stderr that is not CLIXML is left as written", async () => {
    const r = await tool({ shell: powershellLike, outputDir: out }).run({ command: "printf '<S S=\"Error\">x</S> &amp;\\n' >&2; exit 1" }, ctx());
    expect(r.output).toContain('<S S="Error">x</S> &amp;');
  });
});

test("CLIXML split anywhere between reads decodes to the same text", () => {
  const xml =
    '#< CLIXML\r\n<Objs Version="1.1.0.1"><Obj S="progress" RefId="0"><MS><Obj N="x" RefId="1"></Obj></MS></Obj><S S="Error">caf\u00e9 &lt;1&gt;_x000D__x000A_</S>tail\r\n</Objs>';
  const bytes = new TextEncoder().encode(xml);
  for (const size of [1, 2, 5, 13, bytes.length]) {
    const decoder = clixmlDecoder();
    const pieces: Uint8Array[] = [];
    for (let i = 0; i < bytes.length; i += size) pieces.push(decoder.take(bytes.subarray(i, i + size)));
    pieces.push(decoder.end());
    expect(Buffer.concat(pieces).toString("utf8")).toBe("café <1>\r\ntail\r\n");
  }
});
