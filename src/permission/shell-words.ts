// A POSIX-sh reader for permission decisions (SPEC §8): it finds every simple command a command
// line can run, without expanding or running anything. It is not an interpreter and not a full
// parser: whatever it cannot read with confidence is a failure, which callers refuse.

export interface Word {
  /** the value with quotes removed and backslash escapes resolved; expansions stay as written */
  text: string;
  /** the source text */
  raw: string;
  /** holds an expansion ($VAR, ${…}, $(…), `…`, $((…)), $'…', <(…)): the value is known only at run time */
  unknown: boolean;
  /**
   * holds an unquoted glob (* ? […]) or brace expansion, or is an argument filled from input
   * (`xargs`, `find -exec … {}`): the shell or the program may turn it into other words
   */
  glob: boolean;
}

/** `op` keeps a non-default fd: ">", "2>", ">>", ">|", "<", "<>", "&>", "&>>", "2>&", "<&", "<<", "<<-", "<<<". */
export interface Redirect {
  op: string;
  target: Word;
}

/** One simple command. */
export interface Segment {
  /** source text, for messages */
  raw: string;
  /** leading NAME=value words: they change what the command does (PATH=., GIT_SSH_COMMAND=…) */
  assigns: Word[];
  words: Word[];
  redirects: Redirect[];
  /** found inside another command: substitution, subshell, group, `sh -c`/eval string, wrapped command */
  nested: boolean;
}

export type Parsed = { ok: true; segments: Segment[] } | { ok: false; reason: string };

/** Syntax only: every simple command, including those in substitutions, subshells and groups. */
export function parseSyntax(src: string): Parsed {
  return attempt(() => syntax(src, 0, false));
}

/** A leading `NAME=value` (or `NAME+=value`) word: an assignment, not a command. */
export const ASSIGN = /^[A-Za-z_][A-Za-z0-9_]*\+?=/;

export const MAX_DEPTH = 8; // deeper than any real command line; bounds pathological input
const META = " \t\n;&|()<>";
const NAME = /[A-Za-z_][A-Za-z0-9_]*/y;
const RESERVED = /(?:if|then|else|elif|fi|do|done|while|until|for|select|case|esac|function|coproc|in|\{|\}|!|\[\[|\]\])(?=[\s;&|()<>]|$)/y;
const STRIPPED = new Set(["!", "if", "then", "else", "elif", "do", "while", "until"]); // they only precede a command
const OPERATOR = /&&|\|\||\|&|;;|;&|[;&|]/y;
const REDIRECT = /(?:(\d+)(?=[<>]))?(&>>|&>|>>|>\||>&|<<<|<<-|<<|<&|<>|>|<)/y;

class ParseError extends Error {}
/** Throws the error `attempt` turns into `{ ok: false, reason }`. */
export const fail = (reason: string): never => {
  throw new ParseError(reason);
};
const unterminated = (delim: string) => `unterminated heredoc (no \`${delim}\` line)`;

/** Runs a parse; a ParseError thrown by `fail` becomes `{ ok: false, reason }`. */
export function attempt(run: () => Segment[]): Parsed {
  try {
    return { ok: true, segments: run() };
  } catch (e) {
    if (e instanceof ParseError) return { ok: false, reason: e.message };
    throw e;
  }
}

/** The simple commands of `src` at nesting `depth`; throws ParseError (see `attempt`). */
export function syntax(src: string, depth: number, nested: boolean): Segment[] {
  // \r, NUL, escape sequences…: not separators to sh, but they hide what the text says
  if (/[\x00-\x08\x0b-\x1f\x7f]/.test(src)) fail("control character in the command");
  const out: Segment[] = [];
  new Reader(src, depth, out).list("", nested);
  return out;
}

interface WordState {
  text: string;
  unknown: boolean;
  glob: boolean;
}
const scratch = (): WordState => ({ text: "", unknown: false, glob: false });

/** Reads `s`, pushing every simple command found (nested ones first) to `out`; throws ParseError. */
class Reader {
  private i = 0;
  private heredocs: { delim: string; strip: boolean; expand: boolean }[] = [];

  constructor(
    private readonly s: string,
    private level: number,
    private readonly out: Segment[],
  ) {
    if (level > MAX_DEPTH) fail("nested too deeply");
  }

  private at(k = 0): string {
    return this.s[this.i + k] ?? "";
  }

  private match(re: RegExp): string {
    re.lastIndex = this.i;
    return re.exec(this.s)?.[0] ?? "";
  }

  private procSub(): boolean {
    return (this.at() === "<" || this.at() === ">") && this.at(1) === "(";
  }

  /** Commands up to `close` (")" or "}", consumed) or the end of the text. */
  list(close: "" | ")" | "}", nested: boolean): void {
    let pending = ""; // an operator still waiting for its command
    for (;;) {
      this.blanks();
      const c = this.at();
      const closing = close === ")" ? c === ")" : close === "}" && this.match(RESERVED) === "}";
      if (c === "\n") {
        this.i++;
        this.readHeredocs();
      } else if (c === "" || closing) {
        if (pending) fail(`nothing after \`${pending}\``);
        if (close && !closing) fail(`missing \`${close}\``);
        if (this.heredocs[0]) fail(unterminated(this.heredocs[0].delim));
        this.i += close.length;
        return;
      } else {
        this.command(nested);
        this.blanks();
        const op = this.match(OPERATOR);
        if (op === ";;" || op === ";&") fail("unsupported shell syntax `;;`");
        if (!op && !["", "\n", ")"].includes(this.at())) fail(`unexpected \`${this.at()}\``);
        this.i += op.length;
        pending = ["&&", "||", "|", "|&"].includes(op) ? op : "";
      }
    }
  }

  /** One simple command; a subshell, group or keyword yields its inner commands instead. */
  private command(nested: boolean): void {
    const start = this.i;
    let from = start; // the raw text starts after keywords that only precede the command
    const seg: Segment = { raw: "", assigns: [], words: [], redirects: [], nested };
    let compound = false; // after `)`, `}`, `fi`, `done`: only redirections may follow
    let header = false; // `for NAME in WORDS` runs nothing itself
    for (;;) {
      this.blanks();
      const c = this.at();
      if (c === "" || "\n;)|".includes(c) || (c === "&" && this.at(1) !== ">")) break;
      const first: boolean = !seg.assigns.length && !seg.words.length && !seg.redirects.length && !compound && !header;
      const kw: string = first ? this.match(RESERVED) : "";
      if (first && c === "(") {
        if (this.at(1) === "(") fail("unsupported shell syntax `((`");
        this.i++;
        this.sub(")");
        compound = true;
      } else if (kw) {
        this.i += kw.length;
        if (kw === "{") this.sub("}");
        else if (kw === "for" || kw === "select") header = true;
        else if (!STRIPPED.has(kw) && kw !== "fi" && kw !== "done") fail(`unsupported shell syntax \`${kw}\``);
        compound = kw === "{" || kw === "fi" || kw === "done";
        from = this.i;
      } else if (c === "(") fail("unexpected `(`");
      else if (!this.redirect(seg)) {
        if (compound) fail("unexpected word after a compound command");
        const w = this.word();
        (!seg.words.length && ASSIGN.test(w.raw) ? seg.assigns : seg.words).push(w);
      }
    }
    if (this.i === start) fail(`unexpected \`${this.at()}\``);
    if (header) seg.assigns = seg.words = [];
    seg.raw = this.s.slice(from, this.i).trim();
    if (seg.assigns.length || seg.words.length || seg.redirects.length) this.out.push(seg);
  }

  private sub(close: ")" | "}"): void {
    if (++this.level > MAX_DEPTH) fail("nested too deeply");
    this.list(close, true);
    this.level--;
  }

  /** Spaces, tabs, line continuations and comments (only ever called where a token may start). */
  private blanks(): void {
    for (;;) {
      const c = this.at();
      if (c === " " || c === "\t") this.i++;
      else if (c === "\\" && this.at(1) === "\n") this.i += 2;
      else if (c === "#") while (this.at() !== "" && this.at() !== "\n") this.i++;
      else return;
    }
  }

  private redirect(seg: Segment): boolean {
    if (this.procSub()) return false;
    REDIRECT.lastIndex = this.i;
    const m = REDIRECT.exec(this.s);
    if (!m) return false;
    const [all, fd = "", op = ""] = m;
    this.i += all.length;
    this.blanks();
    if (this.at() === "" || (META.includes(this.at()) && !this.procSub())) fail(`missing target after \`${all}\``);
    const target = this.word();
    seg.redirects.push({ op: (fd === (op.startsWith("<") ? "0" : "1") ? "" : fd) + op, target });
    if (op === "<<" || op === "<<-") this.heredocs.push({ delim: target.text, strip: op === "<<-", expand: !/['"\\]/.test(target.raw) });
    return true;
  }

  /** Bodies of pending heredocs, which start after the newline that ends their command. */
  private readHeredocs(): void {
    for (const h of this.heredocs.splice(0)) {
      let body = "";
      for (;;) {
        if (this.i >= this.s.length) fail(unterminated(h.delim));
        const nl = this.s.indexOf("\n", this.i);
        const line = this.s.slice(this.i, nl < 0 ? undefined : nl);
        this.i = nl < 0 ? this.s.length : nl + 1;
        if ((h.strip ? line.replace(/^\t+/, "") : line) === h.delim) break;
        body += line + "\n";
      }
      // an unquoted delimiter: the body expands like a double-quoted string, $(…) included
      if (h.expand) new Reader(body, this.level + 1, this.out).quoted(scratch(), true);
    }
  }

  private word(): Word {
    const start = this.i;
    const w = scratch();
    let bracket = false; // an unquoted [ seen: a later ] makes a glob
    let brace = 0; // 1: unquoted { seen, 2: then , or .. — a later } makes a brace expansion
    for (let c = this.at(); c !== "" && (!META.includes(c) || this.procSub()); c = this.at()) {
      if (this.procSub()) {
        const from = this.i;
        this.i += 2;
        this.sub(")");
        this.expanded(w, from);
      } else if (c === "\\") {
        if (this.at(1) === "") fail("trailing backslash");
        if (this.at(1) !== "\n") w.text += this.at(1);
        this.i += 2;
      } else if (c === "'") w.text += this.single();
      else if (c === '"') {
        this.i++;
        this.quoted(w, false);
      } else if (c === "`") this.backtick(w, false);
      else if (c === "$") this.dollar(w, true);
      else {
        if (c === "*" || c === "?" || (c === "]" && bracket) || (c === "}" && brace === 2)) w.glob = true;
        bracket ||= c === "[";
        if (c === "{" && !brace) brace = 1;
        if (brace === 1 && (c === "," || (c === "." && this.at(1) === "."))) brace = 2;
        w.text += c;
        this.i++;
      }
    }
    if (this.i === start) fail(`unexpected \`${this.at() || "end"}\``);
    return { ...w, raw: this.s.slice(start, this.i) };
  }

  /** The source from `from` to here was an expansion: the word's value is known only at run time. */
  private expanded(w: WordState, from: number): void {
    w.text += this.s.slice(from, this.i);
    w.unknown = true;
  }

  /** '…' at the current position; returns its content. */
  private single(): string {
    const end = this.s.indexOf("'", this.i + 1);
    if (end < 0) fail("unbalanced quote");
    const text = this.s.slice(this.i + 1, end);
    this.i = end + 1;
    return text;
  }

  /** Inside "…" (the opening quote consumed), or a heredoc body up to the end of the text. */
  quoted(w: WordState, heredoc: boolean): void {
    for (let c = this.at(); heredoc || c !== '"'; c = this.at()) {
      const n = this.at(1);
      if (c === "") return heredoc ? undefined : fail("unbalanced quote");
      if (c === "\\" && n === "\n") this.i += 2;
      else if (c === "\\" && n !== "" && ("$`\\".includes(n) || (n === '"' && !heredoc))) {
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

  private backtick(w: WordState, inDoubleQuotes: boolean): void {
    const start = this.i++;
    let inner = "";
    for (let c = this.at(); c !== "`"; c = this.at()) {
      const n = this.at(1);
      if (c === "") fail("unterminated backtick");
      const escaped = c === "\\" && (n === "$" || n === "`" || n === "\\" || (inDoubleQuotes && n === '"'));
      inner += escaped ? n : c;
      this.i += escaped ? 2 : 1;
    }
    this.i++;
    new Reader(inner, this.level + 1, this.out).list("", true);
    this.expanded(w, start);
  }

  /** At a `$`: an expansion or a literal dollar. */
  private dollar(w: WordState, bare: boolean): void {
    const start = this.i;
    const n = this.at(1);
    if (n === "(" && this.at(2) === "(") this.arithmetic();
    else if (n === "(" || n === "{" || (n === '"' && bare)) {
      this.i += 2;
      if (n === "(") this.sub(")");
      else if (n === "{") this.parameter(bare);
      else this.quoted(scratch(), false); // $"…": translated by bash
    } else if (n === "'" && bare) this.ansiC();
    else if (/^[0-9@*#?$!-]$/.test(n)) this.i += 2;
    else if (/^[A-Za-z_]$/.test(n)) {
      this.i++;
      this.i += this.match(NAME).length;
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
      if (c === "") fail("unterminated ${");
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
    // bash's ${x@P} expands a value like a prompt, running any $(…) stored in it
    if (this.s.slice(start, this.i).endsWith("@P")) fail("unsupported expansion `${…@P}`");
    this.i++;
  }

  /** $((…)). bash reads `$((a) && b)` as a command substitution, so anything but a clean `))` fails. */
  private arithmetic(): void {
    this.i += 3;
    for (let depth = 2; depth > 1; ) {
      const c = this.at();
      if (c === "") fail("unterminated $((");
      if ("`'\"\\".includes(c) || (c === "$" && this.at(1) === "(")) fail("substitution or quote inside $(( ))");
      this.i++;
      depth += c === "(" ? 1 : c === ")" ? -1 : 0;
    }
    if (this.at() !== ")") fail("ambiguous `$((`; write `$( (…) )` for a subshell");
    this.i++;
  }

  /** $'…' (bash; dash reads it differently, so its value is unknown; `\'` would even move the end). */
  private ansiC(): void {
    for (this.i += 2; this.at() !== "'"; this.i += this.at() === "\\" ? 2 : 1) {
      if (this.at() === "") fail("unbalanced quote");
      if (this.at() === "\\" && this.at(1) === "'") fail("ambiguous `$'…'` quoting");
    }
    this.i++;
  }
}
