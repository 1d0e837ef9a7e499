// What `git submodule update` runs from git's own config (r5 #7): `submodule.NAME.update = !CMD`
// makes it run CMD, with the commit's name appended, for each submodule whose checkout differs
// from the recorded commit (git-submodule(1)). Read from the config files git reads where the
// command runs (git-aliases.ts gitConfigs); `.gitmodules` gives none, as git refuses `!` there
// ("invalid value"). `--checkout`, `--rebase` and `--merge` choose the mode over the config. Pure:
// the caller reads the files (fs/git-config-files.ts).
import type { ControlFiles } from "./control-files.ts";
import { gitConfigs } from "./git-aliases.ts";
import { readGit } from "./git.ts";
import type { ConfigUpdate } from "./git-texts.ts";
import { program } from "./match.ts";
import { known, type Segment } from "./shell-model.ts";

const MODE = /^--(checkout|rebase|merge)$/;

/** The `!CMD` updates `seg` runs when it is `git submodule update`, or why they cannot be told; none for any other command. */
export function submoduleUpdates(seg: Segment, segments: Segment[], control: ControlFiles | undefined): ConfigUpdate[] | { unknown: string } {
  const first = seg.words[0];
  if (!known(first) || program(first.text) !== "git") return [];
  const at = readGit(seg.words)?.sub;
  if (at === undefined || seg.words[at]!.text !== "submodule") return [];
  const args = seg.words.slice(at + 1);
  // its action is the first word that is no option (`git submodule --quiet update`); one known only at run time may be `update`
  const action = args.find((w) => !known(w) || !w.text.startsWith("-"));
  if (!action || (known(action) && action.text !== "update")) return [];
  if (args.some((w) => known(w) && MODE.test(w.text))) return [];
  const configs = gitConfigs(seg, at, segments, control);
  if (!configs) return [];
  if ("why" in configs) return { unknown: `runs git submodule update, which runs any \`submodule.NAME.update = !CMD\` of git's config, and ${configs.why}` };
  const found = new Map<string, string>();
  for (const config of configs) for (const [name, value] of config.updates ?? []) found.set(`${name}\0${value}`, name);
  return [...found].map(([key, name]) => ({ name, command: key.slice(key.indexOf("\0") + 2) }));
}
