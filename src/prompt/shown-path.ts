// How the model is shown a file's path and the skills list's entries: from the prompt's directory, `~/…` for the home
// directory's, with `/` on Windows too (source.ts builds the prompt with them; /skills and `hey doctor` show the same). Pure.
import * as nodePath from "node:path";
import type { PlatformPath } from "../fs/user-path.ts";
import type { Skill } from "../skills/frontmatter.ts";
import type { ListedSkill } from "./skill-listing.ts";

/**
 * The skills as the system prompt's list shows them (listSkills' input), for the prompt, `/skills`
 * and `hey doctor` alike: descriptions as `redact` leaves them, paths as the model writes them from
 * `cwd` (the prompt's directory).
 */
export function promptSkills(skills: readonly Skill[], at: { cwd: string; home: string; redact(text: string): string }): ListedSkill[] {
  return skills.map((s) => ({ ...s, description: at.redact(s.description), path: shownPath(s.path, at.cwd, at.home) }));
}

/**
 * A path as the model should write it: relative inside the working directory, `~/…` under home,
 * else absolute; with `/` between names on Windows too (the guide appends `/<name>/SKILL.md`, and
 * the file tools take either separator). `p`: the platform's path functions (path.win32 in tests).
 */
export function shownPath(path: string, cwd: string, home: string, p: PlatformPath = nodePath): string {
  const slashes = (s: string) => (p.sep === "\\" ? s.replaceAll("\\", "/") : s);
  const rel = cwd ? p.relative(cwd, path) : "";
  if (rel !== "" && !rel.startsWith(".." + p.sep) && rel !== ".." && !p.isAbsolute(rel)) return slashes(rel);
  return slashes(home && path.startsWith(home + p.sep) ? "~" + path.slice(home.length) : path);
}
