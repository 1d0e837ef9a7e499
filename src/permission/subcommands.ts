// Which subcommand a command runs, for deny entries that name one (SPEC §8): the other names a
// program gives its own subcommands (npm's aliases and abbreviations, `npm pub` is publish; gh's
// `ls` for `list`, helm's `del` for `uninstall`), and the words that may be a user's alias of any subcommand, which a deny entry
// naming a subcommand of that program refuses (git's aliases and `git-NAME` programs, cargo's
// `[alias]` and `cargo-NAME` programs, gh's `gh alias set` and extensions). Pure.
import { GIT_COMMANDS, readGit } from "./git.ts";
import { program } from "./match.ts";
import { NPM_ALIASES, NPM_COMMANDS } from "./program-tables.ts";
import { known, type Word } from "./shell-model.ts";

/**
 * npm's subcommands that take other names of their own (npm 11: lib/commands/cache.js, config.js,
 * dist-tag.js, owner.js, token.js, access.js, profile.js): each group runs the same action.
 */
const NPM_GROUPS: Record<string, string[]> = {
  cache: ["clean clear rm", "verify check"],
  config: ["delete del rm", "list ls"],
  "dist-tag": ["add a set s", "rm r del d remove", "ls l sl list"],
  owner: ["rm remove", "ls list"],
  token: ["rm delete revoke remove", "list ls"],
  access: ["list ls"],
  profile: ["enable-2fa enable-tfa enable2fa enabletfa", "disable-2fa disable-tfa disable2fa disabletfa"],
};

/**
 * gh's commands as of gh 2.60 (cli/cli pkg/cmd: each command's `Use` and `Aliases`), by parent: a
 * `|` joins a command's names. `gh alias set` adds names at the top or under a command that runs
 * nothing itself (`gh alias set "pr m" "pr merge"`), never one of these.
 */
const GH: Record<string, string> = {
  "":
    "actions alias api attestation|at auth browse cache codespace|cs completion config credits extension|extensions|ext gist gpg-key help issue label org pr " +
    "project release repo ruleset|rs run search secret ssh-key status variable version workflow environment exit-codes formatting mintty reference",
  alias: "delete import list|ls set",
  attestation: "download inspect trusted-root verify",
  auth: "git-credential login logout refresh setup-git status switch token",
  cache: "delete list|ls",
  codespace: "code cp create delete edit jupyter list|ls logs ports rebuild select ssh stop view",
  config: "clear-cache get list|ls set",
  extension: "browse create exec install list|ls remove search upgrade",
  gist: "clone create|new delete edit list|ls rename view",
  "gpg-key": "add delete list|ls",
  issue: "close comment create|new delete develop edit list|ls lock pin reopen status transfer unlock unpin view",
  label: "clone create delete edit list|ls",
  org: "list|ls",
  pr: "checkout checks close comment create|new diff edit list|ls merge ready reopen review status update-branch view",
  project:
    "close copy create delete edit field-create field-delete field-list item-add item-archive item-create item-delete item-edit item-list link list|ls " +
    "mark-template unlink view",
  release: "create|new delete delete-asset download edit list|ls upload view",
  repo: "archive clone create|new credits delete deploy-key edit fork garden gitignore license list|ls rename set-default sync unarchive view",
  "repo deploy-key": "add delete list|ls",
  "repo gitignore": "list|ls view",
  "repo license": "list|ls view",
  ruleset: "check list|ls view",
  run: "cancel delete download list|ls rerun view watch",
  search: "code commits issues prs repos",
  secret: "delete|remove list|ls set",
  "ssh-key": "add delete list|ls",
  variable: "delete|remove get list|ls set",
  workflow: "disable enable list|ls run view",
};

/**
 * cargo's built-in commands as of cargo 1.95 (rust-lang/cargo src/bin/cargo/commands/mod.rs). A
 * user alias never replaces one (cargo warns and runs its own); it does replace cargo's own short
 * names (b, c, d, r, t, rm: main.rs reads `alias.b` before its BUILTIN_ALIASES) and any
 * `cargo-NAME` program (`cargo clippy`, `cargo fmt`), so those may be aliases. On an older cargo,
 * a newer command's name (`info`, `add`) may be one too.
 */
const CARGO_COMMANDS = new Set(
  (
    "add bench build check clean config doc fetch fix generate-lockfile git-checkout help info init install locate-project login logout metadata new " +
    "owner package pkgid publish read-manifest remove report run rustc rustdoc search test tree uninstall update vendor verify-project version yank"
  ).split(" "),
);
/** cargo's own short names (main.rs BUILTIN_ALIASES), which a user's alias replaces. */
const CARGO_OWN_ALIASES = new Set(["b", "c", "d", "r", "t", "rm"]);
/** cargo's options before its command that take the next word as their value (`cargo --help`). */
const CARGO_VALUE = /^(--explain|--color|--config|-C|-Z)$/;
const CARGO_FLAGS = /^(-V|--version|--list|-[vq]+|--verbose|--quiet|--locked|--offline|--frozen|-h|--help)$/;

/** A word where npm's command stands, as npm reads it: `installTest` is install-test. */
const npmWord = (word: string) => word.replace(/[A-Z]/g, (m) => `-${m.toLowerCase()}`);

/** npm's name for a word where a command stands: a command, an alias's command, or undefined. */
function npmCommand(word: string): string | undefined {
  const c = npmWord(word);
  return NPM_COMMANDS.includes(c) ? c : Object.hasOwn(NPM_ALIASES, c) ? NPM_ALIASES[c] : undefined;
}

/**
 * Could npm run `target` for `word`? Its command or alias, or an abbreviation: npm runs the one
 * command or alias a prefix begins (this npm says which; another may have fewer names, so any
 * prefix of the target or of one of its aliases counts).
 */
function npmCould(word: string, target: string): boolean {
  const named = npmCommand(word);
  if (named) return named === target;
  const c = npmWord(word);
  return target.startsWith(c) || Object.entries(NPM_ALIASES).some(([alias, to]) => to === target && alias.startsWith(c));
}

const HELM_UNINSTALL = ["uninstall", "del", "delete", "un"];

/** gh's names by parent path: each name to the command it is. */
const ghNames = new Map<string, Map<string, string>>();
function ghLevel(parent: string[]): Map<string, string> | undefined {
  const key = parent.map((p) => ghName([], p) ?? p).join(" ");
  if (!Object.hasOwn(GH, key)) return undefined;
  let names = ghNames.get(key);
  if (!names) {
    names = new Map(GH[key]!.split(" ").flatMap((entry) => entry.split("|").map((n): [string, string] => [n, entry.split("|")[0]!])));
    ghNames.set(key, names);
  }
  return names;
}
const ghName = (parent: string[], word: string) => ghLevel(parent)?.get(word);

/**
 * Does `word`, where `program`'s subcommand after `parent` stands, name the pattern's `sub` by
 * another name the program itself gives it (`npm pub` for publish, `npm rm` for uninstall, `gh pr
 * ls` for `gh pr list`, `npm cache clear` for `npm cache clean`)? Equal words are the caller's.
 */
export function sameSubcommand(program: string, parent: string[], sub: string, word: string): boolean {
  if (program === "npm") {
    if (!parent.length) return npmCould(word, npmCommand(sub) ?? sub);
    const groups = parent.length === 1 ? NPM_GROUPS[npmCommand(parent[0]!) ?? parent[0]!] : undefined;
    return !!groups?.some((g) => g.split(" ").includes(sub) && g.split(" ").includes(word));
  }
  // helm(1) `uninstall --help`: "Aliases: uninstall, del, delete, un"
  if (program === "helm") return !parent.length && [sub, word].every((w) => HELM_UNINSTALL.includes(w));
  if (program === "gh") {
    const name = ghName(parent, sub);
    return !!name && ghName(parent, word) === name;
  }
  return false;
}

/**
 * Why a command could run the subcommand a deny entry names (the words `path` after `name`: `git
 * push`, `cargo publish`, `gh pr merge`) under another name, or undefined: for git, an option the
 * checker does not know, an alias set on the command line (`git -c alias.p=push p`) or a
 * subcommand that is not git's own; for cargo and gh, a subcommand (at any level gh allows aliases)
 * that is not the program's own. `words` are the segment's, the program first.
 */
export function subcommandAlias(name: string, path: string[], words: Word[]): string | undefined {
  const first = words[0];
  if (!path.length || !known(first) || program(first.text) !== name) return undefined;
  if (name === "git") {
    const read = readGit(words);
    if (read?.unsure) return read.unsure;
    const sub = read?.sub === undefined ? undefined : words[read.sub]!.text;
    return sub && sub !== path[0] && !sub.startsWith("-") && !GIT_COMMANDS.has(sub)
      ? `\`${sub}\` is not a git command hey knows, so it may be an alias: write git's own name for the command, or \`git-${sub} …\` for a git-${sub} program`
      : undefined;
  }
  if (name === "cargo") {
    const sub = cargoSubcommands(words).find((s) => s !== path[0] && !CARGO_COMMANDS.has(s));
    if (!sub) return undefined;
    return CARGO_OWN_ALIASES.has(sub)
      ? `\`${sub}\` may be an alias: an [alias] in a cargo config file replaces cargo's own \`${sub}\`; write the command's full name`
      : `\`${sub}\` is not a cargo command hey knows, so it may be an alias (an [alias] in a cargo config file)`;
  }
  if (name !== "gh") return undefined;
  const levels = ghWords(words);
  for (let k = 0; k < Math.min(levels.length, path.length); k++) {
    if (levels[k] === path[k]) continue;
    const names = ghLevel(path.slice(0, k));
    if (!names) return undefined;
    const here = names.get(levels[k]!);
    if (!here) return `\`${levels[k]}\` is not a gh command hey knows, so it may be an alias (\`gh alias set\`) or an extension`;
    if (here !== (names.get(path[k]!) ?? path[k])) return undefined;
  }
  return undefined;
}

/** The words cargo could read as its command (an option hey does not know may take the next word as its value, or not). */
function cargoSubcommands(words: Word[]): string[] {
  const found: string[] = [];
  let k = 1;
  if (known(words[1]) && words[1].text.startsWith("+")) k = 2; // rustup's toolchain
  for (; k < words.length; k++) {
    const w = words[k]!;
    if (!known(w)) break;
    if (!w.text.startsWith("-")) {
      found.push(w.text);
      break;
    }
    if (w.text === "--") break;
    if (CARGO_VALUE.test(w.text)) k++;
    else if (!CARGO_FLAGS.test(w.text) && !/^(--[^=]+=|-[CZ].)/.test(w.text) && known(words[k + 1]) && !words[k + 1]!.text.startsWith("-"))
      found.push(words[++k]!.text); // an option hey does not know: the next word is the command, or its value
  }
  return found;
}

/** The words gh's command tree reads as commands, level by level: cobra skips a flag and, unless it holds `=` or is help or version, the word after it. */
function ghWords(words: Word[]): string[] {
  const out: string[] = [];
  for (let k = 1; k < words.length; k++) {
    const w = words[k]!;
    if (!known(w) || w.text === "--") break;
    const t = w.text;
    if (!t.startsWith("-")) out.push(t);
    else if (!t.includes("=") && !/^(-h|--help|--version)$/.test(t) && (t.startsWith("--") || t.length === 2)) k++;
  }
  return out;
}
