// What the control checks refuse in a command's segments, while a list is set (issue 24): a
// redirection or an argument reaching hey's or git's own files (control-files.ts,
// control-arguments.ts), and a `git config` that writes a key git runs (git-config-writes.ts).
// Asked of the command line, and of the shell text git or a script runs from it (`GIT_EDITOR='git
// config include.path' git commit -e`: the editor's command writes git's config). Under an allow
// list, also a path find or xargs fills in for a program that writes; under every list, what find's
// `-delete` reaches (filled-words.ts). Pure.
import { controlArgument } from "./control-arguments.ts";
import { workingDirectory } from "./control-cwd.ts";
import { CACHE_WHY, COPIES_WHY, controlWrite, type ControlFiles, PATH_WHY } from "./control-files.ts";
import { filledWrite, findDeletes } from "./filled-words.ts";
import { gitConfigWrite } from "./git-config-writes.ts";
import { linkOverGuarded, withLineLinks } from "./line-links.ts";
import type { Segment } from "./shell-model.ts";
import { treeCopy } from "./tree-copies.ts";

const owner = (git: boolean | undefined, how: string) =>
  git
    ? "git's own files (git runs the commands its config and hooks name)"
    : how === CACHE_WHY || how === PATH_WHY || how === COPIES_WHY
      ? "a file hey guards"
      : "hey's own configuration or trust file";

/**
 * Why `segments` (of `command`) may not run while a list is set, or undefined; `show` writes a word
 * as a refusal shows it. `allowing`: an allow list judges the command, under which a word known only
 * at run time is not verifiable (find's `{}`, xargs' input, as `"$d"`).
 */
export function controlRefusal(
  command: string,
  segments: Segment[],
  given: ControlFiles | undefined,
  show: (text: string) => string,
  allowing = false,
): string | undefined {
  if (!given) return undefined;
  // a path through a link an earlier part of the line makes (`ln -s ~/.config l && git clone . l/git`) is judged where it leads
  const control = withLineLinks(segments, given);
  // a path that did not answer in time (fs/bounded-reads.ts): not known to be safe, so refused, saying which
  const unknown = (it: string, what: string, why: string) =>
    `cannot verify \`${show(command)}\`: hey cannot tell whether \`${show(it)}\` ${what} a file hey guards (its own configuration, git's config and hooks): ${why}`;
  const written = controlWrite(segments, control);
  if (written?.unknown) return unknown(written.redirect, "writes", written.unknown);
  if (written)
    return `\`${show(written.redirect)}\` could write ${owner(written.git, written.how)}${written.how && ` (${written.how})`}, which the agent may not change`;
  const named = controlArgument(segments, control, allowing);
  if (named?.unknown) return unknown(named.word, "names", named.unknown);
  if (named) return `\`${show(named.word)}\` names ${owner(named.git, named.how)}${named.how && ` (${named.how})`}, which the agent may not change`;
  const home = control.home?.replace(/[\\/]$/, "");
  const shown = (p: string) => (home && (p === home || p.startsWith(`${home}/`)) ? `~${p.slice(home.length)}` : p);
  // a link made at a guarded place or a directory above one replaces it with what the link points to (judged on the disk as it is: the link's own path would lead to its target)
  const over = linkOverGuarded(segments, given);
  if (over)
    return `\`${show(over.command)}\` makes a link at \`${show(shown(over.at))}\`, which would replace ${over.why ? "" : "hey's own configuration or trust file "}\`${show(shown(over.file))}\`${over.why ? `, a place hey guards (${over.why})` : ""} with what it points to, which the agent may not change`;
  // find's own `-delete` reaches what the search finds, as `rm {}` would: under every list, as `rm .hey/config.toml`
  const deleted = findDeletes(segments, control);
  if (deleted) return `\`${show(command)}\` may delete a file hey guards: ${deleted}`;
  const filled = allowing ? filledWrite(segments, control) : undefined;
  if (filled) return `cannot verify \`${show(command)}\`: ${filled}`;
  const cwd = workingDirectory(segments, control);
  if (cwd && "unknown" in cwd) return unknown(cwd.command, "changes files in a directory holding", cwd.unknown);
  if (cwd && "git" in cwd)
    return `\`${show(cwd.command)}\` writes files in \`${show(shown(cwd.dir))}\`${cwd.git && ` (${cwd.git})`}, among ${owner(true, "")}, which the agent may not change`;
  if (cwd) {
    const verb = cwd.change === "deletes" ? "deletes files no repository keeps in" : "changes files in";
    const where = cwd.relation === "holds" ? "which holds" : "a directory above";
    const dir = cwd.tree
      ? `its repository's work tree, \`${show(shown(cwd.dir))}\`, beyond the folder it runs in,`
      : `the directory ${cwd.prefix ? "its `--prefix` names" : "it runs in"}, \`${show(shown(cwd.dir))}\`,`;
    // the way out of a refusal that only a `git add` before any commit brought about (x165 #5)
    const staged = cwd.staged
      ? `: \`${show(shown(cwd.staged.file))}\` is staged and in no commit, so git would take it away; commit it first, or ask the user to unstage it (\`git restore --staged ${show(cwd.staged.path)}\`: hey refuses that to the agent, as every change of its own files)`
      : "";
    return `\`${show(cwd.command)}\` ${verb} ${dir} ${where} hey's own configuration or trust file \`${show(shown(cwd.file))}\`, which the agent may not change${staged}`;
  }
  const copy = treeCopy(segments, control);
  if (copy && "unknown" in copy) return unknown(copy.command, "copies files into a directory holding", copy.unknown);
  if (copy?.why)
    return `\`${show(copy.command)}\` copies files into \`${show(shown(copy.into))}\`, where they may write \`${show(shown(copy.file))}\`, a place hey guards (${copy.why}), which the agent may not change`;
  if (copy)
    return `\`${show(copy.command)}\` copies files into \`${show(shown(copy.into))}\`, where they may replace hey's own configuration or trust file \`${show(shown(copy.file))}\`, which the agent may not change`;
  // `git config core.fsmonitor CMD` names no file, yet writes git's config as `cp x .git/config` would
  return gitConfigWrite(segments, show);
}
