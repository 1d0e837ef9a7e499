// What an equivalent of a deny entry (equivalents.ts) matches by its words but does not do, as the
// program's manual says (SPEC §8): `git rm --cached` keeps the files, `git clean -n -f` and `git rm
// -n` only list, `truncate -s +1M` only grows a file, `curl -G -d` sends a GET, and `gh api graphql`
// given a GraphQL query (not a mutation) only reads. Refusing them cost users; each is recognised
// only from words known before the command runs, so a word decided at run time keeps the refusal.
// Pure.
import { program } from "./match.ts";
import { readGit } from "./git.ts";
import { known, type Segment, type Word } from "./shell-model.ts";

/** The words before a `--` (all of them known), or undefined when one is decided at run time. */
function optionWords(args: Word[]): string[] | undefined {
  const end = args.findIndex((w) => known(w) && w.text === "--");
  const before = end < 0 ? args : args.slice(0, end);
  return before.every(known) ? before.map((w) => w.text) : undefined;
}

/** Whether the option `long` (`--cached`) is given, by a unique abbreviation of at least `min` characters too, and not negated after. */
function longGiven(words: string[], long: string, min: number): boolean {
  let on = false;
  for (const t of words) {
    if (t.length >= min && long.startsWith(t)) on = true;
    else if (`--no-${long.slice(2)}`.startsWith(t) && t.length > 5) on = false;
  }
  return on;
}

/**
 * git-rm(1): "--cached … Working tree files, whether modified or not, will be left alone"; "-n,
 * --dry-run Don't actually remove any file(s)". git-clean(1): "-n, --dry-run Don't actually remove
 * anything" (with `-f` too). Short flags may stand in a cluster (`-rn`, `-nf`), before a letter that
 * takes a value (git clean's `-e`).
 */
function gitKeeps(seg: Segment): boolean {
  const read = readGit(seg.words);
  if (read?.sub === undefined) return false;
  const sub = seg.words[read.sub]!.text;
  const words = optionWords(seg.words.slice(read.sub + 1));
  if (!words) return false;
  const flags = sub === "rm" ? "rfnq" : sub === "clean" ? "dfinqxX" : "";
  if (!flags) return false;
  const cluster = new RegExp(`^-[${flags}]*n`);
  const dry = words.some((t) => cluster.test(t)) || longGiven(words, "--dry-run", 5);
  return dry || (sub === "rm" && longGiven(words, "--cached", 3));
}

/**
 * truncate(1): a SIZE "prefixed by … '+' extend by, '>' at least, '%' round up to multiple of"
 * never shortens a file; every `-s` is such a size and none is `-r FILE` (another file's size).
 */
export function truncateGrows(seg: Segment): boolean {
  const words = optionWords(seg.words.slice(1));
  if (!words) return false;
  const sizes: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const t = words[i]!;
    if (/^-[co]*r|^--r/.test(t)) return false;
    const short = /^-[co]*s(.*)$/.exec(t);
    const long = /^--s(?:i(?:ze?)?)?(=.*)?$/.exec(t); // `--s`: getopt_long takes any unique prefix
    if (short) sizes.push(short[1] || (words[++i] ?? ""));
    else if (long) sizes.push(long[1] ? long[1].slice(1) : (words[++i] ?? ""));
  }
  return sizes.length > 0 && sizes.every((s) => /^\s*[+>%]/.test(s));
}

/** curl(1) -G, --get: "all data specified with -d, --data, --data-binary or --data-urlencode [is] used in an HTTP GET request instead of the POST". */
function curlGets(seg: Segment): boolean {
  const words = optionWords(seg.words.slice(1));
  // `-G` alone or after flags in a cluster (`-sG`, `-Gd x`); a letter that takes a value would make the rest its value
  // `--next`/`-:` starts another transfer, whose options -G does not reach
  if (!words || words.some((t) => t === "--next" || t === "-:")) return false;
  return words.some((t) => t === "--get" || /^-[fikLsSv]*G/.test(t));
}

/**
 * Whether an equivalent's pattern, `does` what its refusal says, is not done by `seg`: the dry runs
 * and `--cached` of git rm and git clean under `rm` entries, a truncate that only grows, curl's
 * data options with `-G`.
 */
export function spared(seg: Segment, patternProgram: string, patternWords: Word[]): boolean {
  const first = seg.words[0];
  if (!known(first)) return false;
  const name = program(first.text);
  if (patternProgram === "git" && name === "git" && /^(rm|clean)$/.test(patternWords[1]?.text ?? "")) return gitKeeps(seg);
  if (patternProgram === "truncate" && name === "truncate") return truncateGrows(seg);
  if (patternProgram === "curl" && name === "curl" && patternWords.some((w) => /^(-d|--data)/.test(w.text))) return curlGets(seg);
  return false;
}

/**
 * GraphQL's strings (block strings too) and comments, taken out as one pass left to right: a `#`
 * inside a string starts no comment (`search(query: "#x") } mutation {…}` holds a mutation).
 */
const GRAPHQL_INERT = /"""[\s\S]*?"""|"(?:[^"\\\n]|\\.)*"|#[^\n]*/g;

/** gh api's options that take a value (gh-api(1)); a word after one is not the endpoint. */
const GH_VALUE = /^(-[XfFHqtp]|--(method|raw-field|field|header|input|jq|template|preview|hostname|cache))$/;

/**
 * `gh api graphql` given a query document that holds no `mutation` or `subscription` (GraphQL's
 * operations that are not "a read-only fetch"), in `-f query=…` or `-F query=…` (not `@file`), and
 * no `--input`: gh sends it as a POST, which reads. undefined when the words say otherwise.
 */
export function ghReadsGraphql(seg: Segment): boolean {
  const words = optionWords(seg.words.slice(2));
  if (!words) return false;
  let endpoint: string | undefined;
  const queries: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const t = words[i]!;
    if (/^--input/.test(t)) return false;
    const field = /^(?:-[fF]|--(?:raw-)?field)(?:=?)(.*)$/.exec(t);
    const value = field ? field[1] || words[i + 1] : undefined;
    if (field && !field[1]) i++;
    else if (GH_VALUE.test(t)) i++;
    else if (!t.startsWith("-")) endpoint ??= t;
    if (value?.startsWith("query=")) queries.push(value.slice("query=".length));
  }
  if (endpoint !== "graphql" || !queries.length) return false;
  // every query given (gh sends one of them): none from a file, none a mutation or subscription
  return queries.every((q) => q.trim() && !q.startsWith("@") && !/\b(mutation|subscription)\b/i.test(q.replace(GRAPHQL_INERT, "")));
}
