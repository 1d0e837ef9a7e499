// Which shell runs the bash tool's commands (SPEC §7.1). Pure: the caller passes the platform
// and a PATH lookup, so the Windows branches are testable anywhere.

/** A chosen shell: spawn `[program, ...args(command)]`; `name` is what the system prompt says. */
export interface ShellChoice {
  program: string;
  name: string;
  args(command: string): string[];
}

export interface ShellOptions {
  /** `[tools] shell`: a program name or a path; wins when set */
  configured?: string;
  /** `process.platform` */
  platform: string;
  /** absolute path of an executable on PATH, or undefined */
  findOnPath: (name: string) => string | undefined;
}

// Windows "App execution alias" stubs (bash.exe of a removed WSL, python.exe opening the Store)
// live here; running one prints an install hint instead of a shell.
const WINDOWS_APPS = /[\\/]AppData[\\/]Local[\\/]Microsoft[\\/]WindowsApps[\\/]/i;

/** Never throws; an unknown configured program is run with `-c`, as POSIX shells take it. */
export function chooseShell(opts: ShellOptions): ShellChoice {
  const configured = opts.configured?.trim();
  if (configured) return shellFor(configured);
  if (opts.platform !== "win32") return posix(opts.findOnPath("sh") ?? "/bin/sh", "sh");
  for (const name of ["sh", "bash"]) {
    const found = opts.findOnPath(name);
    if (found && !WINDOWS_APPS.test(found)) return posix(found, name);
  }
  return powershell(opts.findOnPath("pwsh") ?? "powershell.exe");
}

function shellFor(program: string): ShellChoice {
  const base = program
    .split(/[\\/]/)
    .pop()!
    .toLowerCase()
    .replace(/\.exe$/, "");
  if (base === "pwsh" || base === "powershell") return powershell(program);
  if (base === "cmd") return { program, name: "cmd", args: (command) => ["/d", "/s", "/c", command] };
  return posix(program, base);
}

function posix(program: string, name: string): ShellChoice {
  return { program, name, args: (command) => ["-c", command] };
}

// -EncodedCommand (base64 of UTF-16LE) because -Command re-parses its argument and mangles the
// quotes Windows' command-line rules leave in it.
function powershell(program: string): ShellChoice {
  return {
    program,
    name: "powershell",
    args: (command) => ["-NoProfile", "-NonInteractive", "-EncodedCommand", encodePowerShell(command)],
  };
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
