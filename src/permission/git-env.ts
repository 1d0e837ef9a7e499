// While a permission list is set, git in the agent's commands uses a bare repository only when
// the command names it (`--git-dir`, GIT_DIR): a directory the agent filled with HEAD, objects/,
// refs/ and a `config` is otherwise a repository git finds by itself, and runs what that config
// names (`diff.external` at `git diff --no-index a b`, under `bash: git diff *`). No `.git` is
// involved, so the control-file guard (control-files.ts inGit) cannot see it. git 2.38+ reads
// `safe.bareRepository = explicit`; an older git ignores it. Given through GIT_CONFIG_COUNT after
// the user's own entries, which stay; the checker refuses a command that changes a GIT_ variable
// unless a pattern spells it out (variables.ts). Pure.

export type Env = Record<string, string | undefined>;

/**
 * The GIT_CONFIG_COUNT entries (command-scope config, git 2.31+) of `env` with `entries` added:
 * `first`, below `env`'s own (a later entry wins: the user's and the command's beat them), or last,
 * above them. Only the GIT_CONFIG_ variables are returned. A count that is not a whole number is none.
 */
export function gitConfigWith(env: Env, entries: [string, string][], first: boolean): Env {
  const theirs = /^\d+$/.test(env.GIT_CONFIG_COUNT ?? "") ? Number(env.GIT_CONFIG_COUNT) : 0;
  const out: Env = { GIT_CONFIG_COUNT: String(theirs + entries.length) };
  const [at, moved] = first ? [0, entries.length] : [theirs, 0];
  for (let i = 0; i < theirs; i++) {
    out[`GIT_CONFIG_KEY_${i + moved}`] = env[`GIT_CONFIG_KEY_${i}`];
    out[`GIT_CONFIG_VALUE_${i + moved}`] = env[`GIT_CONFIG_VALUE_${i}`];
  }
  entries.forEach(([key, value], i) => {
    out[`GIT_CONFIG_KEY_${at + i}`] = key;
    out[`GIT_CONFIG_VALUE_${at + i}`] = value;
  });
  return out;
}

/** `env` with git told to use only bare repositories a command names (git-config `safe.bareRepository`). */
export function explicitBareRepositories(env: Env): Env {
  return { ...env, ...gitConfigWith(env, [["safe.bareRepository", "explicit"]], false) };
}
