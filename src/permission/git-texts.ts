// What git runs with the shell from its command line (SPEC §8; deny lists: shell-texts.ts, allow lists: git-allow.ts): the
// values of `-c KEY=VALUE`, `--config-env`, `clone -c`/`--config`, `git config [set] KEY VALUE`
// and leading GIT_* assignments whose keys git runs (`alias.x='!cmd'`, `core.sshCommand`,
// `credential.helper`…), and the options that take a command (`rebase -x`, `--upload-pack`,
// `submodule foreach`, `difftool -x`, `bisect run`, `grep -O`). Under a deny list any other `-c`
// key is refused unless it is one known to run nothing (QUIET): git has many that run a program
// (`gpg.program`, `trailer.*.cmd`, `core.hooksPath`, `include.path`…). What a transport runs (an
// `ext::` URL's command, `remote.x.vcs`'s helper) is judged under every list: git-transports.ts. Pure.
import { GIT_COMMANDS, gitLong, gitShort, NEXT, readGit } from "./git.ts";
import { TRANSPORT_KEYS, transportSetting, urlCommands } from "./git-transports.ts";
import { singleQuoted } from "../kernel/tool-args.ts";
import { fixed, known, type Segment, type Word } from "./shell-model.ts";
import { stdinSources } from "./shell-stdin.ts";
import { GIT_SHELL_VARS } from "./variables.ts";
import { stdinText } from "./written-text.ts";

/** A submodule's update command from git's config (submodule-updates.ts): the submodule's name and the text after `!`. */
export interface ConfigUpdate {
  name: string;
  command: string;
}

/** Shell text to judge and what runs it, for messages. */
export interface GitText {
  text: string;
  from: string;
  /** the word that gives it (`GIT_EDITOR=vim`, `core.editor=vim`), as written */
  word?: string;
}

/**
 * git config keys whose value git runs with the shell (git-config(1)); aliases, a submodule's
 * update and credential helpers are read apart (BANG: only a value after `!` is shell text; a
 * helper always is).
 */
const GIT_SHELL_KEYS =
  /^(core\.(sshcommand|pager|editor|fsmonitor|askpass|gitproxy)|pager\..+|sequence\.editor|diff\.external|diff\..+\.(command|textconv)|filter\..+\.(clean|smudge|process)|merge\..+\.driver|(diff|merge)tool\..+\.cmd|remote\..+\.(uploadpack|receivepack)|uploadpack\.packobjectshook|web\.browser|browser\..+\.cmd|sendemail\.(sendmailcmd|tocmd|cccmd))$/i;
/**
 * Keys known to make git run no program whatever their value (git-config(1)): identity, colors,
 * messages, line endings, how logs, diffs, pulls and pushes read. Two-part `diff.*` keys only: a
 * driver's (`diff.x.textconv`) and `diff.external`, `diff.tool`, `diff.guitool` name programs.
 */
const QUIET =
  /^(user\.(name|email|signingkey|useconfigonly)|author\.(name|email)|committer\.(name|email)|color\..+|advice\..+|log\.[a-z]+|format\.(pretty|signoff|numbered)|core\.(quotepath|autocrlf|safecrlf|eol|filemode|ignorecase|symlinks|precomposeunicode|longpaths|abbrev|whitespace|commentchar|commentstring|logallrefupdates|bigfilethreshold|compression)|init\.defaultbranch|diff\.(?!external$|tool$|guitool$)[a-z]+|pull\.(rebase|ff|twohead|octopus)|push\.(default|autosetupremote|followtags)|fetch\.(prune|prunetags|parallel)|merge\.(ff|conflictstyle|log|renamelimit)|rebase\.(autosquash|autostash|updaterefs)|status\.[a-z]+|branch\.(autosetupmerge|autosetuprebase|sort)|branch\..+\.(remote|merge|rebase|pushremote)|remote\..+\.(url|pushurl|fetch|push|mirror|prune|tagopt)|column\.[a-z]+|blame\.[a-z]+|grep\.(linenumber|patterntype|extendedregexp|column|fullname|fallbacktonoindex)|safe\.directory|protocol\.version|http\.(sslverify|postbuffer|version)|checkout\.defaultremote|tag\.sort|versionsort\.suffix|commit\.(verbose|status|cleanup)|rerere\.(enabled|autoupdate)|gc\.(auto|autodetach)|maintenance\.auto|feature\.[a-z]+|index\.[a-z]+|pack\.[a-z]+|submodule\.recurse|help\.format|i18n\.[a-z]+)$/i;
/**
 * Keys whose value git runs with the shell when it starts with `!`: an alias (git-config(1)), a
 * submodule's update (git-submodule(1): `git submodule update` runs `!CMD` with the commit's name
 * appended; from `.gitmodules` git refuses it, "invalid value"); other values name a git command.
 */
const BANG = /^(alias\..+|submodule\..+\.update)$/i;
/**
 * Keys whose value git runs that GIT_SHELL_KEYS leaves out (git-config(1)): shell text
 * (`trailer.*.cmd`, `core.alternateRefsCommand`, `interactive.diffFilter`, `man.*.cmd`,
 * `imap.tunnel`, `gpg.ssh.defaultKeyCommand`) or, PROGRAM, a program run as named (`gpg.program`,
 * `gpg.ssh.program`, `difftool.*.path`, `browser.*.path`). A deny list refuses them, as any key not
 * known to run nothing; under an allow list the value is judged as a command (r5 #7): `bash: git *`
 * is no entry for the `./g` the agent wrote.
 */
const RUNS_VALUE =
  /^(trailer\..+\.(cmd|command)|core\.alternaterefscommand|interactive\.difffilter|man\..+\.cmd|imap\.tunnel|gpg\.ssh\.defaultkeycommand|gpg\.([a-z0-9]+\.)?program|(diff|merge)tool\..+\.path|browser\..+\.path)$/i;
const PROGRAM = /(program|path)$/i;
/** Keys whose value names a file git reads config or hooks from: what it runs is in a file. */
const FILES = /^(include\.path|includeif\..+\.path|core\.hookspath)$/i;
/**
 * What git appends to most commands it runs with the shell (`sh -c 'TEXT "$@"' TEXT ARGS`): the file
 * an editor edits, ssh's host and command, a helper's action, an alias's arguments. Judged with a
 * stand-in for it, `GIT_EDITOR='git config include.path' git commit` is the write of git's config it
 * is, not the read its text alone looks like. Pagers, filters and merge drivers get none.
 */
const APPENDED = " /tmp/git-appends-an-argument";
/** A refusal of such a text, said as the text was written (the stand-in is the checker's, not the command's). */
export const asWritten = (reason: string) => reason.replaceAll(APPENDED, "");
const appended = (name: string) => (/pager|^filter\.|\.driver$|tool\..+\.cmd$/i.test(name) ? "" : APPENDED);
export type Texts = GitText[] | { unknown: string };
/**
 * How far a list trusts git's own options (gitShellTexts). "deny": a deny list, which must see every
 * program git could run, so a key not known to run nothing is refused. "allow": an allow list, whose
 * `*` trusts git's options and never matches a word known only at run time. "control": only hey's
 * and git's own files are guarded (an allow list that lets every command run: `allow = ["bash"]`),
 * so any key may be set, but a command git runs that is known only at run time could write them.
 */
export type GitTrust = "deny" | "allow" | "control";
const RUNTIME = (raw: string) => ({ unknown: `sets a command git runs, known only at run time: \`${raw}\`` });

/**
 * The shell text `git …` hands on, or why some of it cannot be verified. `segments`: the whole
 * command, and `place.home`, for `--config-env`'s HOME; `place.updates`: what git's config makes
 * `git submodule update` run. `trust` (GitTrust): under an allow list or the control
 * checks alone, which trust git's own options (README "What a rule can promise"), a key not known
 * to run nothing, or naming a config file, is no reason to refuse; under an allow list neither is
 * a word known only at run time (a `*` never matches one: only an entry spelling it out does); a
 * glob, or a variable `--config-env` reads, still is.
 */
export function gitShellTexts(
  seg: Segment,
  segments: Segment[],
  trust: GitTrust = "deny",
  place: { home?: string; updates?: ConfigUpdate[] | { unknown: string } } = {},
): Texts {
  const out: GitText[] = [];
  for (const a of seg.assigns) {
    const eq = a.text.indexOf("=");
    if (eq < 0 || !GIT_SHELL_VARS.has(a.text.slice(0, eq))) continue;
    if (a.unknown || a.glob || a.anyValue) {
      if (trust === "allow") continue; // no `*` matches an assignment: only an entry spelling it out
      return RUNTIME(a.raw);
    }
    out.push({ text: a.text.slice(eq + 1) + appended(a.text.slice(0, eq)), from: `sets ${a.text.slice(0, eq)}, which git runs with the shell`, word: a.raw });
  }
  const words = seg.words;
  let k = 1;
  for (; k < words.length; k++) {
    const w = words[k]!;
    if (!known(w) || !w.text.startsWith("-")) break;
    const env = /^--config-env(=|$)/.test(w.text);
    // git runs its programs (`git-mergetool`, the one an unknown subcommand names) from there, and puts it first on PATH for any it starts (x2 #4)
    if (trust === "allow" && w.text.startsWith("--exec-path="))
      return {
        unknown: `sets git's exec path (\`${w.raw}\`): git runs its own programs from that directory, and any program it starts from there first, which no entry names`,
      };
    if (w.text !== "-c" && !env) {
      if (NEXT.has(w.text)) k++;
      continue;
    }
    const value = env && w.text.includes("=") ? { ...w, text: w.text.slice(w.text.indexOf("=") + 1), raw: w.raw.slice(w.raw.indexOf("=") + 1) } : words[++k];
    if (!value) break;
    // `--config-env=KEY=VAR` takes KEY's value from VAR: the user's home for a HOME the command does not set, judged as
    // `-c KEY=HOME's value`; any other the checker does not know: one the command sets, one the shell keeps (`cd src/hk
    // && git --config-env=core.hooksPath=PWD commit`: PWD, OLDPWD), one exported before (r1 #2)
    const home = env && homeValue(value, seg, segments, place.home);
    const setting = home ? gitSetting(home, false, false, trust) : gitSetting(value, env, false, trust);
    if (setting && "unknown" in setting) return setting;
    if (setting) out.push({ ...setting, word: value.raw });
  }
  const sub = readGit(words)?.sub;
  const rest = sub === undefined ? [] : words.slice(sub + 1);
  const more = sub === undefined ? [] : sub === k && words[k]!.text === "config" ? configSet(rest) : subcommandTexts(words[sub]!.text, rest, trust, seg);
  if ("unknown" in more) return more;
  const urls = sub === undefined ? [] : urlCommands(words[sub]!.text, rest);
  if ("unknown" in urls) return urls;
  // `git submodule update`'s `!CMD`s from git's config (submodule-updates.ts), the commit's name appended
  const updates = place.updates ?? [];
  if ("unknown" in updates) return updates;
  const configured = updates.map((u) => ({ text: u.command + APPENDED, from: `runs submodule.${u.name}.update from git's config with the shell` }));
  return [...out, ...more, ...urls, ...configured];
}

/** `--config-env=KEY=HOME` as `KEY=/home/user` when the command sets no HOME; else undefined. */
function homeValue(value: Word, seg: Segment, segments: Segment[], home: string | undefined): Word | undefined {
  const m = /^([^=]+)=HOME$/.exec(value.text);
  if (!m || !home || seg.assigns.some((a) => a.text.startsWith("HOME=")) || segments.some((s) => s !== seg && s.raw.includes("HOME"))) return undefined;
  return { ...value, text: `${m[1]}=${home}`, raw: value.raw };
}

/**
 * Whether `git -c PAIR` runs nothing but what the rules judge: a key whose value git runs with the
 * shell (its text is judged) or one known to run nothing (QUIET), the value known before the
 * command runs. Never an alias (it changes which subcommand runs), a file-naming key, or another.
 */
export function judgedSetting(pair: Word | undefined): boolean {
  if (!known(pair) || /^alias\./i.test(pair.text)) return false;
  const setting = gitSetting(pair, false);
  return !setting || !("unknown" in setting);
}

const CONFIG_VALUED = ["--file", "--blob", "--type", "--default", "--comment", "--value"];
/** `git config [options] [set] KEY VALUE`: a command the next git runs. */
function configSet(args: Word[]): Texts {
  const operands: Word[] = [];
  for (let i = 0; i < args.length; i++) {
    const w = args[i]!;
    if (known(w) && w.text.startsWith("-")) {
      // their value is the next word, the long ones abbreviated too (`--fil F`)
      if (w.text === "-f" || (!w.text.includes("=") && CONFIG_VALUED.some((long) => gitLong(w.text, long, "config")))) i++;
      continue;
    }
    operands.push(w);
  }
  const [key, value] = known(operands[0]) && operands[0].text === "set" ? operands.slice(1) : operands; // git 2.46's `config set`
  if (!key || !value) return [];
  const setting = gitSetting(
    { ...value, text: `${key.text}=${value.text}`, raw: `${key.raw}=${value.raw}`, unknown: key.unknown || value.unknown },
    false,
    true,
  );
  if (!setting) return [];
  return "unknown" in setting ? setting : [setting];
}

/**
 * A `KEY=VALUE` git runs with the shell: its command; a key that runs nothing: undefined; any other
 * key (or one known only at run time): why it cannot be verified. `env`: VALUE names a variable
 * the command sets. `stored`: written by `git config`, where only keys run with the shell count.
 */
function gitSetting(value: Word, env: boolean, stored = false, trust: GitTrust = "deny"): GitText | { unknown: string } | undefined {
  const eq = value.text.indexOf("=");
  // under an allow list too: a hooks directory or config file the agent wrote runs what no entry names (r1 #3)
  const runs = (key: string) =>
    GIT_SHELL_KEYS.test(key) ||
    BANG.test(key) ||
    /^credential\./i.test(key) ||
    (!stored && ((trust !== "control" && FILES.test(key)) || TRANSPORT_KEYS.test(key) || RUNS_VALUE.test(key)));
  if (env || value.unknown || value.glob || value.anyValue) {
    if (trust === "allow" && !env && value.unknown) return undefined;
    // `-c core.pager=$P`, `--config-env=alias.x=VAR`: a command known only at run time; `-c "$CFG"` could be any key
    const key = /^[A-Za-z0-9.-]+(?==)/.exec(env ? value.text : value.raw)?.[0];
    if (key && (QUIET.test(key) || ((stored || trust !== "deny") && !runs(key)))) return undefined;
    return RUNTIME(value.raw);
  }
  const key = (eq < 0 ? value.text : value.text.slice(0, eq)).toLowerCase();
  const v = eq < 0 ? "" : value.text.slice(eq + 1);
  const from = `sets git's ${key}, which git runs with the shell`;
  // a submodule's update that `git config` writes lands in a config the guard keeps the agent from writing (git-config-writes.ts) or in `.gitmodules`, where git refuses `!`
  if (BANG.test(key)) return v.startsWith("!") && !(stored && key.startsWith("submodule.")) ? { text: v.slice(1) + APPENDED, from } : undefined;
  // gitcredentials(7): `!…` is shell text, an absolute path is run as written, anything else is `git credential-…`, all through the shell
  if (/^credential(\..+)?\.helper$/.test(key))
    return v ? { text: (v.startsWith("!") ? v.slice(1) : v.startsWith("/") ? v : `git credential-${v}`) + APPENDED, from } : undefined;
  if (GIT_SHELL_KEYS.test(key)) return { text: v + appended(key), from };
  if (RUNS_VALUE.test(key) && !stored && trust !== "deny")
    return v ? { text: (PROGRAM.test(key) ? singleQuoted(v) : v) + APPENDED, from: `sets git's ${key}, which git runs` } : undefined;
  // a transport: `protocol.ext.allow`, `remote.x.vcs=/x`, `url.ext::….insteadOf`, `remote.x.url=ext::…` (git-transports.ts), under every list
  const transport = stored ? undefined : transportSetting(value.text.slice(0, eq < 0 ? undefined : eq), v, trust === "control");
  if (transport) return transport === "none" ? undefined : transport;
  // `-c core.hooksPath=/dev/null`: no hooks, no file; one in a `.git` (`.git/hooks`) is git's own, which the agent may not write
  if (FILES.test(key) && !stored && trust !== "control" && v !== "/dev/null" && !v.split(/[\\/]/).some((part) => /^\.git$/i.test(part)))
    return { unknown: `sets git's ${key}: git reads commands from files there that the rules cannot see` };
  if (stored || QUIET.test(key) || trust !== "deny" || FILES.test(key)) return undefined;
  return { unknown: `sets git's ${key}, which hey does not know to run nothing` };
}

/**
 * Options of git subcommands whose value is a command git runs with the shell (git-rebase(1),
 * git-ls-remote(1), git-push(1), git-filter-branch(1), git-daemon(1), git-send-email(1)…): long
 * name, short letter. Read however git takes them: abbreviated too (gitLong: `--exe`, `--upload-pa=`).
 */
const COMMAND_OPTIONS: Record<string, [long: string, short?: string][]> = {
  rebase: [["--exec", "x"]],
  // ls-remote's `--exec` is its other name for `--upload-pack` (hidden from its usage)
  "ls-remote": [["--upload-pack", "u"], ["--exec"]],
  fetch: [["--upload-pack"]],
  pull: [["--upload-pack"]],
  clone: [["--upload-pack", "u"]],
  archive: [["--exec"]],
  push: [["--receive-pack"], ["--exec"]],
  "send-pack": [["--receive-pack"], ["--exec"]],
  "fetch-pack": [["--upload-pack"], ["--exec"]],
  difftool: [["--extcmd", "x"]],
  grep: [["--open-files-in-pager", "O"]],
  // each filter is eval'ed by git-filter-branch.sh, `--setup` once before them
  "filter-branch": [
    "--setup",
    "--env-filter",
    "--tree-filter",
    "--index-filter",
    "--parent-filter",
    "--msg-filter",
    "--commit-filter",
    "--tag-name-filter",
  ].map((long) => [long]),
  // run with the shell on every request a client makes
  daemon: [["--access-hook"]],
  instaweb: [
    ["--httpd", "d"],
    ["--browser", "b"],
  ],
  // `--smtp-server=/path` is "a sendmail-like program" it runs (git-send-email(1)); a host name is no command (PROGRAM_ONLY)
  "send-email": [["--sendmail-cmd"], ["--to-cmd"], ["--cc-cmd"], ["--header-cmd"], ["--smtp-server"]],
  // git-svn(1): "--authors-prog=<filename> … the given file is executed", in backquotes (the shell)
  svn: [["--authors-prog"]],
};
/** git's Perl programs, which read their options with Getopt::Long: `-to-cmd` is `--to-cmd`. */
const GETOPT_LONG = new Set(["send-email", "svn"]);
/** Options whose value is a command only when it is a path: send-email's `--smtp-server` is a host otherwise. */
const PROGRAM_ONLY = new Set(["--smtp-server"]);
/**
 * Subcommands that run what the rules cannot see, under an allow list (whose `git *` trusts git's
 * options, not servers): a daemon serves the repositories to any client and runs on after the
 * command; instaweb starts a web server with git's CGI, detached. An entry naming the subcommand
 * (`bash: git daemon *`) is the user's choice (git-allow.ts gitMatches).
 */
export const SERVERS: Record<string, string> = {
  daemon:
    "starts git daemon, which serves repositories to any client on the network and keeps running after the command: what its clients make it do the rules cannot see",
  instaweb: "starts a web server (git instaweb) that keeps running after the command: what it runs the rules cannot see",
};
/** Options that let a subcommand's input (stdin, not the command line) name files it writes or programs it runs. */
const INPUT_WRITES: Record<string, [long: string, why: string][]> = {
  // git-fast-import(1): "feature export-marks=PATH", "import-marks" in the stream name files, allowed only with this option
  "fast-import": [["--allow-unsafe-features", "lets fast-import's input name files it writes (`feature export-marks=PATH`), which the rules cannot see"]],
};
/** git grep reads no option after its first operand (PARSE_OPT_STOP_AT_NON_OPTION); these take the next word as their value. */
const GREP_VALUED = /^(-[efABCm]|--(max-count|max-depth|threads|context|after-context|before-context))$/;
/** Options whose value is optional: only `--name=VALUE` or a glued short option gives one. */
const OPTIONAL = new Set(["--open-files-in-pager"]);

const quote = (w: Word) => singleQuoted(w.text);

/** The commands a subcommand's options give it, and clone's `-c`/`--config` settings. */
function subcommandTexts(sub: string, args: Word[], trust: GitTrust, seg: Segment): Texts {
  const from = `gives git ${sub} a command it runs with the shell`;
  // `git submodule foreach CMD`: one word is shell text, more are a program and its arguments; `git bisect run CMD ARGS`: a program and its arguments
  const at = (name: string) => args.findIndex((w) => known(w) && w.text === name);
  if (sub === "submodule" && at("foreach") >= 0)
    return argvText(
      args.slice(at("foreach") + 1).filter((w, i) => i > 0 || !w.text.startsWith("--")),
      from,
    );
  if (sub === "bisect" && known(args[0]) && args[0].text === "run") return argvText(args.slice(1), from);
  // `git merge-index [-o] [-q] PROGRAM -a`: git runs PROGRAM (no shell) for each unmerged path of the index, which the agent may fill;
  // git's own `git-merge-one-file` (git-merge-index(1)'s example) is `git merge-one-file`, as any `git-NAME` of git's
  if (sub === "merge-index") {
    const program = args.findIndex((w) => !known(w) || !/^-[oq]$/.test(w.text));
    const own = known(args[program]) && /^git-(.+)$/.exec(args[program].text)?.[1];
    if (own && GIT_COMMANDS.has(own)) return [{ text: `git ${own}`, from: "gives git merge-index a program it runs" }];
    return program < 0 ? [] : argvText([args[program]!], `gives git merge-index a program it runs`);
  }
  // git-remote-ext(1): `git remote-ext REMOTE 'CMD ARGS'` runs CMD (an `ext::` URL's command) when its input asks to connect
  if (sub === "remote-ext")
    return argvText(
      args.slice(1, 2).map((w) => ({ ...w, text: w.text.replace(/^ext::/, "") })),
      from,
    );
  for (const [long, why] of INPUT_WRITES[sub] ?? []) {
    if (args.some((w) => known(w) && gitLong(w.text, long, sub))) return { unknown: why };
    // `git fast-import $OPTS`: under a deny list, which must see every program, a word known only at run time could be it
    const hidden = trust === "deny" ? args.find((w) => !fixed(w)) : undefined;
    if (hidden) return { unknown: `\`${hidden.raw}\` is known only at run time and could be \`${long}\`, which ${why}` };
  }
  // git-fast-import(1): the stream's `option git export-pack-edges=FILE` appends to FILE, no option needed (r1 #14)
  if (sub === "fast-import") {
    const stream = seg.piped ? { why: "" } : stdinText(stdinSources(seg));
    if (stream && "text" in stream && /^option git export-pack-edges=/m.test(stream.text))
      return { unknown: "gives git fast-import `option git export-pack-edges=FILE` in its input, which appends to that file where the rules cannot see it" };
    if (stream && "why" in stream)
      return {
        unknown: "gives git fast-import input the checker cannot read (a pipe or a file), where `option git export-pack-edges=FILE` would append to any file",
      };
  }
  const out: GitText[] = [];
  const options = COMMAND_OPTIONS[sub] ?? [];
  for (let i = 0; i < args.length; i++) {
    const w = args[i]!;
    if (sub === "grep" && fixed(w) && !w.text.startsWith("-") && !GREP_VALUED.test(args[i - 1]?.text ?? "")) break;
    if (!fixed(w)) {
      // an operand known only at run time (`git rebase "$BASE"`) is no command unless a deny list must see every program
      if ((options.length || sub === "clone") && !(trust !== "deny" && w.unknown))
        return { unknown: `\`${w.raw}\` is known only at run time where git ${sub} reads an option that runs a command` };
      continue;
    }
    const t = GETOPT_LONG.has(sub) && /^-[^-]./.test(w.text) ? `-${w.text}` : w.text;
    if (t === "--") break;
    // `-c` in a cluster too (`-qc KEY=VALUE`, `-qcKEY=VALUE`), as parse-options reads it
    const glued = sub === "clone" ? gitShort(t, "c", sub) : undefined;
    if (sub === "clone" && (glued !== undefined || gitLong(t, "--config", sub))) {
      const eq = t.indexOf("=");
      const value = glued
        ? { ...w, text: glued, raw: glued }
        : t.startsWith("--") && eq > 0
          ? { ...w, text: t.slice(eq + 1), raw: w.raw.slice(w.raw.indexOf("=") + 1) }
          : args[++i];
      const setting = value && gitSetting(value, false, false, trust);
      if (setting && "unknown" in setting) return setting;
      if (setting) out.push(setting);
      continue;
    }
    for (const [long, short] of options) {
      let value: Word | string | undefined;
      if (t.startsWith("--") && gitLong(t, long, sub)) {
        // `--exec CMD`, `--upload-pa=CMD`: git takes any abbreviation of a long option
        if (t.includes("=")) value = t.slice(t.indexOf("=") + 1);
        else if (!OPTIONAL.has(long)) value = args[++i];
      } else if (short && gitShort(t, short, sub) !== undefined) {
        // in a cluster too (`-qx CMD`): its value glued (`-Orm`, `-xrm`), or the next word
        const glued = gitShort(t, short, sub);
        value = glued || (OPTIONAL.has(long) ? undefined : args[++i]);
      }
      // `difftool -x "$CMD"`: a command known only at run time could write git's or hey's own files
      if (typeof value === "object" && !fixed(value) && trust !== "allow") return RUNTIME(value.raw);
      if (value === undefined || (PROGRAM_ONLY.has(long) && !/^[/~]/.test(typeof value === "string" ? value : value.text))) continue;
      out.push({ text: typeof value === "string" ? value : value.text, from });
      break; // an abbreviation git finds ambiguous (`--t` to filter-branch) takes one value
    }
  }
  return out;
}

function argvText(words: Word[], from: string): Texts {
  if (!words.length) return [];
  if (!words.every(fixed)) return { unknown: `gives git a command known only at run time: \`${words.map((w) => w.raw).join(" ")}\`` };
  return [{ text: words.length === 1 ? words[0]!.text : words.map(quote).join(" "), from }];
}
