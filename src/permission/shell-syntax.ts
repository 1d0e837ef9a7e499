// The grammar around the words (SPEC §8): lists, pipelines, subshells, groups, if/while/until/for,
// case, functions, bash arrays and arithmetic, redirections and heredocs, read as dash or bash
// reads them. It models a subset exactly and fails on the rest: bash's `coproc`, `{fd}>`,
// heredocs whose delimiter is not a plain word or whose end dash and bash would find at different
// lines. A syntax error of the dialect is told apart from what is not modelled: the shell runs the
// complete commands before it, and none from there on.
import { CompoundReader, type Close } from "./shell-compound.ts";
import { type Body, FED, giveExecInput, giveStdin, inputs } from "./shell-stdin.ts";
import { markDashless, markLoopValues } from "./loop-variables.ts";
import { unterminated } from "./shell-tokens.ts";
import {
  ARITHMETIC,
  ASSIGNMENT,
  attempt,
  fail,
  MAX_DEPTH,
  NAME,
  opaque,
  ParseError,
  syntaxError,
  type Dialect,
  type Parsed,
  type Segment,
  type Word,
} from "./shell-model.ts";
import type { WordReader } from "./shell-words.ts";
import { arithmeticReads, associativeArrays, numeric, numericVariables, variableOf } from "./variables.ts";

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
export function syntax(src: string, depth: number, nested: boolean, dialect: Dialect, bash3 = true): Script {
  // \r, NUL, escape sequences…: not separators to sh, but they hide what the text says
  if (/[\x00-\x08\x0b-\x1f\x7f]/.test(src)) fail("control character in the command");
  const out: Segment[] = [];
  const reader = new Reader(src, depth, out, dialect, bash3);
  const stopped = reader.whole(nested);
  return { segments: out, stopped };
}

const STRIPPED = new Set(["!", "if", "then", "else", "elif", "do", "while", "until"]); // they only precede a command
const AFTER_COMPOUND = new Set(["then", "do", "done", "fi", "else", "elif", "}", "esac"]); // `(a) then`, `fi fi`: no separator needed
const NAMED_FD = /^\{[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\}$/;
const ARRAY_ASSIGN = /^[A-Za-z_][A-Za-z0-9_]*\[(.*)\]\+?=/s;
const COMPOUND = /^[A-Za-z_][A-Za-z0-9_]*\+?=$/; // `NAME=` right before `(`: a bash array
/** bash reads `NAME=(…)` as an array in their arguments too */
const DECLARATIONS = new Set(["declare", "typeset", "local", "export", "readonly"]);
const DECLARES_ARRAYS = new Set(["declare", "typeset"]); // `local -A` is a function's own
const FUNCTION_NAME: Record<Dialect, RegExp> = { dash: /^[A-Za-z_][A-Za-z0-9_]*$/, bash: /^[^\s"'`$\\<>|&;()=]+$/ };

/** Reads `s`, pushing every simple command found (nested ones first) to `out`; throws ParseError. */
class Reader extends CompoundReader {
  /** functions surely defined by now (a definition the main script ran, unconditionally), and where their bodies are in `out`: calling one runs its body, already read */
  private functions = new Map<string, Body>();
  /** each call of such a function, and the body it runs (what it is given on stdin, the body reads) */
  private calls = new Map<Segment, Body>();
  private called = (seg: Segment) => this.calls.get(seg);
  /** the `if`/`while`/`for` constructs open, innermost last (their keywords are read where they come, so the order is checked here) */
  private open: string[] = [];
  /** where the open constructs of the list being read start in `open` */
  private base = 0;
  /** a function definition just read, and where its body is in `out`, waiting to be known unconditional */
  private defined?: string;
  private body: Body = [0, 0];
  /** the last command, when it only assigned: its words and where each starts (waiting to be known unconditional) */
  private assigned?: { words: Word[]; at: number[] };
  /** variables surely set to a number, and where (the first time) */
  private sure = new Map<string, number>();
  /** where arithmetic stands in the text */
  private spans: [number, number][] = [];
  /** arithmetic reading variables, judged once the whole script is read; undefined: judged at once (a nested reader) */
  private later?: { text: string; at: number; names?: string[]; array?: string }[];
  /** arrays surely declared associative (`declare -A`), and where (the first time) */
  private associative = new Map<string, number>();
  /** the last simple command, and where its words start (waiting to be known unconditional) */
  private last?: { seg: Segment; at: number[] };
  /** the command being read reads a pipe from the one before it (directly, or as part of a group or subshell that does) */
  private piped = false;
  /** where in `out` the commands of each open `if`/`while`/`until`/`for`/`select` start, beside `open` */
  private starts: number[] = [];

  protected reader(src: string, level: number): WordReader {
    return new Reader(src, level, this.out, this.dialect, this.bash3);
  }

  protected sub(close: ")" | "}", fed = false): void {
    if (++this.level > MAX_DEPTH) fail("nested too deeply");
    const from = this.out.length;
    this.list(close, true);
    if (fed) giveStdin(this.out.slice(from), [FED], false, this.out, this.called); // `>(python3)` reads a pipe, as `| python3` does
    this.level--;
  }

  /**
   * A reserved word's place among the open constructs: `then` only after `if …`, `done` only after
   * `do`… Returns, at `fi` or `done`, where in `out` the construct's commands start.
   */
  private structure(kw: string): number | undefined {
    const top = this.open.length > this.base ? this.open.at(-1) : undefined;
    const after = (...tops: string[]) => {
      if (!top || !tops.includes(top)) syntaxError(`unexpected \`${kw}\``);
    };
    if (kw === "if" || kw === "while" || kw === "until" || kw === "for" || kw === "select") {
      this.open.push(kw === "if" ? "if" : kw === "until" || kw === "while" ? "while" : "for");
      this.starts[this.open.length - 1] = this.out.length;
    } else if (kw === "then") after("if"), (this.open[this.open.length - 1] = "then");
    else if (kw === "elif") after("then"), (this.open[this.open.length - 1] = "if");
    else if (kw === "else") after("then"), (this.open[this.open.length - 1] = "else");
    else if (kw === "do") after("while", "for"), (this.open[this.open.length - 1] = "do");
    else if (kw === "fi" || kw === "done") {
      kw === "fi" ? after("then", "else") : (after("do"), this.loopEnds(this.open.length, this.i, this.starts[this.open.length - 1]!));
      this.open.pop();
      return this.starts[this.open.length];
    }
    return undefined;
  }

  /** A list ends: what it opened must be closed. */
  private closed(): void {
    if (this.open.length > this.base) syntaxError(`\`${this.open.at(-1)}\` without its end`);
  }

  protected script(src: string): void {
    new Reader(src, this.level + 1, this.out, this.dialect, this.bash3).list("", true);
  }

  /** The whole text as a script; returns the syntax error that stops it, after which nothing runs. */
  whole(nested: boolean): string | undefined {
    let mark = 0; // where the complete command being read started in `out`, and in the text
    let markAt = 0;
    this.later = [];
    try {
      this.list("", nested, () => ((mark = this.out.length), (markAt = this.i)));
    } catch (e) {
      if (!(e instanceof ParseError && e.syntax)) throw e;
      this.out.length = mark; // the shell parses a complete command before running any of it
      this.settle(markAt);
      return e.message;
    }
    this.settle(Infinity);
    return undefined;
  }

  protected override arithmetic(start: number, end: number): void {
    this.spans.push([start, end]);
  }

  protected override readsVariables(text: string, at: number, names: string[] | undefined, array?: string): void {
    if (this.later) this.later.push({ text, at, names, array });
    else super.readsVariables(text, at, names, array);
  }

  /**
   * The command just read surely runs (at the top level, unconditionally): a `NAME=NUMBER` it
   * assigns, or an array it declares associative (`declare -A a`), holds from here on.
   */
  private settled(): void {
    for (const [k, w] of (this.assigned?.words ?? []).entries()) {
      const name = w.raw.slice(0, w.raw.indexOf("="));
      if (NAME.test(name) && !this.sure.has(name) && numeric({ raw: w.raw.slice(name.length + 1) })) this.sure.set(name, this.assigned!.at[k]!);
    }
    const [first, ...args] = this.last?.seg.words ?? [];
    if (!first || first.unknown || !DECLARES_ARRAYS.has(first.text) || !args.some((w) => /^-[a-zA-Z]*A/.test(w.text) && !w.unknown)) return;
    for (const [k, w] of args.entries()) {
      const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(w.raw)?.[0];
      if (name && !w.raw.startsWith("-") && !this.associative.has(name)) this.associative.set(name, this.last!.at[k + 1 + this.last!.seg.assigns.length]!);
    }
  }

  /**
   * The whole script read (up to `until`, where a syntax error stopped it): arithmetic reading a
   * variable the script does not only ever set to numbers is a risk; `$NAME` of one it does is a
   * number (`wait $pid`).
   */
  private settle(until: number): void {
    giveExecInput(this.out, this.called);
    markDashless(this.s, this.loops, this.out);
    markLoopValues(this.s, this.loops, this.out);
    const numeric = numericVariables(this.s, this.sure, this.spans);
    const associative = associativeArrays(this.s, this.associative);
    for (const d of this.later!) {
      if (d.at >= until || (d.array && associative.has(d.array)) || d.names?.every((n) => numeric.has(n))) continue;
      this.out.push(opaque(d.text, d.names ? ARITHMETIC : "bash evaluates an array subscript as code"));
    }
    for (const seg of this.out) {
      for (const w of [...seg.assigns, ...seg.words]) if (numeric.has(variableOf(w.raw) ?? "")) w.numeric = true;
    }
    this.later = undefined;
  }

  /** Commands up to `close` or the end of the text; `complete` is told where each complete command ends. */
  protected list(close: Close, nested: boolean, complete?: () => void): void {
    const outer = this.base;
    this.base = this.open.length;
    try {
      this.items(close, nested, complete);
    } finally {
      this.base = outer;
    }
  }

  private items(close: Close, nested: boolean, complete?: () => void): void {
    let pending = ""; // an operator still waiting for its command
    for (;;) {
      this.blanks();
      const c = this.at();
      const op = this.operator();
      const closing =
        close === ")"
          ? c === ")"
          : close === "}"
            ? this.keyword() === "}"
            : close === "case" && (op === ";;" || op === ";&" || op === ";;&" || this.keyword() === "esac");
      if (c === "\n") {
        // a pending heredoc of an enclosing command: dash and bash differ on where its body starts
        if (this.heredocs.some((h) => h.level !== this.level)) fail("a newline inside a nested command while a heredoc is pending");
        this.i++;
        this.readHeredocs();
        if (!pending) complete?.();
      } else if (c === "" || closing) {
        if (pending) syntaxError(`nothing after \`${pending}\``);
        if (close && !closing) syntaxError(`missing \`${close === "case" ? "esac" : close}\``);
        const open = this.heredocs.find((h) => !close || h.level >= this.level);
        if (open) fail(unterminated(open.delim));
        this.closed();
        if (close !== "case") this.i += close.length;
        return;
      } else {
        const before = pending;
        const outer = this.piped;
        this.piped ||= before === "|" || before === "|&";
        let joined: boolean;
        try {
          joined = this.command(nested);
        } finally {
          this.piped = outer;
        }
        this.blanks();
        const next = this.operator();
        const surely = !before && next !== "|" && next !== "&" && next !== "|&" && !this.open.length && this.level === 0 && !nested;
        if (this.defined && surely) this.functions.set(this.defined, this.body);
        if (surely) this.settled();
        this.defined = this.assigned = this.last = undefined;
        if (next === ";;" || next === ";&" || next === ";;&") {
          if (close === "case") return this.closed();
          syntaxError(`\`${next}\` outside \`case\``);
        }
        if (!next && !joined && !["", "\n", ")"].includes(this.at())) syntaxError(`unexpected \`${this.at()}\``);
        this.i += next.length;
        pending = ["&&", "||", "|", "|&"].includes(next) ? next : "";
      }
    }
  }

  /**
   * One simple command; a subshell, group or keyword yields its inner commands instead. Returns
   * true when it ended at a reserved word that needs no separator before it (`for x do`, `(a) then`).
   */
  protected command(nested: boolean): boolean {
    const start = this.i;
    let from = start; // the raw text starts after keywords that only precede the command
    const seg: Segment = { raw: "", assigns: [], words: [], redirects: [], nested, ...(this.piped ? { piped: true } : {}) };
    let compound = false; // after `)`, `}`, `fi`, `done`, `esac`: only redirections may follow
    let joined = false;
    let wordEnd = -1; // where the last word ended: `NAME=(` must touch
    const at: number[] = []; // where each word starts
    let inner = this.out.length; // where the commands of a group, subshell or compound command start
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
        if (this.at(1) === "(" && this.dialect === "bash")
          this.arithmeticBody(this.i); // `((…))`: arithmetic, no program
        else {
          this.i++; // dash reads `((` as two subshells
          this.subshell();
        }
        compound = true;
      } else if (kw) {
        this.i += kw.length;
        inner = this.structure(kw) ?? inner;
        if (kw === "{") this.sub("}");
        else if (kw === "for" || kw === "select") this.forHeader(nested, kw, this.open.length);
        else if (kw === "case") {
          this.open.push("case"); // a function defined in an item may not be
          this.caseClause(nested);
          this.open.pop();
        } else if (kw === "function") this.definition(seg, nested);
        else if (kw === "[[") this.conditional();
        else if (kw === "}" || kw === "esac" || kw === "in") syntaxError(`unexpected \`${kw}\``);
        else if (!STRIPPED.has(kw) && kw !== "fi" && kw !== "done") fail(`unsupported shell syntax \`${kw}\``);
        compound = ["{", "fi", "done", "case", "function", "[["].includes(kw);
        from = this.i;
      } else if (c === "(") this.paren(seg, wordEnd, nested);
      else if (!this.redirect(seg)) {
        if (compound) syntaxError("unexpected word after a compound command");
        at.push(this.i);
        const w = this.word();
        wordEnd = this.i;
        this.noNewline(w);
        if (this.dialect === "bash" && NAMED_FD.test(w.raw) && (this.at() === "<" || this.at() === ">")) fail("bash's `{name}>` fd redirection");
        const command = !seg.words.length;
        const array = command && this.dialect === "bash" ? ARRAY_ASSIGN.exec(w.raw) : null; // `a[i]=x`: the subscript is arithmetic
        const reads = array ? arithmeticReads(array[1]!) : [];
        if (!reads || reads.length) this.readsVariables(w.raw, at.at(-1)!, reads, w.raw.slice(0, w.raw.indexOf("[")));
        if (array) this.arithmetic(at.at(-1)!, at.at(-1)! + w.raw.indexOf("=")); // `a[i]`: mentions of i there are arithmetic
        (command && (ASSIGNMENT[this.dialect].test(w.raw) || array || seg.opaque) ? seg.assigns : seg.words).push(w);
      }
      if (this.defined !== undefined) return false; // a function definition: its body was the command
    }
    if (this.i === start) syntaxError(`unexpected \`${this.at()}\``);
    seg.raw = this.s.slice(from, this.i).trim();
    seg.words = seg.words.filter((w) => !w.empty);
    // `{ python3; } <<EOF`, `while …; done < list.txt`, `{ python3 <&3; } 3<<EOF`: every command inside has what it opens (shell-stdin.ts)
    if (compound) giveStdin(this.out.slice(inner), inputs(seg.redirects), false, this.out, this.called);
    this.forget(seg);
    if (seg.opaque) this.out.push(opaque(seg.raw, seg.opaque));
    else if (seg.assigns.length || seg.words.length || seg.redirects.length) this.out.push(seg);
    this.assigned = !seg.opaque && !seg.words.length && !seg.redirects.length && seg.assigns.length ? { words: seg.assigns, at } : undefined;
    this.last = seg.opaque ? undefined : { seg, at };
    return joined;
  }

  /**
   * A call of a function surely defined runs its body (already read): it runs no program, and its
   * body reads what the call is given on stdin (`f <<<'…'`, `… | f`). `unset` may remove one.
   */
  private forget(seg: Segment): void {
    const first = seg.words[0];
    if (!first || first.unknown || first.glob) return;
    if (first.text === "unset") {
      if (seg.words.some((w) => /^-[a-z]*v/.test(w.text))) return; // `unset -v`: variables only
      for (const w of seg.words.slice(1)) w.unknown || w.glob ? this.functions.clear() : this.functions.delete(w.text);
      return;
    }
    const body = this.functions.get(first.text);
    if (!body) return;
    seg.inert = "builtin";
    this.calls.set(seg, body);
    const input = inputs(seg.redirects);
    if (input.length || seg.piped) giveStdin(this.out.slice(...body), input, seg.piped === true, this.out, this.called);
  }

  /** `function NAME [()] BODY` (bash). */
  private definition(seg: Segment, nested: boolean): void {
    this.blanks();
    const name = this.word();
    if (!FUNCTION_NAME.bash.test(name.raw)) syntaxError(`\`${name.raw}\` is no function name`);
    this.body = this.functionBody(nested);
    this.defined = name.text;
    seg.raw = "";
  }

  /**
   * A `(` after words: bash's array `NAME=(…)` (as an assignment, or an argument of `declare` and its
   * kin), a function definition `NAME()`, or a syntax error.
   */
  private paren(seg: Segment, wordEnd: number, nested: boolean): void {
    const last = seg.words.at(-1) ?? seg.assigns.at(-1);
    const inAssigns = !seg.words.length;
    const declaration = seg.words.length > 1 && DECLARATIONS.has(seg.words[0]!.raw);
    if (this.dialect === "bash" && last && wordEnd === this.i && COMPOUND.test(last.raw) && (inAssigns || declaration)) {
      this.i++;
      const array = this.arrayBody(
        last,
        seg.words.some((w) => /^-[a-zA-Z]*A/.test(w.text)),
      );
      (inAssigns ? seg.assigns : seg.words).splice(-1, 1, array);
      return;
    }
    const name = seg.words[0];
    if (seg.words.length === 1 && !seg.assigns.length && !seg.redirects.length && FUNCTION_NAME[this.dialect].test(name!.raw)) {
      seg.words.length = 0;
      this.body = this.functionBody(nested);
      this.defined = name!.text;
      return;
    }
    syntaxError("unexpected `(`");
  }
}
