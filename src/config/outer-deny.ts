// What a run says of the configs above its project whose deny entries apply too (config/load.ts,
// fs/places.ts outerConfigs): the project can move below them (an agent's `.hey/skills/` written
// from a subdirectory), and their entries then refuse calls though no file of the project names
// them. Pure.
import { relative } from "node:path";

/**
 * The line naming the `file` of each of `outer` (absolute, nearest first), above the project
 * `root`, by its path from `cwd`, where the user stands — from `web/src`, a `../.hey/config.toml`
 * would read as the project `web/`'s own file — and `kept`, the line as the root names them, by
 * which it is said once per project (peers/said.ts) wherever in it hey starts. Undefined when there
 * are none. At start, and in `hey doctor` (every time).
 */
export function outerDenyNotice(outer: readonly { file: string }[], { root, cwd }: { root: string; cwd: string }): { line: string; kept: string } | undefined {
  if (outer.length === 0) return undefined;
  const from = (dir: string) => {
    const named = outer.map((o) => relative(dir, o.file));
    const them = named.length === 1 ? named[0] : `${named.slice(0, -1).join(", ")} and ${named.at(-1)}`;
    return `deny entries of ${them} apply too: ${named.length === 1 ? "it is" : "they are"} above this project (${root})`;
  };
  return { line: from(cwd), kept: from(root) };
}
