// bash's conditional command `[[ … ]]` (SPEC §8), read as bash reads it: `!`, `( … )`, `&&`, `||`,
// unary tests (`-f FILE`, `-v NAME`…), binary tests (`==`, `-eq`, `=~`, `<`…) and a lone word
// (`-n WORD`). Its words are expanded but never split or globbed, so a value decided at run time
// stays one operand: `[[ $x == y ]]` runs nothing. bash evaluates code in two places: the operands
// of `-eq`, `-ne`, `-lt`, `-le`, `-gt`, `-ge` are arithmetic (a variable's value there is an
// expression, array subscripts and their `$(…)` included), and the name `-v` tests may carry a
// subscript. Those are risks unless the operand is a number or a plain name. The right side of
// `==`/`=`/`!=` is read as an extended pattern (`@(a|b)`), that of `=~` as a regular expression
// whose `(`, `)` and `|` belong to the word. Anything outside this grammar is not modelled (fail).
import { TokenReader } from "./shell-tokens.ts";
import { ARITHMETIC, fail, opaque, type Word } from "./shell-model.ts";
import { META } from "./shell-words.ts";
import { arithmeticReads, arithmeticRisk, numeric, variableOf } from "./variables.ts";

const UNARY = new Set("abcdefghknoprstuvwxzGLOSNR".split("").map((c) => `-${c}`));
const BINARY = new Set(["=", "==", "!=", "=~", "-nt", "-ot", "-ef", "-eq", "-ne", "-lt", "-le", "-gt", "-ge"]);
const ARITHMETIC_TEST = new Set(["-eq", "-ne", "-lt", "-le", "-gt", "-ge"]);
const PATTERN_TEST = new Set(["=", "==", "!="]);
/** `*?+@!` right before `(` open an extended pattern group */
const PATTERN_CHAR = "*?+@!";
/** What a group of an extended pattern or a regular expression may hold here: no quote, escape, expansion or newline. */
const PLAIN_GROUP = /^[^'"\\$`\n]$/;

const SUBSCRIPT = "bash evaluates a subscript in a variable name as code";

/**
 * What bash evaluating `w` as arithmetic reads: nothing (undefined), the variables whose values it
 * evaluates in turn (safe if the script only ever sets them to numbers), or a risk.
 */
function arithmeticOperand(w: Word): { risk: string } | { reads: string[] } | undefined {
  if (numeric(w)) return undefined;
  const variable = variableOf(w.raw); // its value is evaluated as an expression
  if (variable) return { reads: [variable] };
  if (w.unknown || w.anyValue) return { risk: ARITHMETIC };
  const risk = arithmeticRisk(w.text);
  if (risk) return { risk };
  const reads = arithmeticReads(w.text);
  return !reads ? { risk: ARITHMETIC } : reads.length ? { reads } : undefined;
}

/** Why `-v`/`-R` on `w` could evaluate a subscript: anything but a plain name, or a name with a numeric subscript. */
function nameOperand(w: Word): string | undefined {
  if (w.unknown || w.anyValue) return SUBSCRIPT;
  return !w.text.includes("[") || /^[A-Za-z_][A-Za-z0-9_]*\[\s*[0-9]+\s*\]$/.test(w.text) ? undefined : SUBSCRIPT;
}

type Token = { op: "]]" | "&&" | "||" | "(" | ")" | "\n" } | { word: Word; at: number };

export abstract class ConditionalReader extends TokenReader {
  /** the conditional being read: its text starts here, its first risk, and the variables its arithmetic reads */
  private cond = { start: 0, risk: undefined as string | undefined, reads: [] as string[] };

  /**
   * Arithmetic that reads the variables `names`: a risk unless the script only ever sets them to
   * numbers, which the reader of the whole script judges (shell-syntax.ts); here, a risk.
   */
  protected readsVariables(text: string, _at: number, names: string[] | undefined, _array?: string): void {
    this.out.push(opaque(text, names ? ARITHMETIC : "bash evaluates an array subscript as code"));
  }

  /** `[[ … ]]`, from after `[[` to after `]]`; a risk found inside becomes an opaque segment. */
  protected conditional(): void {
    const outer = this.cond;
    this.cond = { start: this.i - 2, risk: undefined, reads: [] };
    try {
      const end = this.or(this.term());
      if (!("op" in end) || end.op !== "]]") fail("`[[` without its `]]`");
      const text = this.s.slice(this.cond.start, this.i);
      if (this.cond.risk) this.out.push(opaque(text, this.cond.risk));
      else if (this.cond.reads.length) this.readsVariables(text, this.cond.start, this.cond.reads);
    } finally {
      this.cond = outer;
    }
  }

  /** `TERM [&& …] [|| …]`: given the token after a term, returns the one after the whole expression. */
  private or(after: Token): Token {
    while ("op" in after && (after.op === "&&" || after.op === "||")) after = this.term();
    return after;
  }

  /** One term (newlines before it skipped); returns the token after it, newlines skipped. */
  private term(): Token {
    const t = this.skipNewlines();
    if ("op" in t) {
      if (t.op !== "(") fail(`unexpected \`${t.op}\` in \`[[ … ]]\``);
      const end = this.or(this.term());
      if (!("op" in end) || end.op !== ")") fail("`(` without `)` in `[[ … ]]`");
      return this.skipNewlines();
    }
    const raw = t.word.raw;
    if (raw === "!") return this.term();
    if (UNARY.has(raw)) {
      const operand = this.token();
      if (!("word" in operand)) return fail(`\`${raw}\` without an operand in \`[[ … ]]\``);
      if (raw === "-v" || raw === "-R") this.risk(nameOperand(operand.word));
      return this.skipNewlines();
    }
    const op = this.token();
    if ("op" in op) return op.op === "\n" ? fail("a newline after a word in `[[ … ]]`") : op; // `[[ WORD ]]`: -n WORD
    if (!BINARY.has(op.word.raw) && op.word.raw !== "<" && op.word.raw !== ">") fail(`\`${op.word.raw}\` is no operator of \`[[ … ]]\``);
    const kind = op.word.raw;
    const right = this.token(kind === "=~" ? "regex" : PATTERN_TEST.has(kind) ? "pattern" : "word");
    if (!("word" in right)) return fail(`\`${kind}\` without its right operand in \`[[ … ]]\``);
    if (ARITHMETIC_TEST.has(kind)) {
      for (const { word, at } of [t, right]) {
        this.arithmetic(at, at + word.raw.length);
        const operand = arithmeticOperand(word);
        if (operand && "risk" in operand) this.risk(operand.risk);
        else if (operand) this.cond.reads.push(...operand.reads);
      }
    }
    return this.skipNewlines();
  }

  private risk(why: string | undefined): void {
    this.cond.risk ??= why;
  }

  private skipNewlines(): Token {
    for (;;) {
      const t = this.token();
      if (!("op" in t) || t.op !== "\n") return t;
    }
  }

  /** The next token: an operator, `]]`, a newline, or a word (read as `mode` says). */
  private token(mode: "word" | "pattern" | "regex" = "word"): Token {
    this.blanks();
    const [c, n] = [this.at(), this.at(1)];
    if (c === "") fail("`[[` without its `]]`");
    if (c === "\n") {
      if (this.heredocs.length) fail("a heredoc pending inside `[[ … ]]`");
      this.i++;
      return { op: "\n" };
    }
    const at = this.i;
    if ((c === "(" || c === "|") && mode === "regex") return { word: this.regexWord(), at };
    if ((c === "&" || c === "|") && n === c) {
      this.i += 2;
      return { op: c === "&" ? "&&" : "||" };
    }
    if (c === "(" || c === ")") {
      this.i++;
      return { op: c };
    }
    if ((c === "<" || c === ">") && n !== "(") {
      if ("<>&|".includes(n)) fail(`\`${c}${n}\` in \`[[ … ]]\``);
      this.i++;
      return { word: { text: c, raw: c, unknown: false, glob: false }, at };
    }
    if (META.includes(c) && !((c === "<" || c === ">") && n === "(")) fail(`unexpected \`${c}\` in \`[[ … ]]\``);
    if (this.keyword() === "]]") {
      this.i += 2;
      return { op: "]]" };
    }
    return { word: mode === "regex" ? this.regexWord() : mode === "pattern" ? this.patternWord() : this.word(), at };
  }

  /** A pattern's word: word pieces and extended pattern groups (`@(a|b)`: `(` right after an unquoted `*?+@!`). */
  private patternWord(): Word {
    return this.joined((last) => !!last && PATTERN_CHAR.includes(last.raw.at(-1) ?? "") && !/(^|[^\\])(\\\\)*\\.$/.test(last.raw), "");
  }

  /** A regular expression's word: `(`…`)` groups (blanks inside included) and `|` belong to it. */
  private regexWord(): Word {
    return this.joined(() => true, "|");
  }

  /**
   * Word pieces and parenthesised groups, up to a blank or an operator outside a group. `opens`
   * says whether a `(` after the piece just read (none at the start) opens a group; `extra` is a
   * character that joins the word. A group holds plain characters only (fail otherwise).
   */
  private joined(opens: (last: Word | undefined) => boolean, extra: string): Word {
    const start = this.i;
    const out: Word = { text: "", raw: "", unknown: false, glob: false };
    let last: Word | undefined;
    for (let c = this.at(); ; c = this.at()) {
      if (c === "(" && opens(last)) {
        out.text += this.group();
        last = { text: ")", raw: ")", unknown: false, glob: false };
      } else if (c !== "" && c === extra) {
        out.text += c;
        this.i++;
        last = { text: c, raw: c, unknown: false, glob: false };
      } else if (c === "" || META.includes(c)) break;
      else {
        last = this.word();
        out.text += last.text;
        out.unknown ||= last.unknown;
        out.glob ||= last.glob;
        if (last.anyValue) out.anyValue = true;
      }
    }
    if (this.i === start) fail(`unexpected \`${this.at() || "end"}\` in \`[[ … ]]\``);
    return { ...out, raw: this.s.slice(start, this.i) };
  }

  /** `(`…`)`, nested groups included, holding plain characters only; returns its text. */
  private group(): string {
    const start = this.i;
    let depth = 0;
    do {
      const c = this.at();
      if (c === "" || !PLAIN_GROUP.test(c)) fail("a quote, escape, expansion or newline inside a pattern group in `[[ … ]]`");
      depth += c === "(" ? 1 : c === ")" ? -1 : 0;
      this.i++;
    } while (depth > 0);
    return this.s.slice(start, this.i);
  }
}
