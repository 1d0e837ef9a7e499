// Which shell runs the bash tool's commands (SPEC §7.1). Pure: the caller passes the platform
// and a PATH lookup, so the Windows branches are testable anywhere.

/** A chosen shell: spawn `[program, ...args(command)]`; `name` is what the permission checker reads it as. */
export interface ShellChoice {
  program: string;
  name: string;
  args(command: string): string[];
  /**
   * What the model is told it writes for (the system prompt's shell, the bash tool's description)
   * when that is more than `name`: which PowerShell it is, and what it lacks. Default: `name`.
   */
  label?: string;
  /**
   * The bash syntax this shell lacks (`syntax`, for the bash tool's description) when it is dash
   * (Debian's and Ubuntu's sh): models write bash, and dash fails it quietly (`[[` "not found", the
   * `if` taken as false, exit code 0); `bash`: bash is on PATH, to run such a command with.
   * Undefined for a shell that has it (bash, macOS's sh) or that `label` describes.
   */
  lacks?: { syntax: string; bash: boolean };
  /**
   * The shell may be bash 3.x, which ends a `$(…)` where a scan for its `)` does, not where the
   * parser does (permission/shell-words.ts scannedEnd): macOS's sh and bash (3.2), or one whose
   * real path names a 3.x version (`…/bash-3.2/bin/bash`). Undefined elsewhere: Linux's sh is dash
   * or bash 5, Git Bash's bash 4 or 5, Homebrew's and Nix's name their version (`Cellar/bash/5.2.37`).
   */
  bash3?: true;
  /**
   * Spawn with `windowsVerbatimArguments`: `args` is already the command line's text (cmd.exe
   * reads its own command line, not the C runtime's argv, so the usual `\"` quoting breaks it).
   */
  verbatim?: boolean;
}

export interface ShellOptions {
  /** `[tools] shell`: a program name or a path; wins when set */
  configured?: string;
  /** `process.platform` */
  platform: string;
  /** absolute path of an executable on PATH, or undefined; given an absolute path (Git Bash next to git), that path when it exists, as `which` does */
  findOnPath: (name: string) => string | undefined;
  /** the file a path leads to through its links (`/usr/bin/sh` → `/usr/bin/dash`), or undefined; default: the path itself */
  realPath?: (path: string) => string | undefined;
}

// Windows "App execution alias" stubs (bash.exe of a removed WSL, python.exe opening the Store)
// live here; running one prints an install hint instead of a shell.
const WINDOWS_APPS = /[\\/]AppData[\\/]Local[\\/]Microsoft[\\/]WindowsApps[\\/]/i;
// System32's bash.exe is WSL's launcher: it runs the command in a Linux distribution (its own
// tools, not the Windows ones the project uses; with no distribution installed it only says so).
const WSL_LAUNCHER = /[\\/]Windows[\\/](System32|Sysnative)[\\/]bash\.exe$/i;
// Git for Windows puts only its cmd\ folder on PATH by default (git.exe, no sh): its bash is in
// bin\ of the same install, next to cmd\ (or above mingw64\bin\, where git.exe also lives).
const GIT_EXE = /^(.*?[\\/])(cmd|bin|mingw64[\\/]bin)[\\/]git\.exe$/i;

/** Never throws; an unknown configured program is run with `-c`, as POSIX shells take it. */
export function chooseShell(opts: ShellOptions): ShellChoice {
  const configured = opts.configured?.trim();
  if (configured) return withBash3(withLacks(shellFor(configured), opts), opts);
  if (opts.platform !== "win32") return withBash3(withLacks(posix(opts.findOnPath("sh") ?? "/bin/sh", "sh"), opts), opts);
  for (const name of ["sh", "bash"]) {
    const found = opts.findOnPath(name);
    if (found && !WINDOWS_APPS.test(found) && !WSL_LAUNCHER.test(found)) return posix(found, name);
  }
  const git = GIT_EXE.exec(opts.findOnPath("git") ?? "");
  const gitBash = git && opts.findOnPath(`${git[1]}bin\\bash.exe`);
  if (gitBash) return posix(gitBash, "bash");
  const pwsh = opts.findOnPath("pwsh");
  return pwsh ? powershell(pwsh, false) : powershell("powershell.exe", true);
}

/** What dash lacks of bash that models write most: said once, in the bash tool's description. */
const DASH_LACKS = "no [[ ]], arrays, {a..b}, pipefail";

/** `shell` told what it lacks when it is dash, named so or reached through a link (`sh` → `dash`). */
function withLacks(shell: ShellChoice, opts: ShellOptions): ShellChoice {
  if (shell.label || !["sh", "dash"].includes(shell.name)) return shell;
  const path = shell.program.includes("/") ? shell.program : opts.findOnPath(shell.program);
  const real = path && (opts.realPath?.(path) ?? path);
  if (!real || real.slice(real.lastIndexOf("/") + 1) !== "dash") return shell;
  return { ...shell, lacks: { syntax: DASH_LACKS, bash: opts.findOnPath("bash") !== undefined } };
}

/** A version in a real path: Homebrew's `Cellar/bash/5.2.37`, Nix's `bash-interactive-5.2p37`, a build's `bash-3.2`. */
const BASH_VERSION = /bash(?:-interactive)?[-_/](\d+)\./;

/** `shell` told whether it may be bash 3.x (ShellChoice.bash3), from its real path and the platform: no process is run. */
function withBash3(shell: ShellChoice, opts: ShellOptions): ShellChoice {
  if (shell.lacks || !["sh", "bash"].includes(shell.name)) return shell; // dash, or another shell
  const path = shell.program.includes("/") ? shell.program : opts.findOnPath(shell.program);
  const real = (path && (opts.realPath?.(path) ?? path)) || shell.program;
  const version = BASH_VERSION.exec(real)?.[1];
  if (real.slice(real.lastIndexOf("/") + 1) === "dash") return shell;
  return (version === undefined ? opts.platform === "darwin" : version === "3") ? { ...shell, bash3: true } : shell;
}

function shellFor(program: string): ShellChoice {
  const base = program
    .split(/[\\/]/)
    .pop()!
    .toLowerCase()
    .replace(/\.exe$/, "");
  if (base === "pwsh" || base === "powershell") return powershell(program, base === "powershell");
  // cmd.exe strips the outer quotes /s promises and reads the rest as typed
  if (base === "cmd")
    return { program, name: "cmd", label: CMD_LABEL, args: (command) => ["/d", "/s", "/c", `"${CMD_UTF8}${cmdLine(command)}"`], verbatim: true };
  return posix(program, base);
}

/** cmd told to the model with what a command of several lines is (runsAsBatch): `for %i` there is a syntax error, a lone `%` is dropped. */
const CMD_LABEL = "cmd.exe (a command of several lines runs as a batch file: write %% for a literal %, %%i in for)";

// Console programs write to a pipe in the console's code page, the OEM one (437, 850…) unless told
// otherwise: `dir` listed café.txt as `caf‚.txt`, and hey reads output as UTF-8. cmd's chcp and
// PowerShell's [Console]::OutputEncoding make the console UTF-8 first, for cmd's own output, the
// programs it starts, and PowerShell's (which also decodes what the programs it starts print by
// it). Each costs a few milliseconds (chcp is a program). It sets the code page of the console the
// command runs in: hey's own when hey has one (UTF-8, as hey writes), else one no one sees.
const CMD_UTF8 = "chcp 65001>nul 2>&1& ";
const POWERSHELL_UTF8 = "[Console]::OutputEncoding=[Text.Encoding]::UTF8;";
const POWERSHELL_QUIET = "$ProgressPreference='SilentlyContinue';";
/** What must come first in a PowerShell script (`using`, `param(…)`, `#requires`): no line goes before it. */
const FIRST_STATEMENTS = /^\s*(using\s|param\s*\(|#requires\s)/i;

/**
 * Whether cmd runs `command` from a batch file (batchFile, batchArgs) rather than as the line `/c`
 * takes: a command of several lines does, as a batch file runs them — each line's `%VAR%` expanded
 * when that line runs, so `set X=1` then `echo %X%`, `%ERRORLEVEL%` and `%CD%` see what the lines
 * before did (on one line all of them are expanded before any runs). `for` variables are `%%i` there.
 */
export const runsAsBatch = (shell: ShellChoice, command: string): boolean => shell.name === "cmd" && /[\r\n]/.test(command.trim());

/** The text of the batch file for `command`: no echo of each line, the console UTF-8 (CMD_UTF8), CRLF line ends (cmd's `goto` and `call :label` misread LF-only files), each `%` no batch file can mean as a variable kept as written (batchPercents). */
export function batchFile(command: string): string {
  return ["@echo off", "chcp 65001>nul 2>&1", ...command.split(/\r?\n/).map(batchPercents)].join("\r\n") + "\r\n";
}

/**
 * `line` with a `%` doubled where a batch file would drop it or read an argument hey's has none
 * of, so it stays a `%` as on cmd's command line: before a digit or `*` (`%20` in a URL, `set /a
 * 7%3`), with no `%` after it on the line (`echo 100%`), or where the text up to the next `%` is no
 * variable's name, a space before any `:` (`git log --format="%h %s"`, `for %i in …`). `%%`,
 * `%NAME%` (with its `:~1,3` or `:a=b`) and `%~…` stay batch syntax.
 */
export function batchPercents(line: string): string {
  let out = "";
  for (let i = 0; i < line.length; i++) {
    if (line[i] !== "%") {
      out += line[i];
      continue;
    }
    const next = line[i + 1] ?? "";
    const close = line.indexOf("%", i + 1);
    if (next === "%" || next === "~") {
      out += `%${next}`;
      i++;
    } else if (/[0-9*]/.test(next) || close < 0 || /\s/.test(line.slice(i + 1, close).split(":", 1)[0]!)) out += "%%";
    else {
      out += line.slice(i, close + 1);
      i = close;
    }
  }
  return out;
}

/** cmd's arguments (verbatim) for the batch file at `path`: `call` returns the file's own exit code, which `cmd /c FILE` alone can lose. */
export const batchArgs = (path: string): string[] => ["/d", "/c", `call "${path}"`];

/**
 * A command of several lines as one line of cmd.exe, which runs only the first line of `/c` (for a
 * `!` command; the bash tool runs such a command as a batch file, runsAsBatch): each
 * line after the one before (`&`, as a script's lines run, whatever the one before returned), the
 * lines of a `( … )` block inside it, a `^` at a line's end joining it to the next as in a batch
 * file. Blank lines and comment lines (`rem`, `::`) are left out: on one line they would hide the rest.
 */
export function cmdLine(command: string): string {
  let out = "";
  for (const raw of command.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === "" || /^(rem(\s|$)|::)/i.test(line)) continue;
    if (out === "" || out.endsWith("^")) out = out.slice(0, out.endsWith("^") ? -1 : undefined) + line;
    else if (out.endsWith("(") || /[&|]$/.test(out) || line.startsWith(")")) out += line.startsWith(")") ? line : ` ${line}`;
    else out += `& ${line}`;
  }
  return out;
}

function posix(program: string, name: string): ShellChoice {
  return { program, name, args: (command) => ["-c", command] };
}

// -EncodedCommand (base64 of UTF-16LE) because -Command re-parses its argument and mangles the
// quotes Windows' command-line rules leave in it. powershell.exe is Windows PowerShell 5.1, whose
// parser has no `&&` or `||` (pwsh, PowerShell 7, has them): the model is told, or its first
// `cd x && npm test` of every session is a parse error.
// An encoded command with stderr a pipe makes PowerShell write errors and progress as CLIXML
// (`#< CLIXML<Objs …><S S="Error">…_x000D__x000A_</S>`) unless `-OutputFormat Text` is given,
// which pwsh honours (since 6.2: PowerShell/PowerShell#8115) and 5.1 ignores (clixml.ts decodes
// what 5.1 writes). Progress is switched
// off: no one sees it, and 5.1's Invoke-WebRequest runs many times slower drawing it.
function powershell(program: string, windows: boolean): ShellChoice {
  return {
    program,
    name: "powershell",
    label: windows ? "Windows PowerShell 5.1 (it has no && or ||: separate commands with ;)" : "PowerShell 7 (pwsh)",
    args: (command) => ["-NoProfile", "-NonInteractive", "-OutputFormat", "Text", "-EncodedCommand", encodePowerShell(powershellScript(command))],
  };
}

/**
 * What PowerShell's exit code is after a script that does not `exit` itself: 0 when its last
 * statement succeeded, else the exit code of the last native program when it is not 0 (`npm test`
 * failing with 2 gives 2, where PowerShell alone gives 1), else 1 (a cmdlet's error after a program
 * that succeeded). A cmdlet failing after a program that failed earlier gives that program's code.
 */
const POWERSHELL_EXIT = "if (-not $?) { exit $(if ($LASTEXITCODE) { $LASTEXITCODE } else { 1 }) }";

/** The script PowerShell runs for `command`: UTF-8 output and no progress first (unless the script must begin with its own statement), its exit code last. */
export function powershellScript(command: string): string {
  const first = FIRST_STATEMENTS.test(command) ? "" : `${POWERSHELL_UTF8}${POWERSHELL_QUIET}\n`;
  return `${first}${command}\n${POWERSHELL_EXIT}`;
}

/** What the shell prints when a `workdir` could not be entered (inDirectory): no line of the command ran. */
export const NOT_ENTERED = "hey: the workdir could not be entered, so the command did not run";

/**
 * `command` run in `dir` (a `workdir`/`cwd` argument, Tool.inDirectory) in `shell`'s syntax, a
 * leading `~` being `home` as in the file tools' paths. A `cd` that fails ends the whole command
 * (not only its first line or first `&&` chain: `rm -f *.o` on a later line ran in the project)
 * with NOT_ENTERED and exit code 1: sh and bash a line of its own, `cd "DIR" || { echo …; exit 1; }`;
 * cmd `cd /d "DIR"` (/d: another drive too) `|| (echo …& exit /b 1)`, a line of its own before a
 * command of several lines (a batch file, runsAsBatch) and `& COMMAND` after it on one line (a line
 * more would make it a batch file); PowerShell `Set-Location -LiteralPath 'DIR' -ErrorAction Stop;
 * COMMAND` (5.1 has no &&; Stop ends the script when the directory is not there, with PowerShell's
 * own "Cannot find path"; -LiteralPath reads `[` as a name). Or why `dir` cannot be put there: what
 * the quotes would not keep as written in that shell. Pure; never throws.
 */
export function inDirectory(shell: ShellChoice, command: string, dir: string, home: string): { command: string } | { error: string } {
  const windows = shell.name === "cmd" || shell.name === "powershell";
  const separator = windows ? /[\\/]/ : /\//;
  if (dir.length > 1 && dir.startsWith("~") && !separator.test(dir[1]!))
    return { error: `names another user's home (${dir.split(separator, 1)[0]}), which is not supported; give the full path` };
  const path = dir.startsWith("~") ? home + dir.slice(1) : dir;
  const refused = (what: string) => ({ error: `cannot be put in front of the command (${what}); start the command with cd instead` });
  if (/[\n\r]/.test(path)) return refused("it holds a line break");
  if (shell.name === "powershell") return { command: `Set-Location -LiteralPath '${path.replace(/['‘’‚‛]/g, "$&$&")}' -ErrorAction Stop; ${command}` };
  if (shell.name === "cmd") {
    if (/["%]/.test(path)) return refused(`cmd would read its ${path.includes('"') ? '"' : "%"}`);
    const guard = `cd /d "${path}" || (echo ${NOT_ENTERED}>&2& exit /b 1)`;
    return { command: /[\r\n]/.test(command.trim()) ? `${guard}\n${command}` : `${guard} & ${command}` };
  }
  const special = /["$`]/.exec(path)?.[0];
  if (special) return refused(`the shell would read its ${special}`);
  if (path.startsWith("-")) return refused("cd would read it as an option");
  return { command: `cd "${path.replace(/\\/g, "\\\\")}" || { echo '${NOT_ENTERED}' >&2; exit 1; }\n${command}` };
}

/** Base64 of the UTF-16LE bytes of `command`, the form `powershell -EncodedCommand` takes. */
export function encodePowerShell(command: string): string {
  let binary = "";
  for (let i = 0; i < command.length; i++) {
    const unit = command.charCodeAt(i);
    binary += String.fromCharCode(unit & 0xff, unit >> 8);
  }
  return btoa(binary);
}
