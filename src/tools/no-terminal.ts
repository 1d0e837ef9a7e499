// What the bash tool's commands get instead of the user's terminal (SPEC §7), and what the model is
// told when a command wanted one. A command runs in a session of its own with stdin /dev/null, so
// opening /dev/tty fails; what is left are the variables that name a terminal or a program to ask
// on: those are taken out or replaced here. `!COMMAND` runs on the user's terminal and keeps them.
// Pure.

export type Env = Record<string, string | undefined>;

/**
 * Variables the commands do not get: GPG_TTY names the user's terminal, and gpg-agent draws its
 * pinentry there (over hey's screen, the passphrase the user types landing in hey's prompt)
 * whatever the command's own terminal is; without it gpg fails at once ("Inappropriate ioctl for
 * device"), an agent started from the user's shell too. Kept: SSH_ASKPASS, GIT_ASKPASS and
 * SUDO_ASKPASS (a program the user chose, a window or an editor's dialog, never this terminal: ssh
 * and git use them only with a display or when told to, sudo only with -A), DISPLAY and
 * WAYLAND_DISPLAY (a GUI pinentry is a window), PINENTRY_USER_DATA (it names no terminal itself).
 */
const DROPPED = ["GPG_TTY"];

/** What pagers and prompts are in the commands: pagers print, git asks no password on a terminal. */
const FIXED: Env = { GIT_PAGER: "cat", PAGER: "cat", GIT_TERMINAL_PROMPT: "0" };

/**
 * The editors the commands get: one that fails at once saying why (git runs it through sh with the
 * file after it; a program that splits it into words fails at once too).
 */
const NO_EDITOR = `sh -c 'echo "hey: no editor: bash commands have no terminal; give the text in the command (git commit -m MSG)" >&2; exit 1' editor`;

/** `env` as the bash tool's commands get it: no terminal named, no editor, no pager. Pure: `env` is not changed. */
export function withoutTerminal(env: Env): Env {
  const out: Env = { ...env, ...FIXED };
  for (const name of DROPPED) delete out[name];
  for (const name of ["GIT_EDITOR", "GIT_SEQUENCE_EDITOR", "EDITOR", "VISUAL"]) out[name] = NO_EDITOR;
  return out;
}

/** gpg could not ask for a passphrase: its agent has no terminal to draw on. */
const GPG_NO_TERMINAL =
  /gpg failed to sign the data|gpg: (signing|decryption) failed: Inappropriate ioctl for device|problem with the agent: Inappropriate ioctl/;

/** One-line notes for a finished command whose `stderr` shows it wanted the user's terminal: how the model can go on. */
export function terminalNotes(stderr: string): string[] {
  if (GPG_NO_TERMINAL.test(stderr))
    return [
      "[gpg could not ask for the key's passphrase: bash commands have no terminal. Ask the user to run the command themselves with !COMMAND (their terminal: the passphrase is asked there), or, only if the user agrees, go on unsigned: git -c commit.gpgsign=false commit … (tag.gpgsign for a tag)]",
    ];
  return [];
}
