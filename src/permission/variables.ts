// Variables that decide what later commands run (SPEC §8, issue 24): a shell assigns them in many
// ways — `NAME=value`, `for NAME`, `read NAME`, `printf -v NAME`, `declare NAME`, arithmetic
// (`$((NAME=1))`, `((NAME++))`, `let`), `${NAME:=value}` — and each way counts the same. Pure.

/**
 * Names whose value changes which program runs or what it loads: command lookup (PATH), config and
 * hook locations (HOME, XDG_*, GIT_*…), the dynamic loader (LD_*), shell start-up and parsing (ENV,
 * BASH_ENV, SHELLOPTS, IFS, CDPATH…), editors and pagers programs start, interpreters' own
 * start-up variables and package managers' (npm's, pnpm's and yarn's config: MANAGER_SETTING, BUN_OPTIONS: bun's extra options such as
 * `--preload=x.js`), and HEY_AGENT_SESSION, the mark by which a hey the agent's command starts
 * knows to ask no question (agent-mark.ts). Assigned (or unset), they make the rest of the
 * script unknown to the checker.
 */
const SENSITIVE =
  /^(HEY_AGENT_SESSION|PATH|HOME|IFS|ENV|BASH_ENV|SHELLOPTS|BASHOPTS|CDPATH|GLOBIGNORE|POSIXLY_CORRECT|SHELL|TMPDIR|EDITOR|VISUAL|SUDO_EDITOR|PAGER|MANPAGER|BROWSER|LESSOPEN|LESSCLOSE|LESS|SSH_ASKPASS|SUDO_ASKPASS|GCONV_PATH|OPENSSL_CONF|OPENSSL_ENGINES|NODE_OPTIONS|NODE_PATH|BUN_OPTIONS|YARN_RC_FILENAME|YARN_YARN_PATH|PERL5OPT|PERL5LIB|PERLLIB|RUBYOPT|RUBYLIB|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|RUSTC_WRAPPER|RUSTC|CC|CXX|MAKEFLAGS|MFLAGS|MAKEFILES|(XDG|GIT|LD|DYLD|PYTHON|CARGO|BASH_FUNC)_?.*)$/;

/**
 * Package managers' settings, read in any letter case: npm's config loader takes every variable
 * matching `/^npm_config_/i` (`Npm_Config_Script_Shell=./evil.sh npm test` runs evil.sh), pnpm's
 * `pnpm_config_*` likewise, and yarn lower-cases a `YARN_*` name into any setting (`yarnPath`,
 * `plugins`, yarn 1's `script-shell`).
 */
const MANAGER_SETTING = /^(npm_config|pnpm_config|yarn)_/i;

const sensitive = (name: string): boolean => SENSITIVE.test(name) || MANAGER_SETTING.test(name);

/** Variables whose value a shell later runs as code: prompts it expands (PS4 with `set -x`; not select's PS3), start-up files, exported functions. */
export const CODE_VARIABLE = /^(PS[0124]|PROMPT_COMMAND|BASH_ENV|ENV|SHELLOPTS|BASHOPTS|BASH_FUNC_.*)$/;

/** Why assigning `name` makes what follows unknown, or undefined for an ordinary name. */
export function assignRisk(name: string): string | undefined {
  if (CODE_VARIABLE.test(name)) return `\`${name}\` is run as code later`;
  if (sensitive(name)) return `assigning \`${name}\` changes what later commands run`;
  return undefined;
}

/** Variables git reads as a command it runs with the shell (git-texts.ts judges their values). */
export const GIT_SHELL_VARS = new Set([
  "GIT_SSH_COMMAND",
  "GIT_PAGER",
  "GIT_EDITOR",
  "GIT_SEQUENCE_EDITOR",
  "GIT_EXTERNAL_DIFF",
  "GIT_ASKPASS",
  "PAGER",
  "EDITOR",
  "VISUAL",
]);

/**
 * Why `name=…` before the program `command` (`PATH=. ls`: not a builtin or a function, whose
 * assignments can outlast them) makes it unknown, or undefined. The assignment lasts for that one
 * command, so it changes what that command runs, not later ones; before git, a variable git runs as
 * shell text (`GIT_EDITOR=true git rebase --continue`) is no risk: that text is judged as a command
 * of its own, as `git -c core.editor=true` is (git-texts.ts).
 */
export function prefixRisk(name: string, command: string): string | undefined {
  if (command.slice(command.lastIndexOf("/") + 1) === "git" && GIT_SHELL_VARS.has(name)) return undefined;
  if (CODE_VARIABLE.test(name)) return assignRisk(name);
  if (sensitive(name)) return `assigning \`${name}\` before \`${command}\` changes what that command runs`;
  return undefined;
}

/**
 * bash's variables that have the integer attribute from the start (`declare -pi` in a fresh bash
 * 5.2, and SECONDS): a value assigned to one is evaluated as arithmetic, so `RANDOM='a[$(cmd)]'`
 * or `for OPTIND in "$x"` runs code. Variables a script declares with `-i` are judged in builtins.ts.
 */
const INTEGER_VARIABLE = /^(RANDOM|SRANDOM|OPTIND|HISTCMD|SECONDS|BASHPID|PPID|UID|EUID)$/;
export const INTEGER_VALUE = "bash evaluates a value assigned to an integer variable as code";

/** Why bash assigning `value` (undefined: known only at run time) to `name` evaluates code, or undefined. */
export function integerRisk(name: string, value?: string): string | undefined {
  return INTEGER_VARIABLE.test(name) && !(value !== undefined && /^\s*[-+]?[0-9]+\s*$/.test(value)) ? INTEGER_VALUE : undefined;
}

const ARITH_NAME = /[A-Za-z_][A-Za-z0-9_]*/y;
/** Assignment operators of shell arithmetic (the longest first). */
const ARITH_ASSIGN = /\s*(<<=|>>=|\*\*=|[-+*/%&^|]=|=(?!=))/y;

/**
 * The variables an arithmetic expression assigns: `NAME =…`, `NAME op=…`, `++NAME`, `NAME--`.
 * Reads the expression's text as written (`$((PATH=0))`, `((i++))`, `let x+=1`).
 */
export function arithmeticAssigns(expr: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < expr.length; i++) {
    if (!/[A-Za-z_]/.test(expr[i]!) || (i > 0 && /[A-Za-z0-9_$#]/.test(expr[i - 1]!))) continue;
    ARITH_NAME.lastIndex = i;
    const name = ARITH_NAME.exec(expr)![0];
    const after = i + name.length;
    ARITH_ASSIGN.lastIndex = after;
    const before = expr.slice(0, i).trimEnd();
    if (ARITH_ASSIGN.test(expr) || /^\s*(\+\+|--)/.test(expr.slice(after)) || /(\+\+|--)$/.test(before)) out.push(name);
    i = after - 1;
  }
  return out;
}

/** Why an arithmetic expression's assignments make what follows unknown, or undefined. */
export function arithmeticRisk(expr: string): string | undefined {
  // `$((${n}=1))`: the name assigned is an expansion's value, known only at run time
  if (/\$/.test(expr) && /(<<|>>|\*\*|[-+*/%&^|])?=(?!=)|\+\+|--/.test(expr.replace(/[<>!=]=/g, ""))) return "arithmetic assigns a variable named at run time";
  return arithmeticAssigns(expr).map(assignRisk).find(Boolean);
}

/** Constants (`010`, `0xff`, `16#ff`, `64#_@`) and names, as bash's arithmetic reads them. */
const ARITH_TOKEN = /[0-9][0-9A-Za-z_#@]*|[A-Za-z_][A-Za-z0-9_]*/g;
const arithNames = (text: string) => [...text.matchAll(ARITH_TOKEN)].map((m) => m[0]).filter((t) => !/^[0-9]/.test(t));

/**
 * The variables bash reads evaluating `expr` (their values are expressions it evaluates in turn,
 * array subscripts and their `$(…)` included), leaving out those the expression has just set to a
 * number itself (`for ((i=0; i<3; i++))`); undefined when it reads what the checker cannot know at
 * all: a `$` expansion or a subscript.
 */
export function arithmeticReads(expr: string): string[] | undefined {
  // `$x` puts x's value in the text, which bash evaluates as it would evaluate `x`; `$$`, `$#`… are numbers
  expr = expr
    .replace(/\$(?:([A-Za-z_][A-Za-z0-9_]*)|\{([A-Za-z_][A-Za-z0-9_]*)\})/g, (_, a?: string, b?: string) => ` ${a ?? b} `)
    .replace(/\$([$#?!]|\{[$#?!]\})/g, " 0 ");
  const known = new Set<string>();
  let depth = 0;
  let part = "";
  const parts: string[] = [];
  for (const c of expr + ";") {
    depth += c === "(" ? 1 : c === ")" ? -1 : 0;
    if (depth === 0 && (c === ";" || c === ",")) parts.push(part), (part = "");
    else part += c;
  }
  const reads: string[] = [];
  for (const p of parts) {
    if (/[$[\]]/.test(p)) return undefined;
    const set = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=(?!=)\s*([^]*)$/.exec(p);
    if (set && !arithNames(set[2]!).length) known.add(set[1]!);
    else reads.push(...arithNames(p).filter((name) => !known.has(name)));
  }
  return reads;
}

/** Does bash, evaluating `expr`, read a value it could run as code (see arithmeticReads)? */
export function readsUnknownValue(expr: string): boolean {
  return arithmeticReads(expr)?.length !== 0;
}

/** The variable a word is exactly the value of (`$x`, `${x}`, `"$x"`, `"${x}"`), or undefined. */
export function variableOf(raw: string): string | undefined {
  const m = /^("?)(?:\$([A-Za-z_][A-Za-z0-9_]*)|\$\{([A-Za-z_][A-Za-z0-9_]*)\})\1$/.exec(raw);
  return m ? (m[2] ?? m[3]) : undefined;
}

/** An arithmetic constant with its sign: `-010`, `0x1F`, `64#_@` (evaluated, it reads no variable). */
const CONSTANT = /^[-+]?(0[xX][0-9a-fA-F]+|[1-9][0-9]*#[0-9A-Za-z@_]+|[0-9]+)$/;

/** Pieces of a word whose value is always a number (or empty): see `numeric`. */
const NUMERIC_PIECE =
  /\$[$!#?]|\$\{[$!#?]\}|\$(PPID|UID|EUID)(?![A-Za-z0-9_])|\$\{(PPID|UID|EUID)\}|\$\{#([A-Za-z_][A-Za-z0-9_]*(\[[@*]\])?|[@*]|[0-9]+)\}|\$\(\((?:[^()]|\([^()]*\))*\)\)|[0-9]+/y;

/**
 * Is a word's value always a number (or empty)? An arithmetic constant, or digits, arithmetic expansions and the parameters
 * bash keeps numeric — `$$`, `$!`, `$#`, `$?`, the read-only `$PPID`, `$UID`, `$EUID`, lengths
 * (`${#x}`, `${#a[@]}`) — unquoted or inside one pair of double quotes; or `$NAME` of a variable
 * the script only ever sets to numbers (`numeric` on the word, see numericVariables).
 */
export function numeric(w: { raw: string; numeric?: boolean }): boolean {
  if (w.numeric) return true;
  const raw = /^"[^"]*"$/.test(w.raw) ? w.raw.slice(1, -1) : w.raw;
  if (!raw) return false;
  if (CONSTANT.test(raw)) return true;
  for (let i = 0; i < raw.length; i = NUMERIC_PIECE.lastIndex) {
    NUMERIC_PIECE.lastIndex = i;
    if (!NUMERIC_PIECE.test(raw)) return false;
  }
  return true;
}

/** bash's variables that are numbers from the start, whatever the environment says (until the script unsets or redeclares them). */
const DYNAMIC = ["RANDOM", "SRANDOM", "SECONDS"];

/**
 * The variables of the script `text` that hold a number whenever bash reads them: `sure` gives,
 * per name, where the script surely sets it to a number first (a top-level `NAME=NUMBER` that runs
 * unconditionally), and every mention of the name — none before that one — reads it (`$NAME`,
 * `${NAME}`, `${#NAME}`), sits in arithmetic (`spans`, which assigns numbers), or assigns it a
 * number (`NAME=$((NAME+1))`). Any other mention (`read NAME`, `for NAME in`, `NAME+=x`, a word
 * that merely spells it) could set it to anything, so the name is left out, as are uppercase names:
 * bash sets its own (REPLY by `read`, OPTARG by `getopts`, PWD by `cd`…) without naming them —
 * but for RANDOM, SRANDOM and SECONDS, numbers from the start, which need no assignment.
 */
export function numericVariables(text: string, sure: Map<string, number>, spans: [number, number][]): Set<string> {
  const out = new Set<string>();
  const inSpan = (p: number) => spans.find(([a, b]) => p >= a && p < b);
  for (const [name, first] of [...sure, ...DYNAMIC.map((n): [string, number] => [n, -1])]) {
    if (/^[A-Z0-9_]+$/.test(name) && first >= 0) continue; // bash's own variables (REPLY, OPTARG, PWD, _…): it assigns them without naming them
    const mentions = [...text.matchAll(new RegExp(`(?<![A-Za-z0-9_])${name}(?![A-Za-z0-9_])`, "g"))].map((m) => m.index);
    const ok = mentions.every((p) => {
      const end = p + name.length;
      if (p < first) return false;
      if (inSpan(p) || (text[p - 1] === "$" && text[p - 2] !== "\\")) return true;
      if ((text.slice(p - 2, p) === "${" || text.slice(p - 3, p) === "${#") && text[end] === "}") return true;
      if (text[end] !== "=" || text[end + 1] === "=" || !(p === 0 || /[\s;&|(){}]/.test(text[p - 1]!))) return false;
      const span = inSpan(end + 1 + (text[end + 1] === '"' ? 1 : 0));
      const value = span ? text.slice(end + 1, span[1] + (text[end + 1] === '"' ? 1 : 0)) : /^("[^"]*"|[^\s;&|()<>])*/.exec(text.slice(end + 1))![0];
      return numeric({ raw: value });
    });
    if (ok) out.add(name);
  }
  return out;
}

/**
 * The arrays of the script `text` that are associative whenever bash reads a subscript of them,
 * which it then reads as a word, not arithmetic: `sure` gives, per name, where the script surely
 * declares it so first (a top-level `declare -A NAME` that runs unconditionally), and every
 * mention — none before — is that declaration, an expansion (`$NAME`, `${NAME[k]}`, `${!NAME[@]}`,
 * `${#NAME[@]}`), a quoted element name (`unset 'NAME[k]'`) or a command's own element or array
 * assignment (`NAME[k]=v`, `NAME=(…)`). Anything else (`local NAME`, `unset NAME`) could make it an
 * indexed array again.
 */
export function associativeArrays(text: string, sure: Map<string, number>): Set<string> {
  const out = new Set<string>();
  for (const [name, first] of sure) {
    const mentions = [...text.matchAll(new RegExp(`(?<![A-Za-z0-9_])${name}(?![A-Za-z0-9_])`, "g"))].map((m) => m.index);
    const ok = mentions.every((p) => {
      const [before, after] = [text.slice(0, p), text.slice(p + name.length)];
      if (p === first) return true;
      if (p < first) return false;
      if (/\$\{?[!#]?$/.test(before) && !/\\\$\{?[!#]?$/.test(before)) return true;
      if (/['"]$/.test(before) && after.startsWith("[")) return true;
      return /(^|[;&|({\n])[ \t]*$/.test(before) && /^(\[[^\]]*\]\+?=|\+?=\()/.test(after);
    });
    if (ok) out.add(name);
  }
  return out;
}
