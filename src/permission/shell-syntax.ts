// The grammar around the words (SPEC §8): lists, pipelines, subshells, groups, if/while/until/for,
// bash arrays, redirections and heredocs, read as dash or bash reads them. It models a subset
// exactly and fails on the rest: `case`, functions, `[[ ]]`, `(( ))`, `select`, `coproc`, bash's
// `{fd}>`, heredocs whose delimiter is not a plain word or whose end dash and bash would find at
// different lines. A syntax error of the dialect is told apart from what is not modelled: the shell
// runs the complete commands before it, and none from there on.
import { assignRisk } from "./variables.ts";
import { ASSIGN, attempt, fail, MAX_DEPTH, META, NAME, opaque, ParseError, scratch, syntaxError, WordReader, type Dialect, type Parsed, type Segment, type Word } from "./shell-words.ts";

/** What a script runs, and the syntax error that stops it (what follows it never runs). */
export interface Script {
  segments: Segment[];
  stopped?: string;
}

/** Syntax only: every simple command, including those in substitutions, subshells and groups; a syntax error fails. */
export function parseSyntax(src: string, dialect: Dialect): Parsed {
  return attempt(() => {
    const { segments, stopped } = syntax(src, 0, false, dialect);
    return stopped ? fail(stopped.replace(/^syntax error: /, "")) : segments;
  });
}

/** The simple commands of the script `src` at nesting `depth`; throws ParseError (see `attempt`). */
export function syntax(src: string, depth: number, nested: boolean, dialect: Dialect): Script {
  // \r, NUL, escape sequences…: not separators to sh, but they hide what the text says
  if (/[\x00-\x08\x0b-\x1f\x7f]/.test(src)) fail("control character in the command");
  const out: Segment[] = [];
  const reader = new Reader(src, depth, out, dialect);
  const stopped = reader.whole(nested);
  return { segments: out, stopped };
}

const POSIX_RESERVED = ["if", "then", "else", "elif", "fi", "do", "done", "while", "until", "for", "case", "esac", "in", "{", "}", "!"];
const RESERVED: Record<Dialect, Set<string>> = { dash: new Set(POSIX_RESERVED), bash: new Set([...POSIX_RESERVED, "select", "function", "coproc", "[[", "]]"]) };
const STRIPPED = new Set(["!", "if", "then", "else", "elif", "do", "while", "until"]); // they only precede a command
const AFTER_COMPOUND = new Set(["then", "do", "done", "fi", "else", "elif", "}"]); // `(a) then`, `fi fi`: no separator needed
const DELIMITS = " \t\n;&|()<>"; // what may follow a reserved word
// one word, quoted whole or not at all: dash and bash agree where its heredoc ends
const PLAIN_DELIMITER = /^(?:[A-Za-z0-9_.-]+|'[A-Za-z0-9_.-]+'|"[A-Za-z0-9_.-]+"|\\[A-Za-z0-9_.-]+)$/;
const NAMED_FD = /^\{[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\}$/;
const ARRAY_ASSIGN = /^[A-Za-z_][A-Za-z0-9_]*\[.*\]\+?=/s;
const COMPOUND = /^[A-Za-z_][A-Za-z0-9_]*\+?=$/; // `NAME=` right before `(`: a bash array
/** bash reads `NAME=(…)` as an array in their arguments too */
const DECLARATIONS = new Set(["declare", "typeset", "local", "export", "readonly"]);
const REDIRECTS: Record<Dialect, string[]> = {
  bash: ["&>>", "&>", "<<<", "<<-", ">>", ">|", ">&", "<<", "<&", "<>", ">", "<"],
  dash: ["<<-", ">>", ">|", ">&", "<<", "<&", "<>", ">", "<"], // dash reads `&>` as `&` then `>`
};

const unterminated = (delim: string) => `unterminated heredoc (no \`${delim}\` line)`;

interface Pending {
  delim: string;
  strip: boolean;
  expand: boolean;
  /** the nesting level of the command that declared it */
  level: number;
}

/** Reads `s`, pushing every simple command found (nested ones first) to `out`; throws ParseError. */
class Reader extends WordReader {
  private heredocs: Pending[] = [];

  protected sub(close: ")" | "}"): void {
    if (++this.level > MAX_DEPTH) fail("nested too deeply");
    this.list(close, true);
    this.level--;
  }

  protected script(src: string): void {
    new Reader(src, this.level + 1, this.out, this.dialect).list("", true);
  }

  /** The whole text as a script; returns the syntax error that stops it, after which nothing runs. */
  whole(nested: boolean): string | undefined {
    let mark = 0; // where the complete command being read started in `out`
    try {
      this.list("", nested, () => (mark = this.out.length));
    } catch (e) {
      if (!(e instanceof ParseError && e.syntax)) throw e;
      this.out.length = mark; // the shell parses a complete command before running any of it
      return e.message;
    }
    return undefined;
  }

  /** Commands up to `close` (")" or "}", consumed) or the end of the text; `complete` is told where each complete command ends. */
  list(close: "" | ")" | "}", nested: boolean, complete?: () => void): void {
    let pending = ""; // an operator still waiting for its command
    for (;;) {
      this.blanks();
      const c = this.at();
      const closing = close === ")" ? c === ")" : close === "}" && this.keyword() === "}";
      if (c === "\n") {
        // a pending heredoc of an enclosing command: dash and bash differ on where its body starts
        if (this.heredocs.some((h) => h.level !== this.level)) fail("a newline inside a nested command while a heredoc is pending");
        this.i++;
        this.readHeredocs();
        if (!pending) complete?.();
      } else if (c === "" || closing) {
        if (pending) syntaxError(`nothing after \`${pending}\``);
        if (close && !closing) syntaxError(`missing \`${close}\``);
        const open = this.heredocs.find((h) => !close || h.level >= this.level);
        if (open) fail(unterminated(open.delim));
        this.i += close.length;
        return;
      } else {
        const joined = this.command(nested);
        this.blanks();
        const op = this.operator();
        if (op === ";;" || op === ";&") syntaxError(`\`${op}\` outside \`case\``);
        if (!op && !joined && !["", "\n", ")"].includes(this.at())) syntaxError(`unexpected \`${this.at()}\``);
        this.i += op.length;
        pending = ["&&", "||", "|", "|&"].includes(op) ? op : "";
      }
    }
  }

  /**
   * One simple command; a subshell, group or keyword yields its inner commands instead. Returns
   * true when it ended at a reserved word that needs no separator before it (`for x do`, `(a) then`).
   */
  private command(nested: boolean): boolean {
    const start = this.i;
    let from = start; // the raw text starts after keywords that only precede the command
    const seg: Segment = { raw: "", assigns: [], words: [], redirects: [], nested };
    let compound = false; // after `)`, `}`, `fi`, `done`: only redirections may follow
    let joined = false;
    let wordEnd = -1; // where the last word ended: `NAME=(` must touch
    for (;;) {
      this.blanks();
      const c = this.at();
      if (c === "" || "\n;)|".includes(c) || (c === "&" && !(this.dialect === "bash" && this.at(1) === ">"))) break;
      const first: boolean = !seg.assigns.length && !seg.words.length && !seg.redirects.length;
      const kw: string = first ? this.keyword() : "";
      if (compound && kw) {
        if (!AFTER_COMPOUND.has(kw)) syntaxError(`unexpected \`${kw}\``);
        joined = true;
        break;
      }
      if (first && !compound && c === "(") {
        if (this.at(1) === "(" && this.dialect === "bash") this.arithmeticBody(this.i); // `((…))`: arithmetic, no program
        else {
          this.i++; // dash reads `((` as two subshells
          this.sub(")");
        }
        compound = true;
      } else if (kw) {
        this.i += kw.length;
        if (kw === "{") this.sub("}");
        else if (kw === "for") this.forHeader(nested);
        else if (!STRIPPED.has(kw) && kw !== "fi" && kw !== "done") fail(`unsupported shell syntax \`${kw}\``);
        compound = kw === "{" || kw === "fi" || kw === "done";
        from = this.i;
      } else if (c === "(") this.paren(seg, wordEnd);
      else if (!this.redirect(seg)) {
        if (compound) syntaxError("unexpected word after a compound command");
        const w = this.word();
        wordEnd = this.i;
        this.noNewline(w);
        if (this.dialect === "bash" && NAMED_FD.test(w.raw) && (this.at() === "<" || this.at() === ">")) fail("bash's `{name}>` fd redirection");
        const command = !seg.words.length;
        if (command && this.dialect === "bash" && ARRAY_ASSIGN.test(w.raw)) seg.opaque = "bash evaluates an array subscript as code";
        (command && (ASSIGN.test(w.raw) || seg.opaque) ? seg.assigns : seg.words).push(w);
      }
    }
    if (this.i === start) syntaxError(`unexpected \`${this.at()}\``);
    seg.raw = this.s.slice(from, this.i).trim();
    if (seg.opaque) this.out.push(opaque(seg.raw, seg.opaque));
    else if (seg.assigns.length || seg.words.length || seg.redirects.length) this.out.push(seg);
    return joined;
  }

  /**
   * A `(` after words: bash's array `NAME=(…)` (as an assignment, or an argument of `declare` and its
   * kin), a function definition `NAME()`, which the checker does not model, or a syntax error.
   */
  private paren(seg: Segment, wordEnd: number): void {
    const last = seg.words.at(-1) ?? seg.assigns.at(-1);
    const inAssigns = !seg.words.length;
    const declaration = seg.words.length > 1 && DECLARATIONS.has(seg.words[0]!.raw);
    if (this.dialect === "bash" && last && wordEnd === this.i && COMPOUND.test(last.raw) && (inAssigns || declaration)) {
      this.i++;
      const array = this.arrayBody(last, seg.words.some((w) => /^-[a-zA-Z]*A/.test(w.text)));
      (inAssigns ? seg.assigns : seg.words).splice(-1, 1, array);
      return;
    }
    if (seg.words.length === 1 && !seg.assigns.length && !seg.redirects.length && /^[^\s"'`$\\<>|&;()]+$/.test(seg.words[0]!.raw)) fail("function definitions are not modelled");
    syntaxError("unexpected `(`");
  }

  /**
   * bash's `(ELEMENT…)` after `NAME=`: words, newlines and comments up to `)`. A `[KEY]=value`
   * element of an indexed array evaluates KEY as arithmetic (code, unless it is a number); of an
   * associative one (`declare -A`), KEY is a word.
   */
  private arrayBody(name: Word, associative: boolean): Word {
    const start = this.i;
    let unknown = false;
    for (;;) {
      this.blanks();
      const c = this.at();
      if (c === ")") break;
      if (c === "\n") {
        this.i++;
        continue;
      }
      if (c === "" ) syntaxError("missing `)` after an array");
      if (META.includes(c)) syntaxError(`unexpected \`${c}\` in an array`);
      const w = this.word();
      this.noNewline(w);
      unknown ||= w.unknown || w.glob;
      const key = /^\[([^\]]*)\]\+?=/.exec(w.raw);
      if (key && !associative && !/^\s*[0-9]+\s*$/.test(key[1]!)) this.out.push(opaque(w.raw, "bash evaluates an array subscript as code"));
    }
    const body = this.s.slice(start, this.i);
    this.i++;
    return { text: `${name.text}(${body})`, raw: `${name.raw}(${body})`, unknown, glob: false };
  }

  /**
   * After `for`: NAME, then `in WORDS` ended by `;` or a newline, or nothing; `do` must follow. Runs
   * nothing itself, but assigns NAME: a name that decides what later commands run makes them unknown.
   * bash's `for ((…; …; …))` is arithmetic.
   */
  private forHeader(nested: boolean): void {
    this.blanks();
    if (this.dialect === "bash" && this.at() === "(" && this.at(1) === "(") {
      this.arithmeticBody(this.i);
      this.blanks();
      if (this.at() === ";") this.i++;
      this.linebreaks();
      if (this.keyword() !== "do" && this.keyword() !== "{") fail("`for ((…))` without `do`");
      return;
    }
    const name = this.word();
    if (!NAME.test(name.raw)) fail("`for` needs a plain variable name");
    const risk = assignRisk(name.text);
    if (risk) this.out.push({ ...opaque(`for ${name.raw}`, risk), nested });
    this.linebreaks();
    let kw = this.keyword();
    if (kw === "in") {
      this.i += kw.length;
      for (this.blanks(); this.at() !== ";" && this.at() !== "\n"; this.blanks()) {
        if (this.at() === "" || META.includes(this.at())) fail(`unexpected \`${this.at() || "end"}\` in a \`for\` list`);
        this.noNewline(this.word());
      }
    }
    if (kw === "in" || this.at() === ";") {
      if (this.at() === ";") this.i++;
      this.linebreaks();
      kw = this.keyword();
    }
    if (kw !== "do") fail("`for` without `do`");
  }

  /** Blanks and newlines where the grammar allows them; a pending heredoc would start its body there. */
  private linebreaks(): void {
    for (this.blanks(); this.at() === "\n"; this.blanks()) {
      if (this.heredocs.length) fail("a heredoc pending across a `for` header");
      this.i++;
    }
  }

  private noNewline(w: Word): void {
    if (this.heredocs.length && w.raw.includes("\n")) fail("a newline inside a word while a heredoc is pending");
  }

  /** Spaces, tabs and comments (only ever called where a token may start). */
  private blanks(): void {
    for (;;) {
      const c = this.at();
      if (c === " " || c === "\t") this.i++;
      else if (c === "#") {
        if (this.substitutions) fail("a comment inside `$(…)` (bash 3.2 ends the substitution elsewhere)");
        while (this.i < this.s.length && this.s[this.i] !== "\n") this.i++;
      }
      else return;
    }
  }

  /** The reserved word at the current position, if one is there (followed by a blank, an operator or the end). */
  private keyword(): string {
    const w = this.span((c) => /[A-Za-z{}![\]]/.test(c));
    if (!RESERVED[this.dialect].has(w)) return "";
    const next = this.at(w.length);
    return next === "" || DELIMITS.includes(next) ? w : "";
  }

  private operator(): string {
    const [a, b] = [this.at(), this.at(1)];
    if (a !== "&" && a !== "|" && a !== ";") return "";
    if (b === a) return a + b;
    if (a === ";" && b === "&") return ";&";
    if (a === "|" && b === "&" && this.dialect === "bash") return "|&";
    return a;
  }

  private redirect(seg: Segment): boolean {
    if (this.procSub()) return false;
    const fd = this.span((c) => c >= "0" && c <= "9");
    const op = REDIRECTS[this.dialect].find((o) => (!fd || o[0] !== "&") && [...o].every((ch, k) => this.at(fd.length + k) === ch));
    if (!op) return false;
    if (op === "&>>") fail("`&>>` (bash before 4.0, macOS's /bin/bash, reads `&` then `>>`)");
    this.i += fd.length + op.length;
    this.blanks();
    if (this.at() === "" || (META.includes(this.at()) && !this.procSub())) syntaxError(`missing target after \`${fd + op}\``);
    const target = this.word();
    this.noNewline(target);
    // dash: `>&` takes an fd number or `-`, anything else is a syntax error
    if (this.dialect === "dash" && (op === ">&" || op === "<&") && !target.unknown && !/^(\d+|-)$/.test(target.text)) syntaxError(`\`${op}${target.raw}\`: not an fd number`);
    seg.redirects.push({ op: (fd === (op.startsWith("<") ? "0" : "1") ? "" : fd) + op, target });
    if (op === "<<" || op === "<<-") {
      if (!PLAIN_DELIMITER.test(target.raw)) fail(`heredoc delimiter \`${target.raw}\` is not a plain word`);
      this.heredocs.push({ delim: target.text, strip: op === "<<-", expand: !/['"\\]/.test(target.raw), level: this.level });
    }
    return true;
  }

  /** Bodies of pending heredocs, which start after the newline that ends their command; read raw. */
  private readHeredocs(): void {
    for (const h of this.heredocs.splice(0)) {
      let body = "";
      for (;;) {
        if (this.i >= this.s.length) fail(unterminated(h.delim));
        const nl = this.s.indexOf("\n", this.i);
        const line = this.s.slice(this.i, nl < 0 ? undefined : nl);
        this.i = nl < 0 ? this.s.length : nl + 1;
        const bare = h.strip ? line.replace(/^\t+/, "") : line;
        if (bare === h.delim) break;
        // inside $(…) bash also ends the body at `EOF)` or `EOF )`; dash does not
        if (bare.startsWith(h.delim)) fail(`a heredoc line starts with its delimiter \`${h.delim}\` but does not end it`);
        // dash compares the delimiter with physical lines, bash with lines joined at a continuation
        if (h.expand && line.endsWith("\\")) fail("a line continuation inside a heredoc body");
        body += line + "\n";
      }
      // an unquoted delimiter: the body expands like a double-quoted string, $(…) included
      if (h.expand) new Reader(body, this.level + 1, this.out, this.dialect).quoted(scratch(), true);
    }
  }
}
