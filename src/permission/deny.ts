// Matching one simple command against one deny pattern (SPEC §8). Like an allow pattern (match.ts),
// but erring towards refusing:
// - the command name is compared by basename (`/bin/rm` is `rm`) and case-insensitively;
//   redirections and assignments are ignored unless the pattern names them; a word known only at
//   run time could be anything, so it matches ("maybe");
// - the words naming a subcommand (`git push *`) match past the options before them (`git -C .
//   push`, `npm --prefix x publish`), and by the other names the program gives it (`npm pub`, `gh
//   pr ls`: subcommands.ts);
// - the option words after the subcommand (`git push --force *`, `rm -rf *`) match wherever the
//   command gives them, in any spelling the program reads as the same option (deny-options.ts);
// - a subcommand that may be a user's alias is refused while the pattern names a subcommand of
//   that program (subcommandAlias);
// - under PowerShell, the entry's words are also read as PowerShell binds a command's parameters
//   (`-r`, `-REC`, `-Recurse:1` anywhere are `-Recurse`: deny-options.ts parameterIn), except for
//   git and npm: programs, to which PowerShell passes the words as written, and whose own reading
//   of them hey has tables of;
// - an entry's equivalents (equivalents.ts: `find -delete` for `rm *`) match as the entry does,
//   by what a package runner in the command runs too (equivalentHit).
import { both, denyReadings, either, type Hit, optionsIn } from "./deny-options.ts";
import { type Form, pathForm } from "./path-form.ts";
import { readGit } from "./git.ts";
import { globMatch, isStar, type Pattern, program, wordMatches } from "./match.ts";
import { powerShellTokens } from "./powershell.ts";
import { ASSIGN, type Segment, type Word } from "./shell-model.ts";
import { sameSubcommand, subcommandAlias } from "./subcommands.ts";
import { type Equivalent, runnerTails } from "./equivalents.ts";
import { spared } from "./spares.ts";
import { denyWords as entryAt } from "./refusal-words.ts";

/** Programs with an option table (program-tables.ts) that PowerShell runs as programs, passing their words on as written. */
const NATIVE = new Set(["git", "npm"]);

const isProgram = (w: Word | undefined, name: string) => !!w && !w.unknown && !w.glob && !w.anyValue && program(w.text) === name;
/** A pattern word naming a subcommand: spelled out, not an option. */
const subcommand = (t: Word) => !t.unknown && !isStar(t) && !/^[-+]/.test(t.text);

/**
 * Like allowWords, with three answers: a word known only at run time matches "maybe". The words a
 * pattern names after the program (`git push`, `npm run build`: its subcommand) match past the
 * options before each of them (`git -C dir push`, `npm --prefix x run build`, `gh pr -R x merge`):
 * git's own options as git reads them, others' as any word starting with `-` or `+`, with or
 * without the next word as its value (both readings count). The option words after them match
 * anywhere among the command's arguments (deny-options.ts). `powershell`: the command is read by
 * PowerShell, so its parameter words count too.
 */
export function denyMatch(seg: Segment, p: Pattern, powershell = false, caseless = false): Hit {
  const form = { caseless, backslash: powershell };
  // assignments count only when the pattern names some (`FOO=1 *`)
  const lead = p.assigns ? seg.assigns : [];
  const pc = p.words.findIndex((w) => !ASSIGN.test(w.raw));
  const name = pc >= 0 && !p.words[pc]!.unknown && !p.words[pc]!.glob ? program(p.words[pc]!.text) : "";
  // git's options are read exactly (`git -C push status` runs status), so only the words after its subcommand skip options
  const git = name === "git" && isProgram(seg.words[0], "git");
  const sub = git ? readGit(seg.words)?.sub : undefined;
  let hit: Hit;
  // `iwr -Method Get` read as `curl`: PowerShell binds a cmdlet's parameters; curl's clusters (`-Method` as `-M -e -t -h -o -d`) are not read
  for (const reading of powershell && seg.cmdlet ? [] : denyReadings(p.words, pc, name)) {
    let h = denyWords([...lead, ...seg.words], lead.length, reading.words, pc, git ? 2 : 1, name, form);
    if (sub !== undefined) h = either(h, denyWords([...lead, seg.words[0]!, ...seg.words.slice(sub)], lead.length, reading.words, pc, 2, name, form));
    if (h && reading.options.length) h = both(h, optionsIn(seg.words, git ? (sub ?? 0) + 1 : 1, reading));
    hit = either(hit, h);
  }
  if (powershell && !NATIVE.has(name)) {
    // the words as PowerShell's tokenizer cuts them: `-Path:x` is `-Path:` and `x`, which an entry's `x` then matches
    const words = powerShellTokens(seg.words);
    for (const reading of denyReadings(p.words, pc, name, true)) {
      const h = denyWords([...lead, ...words], lead.length, reading.words, pc, 1, name, form);
      hit = either(hit, h && reading.options.length ? both(h, optionsIn(words, 1, reading)) : h);
    }
  }
  return hit && denyRedirects(seg, p, hit);
}

/**
 * denyMatch over `words`, the command at `cmd`, against the pattern words `pw` (`pc` its command,
 * `name` its program). Before each subcommand word from the `skip`th on, the segment's options are
 * skipped, and the word may be another name the program gives that subcommand. Other words compare
 * as the paths they may name (pathForm).
 */
function denyWords(words: Word[], cmd: number, pw: Word[], pc: number, skip: number, name: string, form: Form): Hit {
  const n = words.length;
  const wild = (i: number) => words[i]!.unknown || words[i]!.glob;
  // the command by basename and case-insensitively: `/bin/rm` and, on macOS, `RM` are rm
  const named = (s: string, i: number) => (i === cmd ? program(s) : /^[-+]/.test(s) ? s : pathForm(s, form));
  const end = pw.findIndex((t, i) => i > pc && !subcommand(t));
  const path = (pi: number) => pc >= 0 && pi >= pc + skip && (end < 0 || pi < end);
  const same = (t: Word, i: number, pi: number) => {
    const [a, b] = [named(t.text, i), named(words[i]!.text, i)];
    if (t.unknown) return t.raw === words[i]!.raw;
    if (t.glob && t.text.includes("*")) return globMatch(a, b);
    const parent = pw.slice(pc + 1, pi).map((w) => w.text);
    return a === b || (pi > pc && path(pi) && sameSubcommand(name, parent, a, b));
  };
  const option = (i: number) => i > cmd && !wild(i) && /^[-+]./.test(words[i]!.text);
  let next: Hit[] = words.map((_, i): Hit => (wild(i) ? "maybe" : undefined)).concat("yes");
  for (let pi = pw.length - 1; pi >= 0; pi--) {
    const t = pw[pi]!;
    const cur: Hit[] = [];
    cur[n] = isStar(t) ? next[n] : undefined;
    for (let si = n - 1; si >= 0; si--) {
      if (isStar(t)) cur[si] = either(next[si], cur[si + 1]);
      else if (wild(si)) cur[si] = "maybe";
      else if (same(t, si, pi)) cur[si] = next[si + 1];
      // an option before a subcommand word: skipped alone, or with the next word as its value
      else if (path(pi) && option(si)) cur[si] = either(cur[si + 1], /^--[^=]+=/.test(words[si]!.text) ? undefined : cur[si + 2]);
      else cur[si] = undefined;
    }
    next = cur;
  }
  return next[0];
}

/** A deny pattern that names redirections matches only segments that have them. */
function denyRedirects(seg: Segment, p: Pattern, hit: "yes" | "maybe"): Hit {
  for (const want of p.redirects) {
    const found = seg.redirects.filter((r) => r.op === want.op);
    if (found.some((r) => !r.target.unknown && !r.target.glob && wordMatches(want.target, r.target, true))) continue;
    if (!found.some((r) => r.target.unknown || r.target.glob)) return undefined;
    hit = "maybe";
  }
  return hit;
}

/**
 * Why a segment could run the subcommand a deny entry names under another name (subcommands.ts),
 * or undefined: `git p`, `cargo p`, `gh pm` (any may be an alias of the named subcommand). `git`:
 * what git's config makes of the command's subcommand (git-aliases.ts), which then tells.
 */
export function aliasRisk(seg: Segment, p: Pattern, git?: { from: Segment; to?: Segment[]; why?: string }): string | undefined {
  const pc = p.words.findIndex((w) => !ASSIGN.test(w.raw));
  const command = p.words[pc];
  if (!command || command.unknown || command.glob) return undefined;
  const path: string[] = [];
  for (const w of p.words.slice(pc + 1)) {
    if (!subcommand(w) || w.glob) break;
    path.push(w.text);
  }
  const risk = subcommandAlias(program(command.text), path, seg.words);
  return risk && git && (seg === git.from || !!git.to?.includes(seg)) ? git.why : risk;
}

/** An equivalent of a deny entry (equivalents.ts) matched by the segment, or by what a package runner in it runs: the refusal, or undefined. */
export function equivalentHit(
  seg: Segment,
  p: Equivalent,
  powershell: boolean,
  caseless: boolean,
  denyAt?: Readonly<Record<string, string>>,
): string | undefined {
  for (const run of [seg, ...runnerTails(seg)]) {
    // only what the command spells out: `mv "$a" "$b"` could be `mv x /dev/null`, but refusing every run-time word would refuse ordinary scripts
    if (denyMatch(run, p, powershell, caseless) === "yes" && !spared(run, program(p.words[0]!.text), p.words))
      return `matches ${entryAt(p.entry, denyAt)} by another name: ${p.does}`;
  }
  return undefined;
}
