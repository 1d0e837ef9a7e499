// Finding and reading skills (SPEC §12, §24). Six folders, later winning by name: `~/.claude/skills/`
// (`$CLAUDE_CONFIG_DIR/skills/` when that is set), `~/.agents/skills/`, `~/.config/hey/skills/`,
// then — trusted projects only — `.claude/skills/`, `.agents/skills/` and `.hey/skills/` of the
// project root, so skills written for other agents work unchanged.
// In each folder a skill is a subfolder with a SKILL.md, or a `.md` file with frontmatter at the
// folder's root. Parsing and validation are skills/frontmatter.ts's; this file only reads.
import { readdirSync, realpathSync, statSync, type Dirent } from "node:fs";
import { basename, join } from "node:path";
import { isWithin } from "../fs/within.ts";
import { readHeadBytes } from "../fs/read-head.ts";
import { decodeOutput } from "../fs/output-text.ts";
import { decodeText, utf16Of, wholeCharacters } from "../fs/text-encoding.ts";
import { type Cut, decodeForPrompt } from "../fs/prompt-text.ts";
import { byPrecedence } from "./catalog.ts";
import { parseSkill, splitFrontmatter, type Skill, type SkillProblem } from "./frontmatter.ts";
import { errnoCode, errorText } from "../kernel/errors.ts";

/** Only the head of a skill is read to list it: the frontmatter is at the top. */
const SKILL_HEAD_BYTES = 64 * 1024;

/** A folder of skills; `within`: a skill file there must really be inside this directory (the project), links included. */
export interface SkillFolder {
  dir: string;
  within?: string;
}

/**
 * The skill folders in precedence order, lowest first; the project's three only when `project`.
 * A project's skill that is a link to a file outside the project is left out (as a project's
 * AGENTS.md is): a repository must not put `~/.aws/credentials` into every prompt (issue 24). The
 * user's own folders may link anywhere (a skills folder kept with the dotfiles).
 */
export function skillFolders(opts: { home: string; claudeDir: string; configDir: string; root: string; project: boolean }): SkillFolder[] {
  // Claude Code's folders first: the same Agent Skills format, and a name hey's own folders give too is theirs
  const user = [{ dir: join(opts.claudeDir, "skills") }, { dir: join(opts.home, ".agents", "skills") }, { dir: join(opts.configDir, "skills") }];
  if (!opts.project) return user;
  const within = realOr(opts.root);
  const project = [".claude", ".agents", ".hey"].map((d) => ({ dir: join(opts.root, d, "skills"), within }));
  return [...user, ...project];
}

function realOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

export interface LoadedSkills {
  /** sorted by name, one per name */
  skills: Skill[];
  problems: SkillProblem[];
}

/**
 * What a user-level skill under a permission list loads as (trust/instructions.ts loadable):
 * `"held"`, left out unread (waiting for the user's approval); bytes, read and checked, loaded in
 * place of the file; undefined, read as any skill is.
 */
export type SkillGate = (path: string) => "held" | Uint8Array | undefined;

/** Every skill in `folders` (missing folders are fine); never throws for what it finds. `gate`: what of a skill file loads (SkillGate). */
export function loadSkills(folders: readonly (string | SkillFolder)[], gate?: SkillGate): LoadedSkills {
  const found: Skill[] = [];
  const problems: SkillProblem[] = [];
  for (const place of folders) {
    const { dir: folder, within } = typeof place === "string" ? { dir: place, within: undefined } : place;
    let entries: Dirent[];
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch (e) {
      const code = errnoCode(e);
      if (code !== "ENOENT" && code !== "ENOTDIR") problems.push({ level: "warning", message: `${folder}: cannot list the skills folder (${code})` });
      continue;
    }
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (entry.name.startsWith(".")) continue;
      const path = join(folder, entry.name);
      const kind = kindOf(entry, path);
      if (kind === "dir") {
        const file = join(path, "SKILL.md");
        if (kindOf(undefined, file) !== "file") tooDeep(path, folder);
        else read(file, entry.name, within);
      } else if (kind === "file" && entry.name.endsWith(".md")) read(path, undefined, within);
    }
  }
  // one file reached from two folders (`.hey/skills/x` a link to `.claude/skills/x`, kept for two agents): one skill, no note
  const real = found.map((s) => realOr(s.path));
  const merged = byPrecedence(found.filter((s, i) => !found.some((t, j) => j > i && t.name === s.name && real[j] === real[i])));
  return { skills: merged.skills, problems: [...problems, ...merged.problems] };

  function read(path: string, folder: string | undefined, within: string | undefined): void {
    const given = gate?.(path);
    if (given === "held") return;
    let text: string;
    try {
      if (within !== undefined) {
        const real = realpathSync(path);
        if (!isWithin(real, within)) {
          problems.push({ level: "warning", message: `${linkOut(path, real)}; left out`, userOnly: true });
          return;
        }
      }
      const { bytes, size } = given ? { bytes: given.subarray(0, SKILL_HEAD_BYTES), size: given.length } : readHeadBytes(path, SKILL_HEAD_BYTES);
      const decoded = skillHead(bytes, size);
      text = decoded.text;
      if (decoded.foreign > 0)
        problems.push({
          level: "warning",
          message: `${path}: not UTF-8 (${decoded.foreign} byte${decoded.foreign === 1 ? "" : "s"}), read as Windows-1252 (Latin-1); save it as UTF-8`,
        });
    } catch (e) {
      problems.push({ level: "error", message: `${path}: cannot read (${errnoCode(e) ?? errorText(e)}); left out` });
      return;
    }
    // a loose .md file without frontmatter is not a skill: said (SPEC §12), except for a README
    if (folder === undefined && !opensWithFrontmatter(text)) {
      if (!/^readme\.md$/i.test(basename(path)))
        problems.push({ level: "warning", message: `${path}: no frontmatter (--- name and description ---), so it is not a skill; left out` });
      return;
    }
    const parsed = parseSkill(text, { path, ...(folder !== undefined ? { folder } : {}), stem: basename(path, ".md") }, Bun.YAML.parse);
    const version = versionOf(path);
    problems.push(...parsed.problems.map((p) => (version ? { ...p, version } : p)));
    if (parsed.skill) found.push({ ...parsed.skill, ...(within !== undefined ? { within } : {}), ...(given ? { checked: given } : {}) });
  }

  /** A folder with no SKILL.md whose subfolders have one (a collection cloned into the skills folder): said, not skipped silently. */
  function tooDeep(path: string, folder: string): void {
    let below: string[];
    try {
      below = readdirSync(path).filter((name) => !name.startsWith(".") && kindOf(undefined, join(path, name, "SKILL.md")) === "file");
    } catch {
      return;
    }
    if (below.length === 0) return;
    const some = below.slice(0, 3).join(", ") + (below.length > 3 ? ", …" : "");
    problems.push({
      level: "warning",
      message: `${path}: no SKILL.md, but ${below.length} skill folder${below.length === 1 ? "" : "s"} below it (${some}), one level deeper than hey looks; left out: move or link them into ${folder}`,
    });
  }
}

/** A project's file `path` leads to `real`, out of the project: the user's to read, never the model's. */
const linkOut = (path: string, real: string) => `${path} is a link to ${real}, outside the project`;

/** A project's skill whose file leads out of the project now; `message` is for the user alone. */
export class SkillLinkOut extends Error {}

/**
 * The text `/skill:NAME` sends: at most `maxBytes`, cut at a line end (`cut` says how much of how
 * much), text that is not UTF-8 read as Windows-1252 (`encoding` says so), as an @file's is. A
 * project's skill is checked again as loading checked it: its file may have become a link out of
 * the project since (a `git checkout` of a branch that planted one to `~/.aws/credentials`). The
 * file read is the one checked: its real path, the last step not followed. Throws SkillLinkOut for
 * such a link, else the system error when it cannot be read.
 */
export function readSkillText(skill: Skill, maxBytes: number): { text: string; cut?: Cut; encoding?: string } {
  if (skill.checked) return textOf(decodeForPrompt(skill.checked.subarray(0, maxBytes + 1), maxBytes, skill.checked.length));
  let path = skill.path; // the user's own folders may link anywhere
  if (skill.within !== undefined) {
    path = realpathSync(skill.path);
    if (!isWithin(path, skill.within)) throw new SkillLinkOut(`${linkOut(skill.path, path)}; not sent`);
  }
  const { bytes, size } = readHeadBytes(path, maxBytes + 1, { noFollow: skill.within !== undefined });
  return textOf(decodeForPrompt(bytes, maxBytes, size));
}

function textOf(decoded: ReturnType<typeof decodeForPrompt>): { text: string; cut?: Cut; encoding?: string } {
  if ("binary" in decoded) throw Object.assign(new Error("binary data, not a skill"), { code: "binary data" });
  return decoded;
}

/** A file's mtime and size, or undefined when it cannot be read. */
function versionOf(path: string): string | undefined {
  try {
    const st = statSync(path);
    return `${st.mtimeMs}:${st.size}`;
  } catch {
    return undefined;
  }
}

/** A directory entry's kind, links followed (a linked skill folder is common in dotfiles). */
function kindOf(entry: Dirent | undefined, path: string): "dir" | "file" | "other" {
  if (entry?.isDirectory()) return "dir";
  if (entry?.isFile()) return "file";
  try {
    const st = statSync(path);
    return st.isDirectory() ? "dir" : st.isFile() ? "file" : "other";
  } catch {
    return "other";
  }
}

/**
 * The text of a skill file's head as the loader reads it: a Latin-1 file as its Windows-1252
 * characters, as an @file reads, not U+FFFD; UTF-16 by its byte-order mark (Windows PowerShell
 * 5.1's `>`), as read_file reads it. `size`: the whole file's, when `bytes` is only its head.
 */
export function skillHead(bytes: Uint8Array, size: number): { text: string; foreign: number } {
  return utf16Of(bytes) ? { text: decodeText(wholeCharacters(bytes)).text, foreign: 0 } : decodeOutput(bytes, size > bytes.length);
}

/** Whether a skill file's text opens with frontmatter: a loose `.md` without it (a README among them) is no skill and never loads. */
export const opensWithFrontmatter = (text: string): boolean => splitFrontmatter(text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n")) !== undefined;
