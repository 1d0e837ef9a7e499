// Compound commands beyond lists and groups (SPEC §8), read as dash or bash reads them: `for` and
// bash's `select` headers, `case`, function definitions and bash arrays. Each runs no program of
// its own; the commands and substitutions inside are pushed like any other, every branch of a
// `case` included. Risks (a variable that decides what runs, bash evaluating a value as code)
// become opaque segments. shell-syntax.ts calls these from its command reader.
import { ConditionalReader } from "./shell-conditional.ts";
import { fail, NAME, opaque, syntaxError, type Word } from "./shell-model.ts";
import { dashlessList, type Loop } from "./loop-variables.ts";
import { META } from "./shell-words.ts";
import { arithmeticReads, assignRisk, integerRisk } from "./variables.ts";

/** Where a list inside a compound command ends: `)`/`}` (consumed), or a `case` item's `;;` or `esac` (left). */
export type Close = "" | ")" | "}" | "case";

const INTEGER = /^-?[0-9]+$/;

export abstract class CompoundReader extends ConditionalReader {
  protected abstract list(close: Close, nested: boolean): void;
  protected abstract command(nested: boolean): boolean;

  /**
   * bash's `(ELEMENT…)` after `NAME=`: words, newlines and comments up to `)`. A `[KEY]=value`
   * element of an indexed array evaluates KEY as arithmetic (code, unless it is a number); of an
   * associative one (`declare -A`), KEY is a word.
   */
  protected arrayBody(name: Word, associative: boolean): Word {
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
      if (c === "") syntaxError("missing `)` after an array");
      if (META.includes(c)) syntaxError(`unexpected \`${c}\` in an array`);
      const at = this.i;
      const w = this.word();
      this.noNewline(w);
      unknown ||= w.unknown || w.glob;
      const key = /^\[([^\]]*)\]\+?=/.exec(w.raw);
      if (!key || associative || INTEGER.test(key[1]!.trim())) continue;
      this.arithmetic(at, at + key[0].length);
      const reads = arithmeticReads(key[1]!);
      if (!reads || reads.length) this.readsVariables(w.raw, at, reads, name.raw.replace(/\+?=$/, ""));
    }
    const body = this.s.slice(start, this.i);
    this.i++;
    return { text: `${name.text}(${body})`, raw: `${name.raw}(${body})`, unknown, glob: false };
  }

  /** the `for` loops read, for loop-variables.ts */
  protected loops: Loop[] = [];

  /** A `done` at `depth` among the open constructs ends, at `end`, the loop opened there, if a `for`; its commands from `from` in `out` may run again. */
  protected loopEnds(depth: number, end: number, from: number): void {
    const loop = this.loops.findLast((l) => l.depth === depth && l.end === undefined);
    if (loop) loop.end = end;
    this.repeating(from);
  }

  /** A subshell `( … )`: its commands, read as any list, and where they are in `out`. */
  protected subshell(): void {
    const from = this.out.length;
    this.sub(")");
    this.subshells.push([from, this.out.length]);
  }

  /**
   * The commands from `from` in `out` are a loop's or a function's body, which may run again: each
   * one not in a subshell of its own inside it is marked, since a `cd` there starts the next pass
   * where the last one left (`for i in 1 2; do cd ..; done` climbs twice, x151 #4).
   */
  private repeating(from: number): void {
    const own = this.subshells.filter(([start]) => start >= from);
    for (let k = from; k < this.out.length; k++) if (!own.some(([start, end]) => k >= start && k < end)) this.out[k]!.repeats = true;
  }

  /**
   * After `for` (or bash's `select`): NAME, then `in WORDS` ended by `;` or a newline, or nothing;
   * `do` must follow. Runs nothing itself, but assigns NAME: a name that decides what later commands
   * run makes them unknown. bash's `for ((…; …; …))` is arithmetic.
   */
  protected forHeader(nested: boolean, kw: string, depth: number): void {
    this.blanks();
    if (kw === "for" && this.dialect === "bash" && this.at() === "(" && this.at(1) === "(") {
      const start = this.i;
      const header = this.arithmeticBody(start);
      // the condition and step run again after each pass of the body: a name they read that the
      // script mentions elsewhere, but as `$NAME`, may hold a value set there — unless the script
      // only ever sets it to numbers (judged with the whole script)
      const rest = this.s.slice(0, start) + " " + this.s.slice(this.i);
      const names = new Set(header.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? []);
      const elsewhere = [...names].filter((n) => new RegExp(`(^|[^$\\w{])${n}(?!\\w)`).test(rest.replace(new RegExp(`\\$\\{?${n}\\}?(?!\\w)`, "g"), "")));
      if (elsewhere.length) this.readsVariables(header, start, elsewhere);
      this.blanks();
      if (this.at() === ";") this.i++;
      this.linebreaks();
      if (this.keyword() !== "do" && this.keyword() !== "{") fail("`for ((…))` without `do`");
      return;
    }
    // dash: "Bad for loop variable", a syntax error (`for ((…))` included)
    const bad = (why: string) => (this.dialect === "dash" ? syntaxError(why) : fail(why));
    if (this.at() === "" || META.includes(this.at())) bad(`\`${kw}\` needs a plain variable name`);
    const at = this.i;
    const name = this.word();
    if (!NAME.test(name.raw)) bad(`\`${kw}\` needs a plain variable name`);
    const risk = assignRisk(name.text) ?? (this.dialect === "bash" ? integerRisk(name.text) : undefined);
    if (risk) this.out.push({ ...opaque(`${kw} ${name.raw}`, risk), nested });
    this.linebreaks();
    let next = this.keyword();
    const list: Word[] = [];
    if (next === "in") {
      this.i += next.length;
      for (this.blanks(); this.at() !== ";" && this.at() !== "\n"; this.blanks()) {
        if (this.at() === "" || META.includes(this.at())) fail(`unexpected \`${this.at() || "end"}\` in a \`${kw}\` list`);
        list.push(this.word());
        this.noNewline(list.at(-1)!);
      }
    }
    this.loops.push({ name: name.text, at, depth, dashless: kw === "for" && dashlessList(list), list: kw === "for" ? list : [] });
    if (next === "in" || this.at() === ";") {
      if (this.at() === ";") this.i++;
      this.linebreaks();
      next = this.keyword();
    }
    if (next !== "do") fail(`\`${kw}\` without \`do\``);
  }

  /**
   * After `case`: WORD `in`, then items `[(] PATTERN [| PATTERN]… ) LIST` ended by `;;` (bash also
   * `;&`, `;;&`), up to `esac` (consumed). Every item's commands are read: any of them may run.
   */
  protected caseClause(nested: boolean): void {
    this.blanks();
    this.noNewline(this.word());
    this.linebreaks();
    if (this.keyword() !== "in") syntaxError("`case` without `in`");
    this.i += 2;
    for (;;) {
      this.linebreaks();
      if (this.keyword() === "esac") {
        this.i += 4;
        return;
      }
      if (this.at() === "") syntaxError("`case` without `esac`");
      if (this.at() === "(") this.i++;
      for (;;) {
        this.blanks();
        if (this.at() === "" || META.includes(this.at())) syntaxError(`unexpected \`${this.at() || "end"}\` in a \`case\` pattern`);
        this.noNewline(this.word());
        this.blanks();
        if (this.at() === "|") this.i++;
        else break;
      }
      if (this.at() !== ")") syntaxError("a `case` pattern without `)`");
      this.i++;
      this.list("case", nested);
      const op = this.operator();
      if (op === ";;" || ((op === ";&" || op === ";;&") && this.dialect === "bash")) this.i += op.length;
      else if (op) syntaxError(`unexpected \`${op}\` in \`case\``);
    }
  }

  /**
   * A function definition (the name read, `()` next, or bash's `function NAME`): the body is the
   * compound command that follows, read like any other (its commands are checked whether or not the
   * function is ever called).
   */
  protected functionBody(nested: boolean): [number, number] {
    const from = this.out.length;
    this.blanks();
    if (this.at() === "(") {
      this.i++;
      this.blanks();
      if (this.at() !== ")") syntaxError("a function name without `()`");
      this.i++;
    }
    this.linebreaks();
    if (!this.at()) syntaxError("a function without a body");
    this.command(nested); // redirections after the body are the body's: a segment of their own, checked here
    this.repeating(from);
    return [from, this.out.length];
  }
}
