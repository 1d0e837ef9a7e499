// A bash call's command that goes through a script file rather than the shell's argument. Too long
// to be one argument: Linux takes at most 128 KB in one argument (MAX_ARG_STRLEN), so `sh -c '<a
// 169 KB heredoc>'` fails to start (E2BIG); such a command goes to a file (0600, in the call's
// outputs folder) that the shell sources (`. FILE`: the same shell, `$0`, options and exit status
// as `-c`). And cmd's command of several lines, which runs as a batch file (shell.ts runsAsBatch).
// The file is deleted when the call ends.
import { rmSync, writeFileSync } from "node:fs";
import { errorText } from "../kernel/errors.ts";
import { singleQuoted } from "../kernel/tool-args.ts";
import { batchArgs, batchFile, runsAsBatch, type ShellChoice } from "./shell.ts";

/**
 * Past this a command goes through a file: under Linux's 128 KB for one argument, with room for the
 * guard's; Windows takes 32,767 characters for a whole command line.
 */
export const LONG_COMMAND_BYTES = process.platform === "win32" ? 16_000 : 100_000;

/**
 * What to spawn for `command`: the shell with it as its argument, or with a file where `script(ext)`
 * names the file to write it to (`. FILE` for a long command in a POSIX shell, a `.cmd` batch file
 * for cmd's lines); `done()` removes that file. `error` when the file could not be written. Never throws.
 */
export function shellArgv(shell: ShellChoice, command: string, script: (extension: string) => string): { argv: string[]; done(): void; error?: string } {
  const batch = runsAsBatch(shell, command);
  const posix = shell.name !== "powershell" && shell.name !== "cmd";
  if (!batch && (!posix || Buffer.byteLength(command) <= LONG_COMMAND_BYTES)) return { argv: [shell.program, ...shell.args(command)], done: () => {} };
  let path: string;
  try {
    path = script(batch ? "cmd" : "sh");
    writeFileSync(path, batch ? batchFile(command) : command, { mode: 0o600, flag: "wx" });
  } catch (e) {
    return { argv: [], done: () => {}, error: errorText(e) };
  }
  const args = batch ? batchArgs(path) : shell.args(`. ${singleQuoted(path)}`);
  return { argv: [shell.program, ...args], done: () => rmSync(path, { force: true }) };
}
