// git's aliases from its config files (SPEC §8): a deny entry naming a git subcommand refuses any
// other name git may run as an alias (subcommands.ts), unless the config files git reads say what
// that name is: `git st` with `alias.st = status` is `git status`, judged as such; a name no config
// file defines is a `git-NAME` program, not an alias — unless help.autocorrect lets git run what it
// guesses was meant (git-autocorrect.ts): `git psuh` is then judged as `git push`. A `!` alias is shell text, refused with its
// text. Read only where nothing in the command can change what git reads: no GIT_ variable set, no
// config written first, no `--git-dir`. Pure: the caller reads the files (fs/git-config-files.ts).
import { type ControlFiles, directories, onWindows, POSIX, WINDOWS } from "./control-files.ts";
import { autocorrectTargets } from "./git-autocorrect.ts";
import { GIT_COMMANDS, readGit } from "./git.ts";
import { program } from "./match.ts";
import { changesConfig } from "./push-config.ts";
import type { Segment, Word } from "./shell-model.ts";

/** What git's config makes of `from`'s subcommand: `to`, the command it runs (none: a git-NAME program), or `why` it cannot be told. */
export interface ConfigAlias {
  from: Segment;
  to?: Segment;
  why?: string;
}

/** The command a ConfigAlias runs, as a spelling of the command to judge: none, or one. */
export const aliased = (alias: ConfigAlias | undefined): Segment[] => (alias?.to ? [alias.to] : []);

const MAX_ALIASES = 10; // git stops an alias loop itself
const known = (w: Word | undefined): w is Word => !!w && !w.unknown && !w.glob && !w.anyValue;
const literal = (text: string): Word => ({ text, raw: text, unknown: false, glob: false });
/** git's own options that change which config it reads or where it finds its programs */
const ELSEWHERE = /^--(git-dir|work-tree|exec-path|namespace|config-env)(=|$)/;

/** What git's config makes of `seg`'s subcommand when it is no git command (`git st`), or undefined: not such a command, or no config to read. */
export function configAlias(seg: Segment, segments: Segment[], control: ControlFiles | undefined): ConfigAlias | undefined {
  const first = seg.words[0];
  if (!control?.gitAliases || !known(first) || program(first.text) !== "git") return undefined;
  const read = readGit(seg.words);
  const at = read?.sub;
  if (!read || read.unsure || at === undefined || !seg.words.slice(0, at + 1).every(known)) return undefined;
  const typed = seg.words[at]!.text;
  if (GIT_COMMANDS.has(typed) || typed.startsWith("-")) return undefined;
  const refused = (why: string): ConfigAlias => ({ from: seg, why: `\`${typed}\` may be a git alias, and ${why}` });
  const own = seg.words.slice(1, at);
  const gitVariable = (s: Segment) => [...s.assigns, ...s.words].some((w) => /^GIT_/.test(w.text) || w.unknown);
  if (
    own.some((w) => ELSEWHERE.test(w.text)) ||
    gitVariable({ ...seg, words: [] }) ||
    segments.some((s) => s !== seg && s.words[0]?.text === "export" && gitVariable(s))
  )
    return refused("the command changes which config git reads");
  const changer = segments.find((s) => s !== seg && changesConfig(s));
  if (changer) return refused(`\`${changer.raw}\` may change git's config first`);
  // the repositories it may run in: where a `cd` may lead (else the start directory), then its `-C`s
  const f = onWindows(control) ? WINDOWS : POSIX;
  let dirs = [...new Set((directories(segments, control, f) ?? (control.cwd ? [control.cwd] : [])).map(f.normalize))];
  for (let k = 1; k < at; k++) {
    const [w, next] = [seg.words[k]!, seg.words[k + 1]];
    if (w.text !== "-C" || !next) continue;
    const abs = f.absolute(next.text);
    dirs = dirs.map((d) => f.normalize(abs ?? f.join(d, next.text)));
  }
  if (!dirs.length) return undefined;
  const configs = [];
  for (const dir of dirs) {
    const config = control.gitAliases(dir);
    if ("unknown" in config) return refused(`hey cannot read git's config: ${config.unknown}`);
    configs.push(config);
  }
  let words = seg.words.slice(at);
  for (let depth = 0; depth < MAX_ALIASES; depth++) {
    const name = words[0]!.text;
    const values = new Set(configs.map((c) => c.aliases.get(name.toLowerCase())));
    if (values.size > 1) return refused("git's config gives it different values where the command may run");
    let [value] = values;
    if (value === undefined) {
      // no alias: a `git-NAME` program, or, where help.autocorrect lets git guess, the command it guesses
      const autocorrect = configs.find((c) => c.autocorrect !== undefined)?.autocorrect;
      if (autocorrect === undefined) return depth ? { from: seg, to: { ...seg, words: [first, ...own, ...words] } } : { from: seg };
      const guesses = new Set(configs.flatMap((c) => autocorrectTargets(name, [...GIT_COMMANDS, ...c.aliases.keys()])));
      if (guesses.size > 1) return refused(`help.autocorrect = ${autocorrect} may make git run one of ${[...guesses].join(", ")} in its place`);
      const [guess] = guesses;
      if (guess === undefined) return depth ? { from: seg, to: { ...seg, words: [first, ...own, ...words] } } : { from: seg };
      words = [literal(guess), ...words.slice(1)];
      if (GIT_COMMANDS.has(guess)) return { from: seg, to: { ...seg, words: [first, ...own, ...words] } };
      value = configs[0]!.aliases.get(guess);
      if (value === undefined || configs.some((c) => c.aliases.get(guess) !== value))
        return refused(`help.autocorrect = ${autocorrect} may make git run \`${guess}\`, which its config sets differently where the command may run`);
    }
    if (value.startsWith("!")) return refused(`its config sets it to shell text, \`${value}\`, which hey does not read here: write the command itself`);
    if (/['"\\]/.test(value) || !value.trim() || value.trim().startsWith("-"))
      return refused(`its config value \`${value}\` has quoting hey does not read: write the command itself`);
    words = [...value.trim().split(/\s+/).map(literal), ...words.slice(1)];
    if (GIT_COMMANDS.has(words[0]!.text)) return { from: seg, to: { ...seg, words: [first, ...own, ...words] } };
  }
  return refused(`its aliases nest more than ${MAX_ALIASES} deep`);
}
