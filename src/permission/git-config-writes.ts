// git commands that write git's config by key rather than by file name (x39 finding 2): `git config
// core.fsmonitor CMD`, `core.hooksPath`, `include.path`, `--global alias.x '!cmd'` name no file, so
// the checks of git's own files (control-arguments.ts) did not see them, and the user's next `git
// status` ran the agent's command. While a list is set, a `git config` that writes (set, --add,
// --replace-all, --unset*, --rename-section, --remove-section, -e, git 2.46's `set`/`unset`/`edit`…)
// is a write of the config file it targets (the repository's, the worktree's, --global's,
// --system's) and is refused, unless its key is one of WRITABLE: keys that run nothing and name no
// file, which agents set routinely. So is a write to `--file F`, whatever F's name: any file may be
// a config git reads — a repository's (a bare one's is `NAME/config`), the global or system one by
// its name (`~/.gitconfig`, `/etc/gitconfig`, `$GIT_CONFIG_GLOBAL`'s), or one those include — but
// `.gitmodules`, from which git takes submodules' settings only and no command (gitmodules(5): "the
// !command form is not accepted here"; an include, `core.*` or `alias.*` there is ignored).
// `--blob` only reads (git: "writing config blobs is not supported"). The same holds for `git clone
// -c KEY=VALUE` (the new repository's config), a remote's `ext::` URL (`git remote add|set-url`: a
// command git runs when the user allows that transport), a template (`git init|clone
// --template=DIR`, `-c init.templateDir=DIR`: its hooks and config are copied into the repository),
// and any of these through an alias set on the command line (`git -c alias.cfg=config cfg …`). Pure.
import { GIT_COMMANDS, gitLong, readGit } from "./git.ts";
import { program } from "./match.ts";
import { fixed, known, type Segment, type Word } from "./shell-model.ts";

/**
 * Keys git reads as data only: identity, line endings, how pulls, pushes, merges, diffs and logs
 * behave, colors, advice. None runs a program or names a file git reads (not `user.signingKey`,
 * `commit.template`, `core.excludesFile`, `diff.orderFile`), nor loosens a check (`safe.directory`
 * lets another user's repository, and its config's commands, be used; `http.sslVerify`), nor makes
 * a push force (`remote.*.push`, `remote.*.mirror`: git-push(1)).
 */
export const WRITABLE =
  /^(user\.(name|email|useconfigonly)|(author|committer)\.(name|email)|core\.(autocrlf|safecrlf|eol|filemode|ignorecase|quotepath|symlinks|precomposeunicode|longpaths|whitespace|abbrev)|init\.defaultbranch|pull\.(rebase|ff)|push\.(default|autosetupremote|followtags)|fetch\.(prune|prunetags)|branch\.(autosetupmerge|autosetuprebase|sort)|branch\..+\.(remote|merge|rebase|pushremote|description)|color\..+|advice\..+|merge\.(conflictstyle|ff|log)|rebase\.(autosquash|autostash|updaterefs)|diff\.(renames|algorithm|colormoved|mnemonicprefix|noprefix|context|interhunkcontext|submodule|indentheuristic|renamelimit)|status\.(showuntrackedfiles|short|branch|submodulesummary)|log\.(date|decorate|abbrevcommit|follow)|commit\.(verbose|cleanup|status)|rerere\.(enabled|autoupdate)|tag\.sort|column\.ui|http\.postbuffer|checkout\.defaultremote|i18n\.(commitencoding|logoutputencoding)|gc\.auto)$/i;

/** The allowed keys as a refusal shows them. */
const EXAMPLES = "user.name, user.email, core.autocrlf, init.defaultBranch, pull.rebase, push.default, branch.NAME.remote, color.*…";

/** git config's long options (git 2.46): those taking a value, and the rest; git takes any unique abbreviation of one. */
const VALUED = ["file", "blob", "type", "default", "comment", "value", "url"];
const FLAGS = (
  "global,system,local,worktree,replace-all,add,get,get-all,get-regexp,get-urlmatch,unset,unset-all,rename-section,remove-section,list," +
  "fixed-value,edit,get-color,get-colorbool,bool,int,bool-or-int,bool-or-str,path,expiry-date,null,name-only,includes,show-origin,show-scope," +
  "all,append,regexp,no-type,no-value,no-includes,no-show-origin,no-show-scope,no-name-only,no-null,no-fixed-value,no-all,no-regexp,help"
).split(",");
const LONG = [...VALUED, ...FLAGS];
/** Modes that write; the others read. */
const WRITES = new Set(["add", "replace-all", "unset", "unset-all", "rename-section", "remove-section", "edit", "set"]);
const SCOPES = new Set(["global", "system", "local", "worktree"]);
/** git 2.46's subcommands: the first operand. */
const SUBCOMMANDS = new Set(["get", "list", "set", "unset", "edit", "rename-section", "remove-section"]);

/** A submodules file: git reads only submodule settings from it, and none as a command (gitmodules(5)). */
const GITMODULES = /(^|[\\/])\.gitmodules$/;

const raw = (w: Word | undefined) => w?.raw ?? "";

/** A long option as git resolves it (exactly, or a unique abbreviation), or undefined. */
function resolve(name: string): string | undefined {
  if (LONG.includes(name)) return name;
  const matches = LONG.filter((l) => l.startsWith(name));
  return matches.length === 1 ? matches[0] : undefined;
}

/** What `git config ARGS` does: the mode, where it writes, the operands; or why that cannot be told. */
type Reading = { mode: string; scope: string; file?: Word; operands: Word[] } | { unknown: string };

function readConfig(args: Word[]): Reading {
  let mode = "";
  let scope = "local";
  let file: Word | undefined;
  const operands: Word[] = [];
  for (let i = 0; i < args.length; i++) {
    const w = args[i]!;
    // git reads options up to the first operand (PARSE_OPT_STOP_AT_NON_OPTION), after a subcommand up to the next: then all are
    // operands, `-…` too (`git config core.hooksPath --local` sets it to `--local`), and a value may be known only at run time
    if (operands.length > 1 || (operands.length === 1 && !SUBCOMMANDS.has(operands[0]!.text))) {
      operands.push(w);
      continue;
    }
    // where an option, the subcommand or the key could stand
    if (!fixed(w)) return { unknown: `\`${w.raw}\` is known only at run time` };
    const t = w.text;
    if (t === "--") {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (!t.startsWith("-") || t === "-") {
      operands.push(w);
      continue;
    }
    let name: string | undefined;
    let value: Word | undefined;
    if (t.startsWith("--")) {
      const eq = t.indexOf("=");
      name = resolve(eq < 0 ? t.slice(2) : t.slice(2, eq));
      if (!name) return { unknown: `\`${w.raw}\` is not a git config option hey knows` };
      if (VALUED.includes(name)) value = eq < 0 ? args[++i] : { ...w, text: t.slice(eq + 1), raw: w.raw.slice(w.raw.indexOf("=") + 1) };
    } else {
      // short options, clustered: -l, -z, -e; -f takes the rest of the word or the next
      for (let c = 1; c < t.length && !name; c++) {
        const letter = t[c]!;
        if (letter === "f") {
          name = "file";
          value = c + 1 < t.length ? { ...w, text: t.slice(c + 1), raw: t.slice(c + 1) } : args[++i];
        } else if (letter === "l") mode = "list";
        else if (letter === "e") mode = "edit";
        else if (letter !== "z") return { unknown: `\`${w.raw}\` is not a git config option hey knows` };
      }
      if (!name) continue;
    }
    if (name === "file" || name === "blob") {
      scope = name;
      file = value;
    } else if (SCOPES.has(name)) scope = name;
    else if (WRITES.has(name) || /^(get|list)/.test(name)) mode = name;
  }
  const first = operands[0];
  if (known(first) && SUBCOMMANDS.has(first.text)) return { mode: first.text, scope, ...(file ? { file } : {}), operands: operands.slice(1) };
  // no mode given: one operand reads the key, two or three set it
  return { mode: mode || (operands.length >= 2 ? "set" : "get"), scope, ...(file ? { file } : {}), operands };
}

const WHERE: Record<string, string> = {
  local: "the repository's",
  worktree: "the worktree's",
  global: "the global one",
  system: "the system's",
  file: "a file named only at run time",
};

/** Why a write is refused: where it lands (a WHERE), what about it, and whether it only may write there. */
type Refusal = { where: string; why: string; may?: true };
const UNKNOWN = (why: string): Refusal => ({ where: "the repository's", why: `cannot tell what it writes: ${why}`, may: true });
const UNLISTED = (where: string, key: string): Refusal => ({
  where,
  why: `\`${key}\` is not a key hey knows to run nothing and name no file (the agent may set ${EXAMPLES})`,
});

/** Why `git config ARGS` may not run while a list is set, or undefined when it reads, or writes only keys WRITABLE holds. */
function configRefusal(args: Word[]): Refusal | undefined {
  const read = readConfig(args);
  if ("unknown" in read) return UNKNOWN(read.unknown);
  const { mode, scope, file, operands } = read;
  if (!WRITES.has(mode) || scope === "blob") return undefined;
  if (scope === "file" && known(file) && GITMODULES.test(file.text)) return undefined;
  const where = scope === "file" && known(file) ? `\`${file.raw}\`, which may be a repository's, the global or system one, or one they include` : WHERE[scope]!;
  if (mode === "edit" || mode === "rename-section" || mode === "remove-section") return { where, why: `\`${mode}\` may change any key` };
  const key = operands[0];
  if (!key) return undefined; // git prints its usage
  if (!known(key)) return { where, why: "its key is known only at run time" };
  return WRITABLE.test(key.text) ? undefined : UNLISTED(where, key.text);
}

/** `git clone -c KEY=VALUE`/`--config`: the new repository's config. */
function cloneRefusal(args: Word[]): Refusal | undefined {
  for (let i = 0; i < args.length; i++) {
    const t = args[i]!.text;
    if (t === "--") break;
    // `--conf=KEY=VALUE`, `--con KEY=VALUE`: git takes any abbreviation of `--config`
    const long = t.startsWith("--") && gitLong(t, "--config", "clone");
    const glued = long ? t.includes("=") : /^-c./.test(t);
    const value = glued ? { ...args[i]!, text: t.slice(long ? t.indexOf("=") + 1 : 2) } : t === "-c" || long ? args[++i] : undefined;
    if (!value) continue;
    const where = "the new repository's";
    if (!fixed(value)) return { where, why: `\`${value.raw}\` is known only at run time` };
    const key = value.text.split("=")[0]!;
    if (!WRITABLE.test(key)) return UNLISTED(where, key);
  }
  return undefined;
}

/** `git remote add NAME URL`, `git remote set-url [--push|--add] NAME URL`: an `ext::` URL is a command git runs (git-remote-ext(1)). */
function remoteRefusal(args: Word[]): Refusal | undefined {
  const sub = args.find((w) => !known(w) || !w.text.startsWith("-"));
  if (!known(sub) || (sub.text !== "add" && sub.text !== "set-url")) return undefined;
  const url = args.find((w) => /^ext::/i.test(w.text) || (!fixed(w) && /^["']?ext::/i.test(w.raw)));
  return url ? { where: "the repository's", why: `\`${url.raw}\` is a command git runs as a remote (git-remote-ext(1))` } : undefined;
}

/**
 * Why the first segment among `segments` whose git command writes git's config as above may not run
 * (the refusal's text after its prefix, the segment shown by `show`); undefined when none does.
 * git's own dashed programs (`git-config`) count, and so does git past its options (`git -C sub config …`).
 */
export function gitConfigWrite(segments: Segment[], show: (s: string) => string): string | undefined {
  for (const seg of segments) {
    const refused = segmentRefusal(seg);
    if (!refused) continue;
    const { where, why, may } = refused;
    return `\`${show(seg.raw)}\` ${may ? "may write" : "writes"} git's config (${where}: git runs commands its settings name), which the agent may not change: ${why}`;
  }
  return undefined;
}

/** How deep git's own aliases are followed (git stops a loop itself). */
const MAX_ALIASES = 10;

function segmentRefusal(seg: Segment, depth = 0): Refusal | undefined {
  const first = seg.words[0];
  if (seg.inert === "builtin" || !known(first)) return undefined;
  const name = program(first.text);
  const dashed = /^git-(config|clone|remote|init|maintenance)$/.exec(name)?.[1];
  if (name !== "git" && !dashed) return undefined;
  const read = dashed ? { sub: 0 } : readGit(seg.words);
  // a word known only at run time among git's options: `git $OPT config core.fsmonitor …` could still be config
  if (read === undefined) return seg.words.some((w) => known(w) && w.text === "config") ? UNKNOWN("git's options are known only at run time") : undefined;
  const sub = dashed ?? (read.sub === undefined ? undefined : seg.words[read.sub]!.text);
  if (sub === undefined || read.sub === undefined) return undefined;
  const own = dashed ? [] : seg.words.slice(1, read.sub);
  const args = seg.words.slice(read.sub + 1);
  const templated = templateRefusal(own) ?? (sub === "init" || sub === "clone" ? templateOption(args, sub) : undefined);
  if (templated) return templated;
  if (!dashed && !GIT_COMMANDS.has(sub) && depth < MAX_ALIASES) {
    // `git -c alias.cfg=config cfg core.fsmonitor x`: git runs the alias's words in the command's place
    const alias = aliasOf(own, sub);
    if (alias === undefined) return undefined;
    if ("unknown" in alias) return UNKNOWN(alias.unknown);
    return segmentRefusal({ ...seg, words: [first, ...own, ...alias.words, ...args] }, depth + 1);
  }
  if (sub === "maintenance") return maintenanceRefusal(args);
  return sub === "config" ? configRefusal(args) : sub === "clone" ? cloneRefusal(args) : sub === "remote" ? remoteRefusal(args) : undefined;
}

/**
 * `git maintenance register|unregister|start|stop` (git-maintenance(1)): they add the repository to,
 * or take it from, `maintenance.repo` in the global config (or `--config-file`'s), and `start`/`stop`
 * install or remove a scheduler job (cron, systemd, launchd) that runs git in it every hour, outside hey.
 */
function maintenanceRefusal(args: Word[]): Refusal | undefined {
  const action = args.find((w) => !fixed(w) || !w.text.startsWith("-"));
  if (!action) return undefined;
  if (!fixed(action)) return UNKNOWN(`\`git maintenance ${action.raw}\` may be \`register\` or \`start\``);
  if (!/^(register|unregister|start|stop)$/.test(action.text)) return undefined;
  const scheduled = /^(start|stop)$/.test(action.text) ? ", and changes a scheduler job that runs git in this repository every hour, outside hey" : "";
  // unregister and stop only take the repository out, but git rewrites the whole file to do it, a file no command may rewrite (r1 #15)
  const undo = /^(unregister|stop)$/.test(action.text) ? " (it only takes this repository out, but git rewrites the whole file; run it yourself)" : "";
  return { where: "the global one", why: `\`git maintenance ${action.text}\` writes maintenance.repo there${scheduled}${undo}` };
}

/** `-c init.templateDir=DIR` among git's own options: every repository git then makes (init, clone, a submodule's) gets DIR's hooks and config. */
function templateRefusal(own: Word[]): Refusal | undefined {
  for (const { option, value, shown } of configValues(own)) {
    if (!known(value)) continue; // aliasOf's to judge
    const eq = value.text.indexOf("=");
    if (!/^init\.templatedir$/i.test(eq < 0 ? value.text : value.text.slice(0, eq))) continue;
    if (option === "-c" && (eq < 0 || value.text.slice(eq + 1) === "")) continue; // no template
    return { where: "every repository it makes", why: `\`${shown}\` copies a template's hooks and config into it (git-init(1))` };
  }
  return undefined;
}

/** `git init|clone --template=DIR` (or a unique abbreviation, `--templ DIR`): DIR's hooks and config are copied into the repository's git directory. */
function templateOption(args: Word[], sub: string): Refusal | undefined {
  for (let i = 0; i < args.length; i++) {
    const w = args[i]!;
    if (!known(w)) continue;
    if (w.text === "--") break;
    const eq = w.text.indexOf("=");
    const name = eq < 0 ? w.text : w.text.slice(0, eq);
    if (name.length < 3 || !"--template".startsWith(name)) continue;
    const value = eq < 0 ? args[i + 1] : { ...w, text: w.text.slice(eq + 1) };
    if (known(value) && value.text === "") continue; // git copies no template
    const where = sub === "init" ? "the repository's" : "the new repository's";
    return { where, why: `\`${eq < 0 ? `${w.raw} ${raw(value)}`.trim() : w.raw}\` copies a template's hooks and config into it (git-init(1))` };
  }
  return undefined;
}

/** git's own `-c NAME=VALUE` and `--config-env=NAME=ENVVAR` settings among `own`: the option, its value, and both as written. */
function configValues(own: Word[]): { option: string; value: Word | undefined; shown: string }[] {
  const out: { option: string; value: Word | undefined; shown: string }[] = [];
  for (let k = 0; k < own.length; k++) {
    const w = own[k]!;
    if (w.text === "-c" || w.text === "--config-env") {
      const value = own[++k];
      out.push({ option: w.text, value, shown: `${w.raw} ${raw(value)}`.trim() });
    } else if (w.text.startsWith("--config-env="))
      out.push({ option: "--config-env", value: { ...w, text: w.text.slice("--config-env=".length) }, shown: w.raw });
  }
  return out;
}

/**
 * The words an alias `sub` set among git's own options stands for (`-c alias.cfg='config
 * core.fsmonitor'`), split as git splits them; undefined when none names it, or names a shell
 * command (`!…`: what `bash: git *` allows by design); unknown when one may, at run time.
 */
function aliasOf(own: Word[], sub: string): { words: Word[] } | { unknown: string } | undefined {
  let found: Word[] | undefined;
  for (const { option, value, shown } of configValues(own)) {
    if (!known(value)) return { unknown: `\`${shown}\` may make \`${sub}\` an alias of \`git config\`` };
    const m = /^alias\.([^=]*)(?:=([\s\S]*))?$/i.exec(value.text);
    if (!m || m[1]!.toLowerCase() !== sub.toLowerCase()) continue;
    if (option === "--config-env") return { unknown: `\`${shown}\` makes \`${sub}\` an alias known only at run time` };
    found = m[2]?.startsWith("!") ? undefined : splitAlias(m[2] ?? ""); // the last setting wins
  }
  return found && { words: found };
}

/** An alias's words, as git's split_cmdline makes them: blanks part them, quotes group, a backslash escapes in double quotes. */
function splitAlias(value: string): Word[] {
  const words: string[] = [];
  let word: string | undefined;
  let quote = "";
  for (let i = 0; i < value.length; i++) {
    const c = value[i]!;
    if (!quote && /\s/.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (!quote && (c === '"' || c === "'")) {
      quote = c;
      word ??= "";
    } else if (quote && c === quote) quote = "";
    else if (c === "\\" && quote !== "'" && i + 1 < value.length) word = (word ?? "") + value[++i];
    else word = (word ?? "") + c;
  }
  if (word !== undefined) words.push(word);
  return words.map((text) => ({ text, raw: text, unknown: false, glob: false }));
}
