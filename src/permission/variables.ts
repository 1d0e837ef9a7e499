// Variables that decide what later commands run (SPEC §8, issue 24): a shell assigns them in many
// ways — `NAME=value`, `for NAME`, `read NAME`, `printf -v NAME`, `declare NAME`, arithmetic
// (`$((NAME=1))`, `((NAME++))`, `let`), `${NAME:=value}` — and each way counts the same. Pure.

/**
 * Names whose value changes which program runs or what it loads: command lookup (PATH), config and
 * hook locations (HOME, XDG_*, GIT_*…), the dynamic loader (LD_*), shell start-up and parsing (ENV,
 * BASH_ENV, SHELLOPTS, IFS, CDPATH…), editors and pagers programs start, and interpreters' own
 * start-up variables. Assigned, they make the rest of the script unknown to the checker.
 */
const SENSITIVE =
  /^(PATH|HOME|IFS|ENV|BASH_ENV|SHELLOPTS|BASHOPTS|CDPATH|GLOBIGNORE|POSIXLY_CORRECT|SHELL|TMPDIR|EDITOR|VISUAL|SUDO_EDITOR|PAGER|MANPAGER|BROWSER|LESSOPEN|LESSCLOSE|LESS|SSH_ASKPASS|SUDO_ASKPASS|GCONV_PATH|OPENSSL_CONF|OPENSSL_ENGINES|NODE_OPTIONS|NODE_PATH|PERL5OPT|PERL5LIB|PERLLIB|RUBYOPT|RUBYLIB|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|RUSTC_WRAPPER|RUSTC|CC|CXX|MAKEFLAGS|MFLAGS|MAKEFILES|(XDG|GIT|LD|DYLD|PYTHON|CARGO|NPM_CONFIG|npm_config|BASH_FUNC)_?.*)$/;

/** Variables whose value a shell later runs as code: prompts it expands (PS4 with `set -x`; not select's PS3), start-up files, exported functions. */
export const CODE_VARIABLE = /^(PS[0124]|PROMPT_COMMAND|BASH_ENV|ENV|SHELLOPTS|BASHOPTS|BASH_FUNC_.*)$/;

/** Why assigning `name` makes what follows unknown, or undefined for an ordinary name. */
export function assignRisk(name: string): string | undefined {
  if (CODE_VARIABLE.test(name)) return `\`${name}\` is run as code later`;
  if (SENSITIVE.test(name)) return `assigning \`${name}\` changes what later commands run`;
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

/**
 * Does bash, evaluating `expr`, read a variable whose value it could run as code (`a[$(cmd)]`)? A
 * variable is safe only where the same expression has already set it to a number (`for ((i=0;
 * i<3; i++))`); any other name, `$` or subscript is read from a value the checker does not know.
 */
export function readsUnknownValue(expr: string): boolean {
  const known = new Set<string>();
  let depth = 0;
  let part = "";
  const parts: string[] = [];
  for (const c of expr + ";") {
    depth += c === "(" ? 1 : c === ")" ? -1 : 0;
    if (depth === 0 && (c === ";" || c === ",")) (parts.push(part), (part = ""));
    else part += c;
  }
  for (const p of parts) {
    if (/[$[\]]/.test(p)) return true;
    const set = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=(?!=)\s*([^]*)$/.exec(p);
    if (set && !/[A-Za-z_]/.test(set[2]!)) {
      known.add(set[1]!);
      continue;
    }
    if ((p.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? []).some((name) => !known.has(name))) return true;
  }
  return false;
}
