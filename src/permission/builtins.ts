// Shell builtins that run code no rule can see (SPEC §8). bash evaluates an array subscript
// (`a[$(cmd)]`) wherever a builtin takes a variable name, and a variable's value wherever it does
// arithmetic, so `printf -v`, `read`, `declare`, `test -v`… run code hidden in a quoted word or
// in a value read at run time. `.`/`source`, `alias` and `hash -p` change or hide what runs in
// both dialects. Each is judged on its known words; a name that is not a plain literal could be
// anything. Pure.
import { ASSIGN, NAME, type Dialect, type Segment, type Word } from "./shell-words.ts";
import { readOptions, type Wrapper } from "./wrappers.ts";

/** Variables whose value a shell later runs as code: prompts (PS4 with `set -x`), startup files, exported functions. */
const CODE_VARIABLE = /^(PS[0-4]|PROMPT_COMMAND|BASH_ENV|ENV|SHELLOPTS|BASHOPTS|BASH_FUNC_.*)$/;

const SUBSCRIPT = "bash evaluates a subscript in a variable name as code";
const ARITHMETIC = "bash evaluates a variable in arithmetic as code";

type Check = (args: Word[]) => string | undefined;

const known = (w: Word) => !w.unknown && !w.glob;

/** Why assigning to the variable `w` names could run code, or undefined for a plain literal name. */
function nameRisk(w: Word | null | undefined): string | undefined {
  if (!w || !known(w) || !NAME.test(w.text)) return SUBSCRIPT;
  if (CODE_VARIABLE.test(w.text)) return `\`${w.text}\` is run as code later`;
  return undefined;
}

/** Options per `spec`: the values of `nameOptions` are variable names, and so are the operands when `operands`. */
function names(spec: Wrapper, nameOptions: string[], operands: boolean): Check {
  return (args) => {
    const words = [{ text: "", raw: "", unknown: false, glob: false }, ...args];
    const parsed = readOptions(words, spec, 1, false);
    if (!parsed) return SUBSCRIPT;
    const named = nameOptions.filter((key) => parsed.seen.has(key)).map((key) => parsed.seen.get(key));
    return [...named, ...(operands ? words.slice(parsed.k) : [])].map(nameRisk).find(Boolean);
  };
}

/** declare, typeset, local, export, readonly: `NAME`, `NAME=value`, options `-aAfFgiIlnprtux` (and `+…`). */
function declaration(evaluates: string): Check {
  return (args) => {
    let options = "";
    for (const w of args) {
      if (!known(w) && !ASSIGN.test(w.raw)) return SUBSCRIPT; // `n=$x`: a literal name, a value known later
      if (w.text === "--") continue;
      if (/^[-+][A-Za-z]+$/.test(w.text)) {
        options += w.text.slice(1);
        continue;
      }
      const eq = w.text.search(/\+?=/);
      const risk = nameRisk({ text: eq < 0 ? w.text : w.text.slice(0, eq), raw: w.raw, unknown: false, glob: false });
      if (risk) return risk;
      if (eq >= 0 && /[aA]/.test(options)) return "bash evaluates a quoted array value as an assignment, subscripts included";
    }
    const flag = [...evaluates].find((f) => options.includes(f));
    return flag ? `bash evaluates values assigned with \`-${flag}\` as code` : undefined;
  };
}

/** `test`/`[`: a `-v` or `-R` operand (a literal one, or an expansion that could be one) followed by anything but a plain word. */
const testCheck: Check = (args) => {
  for (let k = 0; k + 1 < args.length; k++) {
    const op = args[k]!;
    const next = args[k + 1]!;
    if ((!known(op) || op.text === "-v" || op.text === "-R") && (!known(next) || /\[/.test(next.text))) return SUBSCRIPT;
  }
  return undefined;
};

const always =
  (why: string): Check =>
  () =>
    why;

/** Builtins whose arguments run code in bash (by command word, not path: `/bin/read` is no builtin). */
const BASH: Record<string, Check> = {
  printf: names({ flags: "", withArg: "v" }, ["v"], false),
  read: names({ flags: "ers", withArg: "adinNptu" }, ["a"], true),
  mapfile: (args) => (args.some((w) => !known(w) || /^-[a-zA-Z]*C/.test(w.text)) ? "`mapfile -C` runs a command" : names({ flags: "t", withArg: "dnOsuc" }, [], true)(args)),
  getopts: (args) => nameRisk(args[1]),
  wait: names({ flags: "fn", withArg: "p" }, ["p"], false),
  unset: names({ flags: "fvn" }, [], true),
  declare: declaration("inI"),
  typeset: declaration("inI"),
  local: declaration("inI"),
  export: declaration(""),
  readonly: declaration(""),
  test: testCheck,
  "[": testCheck,
  let: always(ARITHMETIC),
  enable: (args) => (args.length ? "`enable` loads or hides builtins" : undefined),
  fc: always("`fc` runs commands from the history"),
  compgen: always("`compgen` expands and runs words it is given"),
};
BASH.readarray = BASH.mapfile!;

/** Builtins that change or hide what runs, in every dialect. */
const ANY: Record<string, Check> = {
  ".": always("runs a script the rules cannot see"),
  source: always("runs a script the rules cannot see"),
  alias: (args) => (args.some((w) => !known(w) || w.text.includes("=")) ? "an alias changes what later commands run" : undefined),
  hash: (args) => (args.some((w) => !known(w) || /^-[a-z]*p/.test(w.text)) ? "`hash -p` changes which program a name runs" : undefined),
};

/** Why `seg` runs code no rule can see, in `dialect`; undefined when its words say it does not. */
export function builtinRisk(seg: Segment, dialect: Dialect): string | undefined {
  for (const w of seg.assigns) {
    const name = w.text.slice(0, Math.max(0, w.text.search(/\+?=/)));
    if (CODE_VARIABLE.test(name)) return `\`${name}\` is run as code later`;
  }
  const first = seg.words[0];
  if (!first || !known(first)) return undefined;
  const args = seg.words.slice(1);
  const check = (dialect === "bash" && Object.hasOwn(BASH, first.text) ? BASH[first.text] : undefined) ?? (Object.hasOwn(ANY, first.text) ? ANY[first.text] : undefined);
  return check?.(args);
}
