// What the bash tool's commands get instead of the user's terminal (SPEC §7), and what the model is
// told when a command wanted one. A command runs in a session of its own with stdin /dev/null, so
// opening /dev/tty fails; what is left are the variables that name a terminal or a program to ask
// on: those are taken out or replaced here. `!COMMAND` runs on the user's terminal and keeps them.
// Pure.

import { type Env, gitConfigWith } from "../permission/git-env.ts";

export type { Env };

/**
 * Variables the commands do not get: GPG_TTY names the user's terminal, and gpg-agent draws its
 * pinentry there (over hey's screen, the passphrase the user types landing in hey's prompt)
 * whatever the command's own terminal is; without it gpg fails at once ("Inappropriate ioctl for
 * device"), an agent started from the user's shell too. Kept: SSH_ASKPASS, GIT_ASKPASS and
 * SUDO_ASKPASS (a program the user chose, a window or an editor's dialog, never this terminal: ssh
 * and git use them only with a display or when told to, sudo only with -A), DISPLAY and
 * WAYLAND_DISPLAY (a GUI pinentry is a window), PINENTRY_USER_DATA (it names no terminal itself).
 * CDPATH goes too: a shell's convenience for the user's typing, it sends the agent's `cd .config` to
 * `~/.config` when the user's CDPATH holds `~` — somewhere else than the command says, and than the
 * permission check, which places a relative `cd` below the directory the command runs in, judged (x144 #6).
 */
const DROPPED = ["GPG_TTY", "CDPATH"];

/** What pagers and prompts are in the commands: pagers print, git asks no password on a terminal. */
const FIXED: Env = { GIT_PAGER: "cat", PAGER: "cat", GIT_TERMINAL_PROMPT: "0" };

/** The name every editor of hey's has as its $0: an editor named so is hey's, not one the command gave. */
const MARK = "hey-no-editor";

/**
 * The editor that programs other than git get (EDITOR, VISUAL): it fails at once saying why (a
 * program that runs it through sh, as most do, and one that splits it into words alike).
 */
const NO_EDITOR = `sh -c 'echo "hey: no editor: bash commands have no terminal; give the text in the command, or write the file with write_file" >&2; exit 1' ${MARK}`;

/**
 * git's editor and sequence editor (run as `sh -c "$HEY_NO_EDITOR" hey-no-editor FILE`; the short
 * value is what git's "There was a problem with the editor '…'" quotes). Given as command-scope
 * config, which beats the user's ~/.gitconfig and the repository's but loses to the command's own
 * forms; real git's order: GIT_EDITOR, then `-c core.editor`, then GIT_CONFIG_COUNT's, then the
 * config files, then VISUAL and EDITOR. So `GIT_EDITOR=true git …` and `git -c core.editor=true …`
 * win through git itself; this script hands on to what git would have used without it: the command's
 * GIT_EDITOR or core.editor (for the sequence editor), VISUAL or EDITOR (a command's `EDITOR=true
 * git …`). Else it fails, saying the form that fits what git asked for by the file it names: a `-c`
 * form, which an allow entry such as `bash: git *` covers and a deny list reads as the text git runs.
 */
const GIT_NO_EDITOR = `for e in "$GIT_EDITOR" "$(git config core.editor)" "$VISUAL" "$EDITOR"; do
  case $e in ""|*${MARK}*) ;; *) exec sh -c "$e \\"\\$@\\"" "$e" "$@" ;; esac
done
d=\${1%/*}
case \${1##*/} in
COMMIT_EDITMSG) if [ -d "$d/rebase-merge" ] || [ -d "$d/rebase-apply" ]; then h='git -c core.editor=true rebase --continue keeps the message'
  elif [ -f "$d/MERGE_HEAD" ] || [ -f "$d/CHERRY_PICK_HEAD" ] || [ -f "$d/REVERT_HEAD" ]; then h='git commit --no-edit keeps the message git prepared, or -m MSG'
  else h='git commit -m MSG; --amend --no-edit keeps the message'; fi ;;
MERGE_MSG) h='git merge --no-edit (or -m MSG); a revert: git revert --no-edit' ;;
git-rebase-todo) h='git -c sequence.editor="sed -i 2s/^pick/fixup/" rebase -i … edits the list; -c sequence.editor=true keeps it (with --autosquash it applies fixup! commits)' ;;
TAG_EDITMSG) h='git tag -a TAG -m MSG' ;;
*) h='-m MSG; git -c core.editor=true … keeps the text git offers' ;;
esac
echo "hey: no editor: bash commands have no terminal; give the text in the command: $h" >&2
exit 1`;

/**
 * GIT_NO_EDITOR for a git older than 2.31, which reads no GIT_CONFIG_COUNT: hey's editor is then
 * GIT_EDITOR and GIT_SEQUENCE_EDITOR, which beat the command's `-c core.editor`/`-c sequence.editor`
 * in git itself, so the script hands on to those (git tells its editor the command's `-c` config),
 * and never to the user's ~/.gitconfig editor (`code --wait` would wait for a window until the timeout).
 */
const OLD_GIT_NO_EDITOR = GIT_NO_EDITOR.replace(
  '"$(git config core.editor)"',
  '"$(case ${1##*/} in git-rebase-todo) git config --show-origin sequence.editor | sed -n "s/^command line:\t//p" ;; esac)" "$(git config --show-origin core.editor | sed -n "s/^command line:\t//p")"',
);

/** Whether `git --version`'s words name a git older than 2.31 (it reads no GIT_CONFIG_COUNT); false when unknown. */
export function gitBefore231(version: string): boolean {
  const m = /git version (\d+)\.(\d+)/.exec(version);
  return m !== null && (Number(m[1]) < 2 || (Number(m[1]) === 2 && Number(m[2]) < 31));
}

/**
 * `env` as the bash tool's commands get it: no terminal named, no editor, no pager. The user's
 * GIT_EDITOR and GIT_SEQUENCE_EDITOR go (they would beat everything), the commands' own forms win
 * (GIT_NO_EDITOR); with `oldGit` (gitBefore231) hey's editor is GIT_EDITOR (OLD_GIT_NO_EDITOR).
 * Pure: `env` is not changed.
 */
export function withoutTerminal(env: Env, oldGit = false): Env {
  const git = `sh -c "$HEY_NO_EDITOR" ${MARK}`;
  const editors = gitConfigWith(
    env,
    [
      ["core.editor", git],
      ["sequence.editor", git],
    ],
    true,
  );
  const out: Env = { ...env, ...FIXED, ...editors, EDITOR: NO_EDITOR, VISUAL: NO_EDITOR, HEY_NO_EDITOR: oldGit ? OLD_GIT_NO_EDITOR : GIT_NO_EDITOR };
  for (const name of [...DROPPED, "GIT_EDITOR", "GIT_SEQUENCE_EDITOR"]) delete out[name];
  return oldGit ? { ...out, GIT_EDITOR: git, GIT_SEQUENCE_EDITOR: git } : out;
}

/** gpg could not ask for a passphrase: its agent has no terminal to draw on (gpg says so; git keeps gpg's words to itself). */
const GPG_NO_TERMINAL =
  /gpg: (signing|decryption) failed: (Inappropriate ioctl for device|No pinentry)|problem with the agent: (Inappropriate ioctl|No pinentry)|^gpg: .*pinentry/m;
/** A signature failed, for a reason not said: git's words whatever gpg's were (no key, an expired one, no passphrase asked). */
const SIGNING_FAILED = /gpg failed to sign the data|gpg: signing failed/;

/** sudo could not ask for the password (it does not read it from stdin without -S, nor use SUDO_ASKPASS without -A). */
const SUDO_NO_TERMINAL = /^sudo: (a terminal is required to read the password|a password is required)/m;

/** One-line notes for a finished command whose `stderr` shows it wanted the user's terminal: how the model can go on. */
export function terminalNotes(stderr: string): string[] {
  if (GPG_NO_TERMINAL.test(stderr))
    return [
      "[gpg could not ask for the key's passphrase: bash commands have no terminal. Ask the user to run the command themselves with !COMMAND (their terminal: the passphrase is asked there), or, only if the user agrees, go on unsigned: git -c commit.gpgsign=false commit … (tag.gpgsign for a tag)]",
    ];
  if (SIGNING_FAILED.test(stderr))
    return [
      "[signing failed, for a reason gpg did not say here: `gpg --list-secret-keys` shows whether the signing key is here; a key with a passphrase cannot ask for it (bash commands have no terminal): then ask the user to run the command themselves with !COMMAND. Go on unsigned, git -c commit.gpgsign=false commit … (tag.gpgsign for a tag), only if the user agrees]",
    ];
  if (SUDO_NO_TERMINAL.test(stderr))
    return ["[sudo asks for a password, and bash commands have no terminal: ask the user to run the command themselves with !COMMAND, or do it without sudo]"];
  return [];
}

/**
 * The notes for a command stopped by vimWatch: why (the line the terminal's status reads, as a
 * timeout's, `[…; the process group was killed]`), then what to do instead.
 */
export const VIM_STOPPED = [
  "[stopped: it started vim, which has no terminal here and was waiting for keys (it would have until the timeout); the process group was killed]",
  "[change files with edit or write_file, or script vim (vim -es, or commands that end with a quit: vim -c 'normal dd' -c wq f); read a change with git diff]",
];
/** After VIM_STOPPED when vim was stopped after its pause: it had opened its files, and keeps their swap files when killed. */
export const VIM_SWAP =
  "[vim had opened its files: it leaves a swap file beside each (.NAME.swp), and the next vim of that file stops to ask about it; check the file (git diff), then rm the swap file]";

/** Choices in brackets at a line's end: `[y/n]`, `(yes/no)`, git's `[y,n,q,a,d,j,J,g,/,e,?]`; then `?`, `:`, apt's ` Abort.` or the output's end. */
const CHOICES = /[[(]([^[\]()]*)[\])]\s*([?:]|Abort\.)?\s*$/;
/** What a choice offered is: one letter, digit or sign (`y`, `N`, `2`, `?`), or a word such as `yes`, `no`, `all`, `skip`. */
const CHOICE = /^(?:[A-Za-z0-9?/]|yes|no|all|none|quit|skip|abort|always|never|cancel)$/i;

/** Whether `line` ends offering choices (CHOICES whose words are all CHOICE): not `def get(self, key):`, `if (a || b):`. */
function offersChoices(line: string): RegExpExecArray | undefined {
  const m = CHOICES.exec(line);
  const inside = m?.[1]?.trim();
  if (!m || !inside) return undefined;
  const words = inside.split(inside.includes(",") ? /\s*,\s*/ : /\s*[/|]\s*/);
  return words.length >= 2 && words.every((w) => CHOICE.test(w)) ? m : undefined;
}

/** A prompt for a secret or a name at a line's end, maybe with its default (`Enter passphrase (empty for no passphrase): `, npm's `package name: (hey) `). */
const ASKS = /\b(pass(phrase|word)|PIN|user ?name|name|email)\b.*:(\s*\([^()]*\))?\s*$/i;
/** A question at a line's end, maybe with its default (`Is this OK? (yes) `). */
const QUESTION = /\?(\s*\([^()]*\))?\s*$/;
/** An interactive menu's prompt, answered by end-of-input (`git clean -i`: `What now> Bye.`). */
const MENU = /^\w[\w ]{0,30}> (Bye\.)?\s*$/;

/**
 * A note when a stream's end (`ends`: stdout's, stderr's) shows the command asked a question that
 * nothing answered (stdin is /dev/null: it read end-of-input and took a default, or did nothing):
 * the last line offers choices (y/n, single letters, words such as yes, all, skip) followed by `?`
 * or apt's `Abort.` (`[Y/n]?`), or is a menu prompt, or — printed
 * with no line end after it, the program waiting on that line — offers choices, asks for a
 * passphrase, password or name, or ends in `?`. A log
 * line that ends in `?` and a line end (a test runner's "did you mean …?") gets none.
 */
export function unansweredNotes(ends: string[]): string[] {
  for (const end of ends) {
    const trimmed = end.replace(/\s+$/, "");
    const line = trimmed.slice(trimmed.lastIndexOf("\n") + 1).trim();
    if (line === "") continue;
    const waiting = !/\n\s*$/.test(end); // the prompt is the output's last text, no line end after it
    // choices ended by a line end are a prompt only with `?` or apt's `Abort.` after them: `:` then ends a log line or a def
    const choices = offersChoices(line);
    const asked = choices && (waiting || (choices[2] !== undefined && choices[2] !== ":"));
    if (asked || MENU.test(line) || (waiting && (ASKS.test(line) || QUESTION.test(line))))
      return [
        `[the command asked \`${line.slice(-80)}\` and nothing answered: stdin is empty, so it read end-of-input and took its default or did nothing. Give the answers on stdin (printf 'y\\nn\\n' | COMMAND) or use its option that asks nothing (--yes, -y, -f; ssh-keygen -N '')]`,
      ];
  }
  return [];
}

/**
 * A command that does not end by itself: it follows a file or a stream (`tail -f`, `watch`,
 * `journalctl -f`, `docker logs -f`) or serves (a dev server, `python -m http.server`, a watcher).
 */
const ENDLESS =
  /(^|[\s;&|(])(tail(\s[^|;&\n]*)?\s(-[a-zA-Z]*[fF]\b|--follow)|watch\s|journalctl\s.*(-f|--follow)\b|(docker|podman|kubectl)\s.*logs\s.*(-f|--follow)\b|(npm|pnpm|yarn|bun)\s+(run\s+)?(dev|start|serve|watch)\b|python3?\s+-m\s+http\.server|(flask|uvicorn|gunicorn|nodemon|vite|webpack\s+serve|next\s+dev|rails\s+s(erver)?|php\s+-S|hugo\s+server|jekyll\s+serve)\b|--watch\b)/;

/** The notes for a command stopped by its timeout: one that does not end by itself is told to run in the background. */
export function timeoutNotes(command: string, seconds: string): string[] {
  const stopped = `[timed out after ${seconds} s; the process group was killed]`;
  if (!ENDLESS.test(command)) return [stopped];
  return [
    stopped,
    "[it does not end by itself (it follows or serves): start it in the background with its output to a file, `CMD > /tmp/NAME.log 2>&1 &`, then read the log (tail -n 50, read_file); or give it an end: tail -n 50 without -f, timeout 10 CMD]",
  ];
}
