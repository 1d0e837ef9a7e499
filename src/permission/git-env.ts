// The environment git gets where hey keeps it from running what a repository names. While a
// permission list is set, git in the agent's commands uses a bare repository only when the command
// names it (`--git-dir`, GIT_DIR): a directory the agent filled with HEAD, objects/, refs/ and a
// `config` is otherwise a repository git finds by itself, and runs what that config names
// (`diff.external` at `git diff --no-index a b`, under `bash: git diff *`). No `.git` is involved,
// so the control-file guard (control-files.ts inGit) cannot see it. In plan mode and at `/diff`
// (guardedGit) also no `core.fsmonitor`, and the programs a repository's own config names made
// harmless (x67: a clone's config ran them at the agent's `git status`). git 2.38+ reads
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

/**
 * The programs a repository's own config may name for git to run while it only reads (`git diff`,
 * `log -p`, `status`, `blame`, `log` with `log.showSignature`), by key (`sub` for any subsection
 * name), with what each is given instead: a textconv driver or a filter passes the file through as
 * it is (an empty `process` is still set, so git runs no filter at all, neither `process` nor
 * `clean`/`smudge`; guardedGit also makes the filter not `required`, where git would fail every
 * file the filter does not run on: `git lfs install --local` writes that), a diff command is
 * diff(1) -u (git gives it: path, old file, hash, mode, new file…; exit 1 is "differ"), a signature
 * or ssh program is git's own default one, found on PATH, a password asker or credential helper is
 * none, a `git://` proxy command none, `git help`'s man viewer man(1) and its browser echo(1). Not here: `remote.NAME.uploadpack`, where git takes the first value, not the last: guardedGit
 * keeps git from reaching a remote by a local path instead.
 */
const HARMLESS: Record<string, string> = {
  "diff.external": `sh -c 'diff -u --label "a/$0" --label "b/$0" -- "$1" "$4"; [ $? -le 1 ]'`,
  "diff.sub.command": `sh -c 'diff -u --label "a/$0" --label "b/$0" -- "$1" "$4"; [ $? -le 1 ]'`,
  "diff.sub.textconv": "cat",
  "filter.sub.clean": "cat",
  "filter.sub.smudge": "cat",
  "filter.sub.process": "",
  "gpg.program": "gpg",
  "gpg.openpgp.program": "gpg",
  "gpg.x509.program": "gpgsm",
  "gpg.ssh.program": "ssh-keygen",
  "core.sshcommand": "ssh",
  "man.sub.cmd": "man", // `git help -m`: a viewer's command or path is man(1)
  "man.sub.path": "man",
  "browser.sub.cmd": "echo", // `git help -w`: a browser prints the page's address
  "browser.sub.path": "echo",
  "core.gitproxy": "", // none: git connects to a git:// remote itself (guardedGit gives it as GIT_PROXY_COMMAND: git takes the first value, not the last)
  "core.askpass": "", // none: git then asks no one, as GIT_TERMINAL_PROMPT=0 keeps it from the terminal
  "credential.helper": "", // an empty value empties the list of helpers
  "credential.sub.helper": "",
  // git-lfs, run as the user's own filter, reads the repository's config too and runs what it names there
  "lfs.extension.sub.clean": "cat", // an extension's program: the bytes pass through as they are
  "lfs.extension.sub.smudge": "cat",
  "lfs.customtransfer.sub.path": "", // a transfer agent's program: none
  "lfs.standalonetransferagent": "",
};

/** The program keys without a driver's name in them (`diff.external`, `gpg.program`…): given all where hey could not read a repository's config to its end. */
export const PROGRAMS_WITHOUT_NAMES: readonly string[] = Object.keys(HARMLESS).filter((key) => !key.includes(".sub."));

/**
 * What guardedGit is given, as a program, to stop git in a command altogether (a repository whose
 * config neither hey nor, in time, git could read to its end; submodules hey cannot list): GIT_DIR
 * then names no repository, so git stops before it reads any repository's config, and says `why`.
 */
export const refusal = (why: string) => `/hey: ${why}, so no git runs in this command`;
export const isRefusal = (key: string) => key.startsWith("/hey: ");

/** A setting in a repository's own config that names a program git runs while it only reads (HARMLESS), as `section.sub.key`, or undefined. */
export function repositoryProgram(setting: { section: string; sub: string | undefined; key: string }): string | undefined {
  const { section, sub, key } = setting;
  const name = sub === undefined ? `${section}.${key}` : `${section}.${sub}.${key}`;
  if (name in HARMLESS) return name;
  if (sub === undefined) return undefined;
  if (`${section}.sub.${key}` in HARMLESS) return name;
  // git-lfs's `lfs.extension.NAME.clean`: git reads it as section `lfs`, subsection `extension.NAME`
  const dot = sub.indexOf(".");
  return dot > 0 && `${section}.${sub.slice(0, dot).toLowerCase()}.sub.${key}` in HARMLESS ? name : undefined;
}

/** What `key` (repositoryProgram's) is given instead. */
function harmless(key: string): string {
  const [section, ...rest] = key.split(".");
  return HARMLESS[key] ?? HARMLESS[`${section}.sub.${rest.at(-1)}`] ?? HARMLESS[`${section}.${rest[0]?.toLowerCase()}.sub.${rest.at(-1)}`] ?? "";
}

/** The filters `programs` (repositoryProgram's keys) name, each once: `filter.lfs.clean` → `lfs`. */
const filterNames = (programs: string[]) => [...new Set(programs.filter((k) => k.startsWith("filter.")).map((k) => k.slice(7, k.lastIndexOf("."))))];

/**
 * `env` with git kept from running what a repository names (plan mode's commands, `/diff`): only a
 * bare repository the command names (safe.bareRepository, git 2.38+: a committed `tools/` with
 * HEAD, objects/, refs/ and a `config` is no repository then), no `core.fsmonitor` hook and no hook of its own, no remote
 * reached by a local path or `ext::` (protocol.*.allow), and each
 * of `programs` (repositoryProgram's keys, from the repository's own config) made harmless, its
 * filters not `required`. Given
 * after the user's own GIT_CONFIG_COUNT entries, so they win over the files and lose to these.
 */
export function guardedGit(env: Env, programs: string[]): Env {
  const entries: [string, string][] = [
    ["safe.bareRepository", "explicit"],
    ["core.fsmonitor", "false"],
    // a remote at a local path runs its `uploadpack` through the shell (`git remote show origin`), and `ext::` runs any command
    ["protocol.file.allow", "user"],
    ["protocol.ext.allow", "never"],
    // git status and git diff write the index they refreshed, then run the repository's post-index-change hook
    ["core.hooksPath", "/dev/null"],
    ...programs.filter((k) => !isRefusal(k) && k !== "core.gitproxy").map((k): [string, string] => [k, harmless(k)]),
    ...filterNames(programs).map((sub): [string, string] => [`filter.${sub}.required`, "false"]),
  ];
  const why = programs.find(isRefusal);
  const refused = why ? { GIT_DIR: why } : {};
  // the variable beats every config file, and an empty one is no proxy; the user's own stays
  const proxy = programs.includes("core.gitproxy") ? { GIT_PROXY_COMMAND: env.GIT_PROXY_COMMAND ?? "" } : {};
  return { ...env, ...gitConfigWith(env, entries, false), GIT_PROTOCOL_FROM_USER: "0", ...proxy, ...refused }; // "user" protocols: refused
}
