// How the external `[tools] bash_filter` is named to the user (where it is set), and whether its
// program is plainly missing at start: config/unrunnable-tools.ts says it with the config's other
// problems, tools/filter-watch.ts at its failures. Pure.

/** The filter as the user set it: `HEY_BASH_FILTER "rtk"` or `FILE:LINE: [tools] bash_filter "rtk"`. */
export function filterName(filter: string, source: string | undefined): string {
  const value = JSON.stringify(filter);
  if (source === "HEY_BASH_FILTER") return `HEY_BASH_FILTER ${value}`;
  return `${source ? `${source}: ` : ""}[tools] bash_filter ${value}`;
}

/** The line of `warnings` (a config's, unrunnableFilter's among them) saying the filter cannot be run, or undefined. */
export function saidUnrunnable(filter: string, source: string | undefined, warnings: readonly string[]): string | undefined {
  const name = filterName(filter, source);
  return warnings.find((w) => w.startsWith(`${name} cannot be run (`));
}

/** What sh and bash run without looking on PATH: a filter starting with one of them is not checked at start. */
const SHELL_WORDS = new Set(
  (
    ". : [ [[ { ( ! alias bg break builtin case cd command continue declare echo eval exec exit export false fc fg for function " +
    "getopts hash if jobs kill let local printf pwd read readonly return select set shift source test time times trap true type " +
    "typeset ulimit umask unalias unset until wait while"
  ).split(" "),
);

/**
 * The line saying the external filter cannot be run, when its first word plainly names a program
 * that is not there (`rtk` not on PATH, `/opt/f` not found); undefined for `builtin`, `none`, a
 * program that is there, and a first word the shell resolves itself (a builtin, `~`, `$VAR`,
 * quotes, `X=1 cmd`): those are found at their first failure. Not on Windows, where the shell may be PowerShell.
 * `unrunnable` says why a program cannot be run (fs/ripgrep-choice.ts), or undefined when it can.
 */
export function unrunnableFilter(
  filter: string,
  source: string | undefined,
  platform: string,
  unrunnable: (program: string) => string | undefined,
): string | undefined {
  if (filter === "builtin" || filter === "none" || platform === "win32") return undefined;
  const first = /^\s*([^\s;&|<>()$`'"\\=~*?]+)(?:\s|$)/.exec(filter)?.[1];
  if (first === undefined || SHELL_WORDS.has(first)) return undefined;
  const why = unrunnable(first);
  return why && `${filterName(filter, source)} cannot be run (${first}: ${why}); bash output goes through the built-in filter instead`;
}
