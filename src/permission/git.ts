// How git reads its command line (SPEC §8): the options before the subcommand, as git.c's
// handle_options reads them (git 2.17 to 2.50: exact names, no abbreviations, no clusters), which
// subcommand runs, and whether a word could make git run a command. Pure.
import { GIT_OPTIONS } from "./program-tables.ts";
import { couldBegin } from "./programs.ts";
import { known, type Segment, type Word } from "./shell-model.ts";

/** Options taking the next word as their value. */
export const NEXT = new Set(["-c", "-C", "--git-dir", "--work-tree", "--namespace", "--super-prefix", "--config-env", "--shallow-file", "--attr-source"]);
/** Options taking a value only as `--name=value`. */
const EQUALS = new Set(["--git-dir", "--work-tree", "--namespace", "--super-prefix", "--config-env", "--exec-path", "--attr-source"]);
const FLAGS = new Set(
  (
    "-p,--paginate,-P,--no-pager,--no-replace-objects,--bare,--literal-pathspecs,--no-literal-pathspecs,--glob-pathspecs,--noglob-pathspecs," +
    "--icase-pathspecs,--no-optional-locks,--no-lazy-fetch,--no-advice"
  ).split(","),
);
/** Options after which git prints something and exits (`--exec-path` without `=`, and any word it begins). */
const EXITS = /^(--exec-path(?!=).*|--html-path|--man-path|--info-path|--list-builtins|--list-parseopt-builtins|--list-cmds=.*)$/;
/** Words that end the options and are the subcommand they name. */
const SPELLED = new Map([
  ["--help", "help"],
  ["-h", "help"],
  ["--version", "version"],
  ["-v", "version"],
]);
/** Options that make git run what their values say (a config value: `core.sshCommand`, `alias.x=!cmd`…; a directory of git's own programs). */
const RUNS = new Set(["-c", "--config-env", "--exec-path"]);
/** Config keys that define an alias, or read config (aliases included) from a file. */
const ALIASES = /^(alias|include|includeif)\./i;

/**
 * Commands of every git since 2.25 (2020), built in or among the programs git itself installs
 * (`git help -a`), and those added since (bugreport 2.27, maintenance 2.29, hook
 * 2.36, diagnose 2.38, replay 2.44, refs 2.46, backfill 2.49: an older git would run an alias of
 * such a name, which no one keeps). An alias never replaces one of these (git runs the command and
 * ignores the alias); any other name may be an alias (`alias.p = push`, from any config file) or a
 * `git-NAME` program on PATH. Left out: `for-each-repo` (2.29), which runs the git command its
 * words name in each repository (`git for-each-repo --config=k push`), is judged as an alias would be.
 */
export const GIT_COMMANDS = new Set(
  (
    "add,am,annotate,apply,archive,bisect,blame,branch,bundle,cat-file,check-attr,check-ignore,check-mailmap,check-ref-format,checkout,checkout-index," +
    "cherry,cherry-pick,clean,clone,column,commit,commit-graph,commit-tree,config,count-objects,credential,credential-cache,credential-store,describe," +
    "diff,diff-files,diff-index,diff-tree,difftool,fast-export,fast-import,fetch,fetch-pack,filter-branch,fmt-merge-msg,for-each-ref,format-patch,fsck," +
    "fsck-objects,gc,get-tar-commit-id,grep,hash-object,help,index-pack,init,init-db,interpret-trailers,log,ls-files,ls-remote,ls-tree,mailinfo," +
    "mailsplit,merge,merge-base,merge-file,merge-index,merge-octopus,merge-one-file,merge-ours,merge-recursive,merge-resolve,merge-subtree,merge-tree," +
    "mergetool,mktag,mktree,multi-pack-index,mv,name-rev,notes,pack-objects,pack-refs,patch-id,prune,prune-packed,pull,push,quiltimport,range-diff," +
    "read-tree,rebase,receive-pack,reflog,remote,repack,replace,request-pull,rerere,reset,restore,rev-list,rev-parse,revert,rm,send-pack,shortlog,show," +
    "show-branch,show-index,show-ref,sparse-checkout,stage,stash,status,stripspace,submodule,switch,symbolic-ref,tag,unpack-file,unpack-objects," +
    "update-index,update-ref,update-server-info,upload-archive,upload-pack,var,verify-commit,verify-pack,verify-tag,version,whatchanged,worktree,write-tree," +
    // git's scripts and the programs of its optional packages (git-gui, git-svn, git-email, git-cvs, git-daemon…)
    "archimport,citool,cvsexportcommit,cvsimport,cvsserver,daemon,gui,imap-send,instaweb,p4,pack-redundant,send-email,sh-i18n,sh-setup,svn," +
    "bugreport,maintenance,hook,diagnose,replay,refs,backfill"
  ).split(","),
);

/** Subcommands none of whose options run a command given on the command line (hooks and configured tools are the repository's, by design). */
const GIT_DATA = new Set(
  (
    "add,am,apply,bisect-visualize,blame,branch,bundle,cat-file,check-attr,check-ignore,checkout,cherry,cherry-pick,clean,commit,count-objects,describe,diff,diff-files,diff-index,diff-tree," +
    "fsck,gc,hash-object,help,init,log,ls-files,ls-tree,merge,merge-base,mv,name-rev,notes,prune,range-diff,reflog,remote,repack,reset,restore,rev-list,rev-parse,revert,rm,shortlog,show," +
    "show-ref,sparse-checkout,stash,status,switch,symbolic-ref,tag,update-index,update-ref,var,version,whatchanged,worktree,for-each-ref,format-patch"
  ).split(","),
);

/** What readGit finds. */
export interface GitRead {
  /**
   * whether a word could make git run a command: a `-c`/`--config-env`/`--exec-path` value, a
   * subcommand whose options run one (`rebase -x`, `bisect run`, `submodule foreach`, `grep -O`,
   * `fetch --upload-pack`, `config`…), or an option the checker does not know
   */
  runs: boolean;
  /** the subcommand's index among the words (`--help` and `--version` count); undefined: none runs */
  sub?: number;
  /** why the subcommand that runs could be another: an option the checker does not know, or an alias set on the command line */
  unsure?: string;
}

/** git's words read; undefined when a word decided at run time stands where an option could. */
export function readGit(words: Word[]): GitRead | undefined {
  let runs = false;
  let unsure: string | undefined;
  for (let k = 1; k < words.length; k++) {
    const w = words[k]!;
    if (!known(w)) return undefined;
    const t = w.text;
    if (!t.startsWith("-") || SPELLED.has(t)) return { runs: runs || !GIT_DATA.has(SPELLED.get(t) ?? t), sub: k, ...(unsure ? { unsure } : {}) };
    if (EXITS.test(t)) return { runs };
    const eq = t.indexOf("=");
    const joined = eq > 0 && EQUALS.has(t.slice(0, eq));
    const name = joined ? t.slice(0, eq) : t;
    let value: Word | undefined;
    if (joined) value = { text: t.slice(eq + 1), raw: t.slice(eq + 1), unknown: false, glob: false };
    else if (NEXT.has(t)) value = words[++k];
    else if (!FLAGS.has(t)) return { runs: true, unsure: `\`${w.raw}\` is not a git option hey knows` };
    if (NEXT.has(name) && !value) return { runs }; // git: "-c expects a configuration string", and its usage
    if (RUNS.has(name)) runs = true;
    if ((name === "-c" || name === "--config-env") && (!known(value) || ALIASES.test(value.text))) unsure ??= `\`${name} ${value!.raw}\` may define an alias`;
  }
  return { runs };
}

/** Config keys that make a `git push` without refspecs force (git-config(1)): a remote's refspec `+…`, a remote that mirrors. */
const FORCING = /^remote\..+\.(push|mirror)$/i;
/** git's false values (git-config(1) "boolean"); a key given no `=value` is true. */
const FALSE = /^(false|no|off|0|)$/i;

/**
 * Whether git's own options, `words` (git first, up to its subcommand), set a config value that
 * makes `git push` force as `--force` does: "yes" for `-c remote.origin.push=+HEAD:main` or `-c
 * remote.origin.mirror=true` (keys in any case, as git reads them), "maybe" for one whose value
 * comes from the environment (`--config-env=remote.origin.push=VAR`) or is decided at run time.
 * The config files are not read: a forcing refspec there (`remote.origin.push = +refs/heads/*:…`)
 * is not seen.
 */
export function configForces(words: Word[]): "yes" | "maybe" | undefined {
  let hit: "maybe" | undefined;
  for (let k = 1; k < words.length; k++) {
    const t = words[k]!;
    if (!known(t)) continue;
    const env = t.text === "--config-env" || t.text.startsWith("--config-env=");
    if (t.text !== "-c" && !env) continue;
    const word = t.text.includes("=") ? { ...t, text: t.text.slice(t.text.indexOf("=") + 1) } : words[++k];
    if (!word) continue;
    // a glob's names begin as it does: `remote.origin.push=+refs/heads/*:…` is a forcing refspec, expanded or not
    if (word.unknown || word.anyValue) {
      hit = "maybe";
      continue;
    }
    const eq = word.text.indexOf("=");
    const key = eq < 0 ? word.text : word.text.slice(0, eq);
    if (!FORCING.test(key)) continue;
    if (env) hit = "maybe";
    else if (/\.mirror$/i.test(key) ? !FALSE.test(eq < 0 ? "true" : word.text.slice(eq + 1)) : word.text.slice(eq + 1).startsWith("+")) return "yes";
  }
  return hit;
}

/**
 * A segment running one of git's own command programs by its dashed name — `git-push` from git's
 * exec path (`/usr/lib/git-core/git-push`, `$(git --exec-path)/git-push`), which runs `git push` —
 * spelled as `git push …` too, so that a deny entry naming the subcommand sees it. Others: none.
 */
export function gitDashed(seg: Segment): Segment[] {
  const first = seg.words[0];
  if (!first || !known(first)) return [];
  const base = first.text.slice(Math.max(first.text.lastIndexOf("/"), first.text.lastIndexOf("\\")) + 1).replace(/\.exe$/i, "");
  const sub = /^git-(.+)$/i.exec(base)?.[1];
  if (!sub || !GIT_COMMANDS.has(sub.toLowerCase())) return [];
  const word = (text: string): Word => ({ text, raw: text, unknown: false, glob: false });
  return [{ ...seg, words: [word("git"), word(sub.toLowerCase()), ...seg.words.slice(1)] }];
}

/** The long options of git's that name a file or directory it writes (`--output`, format-patch's `--output-directory`), and the abbreviations a git that takes them could read. */
const OUTPUT_LONG = "--output-directory";
const MIN_OUTPUT = "--out".length; // `--o`, `--ou` are ambiguous to git (`--oneline`)
/**
 * Subcommands that read no `--output`: their options are their own (parse-options), with no diff or
 * revision options among them, so a glob given to one is a path (`git add *.ts`, `git restore *`).
 * Every other may: git's diff and revision options reach log, show, diff*, format-patch, blame,
 * annotate, reflog, fast-export, cherry-pick, revert, difftool, bisect's view, archive's own… (git
 * 2.39 wrote `--output=FILE` under each), and a subcommand git adds later is taken as one of them.
 */
const NO_OUTPUT = new Set(
  "add,rm,mv,restore,checkout,switch,commit,status,grep,ls-files,clean,reset,apply,am,check-ignore,check-attr,branch,tag,init,clone,fetch,pull,push,merge,rebase,config,remote,submodule,worktree,rev-parse,cat-file,ls-tree,update-index,sparse-checkout,notes,mergetool,gc,prune,fsck,describe,merge-base,hash-object,show-ref,for-each-ref,symbolic-ref,update-ref,count-objects,var,version,help".split(
    ",",
  ),
);
/** stash's subcommands that read log and diff options; `git stash push *.ts` and the others read paths. */
const STASH_LOGS = new Set(["show", "list"]);

/** Whether the subcommand at `sub` may read a `--output` a glob expands to. */
function readsOutput(words: Word[], sub: number): boolean {
  const name = words[sub]!.text;
  if (name !== "stash") return !NO_OUTPUT.has(name);
  const next = words[sub + 1];
  return !!next && (!known(next) || STASH_LOGS.has(next.text));
}
/** Subcommands whose `-o` names a file or directory they write (index-pack's index file, bugreport's and diagnose's directory). */
const SHORT_OUTPUT = new Set(["format-patch", "archive", "bugreport", "diagnose", "index-pack"]);

/**
 * The indexes among `words` (git first) of git's own options naming a file it writes, with their
 * values: `--output=FILE`/`--output FILE` (log, diff, show, format-patch, range-diff, archive…),
 * format-patch's `-o DIR`/`--output-directory DIR`, archive's `-o FILE`. They are file writes, as a
 * redirection is: a `*` in an allow pattern never matches them (match.ts). A word known only at run
 * time before `--` that could expand to one counts as one. None for another program.
 */
export function gitOutputs(words: Word[]): number[] {
  const first = words[0];
  if (!known(first) || !/^git(\.exe)?$/i.test(first.text.slice(Math.max(first.text.lastIndexOf("/"), first.text.lastIndexOf("\\")) + 1))) return [];
  const sub = readGit(words)?.sub;
  if (sub === undefined) return [];
  const short = SHORT_OUTPUT.has(words[sub]!.text);
  const out: number[] = [...gitConfigWrites(words, sub)];
  for (let k = sub + 1; k < words.length; k++) {
    const t = words[k]!.text;
    if (known(words[k]) && t === "--") break; // paths follow
    // `git diff *` where a file is named `--output=README.md`: the glob is that option (x105 #5)
    if (!known(words[k])) {
      if (readsOutput(words, sub) && couldBegin(words[k]!, short ? ["--out", "-"] : ["--out"])) out.push(k);
      continue;
    }
    if (!t.startsWith("-")) continue;
    const name = t.split("=")[0]!;
    if (name.length >= MIN_OUTPUT && OUTPUT_LONG.startsWith(name)) {
      out.push(k);
      if (!t.includes("=") && k + 1 < words.length) out.push(++k);
    } else if (short && /^-[^-]*o/.test(t)) {
      // `-o DIR`, `-oDIR`, or the last of a cluster (`-ko DIR`)
      out.push(k);
      if (t.endsWith("o") && k + 1 < words.length) out.push(++k);
    }
  }
  return out;
}

/**
 * Whether `word` (an option as written, its `=value` too) is subcommand `sub`'s long option `long`
 * as git's parse-options reads it: spelled out, or any abbreviation (`--upload-pa=CMD` is
 * `--upload-pack=CMD`, `--conf` is `--config`). One git finds ambiguous counts too (git refuses
 * it, so reading it as the option costs nothing), unless it is another option's full name that
 * begins this one's (program-tables.ts: `--force` is not `--force-with-lease`).
 */
export function gitLong(word: string, long: string, sub: string): boolean {
  const eq = word.indexOf("=");
  const name = eq < 0 ? word : word.slice(0, eq);
  if (name === long) return true;
  if (name.length < 3 || !name.startsWith("--") || !long.startsWith(name)) return false;
  const exact = (GIT_OPTIONS[sub] ?? "").split(" | ")[1]?.split(" ") ?? BEGIN_OTHERS[sub] ?? [];
  return !exact.includes(name.slice(2));
}
/**
 * Whether `word` holds subcommand `sub`'s short option `letter` as git's parse-options reads a
 * cluster (`-qc`, `-qcKEY=VALUE`): the letters up to it take no value (GIT_OPTIONS; a letter that
 * does takes the rest of the word). Its value when it does: the rest of the word, or "" when
 * that is empty (the next word is the value); undefined when the word does not hold it.
 */
export function gitShort(word: string, letter: string, sub: string): string | undefined {
  if (!/^-[^-]/.test(word)) return undefined;
  const valued = (GIT_OPTIONS[sub] ?? "")
    .split(" | ")[0]!
    .split(" ")
    .filter((pair) => pair[1] === ":")
    .map((pair) => pair[0]);
  for (let i = 1; i < word.length; i++) {
    if (word[i] === letter) return word.slice(i + 1);
    if (valued.includes(word[i])) return undefined;
  }
  return undefined;
}

/** Long names that begin another's name, of git's programs program-tables.ts has no table for (send-email's `--to` is not `--to-cmd`). */
const BEGIN_OTHERS: Record<string, string[]> = { "send-email": ["to", "cc", "bcc"] };

/** Subcommands' long options that write a file or directory their value names, besides `--output` (`-c`: clone's short `--config`). */
const WRITES_AT: Record<string, string[]> = {
  // the new repository's config, or a template (hooks, config) copied into it
  clone: ["--config", "--template"],
  init: ["--template"],
  // git-fast-import(1) and git-fast-export(1): the marks file, the pack edges file
  "fast-import": ["--export-marks", "--export-pack-edges"],
  "fast-export": ["--export-marks"],
  // git-credential-store(1): the credentials file it stores to
  "credential-store": ["--file"],
};
/** Whether `t`, a word after subcommand `sub`, is one of its options that write where their value says (WRITES_AT). */
const writesAt = (t: string, sub: string) =>
  (sub === "clone" && gitShort(t, "c", sub) !== undefined) || (WRITES_AT[sub] ?? []).some((long) => gitLong(t, long, sub));
/** git's own `-c` keys that copy a template directory (its hooks, its config) into a repository it makes. */
const TEMPLATE_KEY = /^init\.templatedir(=|$)/i;

/**
 * The indexes among `words` of options that write a repository's config or copy a template into it,
 * or write a file their value names, with their values: `git clone -c KEY=VALUE`/`--config`,
 * `--template=DIR` (clone, init), fast-import's `--export-marks=FILE` (WRITES_AT; abbreviated too),
 * git's own `-c init.templateDir=DIR`. They count as file writes (gitOutputs): a `*` never matches them.
 */
function gitConfigWrites(words: Word[], sub: number): number[] {
  const out: number[] = [];
  for (let k = 1; k < sub; k++) {
    const t = words[k]!.text;
    if ((t === "-c" || t === "--config-env") && k + 1 < sub && TEMPLATE_KEY.test(words[k + 1]!.text)) out.push(k, k + 1);
    else if (/^--config-env=/.test(t) && TEMPLATE_KEY.test(t.slice("--config-env=".length))) out.push(k);
  }
  const name = words[sub]!.text;
  for (let k = sub + 1; k < words.length; k++) {
    const t = words[k]!.text;
    if (t === "--") break;
    if (!known(words[k]) || !writesAt(t, name)) continue;
    out.push(k);
    const glued = t.startsWith("--") ? t.includes("=") : !!gitShort(t, "c", name);
    if (!glued && k + 1 < words.length) out.push(++k);
  }
  return out;
}

/**
 * The indexes among `words` (git first) of a `--git-dir` git's own options give, with its value,
 * unless that names a `.git` directory or a path in one (`git --git-dir=sub/.git log`): a directory
 * of another name may be one the agent filled itself, its `config` and `hooks/` written before the
 * HEAD that makes it a repository (x111: the guard then saw no repository at each write), or a
 * `config` written before `git init --bare` kept it. git runs that config's `core.fsmonitor` and those
 * hooks in the command, so only a pattern spelling the option out allows it, as GIT_DIR=
 * (variables.ts). A `.git` is none the agent could write (control-files.ts inGit). So is init's and clone's
 * `--separate-git-dir` naming no `.git`: the repository it makes is such a directory.
 */
export function gitDirNamed(words: Word[]): number[] {
  const first = words[0];
  if (!known(first) || !/^git(\.exe)?$/i.test(first.text.slice(Math.max(first.text.lastIndexOf("/"), first.text.lastIndexOf("\\")) + 1))) return [];
  const sub = readGit(words)?.sub ?? words.length;
  const out: number[] = [];
  const elsewhere = (w: Word | undefined) => !known(w) || !w.text.split(/[\\/]/).some((part) => /^\.git$/i.test(part));
  for (let k = 1; k < sub; k++) {
    const t = words[k]!.text;
    if (NEXT.has(t) && t !== "--git-dir") k++;
    else if (t === "--git-dir" && elsewhere(words[k + 1])) out.push(k, ++k);
    else if (t.startsWith("--git-dir=") && elsewhere({ ...words[k]!, text: t.slice("--git-dir=".length) })) out.push(k);
  }
  // `git init --separate-git-dir=src/ev src/w` makes src/ev a repository `src/w/.git` (a file) points to: one the agent
  // may then fill (its `config`, its `hooks/`), which git runs from when a command reaches it through src/w (r1 #4)
  const name = words[sub]?.text ?? "";
  if (!["init", "init-db", "clone"].includes(name)) return out;
  for (let k = sub + 1; k < words.length; k++) {
    const t = words[k]!.text;
    if (!known(words[k]) || t === "--") break;
    if (!gitLong(t, "--separate-git-dir", name)) continue;
    const glued = t.includes("=");
    if (elsewhere(glued ? { ...words[k]!, text: t.slice(t.indexOf("=") + 1) } : words[k + 1])) out.push(k, ...(glued ? [] : [++k]));
  }
  return out;
}
