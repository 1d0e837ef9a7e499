// Reading a program's leading options the way the program does (SPEC §8): GNU getopt_long (short
// clusters, attached or next-word values, optional values that can only be attached, long options
// and their unambiguous abbreviations), plus the variations real programs need — sudo's
// `VAR=value` words among its options, dash's and bash's `-o NAME` taking the next word even from
// inside a cluster (`sh -oc noglob '…'`), and programs whose getopt permutes (`script LOG -c …`).
// Pure; the tables live in wrappers.ts.
import { known, type Word } from "./shell-model.ts";

/** How a program reads its options. */
export interface Options {
  /** short options without a value */
  flags: string;
  /** short options taking a value, attached (`-n5`) or the next word */
  withArg?: string;
  /** short options whose value can only be attached (`prlimit -n1024`, `xargs -i{}`) */
  optional?: string;
  /** short options taking the next word even inside a cluster, whatever follows them there (the shells' `-o`, `-O`) */
  nextWord?: string;
  /** long options; a trailing "=" marks one taking a value (`--name=v` or `--name v`); others take one only as `--name=v` */
  long?: string[];
  /** long options must be spelled out (bash reads no abbreviation) */
  exactLong?: boolean;
  /** no options at all, not even `--`: the first word is the first operand (dash's `exec`) */
  none?: boolean;
  /** every `--name` or `--name=value` is an option of one word (valgrind's) */
  anyLong?: boolean;
  /** `NAME=value` words may stand among the options (sudo) */
  envAmongOptions?: boolean;
  /** the program's getopt permutes: options are read after operands too, up to `--` (util-linux `script`, `choom`) */
  permute?: boolean;
}

export interface ReadOptions {
  /** the index of the first word after the options (the first operand, unless `permute`) */
  k: number;
  /** the options seen, by letter or long name, with their values */
  seen: Map<string, Word | null>;
  /** `NAME=value` words read among the options */
  env: Word[];
  /** with `permute`: the operands, in order */
  operands: Word[];
  /** the options ended at `--` (after which sudo reads no `NAME=value`) */
  ended?: boolean;
}

const literal = (text: string): Word => ({ text, raw: text, unknown: false, glob: false });

/** sudo's test for an environment word: something before a `=`, not a path (parse_args.c). */
const SUDO_ENV = /^[^=/][^=]*=/;

/** The long option `name` abbreviates, as getopt_long resolves it: an exact name, else the one name it begins. */
function longName(spec: Options, name: string): string | undefined {
  const names = (spec.long ?? []).map((l) => l.replace(/=$/, ""));
  if (names.includes(name)) return name;
  if (spec.exactLong) return undefined;
  const found = [...new Set(names.filter((l) => l.startsWith(name)))];
  return found.length === 1 ? found[0] : undefined;
}

/**
 * Options per `spec`, from `words[start]` on. Undefined when unsure: an unknown option, a value
 * that is missing or known only at run time, or a word known only at run time where an option
 * could stand (it might be one).
 */
export function readOptions(words: Word[], spec: Options, start: number, plus: boolean): ReadOptions | undefined {
  const seen = new Map<string, Word | null>();
  const env: Word[] = [];
  const operands: Word[] = [];
  let k = start;
  for (; k < words.length && !spec.none; k++) {
    const w = words[k]!;
    const t = w.text;
    if (!known(w)) return undefined; // might be an option, might be the command
    if (t === "--") {
      if (spec.permute) operands.push(...words.slice(k + 1));
      return { k: k + 1, seen, env, operands, ended: true };
    }
    if (spec.envAmongOptions && SUDO_ENV.test(t)) {
      env.push(w);
      continue;
    }
    if (t.startsWith("--") && t.length > 2) {
      const eq = t.indexOf("=");
      if (spec.anyLong) {
        seen.set(t.slice(2, eq < 0 ? undefined : eq), eq < 0 ? null : literal(t.slice(eq + 1)));
        continue;
      }
      const name = longName(spec, t.slice(2, eq < 0 ? undefined : eq));
      if (!name) return undefined;
      if (spec.long!.includes(name + "=")) {
        const value = eq < 0 ? words[++k] : literal(t.slice(eq + 1));
        if (!known(value)) return undefined;
        seen.set(name, value);
      } else seen.set(name, eq < 0 ? null : literal(t.slice(eq + 1)));
      continue;
    }
    if (t === "-" && spec.flags.includes("-")) {
      seen.set("-", null);
      continue;
    }
    if (t.length < 2 || !(t.startsWith("-") || (plus && t.startsWith("+")))) {
      if (!spec.permute) break;
      operands.push(w);
      continue;
    }
    for (let j = 1; j < t.length; j++) {
      const ch = t[j]!;
      if (spec.flags.includes(ch)) seen.set(ch, null);
      else if (spec.nextWord?.includes(ch)) {
        const value = words[++k];
        if (!known(value)) return undefined;
        seen.set(ch, value);
      } else if (spec.optional?.includes(ch)) {
        seen.set(ch, j + 1 < t.length ? literal(t.slice(j + 1)) : null);
        break;
      } else if (spec.withArg?.includes(ch)) {
        const value = j + 1 < t.length ? literal(t.slice(j + 1)) : words[++k];
        if (!known(value)) return undefined;
        seen.set(ch, value);
        break;
      } else return undefined;
    }
  }
  return { k, seen, env, operands };
}
