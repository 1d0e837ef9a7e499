// A forced push by the repository's git config (SPEC §8): `remote.origin.push = +refs/heads/*:…`
// or `remote.origin.mirror = true` in a config file makes a `git push` without refspecs force, as
// `--force` does. A deny entry that would refuse the command with `--force` refuses it when the
// config so forces it. Pure: the caller reads the config (fs/git-config-files.ts), for the
// directory the commands start in.
import { reads } from "./named-readers.ts";
import { type ControlFiles, directories, onWindows, POSIX, WINDOWS } from "./control-files.ts";
import { denyMatch } from "./deny.ts";
import { readGit } from "./git.ts";
import { type Pattern, program } from "./match.ts";
import { known, type Segment, type Word } from "./shell-model.ts";

const FORCE: Word = { text: "--force", raw: "--force", unknown: false, glob: false };

/**
 * Whether the push's words may give no refspec: fewer than two words that are surely operands (a
 * repository, then a refspec); a word right after an option may be that option's value.
 */
function mayLackRefspecs(args: Word[]): boolean {
  let operands = 0;
  let afterDashes = false;
  for (let i = 0; i < args.length; i++) {
    const w = args[i]!;
    if (!known(w)) return true;
    if (!afterDashes && w.text === "--") afterDashes = true;
    else if (!afterDashes && w.text.startsWith("-")) continue;
    else if (afterDashes || i === 0 || !/^-[^=]*$/.test(args[i - 1]!.text)) operands++;
  }
  return operands < 2;
}

/** A path of git's config: a repository's `.git/config`, `config.worktree`, a `.gitconfig` or `git/config`. */
const CONFIG_PATH = /(^|[\\/])(\.git([\\/]|$)|\.?gitconfig$|config\.worktree$|git[\\/]config$)/;
const CONFIG_READS = /^(--get|--get-all|--get-regexp|--get-urlmatch|--list|-l|get|list)$/;
const CONFIG_EDITS = /^(--unset|--unset-all|--add|--replace-all|--remove-section|--rename-section|--edit|-e|set|unset|edit|rename-section|remove-section)$/;

/** Whether `git config ARGS` or `git remote ARGS` only reads (`git config --get x`, `git config x`, `git remote -v`, `git remote show o`). */
function gitReads(name: string, args: Word[]): boolean {
  if (!args.every(known)) return false;
  const text = args.map((w) => w.text);
  const operands = text.filter((t) => !t.startsWith("-"));
  if (name === "remote") return !operands.length || operands[0] === "show" || operands[0] === "get-url";
  return text.some((t) => CONFIG_READS.test(t)) || (operands.length === 1 && !text.some((t) => CONFIG_EDITS.test(t)));
}

/**
 * A segment that may change git's config before the push reads it: `git config` or `git remote`
 * but for their reading forms, a redirection writing a config file or into a `.git` directory
 * (`echo … >> .git/config`), or a command, not one that only reads, naming one (`cp x .git/config`,
 * `sed -i … ~/.gitconfig`).
 */
export function changesConfig(s: Segment): boolean {
  const first = s.words[0];
  if (!first || !known(first)) return s.words.length > 0;
  if (program(first.text) === "git") {
    const sub = readGit(s.words)?.sub;
    const name = sub === undefined ? undefined : s.words[sub]!.text;
    return (name === "config" || name === "remote") && !gitReads(name, s.words.slice(sub! + 1));
  }
  const written = s.redirects.filter((r) => r.op.includes(">")).map((r) => r.target);
  return [...written, ...(reads(s) ? [] : s.words.slice(1))].some((w) => CONFIG_PATH.test(w.text));
}

/**
 * The config setting (`control.pushForcing`, read only when needed, for each directory the push
 * may run in: where a `cd` may lead, then its `git -C`) that makes `seg` a forced push which the
 * deny entry `p` refuses given `--force`, or a segment of the same command (`segments`) that may
 * change the config first; undefined when neither.
 */
export function forcedByConfig(seg: Segment, p: Pattern, control: ControlFiles | undefined, caseless: boolean, segments: Segment[]): string | undefined {
  const first = seg.words[0];
  const forcing = control?.pushForcing;
  if (!control || !forcing || !first || !known(first) || program(first.text) !== "git") return undefined;
  const sub = readGit(seg.words)?.sub;
  if (sub === undefined || seg.words[sub]!.text !== "push" || !mayLackRefspecs(seg.words.slice(sub + 1))) return undefined;
  const forced = { ...seg, words: [...seg.words.slice(0, sub + 1), FORCE, ...seg.words.slice(sub + 1)] };
  if (denyMatch(seg, p, false, caseless) !== undefined || denyMatch(forced, p, false, caseless) !== "yes") return undefined;
  const changer = segments.find((s) => s !== seg && changesConfig(s));
  if (changer) return `\`${changer.raw}\` may change it first`;
  // the repositories it may push from: where a `cd` may lead (else the start directory), then its `-C`s
  const f = onWindows(control) ? WINDOWS : POSIX;
  let dirs = [...new Set((directories(segments, control, f) ?? (control.cwd ? [control.cwd] : [])).map(f.normalize))];
  for (let k = 1; k < sub; k++) {
    const [w, next] = [seg.words[k]!, seg.words[k + 1]];
    if (w.text !== "-C" || !next || !known(next)) continue;
    const abs = f.absolute(next.text);
    dirs = dirs.map((d) => f.normalize(abs ?? f.join(d, next.text)));
  }
  for (const dir of dirs) {
    const found = forcing(dir);
    if (found) return found;
  }
  return undefined;
}
