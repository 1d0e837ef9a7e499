// A bash call's command too long to be one argument of the shell: Linux takes at most 128 KB in
// one argument (MAX_ARG_STRLEN), so `sh -c '<a 169 KB heredoc>'` fails to start (E2BIG). A long
// command goes to a script file of the call's (0600, in its outputs folder) that the shell sources
// (`. FILE`: the same shell, `$0`, options and exit status as `-c`), deleted when the call ends.
import { rmSync, writeFileSync } from "node:fs";
import { errorText } from "../kernel/errors.ts";
import { singleQuoted } from "../kernel/tool-args.ts";
import type { ShellChoice } from "./shell.ts";

/**
 * Past this a command goes through a file: under Linux's 128 KB for one argument, with room for the
 * guard's; Windows takes 32,767 characters for a whole command line.
 */
export const LONG_COMMAND_BYTES = process.platform === "win32" ? 16_000 : 100_000;

/**
 * What to spawn for `command`: the shell with it as its argument, or (long, for a POSIX shell) with
 * `. FILE` where `script()` names the file to write it to; `done()` removes that file. `error` when
 * the file could not be written. Never throws.
 */
export function shellArgv(shell: ShellChoice, command: string, script: () => string): { argv: string[]; done(): void; error?: string } {
  const argv = (text: string) => [shell.program, ...shell.args(text)];
  const posix = shell.name !== "powershell" && shell.name !== "cmd";
  if (!posix || Buffer.byteLength(command) <= LONG_COMMAND_BYTES) return { argv: argv(command), done: () => {} };
  let path: string;
  try {
    path = script();
    writeFileSync(path, command, { mode: 0o600, flag: "wx" });
  } catch (e) {
    return { argv: [], done: () => {}, error: errorText(e) };
  }
  return { argv: argv(`. ${singleQuoted(path)}`), done: () => rmSync(path, { force: true }) };
}
