// The tokens between words (SPEC §8): blanks and comments, reserved words, operators,
// redirections and heredoc bodies, read as dash or bash reads them. shell-syntax.ts builds the
// grammar on top; shell-words.ts reads the words.
import { fail, syntaxError, type Dialect, type Redirect, type Segment, type Word } from "./shell-model.ts";
import { META, WordReader } from "./shell-words.ts";

const POSIX_RESERVED = ["if", "then", "else", "elif", "fi", "do", "done", "while", "until", "for", "case", "esac", "in", "{", "}", "!"];
const RESERVED: Record<Dialect, Set<string>> = {
  dash: new Set(POSIX_RESERVED),
  bash: new Set([...POSIX_RESERVED, "select", "function", "coproc", "[[", "]]"]),
};
const DELIMITS = " \t\n;&|()<>"; // what may follow a reserved word
// one word, quoted whole or not at all: dash and bash agree where its heredoc ends
const PLAIN_DELIMITER = /^(?:[A-Za-z0-9_.-]+|'[A-Za-z0-9_.-]+'|"[A-Za-z0-9_.-]+"|\\[A-Za-z0-9_.-]+)$/;
const REDIRECTS: Record<Dialect, string[]> = {
  bash: ["&>>", "&>", "<<<", "<<-", ">>", ">|", ">&", "<<", "<&", "<>", ">", "<"],
  dash: ["<<-", ">>", ">|", ">&", "<<", "<&", "<>", ">", "<"], // dash reads `&>` as `&` then `>`
};

export const unterminated = (delim: string) => `unterminated heredoc (no \`${delim}\` line)`;

interface Pending {
  delim: string;
  strip: boolean;
  expand: boolean;
  /** the nesting level of the command that declared it */
  level: number;
  /** its redirection, which gets the body */
  redirect: Redirect;
}

export abstract class TokenReader extends WordReader {
  protected heredocs: Pending[] = [];

  /** A reader of `src` at `level`, pushing to the same segments (for heredoc bodies). */
  protected abstract reader(src: string, level: number): WordReader;

  /** Spaces, tabs and comments (only ever called where a token may start). */
  protected blanks(): void {
    for (;;) {
      const c = this.at();
      if (c === " " || c === "\t") this.i++;
      else if (c === "#") {
        if (this.substitutions) fail("a comment inside `$(…)` (bash 3.2 ends the substitution elsewhere)");
        while (this.i < this.s.length && this.s[this.i] !== "\n") this.i++;
      } else return;
    }
  }

  /** Blanks and newlines where the grammar allows them; a pending heredoc would start its body there. */
  protected linebreaks(): void {
    for (this.blanks(); this.at() === "\n"; this.blanks()) {
      if (this.heredocs.length) fail("a heredoc pending across a line break inside a command");
      this.i++;
    }
  }

  protected noNewline(w: Word): void {
    if (this.heredocs.length && w.raw.includes("\n")) fail("a newline inside a word while a heredoc is pending");
  }

  /** The reserved word at the current position, if one is there (followed by a blank, an operator or the end). */
  protected keyword(): string {
    const w = this.span((c) => /[A-Za-z{}![\]]/.test(c));
    if (!RESERVED[this.dialect].has(w)) return "";
    const next = this.at(w.length);
    return next === "" || DELIMITS.includes(next) ? w : "";
  }

  protected operator(): string {
    const [a, b] = [this.at(), this.at(1)];
    if (a !== "&" && a !== "|" && a !== ";") return "";
    if (a === ";" && b === ";" && this.at(2) === "&" && this.dialect === "bash") return ";;&";
    if (b === a) return a + b;
    if (a === ";" && b === "&") return ";&";
    if (a === "|" && b === "&" && this.dialect === "bash") return "|&";
    return a;
  }

  protected redirect(seg: Segment): boolean {
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
    if (this.dialect === "dash" && (op === ">&" || op === "<&") && !target.unknown && !/^(\d+|-)$/.test(target.text))
      syntaxError(`\`${op}${target.raw}\`: not an fd number`);
    const redirect: Redirect = { op: (fd === (op.startsWith("<") ? "0" : "1") ? "" : fd) + op, target };
    seg.redirects.push(redirect);
    if (op === "<<" || op === "<<-") {
      if (!PLAIN_DELIMITER.test(target.raw)) fail(`heredoc delimiter \`${target.raw}\` is not a plain word`);
      this.heredocs.push({ delim: target.text, strip: op === "<<-", expand: !/['"\\]/.test(target.raw), level: this.level, redirect });
    }
    return true;
  }

  /** Bodies of pending heredocs, which start after the newline that ends their command; read raw. */
  protected readHeredocs(): void {
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
      h.redirect.body = body;
      // an unquoted delimiter: the body expands like a double-quoted string, $(…) included
      if (h.expand) this.reader(body, this.level + 1).quotedBody();
    }
  }
}
