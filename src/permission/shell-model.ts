// What the shell readers produce (SPEC §8): words, redirections and simple commands as dash or
// bash will run them, and the two ways a reading fails — a construct the checker does not model
// (`fail`) and a syntax error of the dialect (`syntaxError`). The readers are shell-words.ts (words),
// shell-tokens.ts, shell-conditional.ts, shell-compound.ts and shell-syntax.ts (the grammar).

/** The shell that reads a command line: dash (Debian's and Ubuntu's /bin/sh) or bash. */
export type Dialect = "dash" | "bash";

export interface Word {
  /** the value with quotes removed and backslash escapes resolved; expansions stay as written */
  text: string;
  /** the source text, line continuations removed */
  raw: string;
  /** holds an expansion ($VAR, ${…}, $(…), `…`, $((…)), $'…', <(…)): the value is known only at run time */
  unknown: boolean;
  /**
   * holds an unquoted glob (* ? […]) or brace expansion, or is an argument filled from input
   * (`xargs`, `find -exec … {}`): the shell or the program may turn it into other words
   */
  glob: boolean;
  /**
   * one of values the checker cannot pin down, all of them data: filled from input (`xargs`,
   * `find -exec … {}`), or dash's `$'…'` (read two ways across versions). Matches `*` like a glob;
   * where an option could stand, it could be any option.
   */
  anyValue?: boolean;
  /** `$NAME` of a variable the script only ever sets to numbers (variables.ts numericVariables) */
  numeric?: boolean;
  /** `"$NAME"` of a loop variable that only ever holds words not beginning with `-` (loop-variables.ts) */
  dashless?: boolean;
  /** `"$NAME"` of a `for` loop variable set only by its loops: the words of their lists (loop-variables.ts) */
  loopValues?: Word[];
  /** an unquoted `$(…)` that surely prints nothing: it expands to no word */
  empty?: boolean;
  /** an argument the program running the command fills in at run time (filled-words.ts): what it holds, if anything tells */
  filled?: Filled;
}

/**
 * Where a filled argument's value comes from: find's `{}` is a path below its start points, for
 * the `-exec` at `at` among find's words `find`
 * (`moved`: find runs in a directory its wrapper names, `env -C DIR find …`); xargs' are what it
 * reads, from stdin or a file (`-a FILE`), split at NULs (`-0`), lines (`-I`, `-d '\n'`),
 * another delimiter (`-d X`) or blanks.
 */
export type Filled =
  | { by: "find"; starts: Word[]; find: Word[]; at: number; moved?: true }
  | { by: "xargs"; file?: Word; split: "nul" | "line" | "other" | "blank" };

/** `op` keeps a non-default fd: ">", "2>", ">>", ">|", "<", "<>", "&>", "&>>", "2>&", "<&", "<<", "<<-", "<<<". */
export interface Redirect {
  op: string;
  target: Word;
  /** a heredoc's body, as written */
  body?: string;
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
  /** set when the segment runs code no rule can see (a script read from stdin, a subscript bash evaluates…): why */
  opaque?: string;
  /**
   * set when the segment runs code from a file or its input that hey does not read (`sed -f s.sed`,
   * sed's `e`): why. "cannot verify" under an allow list; under a deny list alone it runs, as
   * `awk -f x.awk` and `bash x.sh` do, and the deny entries judge its words.
   */
  unverified?: string;
  /**
   * "builtin": a shell builtin that runs no program (`cd`, `set -e`, `x=1`…), which an allow list
   * lets through without an entry; "words": a program known not to run its words as commands (a
   * wrapper's own options, `find` without `-exec`). Either way a deny entry need only match its name.
   */
  inert?: "builtin" | "words";
  /** reads a pipe from the command before it (`… | python3`), directly or as part of a group, subshell or function call that does */
  piped?: boolean;
  /**
   * what it reads on stdin without writing it: the fd-0 redirections of a group, loop or function
   * call around it, or of an earlier `exec < …` (`while read l; do …; done < list.txt`). Read only by
   * the rule on programs that run code from stdin (match.ts runsInput) and by a deny entry's look
   * into heredoc text; an allow entry matches a command's own redirections, never these.
   */
  given?: Redirect[];
  /** PowerShell: the command under another name of its cmdlet (`iwr` as `curl`): its words are the cmdlet's parameters, not a program's options */
  cmdlet?: boolean;
  /** in a loop's or a function's body, not in a subshell of its own there: it may run again, a `cd` from where the last pass left */
  repeats?: true;
  /** run by a program in another directory or root (`env -C`, `sudo -D`, `find -execdir`, `chroot`): its relative and absolute paths are not the script's */
  elsewhere?: boolean;
}

export type Parsed = { ok: true; segments: Segment[] } | { ok: false; reason: string };

/** A leading `NAME=value` (or `NAME+=value`) word: an assignment, not a command. */
export const ASSIGN = /^[A-Za-z_][A-Za-z0-9_]*\+?=/;
/** ASSIGN as each dialect reads it: dash knows no `+=`, so `a+=b` is a command it runs. */
export const ASSIGNMENT: Record<Dialect, RegExp> = { dash: /^[A-Za-z_][A-Za-z0-9_]*=/, bash: ASSIGN };
/** A shell variable name. */
export const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Whether a word's text is fixed by the command line: no run-time expansion, no glob, no value that could be anything. */
/** Why the segment runs code no rule sees: `opaque` under every list, `unverified` under an allow list (`allowing`); undefined when it runs none. */
export const unseenCode = (seg: Segment, allowing: boolean): string | undefined => seg.opaque ?? (allowing ? seg.unverified : undefined);

export const fixed = (w: Word): boolean => !w.unknown && !w.glob && !w.anyValue;

/** A word there whose text the command line fixes (`fixed`). */
export const known = (w: Word | undefined): w is Word => !!w && fixed(w);

export const MAX_DEPTH = 8; // deeper than any real command line; bounds pathological input
export const ARITHMETIC = "bash evaluates a variable in arithmetic as code";

/** `syntax`: the dialect itself rejects the text (the shell runs nothing of that complete command); else the checker cannot model it. */
export class ParseError extends Error {
  constructor(
    message: string,
    readonly syntax: boolean,
  ) {
    super(message);
  }
}

/** Throws the error `attempt` turns into `{ ok: false, reason }`: a construct the checker does not model exactly. */
export const fail = (reason: string): never => {
  throw new ParseError(reason, false);
};

/** Throws a syntax error of the dialect: text that dash or bash (as the reader is reading) refuses to parse. */
export const syntaxError = (reason: string): never => {
  throw new ParseError(`syntax error: ${reason}`, true);
};

/** Runs `part`; a syntax error it throws becomes a plain failure (the shell finds it only when that part runs, if ever). */
export function deferred<T>(part: () => T): T {
  try {
    return part();
  } catch (e) {
    if (e instanceof ParseError && e.syntax) fail(e.message);
    throw e;
  }
}

/** Runs a parse; a ParseError becomes `{ ok: false, reason }`. */
export function attempt(run: () => Segment[]): Parsed {
  try {
    return { ok: true, segments: run() };
  } catch (e) {
    if (e instanceof ParseError) return { ok: false, reason: e.message };
    throw e;
  }
}

/** A segment that runs code no rule can see; `raw` names it in messages. */
export function opaque(raw: string, why: string): Segment {
  return { raw, assigns: [], words: [{ text: raw, raw, unknown: true, glob: false }], redirects: [], nested: true, opaque: why };
}
