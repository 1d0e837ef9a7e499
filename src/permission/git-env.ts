// While a permission list is set, git in the agent's commands uses a bare repository only when
// the command names it (`--git-dir`, GIT_DIR): a directory the agent filled with HEAD, objects/,
// refs/ and a `config` is otherwise a repository git finds by itself, and runs what that config
// names (`diff.external` at `git diff --no-index a b`, under `bash: git diff *`). No `.git` is
// involved, so the control-file guard (control-files.ts inGit) cannot see it. git 2.38+ reads
// `safe.bareRepository = explicit`; an older git ignores it. Given through GIT_CONFIG_COUNT after
// the user's own entries, which stay; the checker refuses a command that changes a GIT_ variable
// unless a pattern spells it out (variables.ts). Pure.

type Env = Record<string, string | undefined>;

/** `env` with git told to use only bare repositories a command names (git-config `safe.bareRepository`). */
export function explicitBareRepositories(env: Env): Env {
  const count = Number.parseInt(env.GIT_CONFIG_COUNT ?? "", 10);
  const n = Number.isInteger(count) && count > 0 ? count : 0;
  return { ...env, GIT_CONFIG_COUNT: String(n + 1), [`GIT_CONFIG_KEY_${n}`]: "safe.bareRepository", [`GIT_CONFIG_VALUE_${n}`]: "explicit" };
}
