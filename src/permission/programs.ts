// What some programs do with their words (SPEC §8), beyond the wrappers of wrappers.ts (and git,
// git.ts): where `find` runs a command, which programs run their arguments through their
// own interpreters or a shell the rules cannot see, and which programs never run their words. Words
// decided at run time (globs, braces, expansions, input) count as any word they could become. Pure.
import { fixed, known, type Word } from "./shell-model.ts";

/**
 * A shell glob as a RegExp over one word, case-insensitive (bash's nocaseglob): `*`, `?`, `[…]`
 * (with `!` or `^` negation); a bracket that does not close is a literal `[`.
 */
const globRegExp = (glob: string): RegExp => new RegExp(`^${globSource(glob)}$`, "i");

/**
 * The RegExp source of `glob` (`*`, `?`, `[…]` with `!` or `^` negation; a bracket that does not
 * close is a literal `[`); `escapes`: a backslash quotes the character after it, as find's `-name` reads it.
 */
export function globSource(glob: string, escapes = false): string {
  let re = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (escapes && c === "\\" && i + 1 < glob.length) re += glob[++i]!.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");
    else if (c === "*") re += "[^]*";
    else if (c === "?") re += "[^]";
    else if (c === "[") {
      const close = glob.indexOf("]", i + (/[!^]/.test(glob[i + 1] ?? "") ? 3 : 2));
      if (close < 0) re += "\\[";
      else {
        let body = glob.slice(i + 1, close);
        const negate = /^[!^]/.test(body);
        if (negate) body = body.slice(1);
        re += `[${negate ? "^" : ""}${body.replace(/[\\\]^]/g, "\\$&")}]`;
        i = close;
      }
    } else re += c.replace(/[.+?^${}()|[\]\\/-]/g, "\\$&");
  }
  return re;
}

/**
 * Could `w` be (or, expanded, produce a word equal to) one of `literals`? A literal word is what it
 * says; an expansion or input could be anything; a glob only what it matches; a brace expansion
 * (bash) any words at all.
 */
export function couldBe(w: Word, literals: string[]): boolean {
  if (fixed(w)) return literals.includes(w.text);
  if (w.unknown || w.anyValue) return true;
  if (/\{[^]*(,|\.\.)[^]*\}/.test(w.text)) return true;
  const re = globRegExp(w.text);
  return literals.some((l) => re.test(l));
}

/**
 * Could `w`, a word known only at run time, expand to a word that begins with one of `prefixes` (an
 * option's name: `--out` for git's `--output=FILE`)? An expansion or input could be anything, a
 * brace expansion any words; a glob only what its pieces before its first `*` let begin, so `*.md`
 * and `[-]*` could be any option (a file may be named `--output=README.md`), and `src/*` and
 * `[a-z]*` none.
 */
export function couldBegin(w: Word, prefixes: string[]): boolean {
  if (fixed(w)) return prefixes.some((p) => w.text.startsWith(p));
  if (w.dashless && prefixes.every((p) => p.startsWith("-"))) return false;
  if (w.unknown || /\{[^]*(,|\.\.)[^]*\}/.test(w.text)) return true;
  // input filled in (xargs, `find -exec … {}`) could be anything; dash's `$'…'` begins with `$` (or is
  // bash's reading, judged on its own), `<(…)` and `~+` are paths
  if (w.anyValue && !/^(\$'|[<>]\(|~)/.test(w.text)) return true;
  return prefixes.some((p) => globCouldBegin(w, p));
}

/** The pieces of a glob, each matching one character (a letter, `?`, a `[…]` class), or a `*`. */
function globPieces(glob: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < glob.length; i++) {
    const close = glob[i] === "[" ? classEnd(glob, i) : -1;
    out.push(close < 0 ? glob[i]! : glob.slice(i, close + 1));
    if (close >= 0) i = close;
  }
  return out;
}

/** Where the class opened at `open` closes: past a leading `!`/`^` and `]`, and past `[:alpha:]`-style names; -1: a literal `[`. */
function classEnd(glob: string, open: number): number {
  let i = open + 1 + (/[!^]/.test(glob[open + 1] ?? "") ? 1 : 0);
  if (glob[i] === "]") i++;
  for (; i < glob.length; i++) {
    if (glob[i] === "]") return i;
    const named = /^\[([:=.])/.exec(glob.slice(i))?.[1];
    const end = named ? glob.indexOf(`${named}]`, i + 2) : -1;
    if (end >= 0) i = end + 1;
  }
  return -1;
}

/** POSIX classes that hold no `-` (punct, graph and print do). */
const NO_DASH_CLASS = /\[:(alpha|alnum|digit|upper|lower|xdigit|space|blank|cntrl):\]/g;

/** Whether one piece of a glob can match the character `c`; `quoted`: the word had quotes, which may have made a class's `-` literal. */
function pieceMatches(piece: string, c: string, quoted: boolean): boolean {
  if (!piece.startsWith("[") || piece.length < 3) return piece === "?" || piece.toLowerCase() === c.toLowerCase();
  if (quoted || /^\[[!^]/.test(piece)) return true;
  const body = piece.slice(1, -1).replace(NO_DASH_CLASS, "");
  if (/\[[:=.]/.test(body)) return true; // another named class, an equivalence class or a collating element
  return body === "" ? false : globRegExp(`[${body}]`).test(c);
}

/**
 * Could the glob match a word beginning with `prefix`? Each of the prefix's characters must fit the
 * piece at its place until a `*`, which takes the rest: `[a-z]*` and `src/*` cannot begin `-`, `*.ts`
 * and `[-a]*` can.
 */
function globCouldBegin(w: Word, prefix: string): boolean {
  const pieces = globPieces(w.text);
  const quoted = /['"\\]/.test(w.raw);
  for (let i = 0; i < prefix.length; i++) {
    const piece = pieces[i];
    if (piece === undefined) return false;
    if (piece === "*") return true;
    if (!pieceMatches(piece, prefix[i]!, quoted)) return false;
  }
  return true;
}

const FIND_EXEC = ["-exec", "-execdir", "-ok", "-okdir"];

/** `find`'s words read: its own, the commands its `-exec` family runs (`elsewhere`: in each file's directory, by `-execdir`/`-okdir`), or why the checker cannot tell. */
export type FindRead = { own: Word[]; commands: { words: Word[]; elsewhere: boolean; at: number }[] } | { opaque: string };

/**
 * GNU find reads its whole expression before it runs anything: an `-exec` without its `;` (or `{} +`)
 * is an error, and nothing runs. A word decided at run time that could be an `-exec`-family
 * primary, or end one early (a glob matching a file named `;`), makes the commands unknown.
 */
export function readFind(words: Word[]): FindRead {
  const own: Word[] = [words[0]!];
  const commands: { words: Word[]; elsewhere: boolean; at: number }[] = [];
  for (let k = 1; k < words.length; k++) {
    const w = words[k]!;
    if (!known(w) || !FIND_EXEC.includes(w.text)) {
      if (couldBe(w, FIND_EXEC)) return { opaque: `\`${w.raw}\` is known only at run time and could be find's \`-exec\`` };
      own.push(w);
      continue;
    }
    let end = k + 1;
    for (; end < words.length; end++) {
      const [prev, cur] = [words[end - 1]!, words[end]!];
      if (known(cur) && (cur.text === ";" || (cur.text === "+" && known(prev) && prev.text === "{}"))) break;
      if (couldBe(cur, [";"]) || (couldBe(cur, ["+"]) && couldBe(prev, ["{}"])))
        return { opaque: `\`${cur.raw}\` is known only at run time and could end find's \`${w.text}\`` };
    }
    if (end >= words.length) return { own: words, commands: [] }; // find: missing argument to `-exec': runs nothing
    commands.push({ words: words.slice(k + 1, end), elsewhere: w.text.endsWith("dir"), at: k });
    k = end;
  }
  return { own, commands };
}

/** find's start points: the words after its own options (`-H`, `-L`, `-P`, `-D LIST`, `-O3`) up to the expression; none: `.`. */
export function findStarts(words: Word[]): Word[] {
  let k = 1;
  for (; k < words.length && known(words[k]) && /^-([HLP]+|D|O\d*)$/.test(words[k]!.text); k++) if (words[k]!.text === "-D") k++;
  const starts: Word[] = [];
  // a word known only at run time could be a start point or the expression's first: counted as a start point
  for (; k < words.length && !(known(words[k]) && (/^-./.test(words[k]!.text) || ["(", "!", ")", ","].includes(words[k]!.text))); k++) starts.push(words[k]!);
  return starts.length ? starts : [{ text: ".", raw: ".", unknown: false, glob: false }];
}

/** Programs that never run a word of their command line as a command (options that could are left out: `sort --compress-program`, `diff3 --diff-program`). */
export const DATA_PROGRAMS = new Set(
  (
    "[,b2sum,base32,base64,basename,cal,cat,chgrp,chmod,chown,cksum,cmp,column,comm,cp,cut,date,df,diff,dirname,du,echo,egrep,expr,false,fgrep,file,fold,grep,head," +
    "hexdump,hostname,id,jq,join,ln,ls,md5sum,mkdir,mv,nl,od,paste,printf,pwd,readlink,realpath,rev,rmdir,seq,sha1sum,sha256sum,sha512sum,sleep,stat,strings,tac,tail,tee,test," +
    "touch,tr,true,uname,uniq,wc,whoami,xxd,yes"
  ).split(","),
);

/**
 * Programs that run what they are given in a way the checker does not model: through a shell or
 * their own command language (`tmux new-session 'cmd'`, `screen cmd`, `parallel`), from options
 * (`start-stop-daemon --exec`, `capsh -- ARGS`), as a profiler (`perf stat cmd`), or later, from a
 * job read from stdin or a file (`at`, `batch`, `crontab`). Returns why, or undefined for the forms
 * that run nothing (`tmux ls`, `capsh --print`, `perf report`, `at -l`, `crontab -l`).
 */
export function runsUnseen(name: string, words: Word[]): string | undefined {
  const args = words.slice(1);
  const text = args.map((w) => (known(w) ? w.text : "\0"));
  const why = `\`${name}\` runs a command the checker does not model`;
  switch (name) {
    case "tmux": {
      // `#(…)` in a format runs a shell command; most commands take one or run one
      const safe =
        /^(ls|list-sessions|list-windows|lsw|list-panes|lsp|list-clients|lsc|has-session|has|kill-session|kill-server|kill-window|killw|kill-pane|killp|-V)$/;
      return text.length && safe.test(text[0]!) && !text.some((t) => t === "\0" || t.includes("#(") || t === ";" || t.endsWith("\\;")) ? undefined : why;
    }
    case "screen":
      return text.length === 1 && /^(-ls|-list|-wipe|-v|--version|-h|--help)$/.test(text[0]!) ? undefined : why;
    case "capsh":
      return text.some((t) => t === "\0" || t === "--" || t === "==" || t.startsWith("--shell")) ? why : undefined;
    case "perf":
      return /^(stat|record|trace|ftrace|kvm|sched|lock|mem|c2c|kmem|kwork|timechart|script|test|bench)$/.test(text[0] ?? "") || text[0] === "\0"
        ? why
        : undefined;
    // a job read from stdin or a file, run later by atd or cron: the listing, printing and removing forms run nothing
    case "at":
      return text.some((t) => /^-[lrdcV]+$/.test(t)) && !text.includes("\0") ? undefined : why;
    case "crontab":
      return text.some((t) => /^-[lr]$/.test(t)) && !text.includes("\0") ? undefined : why;
    case "batch":
    case "start-stop-daemon":
    case "parallel":
    case "systemd-run":
    case "firejail":
    case "bwrap":
    case "proot":
    case "nsjail":
    case "schroot":
    case "xvfb-run":
    case "expect":
      return why;
  }
  return undefined;
}
