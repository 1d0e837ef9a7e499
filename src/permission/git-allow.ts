// git under an allow list (SPEC §8). What git runs with the shell from its command line — a leading
// `GIT_EDITOR=…`, `-c core.editor=…`, `-c alias.x='!…'`, `rebase -x …` (git-texts.ts) — is judged
// against the allow entries as a command of its own, however it is spelled, so `GIT_EDITOR=vim git
// commit` and `git -c core.editor=vim commit` both need `bash: vim *`. git's options before the
// subcommand that change nothing else the rules see (`-c` pairs whose value is judged or runs
// nothing, `--no-pager`, `-C DIR` as `cd DIR &&` would) are set aside for matching, so hey's own
// hint `git -c core.editor=true rebase --continue` meets `bash: git rebase *`; not for an exact
// entry, which allows the command as written only. Pure.
import type { ControlFiles } from "./control-files.ts";
import { readGit } from "./git.ts";
import { gitShellTexts, judgedSetting, SERVERS, type Texts } from "./git-texts.ts";
import { allowMatch, isStar, type Pattern } from "./match.ts";
import type { Segment, Word } from "./shell-model.ts";
import { submoduleUpdates } from "./submodule-updates.ts";
import { GIT_SHELL_VARS } from "./variables.ts";

/** A git segment as an allow list reads it; undefined for any other command. */
export interface GitAllowed {
  /** the segment without its git shell assignments and set-aside options (the segment itself when there are none) */
  bare: Segment;
  /** the shell texts git would run, or why they cannot be verified */
  texts: Texts;
}

const plain = (w: Word | undefined): w is Word => !!w && !w.unknown && !w.glob && !w.anyValue;
/** git's options before the subcommand that run nothing and name no file (git(1)). */
const SET_ASIDE = new Set(["--no-pager", "-P", "--no-optional-locks", "--no-advice"]);

export function gitAllowed(seg: Segment, segments: Segment[], control?: ControlFiles): GitAllowed | undefined {
  const [first, ...rest] = seg.words;
  if (!plain(first) || first.text !== "git") return undefined;
  const name = (a: Word) => a.text.slice(0, Math.max(0, a.text.indexOf("=")));
  const assigns = seg.assigns.every((a) => plain(a) && GIT_SHELL_VARS.has(name(a))) ? [] : seg.assigns;
  let k = 0;
  for (; k < rest.length; k++) {
    const w = rest[k]!;
    if (!plain(w)) break;
    if (SET_ASIDE.has(w.text)) continue;
    if ((w.text === "-c" && judgedSetting(rest[k + 1])) || (w.text === "-C" && plain(rest[k + 1]))) k++;
    else break;
  }
  const bare = k || assigns !== seg.assigns ? { ...seg, assigns, words: [first, ...rest.slice(k)] } : seg;
  return { bare, texts: gitShellTexts(seg, segments, "allow", { home: control?.home, updates: submoduleUpdates(seg, segments, control) }) };
}

/**
 * The allow entries that match a git segment as written or set aside (gitAllowed), and which of the
 * texts git would run still need judging: a text whose word a matching entry spells out
 * (`bash: git -c core.editor=vim commit *`) is the user's choice.
 */
export function gitMatches(seg: Segment, git: GitAllowed, allow: Pattern[]): { by: Pattern[]; judge: Texts } {
  // an exact entry is the command as written: `git -C ../other push --force` is another repository's push
  const by = allow.filter((p) => allowMatch(seg, p) || (git.bare !== seg && !p.exact && allowMatch(git.bare, p)));
  const spelled = (word: string | undefined) => by.some((p) => p.words.some((w) => !isStar(w) && w.raw === word));
  // a server (`git daemon`) only where a matching entry names it: `bash: git daemon *`
  const sub = seg.words[readGit(seg.words)?.sub ?? -1]?.text ?? "";
  if (Object.hasOwn(SERVERS, sub) && !spelled(sub)) return { by, judge: { unknown: SERVERS[sub]! } };
  if ("unknown" in git.texts) return { by, judge: git.texts };
  return { by, judge: git.texts.filter((t) => !spelled(t.word)) };
}
