// Ctrl-G or Ctrl-X Ctrl-E at the interactive prompt (as Claude Code and Codex have Ctrl-G, bash and
// zsh Ctrl-X Ctrl-E): the line in the user's $VISUAL or $EDITOR, which has the terminal (repl.ts
// lends it) until it exits; what it leaves in the file is the line again, unsent.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { errorText } from "../kernel/errors.ts";

/** What the editor left, or why there is nothing (the line stays as it was). */
export type Edited = { text: string } | { text: undefined; why: string };

/** An editor command a shell did not find. */
const NOT_FOUND = 127;

/**
 * Writes `text` to a file of its own (readable by the user alone: a prompt may hold a key), runs
 * `$VISUAL`, else `$EDITOR`, on it through the shell (so `code --wait` works) with the terminal,
 * and reads it back. Never throws: no editor set, one that cannot start or fails (vim's `:cq`)
 * give `why`. The file is removed.
 */
export async function editText(text: string, env: Record<string, string | undefined> = process.env): Promise<Edited> {
  const editor = (env.VISUAL || env.EDITOR || "").trim();
  if (editor === "")
    return { text: undefined, why: 'no editor set: export VISUAL or EDITOR (EDITOR=vim, EDITOR="code --wait") and Ctrl-G opens the line in it' };
  const dir = mkdtempSync(join(tmpdir(), "hey-prompt-"));
  const file = join(dir, "prompt.md"); // .md: editors colour a prompt's markdown
  try {
    writeFileSync(file, text === "" ? "" : `${text}\n`, { mode: 0o600 }); // a text file's last line ends with a line break (vim says so otherwise)
    const command = process.platform === "win32" ? ["cmd.exe", "/d", "/s", "/c", `"${editor} "${file}""`] : ["sh", "-c", `${editor} "$1"`, "sh", file];
    const code = await Bun.spawn(command, { env, stdin: "inherit", stdout: "inherit", stderr: "inherit", windowsVerbatimArguments: true }).exited;
    if (code === NOT_FOUND) return { text: undefined, why: `the editor ${editor} was not found: the line is as it was` };
    if (code !== 0) return { text: undefined, why: `the editor ${editor} exited with code ${code}: the line is as it was` };
    return { text: readFileSync(file, "utf8") };
  } catch (e) {
    return { text: undefined, why: `the editor ${editor} could not run (${errorText(e)}): the line is as it was` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
