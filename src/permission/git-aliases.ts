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
import { known, type Segment, type Word } from "./shell-model.ts";

/** What git's config makes of `from`'s subcommand: `to`, the commands it may run (none: a git-NAME program; several: help.autocorrect's guesses), with a `note` saying how, or `why` it cannot be told. */
export interface ConfigAlias {
  from: Segment;
  to?: Segment[];
  note?: string;
  why?: string;
}

/** The commands a ConfigAlias may run, as spellings of the command to judge. */
export const aliased = (alias: ConfigAlias | undefined): Segment[] => alias?.to ?? [];

const MAX_ALIASES = 10; // git stops an alias loop itself
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
  const configs = gitConfigs(seg, at, segments, control);
  if (!configs) return undefined;
  if ("why" in configs) return refused(configs.why);
  const own = seg.words.slice(1, at);
  const as = (words: Word[]): Segment => ({ ...seg, words: [first, ...own, ...words] });
  // what git runs for `words`: a command, the command an alias names, or (a name no config defines) a git-NAME program
  const expand = (start: Word[]): { to: Segment[] } | { why: string } => {
    let words = start;
    for (let depth = 0; depth < MAX_ALIASES; depth++) {
      const values = new Set(configs.map((c) => c.aliases.get(words[0]!.text.toLowerCase())));
      if (values.size > 1) return { why: "git's config gives it different values where the command may run" };
      const [value] = values;
      if (value === undefined) return { to: words === start ? [] : [as(words)] };
      if (value.startsWith("!")) return { why: `its config sets it to shell text, \`${value}\`, which hey does not read here: write the command itself` };
      if (/['"\\]/.test(value) || !value.trim() || value.trim().startsWith("-"))
        return { why: `its config value \`${value}\` has quoting hey does not read: write the command itself` };
      words = [...value.trim().split(/\s+/).map(literal), ...words.slice(1)];
      if (GIT_COMMANDS.has(words[0]!.text)) return { to: [as(words)] };
    }
    return { why: `its aliases nest more than ${MAX_ALIASES} deep` };
  };
  const typedWords = seg.words.slice(at);
  const autocorrect = configs.find((c) => c.autocorrect !== undefined)?.autocorrect;
  if (autocorrect === undefined || configs.some((c) => c.aliases.has(typed.toLowerCase()))) {
    const found = expand(typedWords);
    return "why" in found ? refused(found.why) : { from: seg, ...(found.to.length ? { to: found.to } : {}) };
  }
  // no alias, and help.autocorrect lets git run its guess for an unknown name (once: not for what an alias names)
  const guesses = [...new Set(configs.flatMap((c) => autocorrectTargets(typed, GIT_COMMANDS, c.aliases.keys())))];
  if (!guesses.length) return { from: seg };
  const note = `help.autocorrect = ${autocorrect} makes git run ${guesses.map((g) => `\`${g}\``).join(" or ")} for \`${typed}\``;
  const to: Segment[] = [];
  for (const guess of guesses) {
    const rest = [literal(guess), ...typedWords.slice(1)];
    const found = GIT_COMMANDS.has(guess) ? { to: [as(rest)] } : expand(rest);
    if ("why" in found) return { from: seg, why: `${note}, an alias: ${found.why}` };
    to.push(...found.to);
  }
  return { from: seg, to, note };
}

/** What `control.gitAliases` reads from one directory. */
type GitConfig = Exclude<ReturnType<NonNullable<ControlFiles["gitAliases"]>>, { unknown: string }>;

/**
 * The config a git command (its subcommand at `at`) reads in each repository it may run in: where
 * a `cd` may lead (else the start directory), then its `-C`s; or why it cannot be told (a GIT_
 * variable, `--git-dir`, a command that may write git's config first); undefined: none to read.
 */
export function gitConfigs(seg: Segment, at: number, segments: Segment[], control: ControlFiles | undefined): GitConfig[] | { why: string } | undefined {
  if (!control?.gitAliases) return undefined;
  const own = seg.words.slice(1, at);
  const gitVariable = (s: Segment) => [...s.assigns, ...s.words].some((w) => /^GIT_/.test(w.text) || w.unknown);
  if (
    own.some((w) => ELSEWHERE.test(w.text)) ||
    gitVariable({ ...seg, words: [] }) ||
    segments.some((s) => s !== seg && s.words[0]?.text === "export" && gitVariable(s))
  )
    return { why: "the command changes which config git reads" };
  const changer = segments.find((s) => s !== seg && changesConfig(s));
  if (changer) return { why: `\`${changer.raw}\` may change git's config first` };
  const f = onWindows(control) ? WINDOWS : POSIX;
  let dirs = [...new Set((directories(segments, control, f) ?? (control.cwd ? [control.cwd] : [])).map(f.normalize))];
  for (let k = 1; k < at; k++) {
    const [w, next] = [seg.words[k]!, seg.words[k + 1]];
    if (w.text !== "-C" || !next) continue;
    const abs = f.absolute(next.text);
    dirs = dirs.map((d) => f.normalize(abs ?? f.join(d, next.text)));
  }
  if (!dirs.length) return undefined;
  const configs: GitConfig[] = [];
  for (const dir of dirs) {
    const config = control.gitAliases(dir);
    if ("unknown" in config) return { why: `hey cannot read git's config: ${config.unknown}` };
    configs.push(config);
  }
  return configs;
}
