// Words as dash and bash read them, for permission decisions (SPEC §8): quoting, escapes, line
// continuations and expansions, without expanding or running anything. The grammar around the
// words (lists, compound commands, redirections, heredocs) is shell-syntax.ts, what they produce
// shell-model.ts. A construct the reader does not model exactly for the dialect is a failure
// (`fail`), which callers refuse.

import { decodeAnsiC, parameterRisk } from "./expansions.ts";
import { ARITHMETIC, deferred, fail, MAX_DEPTH, opaque, syntaxError, type Dialect, type Segment, type Word } from "./shell-model.ts";
import { arithmeticReads, arithmeticRisk } from "./variables.ts";

export interface WordState {
  text: string;
  unknown: boolean;
  glob: boolean;
  anyValue?: boolean;
}
export const scratch = (): WordState => ({ text: "", unknown: false, glob: false });

/**
 * Does `seg`, run in a command substitution, surely print nothing? `true`, `false`, `:`, `exit N`,
 * `unset`, an assignment, and `echo` alone (its newline is stripped) — builtins of both shells, unless
 * the script `text` defines a function of that name — with no redirection.
 */
function silent(seg: Segment, text: string): boolean {
  const [first, ...args] = seg.words;
  if (seg.opaque || seg.redirects.length) return false;
  if (!first) return true;
  const name = first.text.replace(/[^\w]/g, "\\$&");
  if (first.unknown || first.glob || new RegExp(`(?<![\\w-])${name}\\s*\\(|function\\s+${name}(?![\\w-])`).test(text)) return false; // defined anywhere, in an eval string too
  const plain = args.every((w) => !w.unknown && !w.glob && !w.anyValue);
  return (
    ["true", "false", ":"].includes(first.text) ||
    (first.text === "echo" && !args.length) ||
    (plain && (first.text === "unset" || (first.text === "exit" && args.every((w) => /^[0-9]+$/.test(w.text)))))
  );
}

/**
 * What a command substitution's commands surely print, when that is only `cat` of a heredoc whose
 * delimiter is quoted (`"$(cat <<'EOF' … EOF)"`, the commit message form of Claude Code's models):
 * the body as written, without its trailing newlines (the substitution drops them); `<<-` drops each
 * line's leading tabs. Undefined for anything else, or when the script `text` defines a `cat` (where
 * bash 3.x may run the text, the caller also checks that it ends the substitution at the same `)`: scannedEnd).
 */
function printedHeredoc(segs: Segment[], text: string): string | undefined {
  const [seg, more] = segs;
  const [first, ...args] = seg?.words ?? [];
  const [r, other] = seg?.redirects ?? [];
  if (!seg || more || seg.opaque || seg.assigns.length || !first || args.length || first.raw !== "cat" || !r || other) return undefined;
  if (!/^<<-?$/.test(r.op) || !/['"\\]/.test(r.target.raw) || r.body === undefined || /(?<![\w-])cat\s*\(|function\s+cat(?![\w-])/.test(text)) return undefined;
  return (r.op === "<<-" ? r.body.replace(/^\t+/gm, "") : r.body).replace(/\n+$/, "");
}

/**
 * Where bash 3.2 (macOS's bash and sh) ends the `$(…)` whose text starts at `from`: it scans for the
 * `)`, counting parentheses and skipping quotes, and reads a heredoc body as more text, so a `)` or
 * a quote in a body can move the end (and what follows, quoted or code, with it). -1: it runs out,
 * or meets `$'`/`$"`, whose quoting this scan does not model.
 */
export function scannedEnd(s: string, from: number, close = ")"): number {
  let depth = 1;
  for (let i = from; i < s.length; i++) {
    const c = s[i]!;
    if (c === "\\") i++;
    else if (c === "$" && (s[i + 1] === "'" || s[i + 1] === '"')) return -1;
    else if (close === '"' && c === '"') return i;
    else if (c === "$" && s[i + 1] === "(") i = scannedEnd(s, i + 2);
    else if (close === ")" && c === "'") i = s.indexOf("'", i + 1);
    else if (close === ")" && c === '"') i = scannedEnd(s, i + 1, '"');
    else if (c === "`") i = s.indexOf("`", i + 1);
    else if (close === ")" && c === "(") depth++;
    else if (close === ")" && c === ")" && --depth === 0) return i;
    if (i < 0) return -1;
  }
  return -1;
}

/** Blanks and operators end an unquoted word. */
export const META = " \t\n;&|()<>";
// Characters after which `at` looks no further: what follows is read raw (quoted, escaped, a
// comment, a heredoc body), where a backslash-newline is not a line continuation.
const OPENERS = "'\\#\n`";
/** What `at` returns beyond an opener; the text never holds NUL (control characters are refused). */
const OPAQUE = "\0";
const SPECIAL_PARAMETER = /^[0-9@*#?$!-]$/;

/**
 * Reads words from `s`, pushing the commands found inside them (substitutions) to `out`. Line
 * continuations are removed as the shell does, while reading: before each character read outside
 * single quotes, comments and heredoc bodies (so `$\⏎(` is `$(`, and `'a\⏎b'` keeps both).
 */
export abstract class WordReader {
  protected i = 0;
  /** open `$(…)` and `<(…)`: bash 3.2 (macOS) finds their end by scanning, comments and all */
  protected substitutions = 0;
  /** where in `out` each subshell's and substitution's commands are: a `cd` there moves no command after it */
  protected subshells: [number, number][] = [];
  /** the last unquoted `$(…)` read, and whether it surely prints nothing */
  private silent?: { start: number; end: number; silent: boolean };

  constructor(
    protected s: string,
    protected level: number,
    protected readonly out: Segment[],
    protected readonly dialect: Dialect,
    /** bash 3.x (macOS's bash and sh) may run the text, which finds a `$(…)`'s end by scanning (scannedEnd) */
    protected readonly bash3 = true,
  ) {
    if (level > MAX_DEPTH) fail("nested too deeply");
  }

  /** Commands up to `close` (consumed), one level deeper: `$(…)`, `<(…)`, `(…)`, `{…}`; `fed`: they read a pipe (`>(…)`). */
  protected abstract sub(close: ")" | "}", fed?: boolean): void;
  /** The commands of `src` (a backtick substitution's text), one level deeper. */
  protected abstract script(src: string): void;

  /** The character `k` places ahead, continuations removed up to it; OPAQUE past an opener. */
  protected at(k = 0): string {
    let p = this.i;
    for (let j = 0; ; j++) {
      this.join(p);
      const c = this.s[p] ?? "";
      if (j === k) return c;
      if (c === "" || OPENERS.includes(c)) return OPAQUE;
      p++;
    }
  }

  /** The characters from here while `ok` accepts them, continuations removed; stops at an opener. */
  protected span(ok: (c: string) => boolean): string {
    let text = "";
    for (let p = this.i; ; p++) {
      this.join(p);
      const c = this.s[p] ?? "";
      if (c === "" || OPENERS.includes(c) || !ok(c)) return text;
      text += c;
    }
  }

  /** Removes the line continuations at `p` (only ever where the shell reads with continuations removed). */
  private join(p: number): void {
    while (this.s[p] === "\\" && this.s[p + 1] === "\n") this.s = this.s.slice(0, p) + this.s.slice(p + 2);
  }

  protected procSub(): boolean {
    return (this.at() === "<" || this.at() === ">") && this.at(1) === "(";
  }

  protected word(): Word {
    const start = this.i;
    const w = scratch();
    let bracket = false; // an unquoted [ seen: a later ] makes a glob
    let brace = 0; // 1: unquoted { seen, 2: then , or .. — a later } makes a brace expansion
    for (let c = this.at(); c !== "" && (!META.includes(c) || this.procSub()); c = this.at()) {
      if (this.procSub()) {
        if (this.dialect === "dash") syntaxError("dash reads `<(` or `>(` as a redirection without a target");
        const from = this.i;
        const fed = c === ">"; // `>(python3)` reads what the command writes there, as `| python3` would
        this.i += 2;
        this.substitution(fed);
        w.text += this.s.slice(from, this.i);
        w.glob = w.anyValue = true; // a file name (/dev/fd/63): data, whatever its value
      } else if (c === "\\") {
        w.text += this.s[this.i + 1] ?? "\\"; // a backslash ending the text stays itself (dash and bash)
        this.i += 2;
      } else if (c === "'") w.text += this.single();
      else if (c === '"') {
        this.i++;
        this.quoted(w, false);
      } else if (c === "`") this.backtick(w, false);
      else if (c === "$") this.dollar(w, true);
      else {
        if (c === "*" || c === "?" || (c === "]" && bracket) || (c === "}" && brace === 2)) w.glob = true;
        // bash expands `~` after `=` or `:` in any word (`make prefix=~/x`); dash only at the start
        if (c === "~" && this.dialect === "bash" && /[=:]$/.test(w.text) && !w.unknown && this.s[this.i - 1] === w.text.at(-1)) w.unknown = true;
        // and `~+`, `~-`, `~N`, `~+N`, `~-N` leading a word are $PWD, $OLDPWD and the directory stack's
        // entries: a directory known only at run time, an absolute path (no option) like `<(…)`'s
        if (c === "~" && this.dialect === "bash" && this.i === start && /^~(?:[+-]\d*|\d+)(?=$|[/\s;&|()<>])/.test(this.s.slice(this.i)))
          w.glob = w.anyValue = true;
        bracket ||= c === "[";
        if (c === "{" && !brace) brace = 1;
        if (brace === 1 && (c === "," || (c === "." && this.at(1) === "."))) brace = 2;
        w.text += c;
        this.i++;
      }
    }
    if (this.i === start) fail(`unexpected \`${this.at() || "end"}\``);
    // a word that is only `$(…)` printing nothing expands to no word at all: `$(false)` runs no command
    const empty = this.silent?.start === start && this.silent.end === this.i && this.silent.silent;
    return { ...w, raw: this.s.slice(start, this.i), ...(empty ? { empty } : {}) };
  }

  private substitution(fed = false): void {
    this.substitutions++;
    const from = this.out.length;
    this.sub(")", fed);
    this.subshells.push([from, this.out.length]);
    this.substitutions--;
  }

  /** The source from `from` to here was an expansion: the word's value is known only at run time. */
  protected expanded(w: WordState, from: number): void {
    w.text += this.s.slice(from, this.i);
    w.unknown = true;
  }

  /** '…' at the current position, read raw; returns its content. */
  private single(): string {
    const end = this.s.indexOf("'", this.i + 1);
    if (end < 0) syntaxError("unbalanced quote");
    const text = this.s.slice(this.i + 1, end);
    this.i = end + 1;
    return text;
  }

  /** The whole text as an unquoted heredoc's body: it expands like a double-quoted string (its syntax errors surface only when it expands). */
  quotedBody(): void {
    deferred(() => this.quoted(scratch(), true));
  }

  /** Inside "…" (the opening quote consumed), or a heredoc body up to the end of the text. */
  protected quoted(w: WordState, heredoc: boolean): void {
    for (let c = this.at(); heredoc || c !== '"'; c = this.at()) {
      const n = this.s[this.i + 1] ?? "";
      if (c === "") return heredoc ? undefined : syntaxError("unbalanced quote");
      if (c === "\\" && n !== "" && ("$`\\".includes(n) || (n === '"' && !heredoc))) {
        w.text += n;
        this.i += 2;
      } else if (c === "`") this.backtick(w, !heredoc);
      else if (c === "$") this.dollar(w, false);
      else {
        w.text += c;
        this.i++;
      }
    }
    this.i++;
  }

  /** `…`: its text is read with continuations removed (even inside quotes), unescaped, then parsed. */
  private backtick(w: WordState, inDoubleQuotes: boolean): void {
    const start = this.i++;
    let inner = "";
    for (let c = this.at(); c !== "`"; c = this.at()) {
      const n = this.s[this.i + 1] ?? "";
      if (c === "") syntaxError("unterminated backtick");
      const escaped = c === "\\" && (n === "$" || n === "`" || n === "\\" || (inDoubleQuotes && n === '"'));
      inner += escaped ? n : c;
      this.i += escaped ? 2 : 1;
    }
    this.i++;
    deferred(() => this.script(inner)); // bash parses a backtick's text only when it runs
    this.expanded(w, start);
  }

  /** At a `$`: an expansion or a literal dollar. `bare`: not inside double quotes or a heredoc body. */
  private dollar(w: WordState, bare: boolean): void {
    const start = this.i;
    const n = this.at(1);
    if (n === "(" && this.at(2) === "(") {
      this.i++;
      this.arithmeticBody(start);
    } else if (n === "(" || n === "{") {
      this.i += 2;
      const from = this.out.length;
      if (n === "(")
        deferred(() => this.substitution()); // bash 3.2 parses `$(…)` only when it runs
      else this.parameter(bare);
      if (n === "(" && bare) this.silent = { start, end: this.i, silent: this.out.slice(from).every((seg) => silent(seg, this.s)) };
      // inside double quotes the text is one word as printed: known when the commands surely print it
      // (and bash 3.x, where it may run, ends the substitution at the same `)`)
      const ends = !this.bash3 || this.dialect === "dash" || scannedEnd(this.s, start + 2) === this.i - 1;
      const printed = n === "(" && !bare && ends ? printedHeredoc(this.out.slice(from), this.s) : undefined;
      if (printed !== undefined) return void (w.text += printed);
    } else if (bare && n === "'") return this.ansiC(w);
    else if (bare && n === '"' && this.dialect === "dash") {
      w.text += "$"; // dash reads $"…" as a literal $ and a quoted string
      this.i++;
      return;
    } else if (bare && n === '"') {
      this.i += 2;
      this.quoted(scratch(), false); // $"…": translated by bash
    } else if (n === "[" && this.dialect === "bash") fail("bash's `$[…]` arithmetic");
    else if (SPECIAL_PARAMETER.test(n)) this.i += 2;
    else if (/^[A-Za-z_]$/.test(n)) {
      this.i++;
      this.i += this.span((c) => /[A-Za-z0-9_]/.test(c)).length;
    } else {
      w.text += "$";
      this.i++;
      return;
    }
    this.expanded(w, start);
  }

  /** ${…}: its default/alternative words may hold substitutions (`${X:-$(rm x)}`). */
  private parameter(bare: boolean): void {
    const start = this.i;
    for (let c = this.at(); c !== "}"; c = this.at()) {
      if (c === "") syntaxError("unterminated ${");
      else if (c === "\\") this.i += 2;
      else if (c === "'" && !bare) fail("single quote inside ${…} in double quotes");
      else if (c === "'") this.single();
      else if (c === '"') {
        this.i++;
        this.quoted(scratch(), false);
      } else if (c === "`") this.backtick(scratch(), !bare);
      else if (c === "$") this.dollar(scratch(), bare);
      else this.i++;
    }
    const body = this.s.slice(start, this.i);
    this.i++;
    const text = "${" + body + "}";
    const subscript = /^#?[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])/.exec(body);
    if (subscript) this.arithmetic(start + subscript[0].length - subscript[1]!.length, start + subscript[0].length);
    const risk = parameterRisk(body, (array, names) => this.readsVariables(text, start - 2, names, array));
    if (risk) this.out.push(opaque(text, risk));
  }

  /**
   * `((…))` from the current position (at its first `(`), for `$((…))` (`start` at the `$`), bash's
   * `((…))` command and `for ((…))`. bash reads `$((a) && b)` as a command substitution, so anything
   * but a clean `))` fails. An assignment to a name that decides what runs makes the rest unknown;
   * bash evaluates a variable's value in arithmetic as an expression, array subscripts and their
   * `$(…)` included, so arithmetic naming a variable runs unknown code there.
   */
  protected arithmeticBody(start: number): string {
    const open = this.i;
    this.i += 2;
    for (let depth = 2; depth > 1; ) {
      const c = this.at();
      if (c === "") syntaxError("unterminated `((`");
      if ("`'\"\\".includes(c) || (c === "$" && this.at(1) === "(")) fail("substitution or quote inside `(( ))`");
      this.i++;
      depth += c === "(" ? 1 : c === ")" ? -1 : 0;
    }
    if (this.at() !== ")") fail("ambiguous `((`; write `( (…) )` for a subshell");
    this.i++;
    const text = this.s.slice(start, this.i);
    const inner = this.s.slice(open + 2, this.i - 2);
    this.arithmetic(start, this.i);
    const reads = this.dialect === "bash" ? arithmeticReads(inner) : [];
    const risk = arithmeticRisk(inner) ?? (reads ? undefined : ARITHMETIC);
    if (risk) this.out.push(opaque(text, risk));
    else if (reads!.length) this.readsVariables(text, start, reads!);
    return text;
  }

  /** Arithmetic found from `start` to `end` in the text (the whole script's reader keeps where). */
  protected arithmetic(_start: number, _end: number): void {}

  /**
   * Arithmetic `text` at `at` reads the variables `names` (undefined: what the checker cannot know),
   * whose values bash evaluates as code; as `array`'s subscript, it is no arithmetic if that array
   * is associative (see ConditionalReader).
   */
  protected abstract readsVariables(text: string, at: number, names: string[] | undefined, array?: string): void;

  /**
   * $'…'. bash decodes its escapes, so the value is known. dash before 0.5.13 (Debian 12) reads a
   * literal `$` and a single-quoted string, newer dash reads it as bash does: the word is one of two
   * data words, which a `*` may match and a literal may not (marked like a glob). Where a `\'`
   * would end the string at different places in the two dash readings, the checker cannot say.
   */
  private ansiC(w: WordState): void {
    const start = this.i;
    let end = this.i + 2;
    for (; this.s[end] !== "'"; end += this.s[end] === "\\" ? 2 : 1) {
      if (end >= this.s.length) syntaxError("unbalanced quote");
      if (this.dialect === "dash" && this.s[end] === "\\" && this.s[end + 1] === "'") fail("`$'…\\'…'` ends at different places across dash versions");
    }
    this.i = end + 1;
    if (this.dialect === "dash") {
      w.text += this.s.slice(start, this.i);
      w.glob = w.anyValue = true;
    } else w.text += decodeAnsiC(this.s.slice(start + 2, end));
  }
}
