// The user's own instruction files, as the approvals rule weighs them (trust/instructions.ts):
// the user-level AGENTS.md the prompt reads (`~/.config/hey/AGENTS.md`, else Codex's or Claude
// Code's) and the skills of the user's three skill folders. Every session in every project reads
// them, so each is hashed here — only while a permission list is set: without one the agent may
// change anything anyway, and the start pays nothing. A folder skill is hashed whole: the model
// reads its reference files and runs its scripts as the skill's procedure.
import { closeSync, openSync, readdirSync, readFileSync, readSync, realpathSync, statSync } from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import type { PeerDirs } from "../fs/places.ts";
import { isWithin } from "../fs/within.ts";
import { userPeerFiles } from "./agents-md.ts";
import { opensWithFrontmatter, skillFolders, skillHead } from "../skills/load.ts";

/** Where the user's files are: hey's config folder, the home directory, the other agents' folders. */
export interface UserPlaces extends PeerDirs {
  configDir: string;
  home: string;
  /**
   * a trusted project's `.hey/skills` while a list is set: hey's own folder in the project, which
   * the agent writes as easily as the user's and every later session there reads, so its skills are
   * weighed as the user's are (the repository's AGENTS.md and its other folders are its content)
   */
  projectSkills?: string;
}

/** One user-level instruction file as found now (userInstructionFiles). */
export interface UserInstruction {
  path: string;
  /** `project skill`: in a trusted project's `.hey/skills` (UserPlaces.projectSkills) */
  kind: "AGENTS.md" | "skill" | "project skill";
  /** of its text (32 hex digits); of a folder skill, of its folder's files then of its SKILL.md (instructionHash) */
  hash: string;
  /** the bytes that were hashed (of a folder skill, its SKILL.md's): what the question shows and the copy keeps */
  bytes?: Uint8Array;
  /** a project skill that is a link to this real path, outside the project: the loader leaves it out (skills/load.ts), so nothing approves it */
  outside?: string;
}

/** What of the user's instruction file at a path loads now (trust/instructions.ts loadable): bytes read once and hashed, the approved copy in place of a changed file (`kept`), or none (`held`; `declined`: the user said no to this text at `/reload`). */
export type Loadable = { bytes: Uint8Array; kept?: true } | { held: true; changed?: boolean; declined?: true };

/** The run's approvals as the prompt asks them (trust/instructions.ts instructionGate). */
export interface InstructionGate {
  /** whether the user's files are weighed this run: a permission list was set at the start */
  weighing(): boolean;
  /** what of the file at `path` may load now; undefined: not one of the user's files weighed, read it as usual */
  loadable(path: string, at: UserPlaces): Loadable | undefined;
}

/** A folder skill's files hashed at most: a skill is a few files; past this hey cannot check it (UNCHECKED). */
export const SKILL_FILES_MAX = 200;
/** A folder skill's bytes hashed at most; past it, as past SKILL_FILES_MAX. */
export const SKILL_BYTES_MAX = 8 * 1024 * 1024;
/**
 * The start of the digest of a folder skill too big to hash (node_modules, a .venv, fonts): a new
 * one each time, so it never matches what was approved and waits for a yes at every start — a
 * file past the bound could be rewritten unseen, and a size and time can be put back.
 */
export const UNCHECKED = "unchecked-";

/** The places of the user's AGENTS.md, in the order the prompt tries them (prompt/agents-md.ts agentsPlaces). */
export const userAgentsFiles = (at: UserPlaces): string[] => [join(at.configDir, "AGENTS.md"), ...userPeerFiles(at)];

/**
 * The user-level instruction files there now, each with its hash: every user AGENTS.md that
 * exists, in the order the prompt tries them (one that waits gives way to the next: trust/instruction-approval.ts
 * inUse), then each skill. A file that cannot be read is left to the prompt's reading to report.
 */
export function userInstructionFiles(at: UserPlaces): UserInstruction[] {
  const out: UserInstruction[] = [];
  for (const path of userAgentsFiles(at)) {
    const read = isFile(path) ? readHashed(path, at) : undefined;
    if (read) out.push({ path, kind: "AGENTS.md", ...read });
  }
  for (const dir of userSkillFolders(at)) out.push(...skillFilesIn(dir, at).filter((f) => f.outside === undefined));
  return out;
}

/** The skills of the project's `.hey/skills` (`at.projectSkills`) alone, as userInstructionFiles finds them and those that are links outside the project (`outside`): what the trust question shows (trust/store.ts). */
export const projectSkillFiles = (at: UserPlaces): UserInstruction[] => (at.projectSkills ? skillFilesIn(at.projectSkills, at) : []);

/** Each skill in the skills folder `dir`, with its hash; none when there is no such folder. */
function skillFilesIn(dir: string, at: UserPlaces): UserInstruction[] {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return []; // no such folder: nothing there
  }
  const out: UserInstruction[] = [];
  for (const name of names) {
    if (name.startsWith(".")) continue;
    const path = join(dir, name);
    const file = name.endsWith(".md") && isFile(path) ? path : isFile(join(path, "SKILL.md")) ? join(path, "SKILL.md") : undefined;
    const read = file && readHashed(file, at);
    // a README.md or notes beside the skills: the loader never loads it, so it is nothing to approve
    if (file === path && read && !looseSkill(read.bytes)) continue;
    const outside = file && linkOutOfProject(file, at);
    if (file && read) out.push({ path: file, kind: dir === at.projectSkills ? "project skill" : "skill", ...read, ...(outside ? { outside } : {}) });
  }
  return out;
}

/**
 * Where a skill of the project's `.hey/skills` at `path` really is, when that is outside the project
 * (a.md a link to /elsewhere/a.md): the loader leaves it out whatever is approved (skills/load.ts).
 * Undefined for any other file.
 */
export function linkOutOfProject(path: string, at: UserPlaces): string | undefined {
  if (!at.projectSkills || !path.startsWith(`${at.projectSkills}/`)) return undefined;
  try {
    const real = realpathSync(path);
    return isWithin(real, realpathSync(dirname(dirname(at.projectSkills)))) ? undefined : real;
  } catch {
    return undefined; // gone or unreadable: the reading says so
  }
}

/** The bytes of `path` and their hash (hashOfRead), or undefined when it cannot be read. */
function readHashed(path: string, at: UserPlaces): { hash: string; bytes: Uint8Array } | undefined {
  try {
    const bytes = readFileSync(path);
    const hash = hashOfRead(path, bytes, at);
    return hash === undefined ? undefined : { hash, bytes };
  } catch {
    return undefined;
  }
}

/**
 * Whether `path` is one of the user's instruction files as userInstructionFiles names them: a user
 * AGENTS.md, a `.md` in a user skill folder (one without frontmatter is none: looseSkill, which
 * needs its bytes), or a folder skill's SKILL.md there.
 */
export function isUserInstruction(path: string, at: UserPlaces): boolean {
  if (userAgentsFiles(at).includes(path) || skillFolderOf(path, at) !== undefined) return true;
  return userSkillFolders(at).includes(dirname(path)) && path.endsWith(".md");
}

/** Whether `path` is a user AGENTS.md (no skill: read_file of it is never refused, trust/instructions.ts guardingInstructions). */
export const isUserAgentsFile = (path: string, at: UserPlaces): boolean => userAgentsFiles(at).includes(path);

/**
 * Whether the loose `.md` in a skills folder holding `bytes` is a skill as the loader takes one
 * (skills/load.ts): read and tested by the loader's own functions, so that no file it loads (a
 * UTF-16 one, a README.md with frontmatter) goes unweighed.
 */
export function looseSkill(bytes: Uint8Array): boolean {
  const head = bytes.subarray(0, LOOSE_HEAD_BYTES);
  return opensWithFrontmatter(skillHead(head, bytes.length).text);
}

/** As much of a loose `.md` as its frontmatter is looked for in: the loader's own bound (skills/load.ts SKILL_HEAD_BYTES) is larger, and frontmatter opens the file. */
const LOOSE_HEAD_BYTES = 64 * 1024;

/** Whether `path` is a folder skill's SKILL.md in one of the user's skill folders. */
export const isFolderSkill = (path: string, at: UserPlaces): boolean => skillFolderOf(path, at) !== undefined;

/** Whether `path` is a `.md` loose in one of the user's skill folders (no folder skill's SKILL.md). */
export const isLooseSkillFile = (path: string, at: UserPlaces): boolean =>
  userSkillFolders(at).includes(dirname(path)) && skillFolderOf(path, at) === undefined;

const userSkillFolders = (at: UserPlaces) => [
  ...skillFolders({ ...at, root: at.home, project: false }).map((f) => f.dir),
  ...(at.projectSkills ? [at.projectSkills] : []),
];

/** The folder of a folder skill when `path` is its SKILL.md in one of the user's skill folders. */
const skillFolderOf = (path: string, at: UserPlaces) =>
  basename(path) === "SKILL.md" && userSkillFolders(at).includes(dirname(dirname(path))) ? dirname(path) : undefined;

/**
 * The hash of one of the user's instruction files now: of its bytes (32 hex digits); of a folder
 * skill's SKILL.md, every file in its folder (skillDigest), then a dot and the SKILL.md's own.
 * Undefined when it cannot be read.
 */
export function instructionHash(path: string, at?: UserPlaces): string | undefined {
  try {
    return hashOfRead(path, readFileSync(path), at);
  } catch {
    return undefined;
  }
}

/** instructionHash of `bytes`, read once from `path`: what loads or is shown is what was hashed. Undefined when a folder skill's folder cannot be listed. */
export function hashOfRead(path: string, bytes: Uint8Array, at?: UserPlaces): string | undefined {
  const own = hashOf(bytes);
  const folder = at && skillFolderOf(path, at);
  try {
    // the SKILL.md's own hash after the folder's: what its kept copy is checked against (trust/instruction-copies.ts)
    return folder ? `${skillDigest(folder)}.${own}` : own;
  } catch {
    return undefined;
  }
}

/**
 * One hash for every regular file below `dir` (links followed, `.git` skipped): each file's path
 * within it and its bytes, in name order; past SKILL_FILES_MAX or SKILL_BYTES_MAX one that matches nothing (UNCHECKED).
 * Throws when `dir` cannot be listed.
 */
export function skillDigest(dir: string): string {
  const hasher = new Bun.CryptoHasher("sha256");
  const files = filesBelow(dir);
  const unchecked = () => `${UNCHECKED}${crypto.randomUUID().replaceAll("-", "").slice(0, 22)}`;
  if (files.length > SKILL_FILES_MAX) return unchecked();
  const stats = files.map((file) => statSync(file, { bigint: true }));
  // any write to a file moves its change time, which no one but root can set back (`touch -r` sets the modification time)
  const stamp = stats.map((st) => `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`).join("\n") + files.join("\0");
  const known = digests.get(dir);
  if (known?.stamp === stamp) return known.digest;
  let bytes = 0;
  const each: Record<string, string> = {};
  for (const [i, file] of files.entries()) {
    hasher.update(`${relative(dir, file)}\0`);
    const size = Number(stats[i]!.size);
    bytes += size;
    if (bytes > SKILL_BYTES_MAX) return unchecked();
    const read = readBounded(file, size);
    hasher.update(read);
    each[relative(dir, file)] = hashOf(read); // names the files changed in the question; read_file of one is weighed by its own (trust/instructions.ts)
  }
  const digest = hasher.digest("hex").slice(0, 32);
  digests.set(dir, { stamp, digest, each });
  return digest;
}

/** Each folder skill's digest with the files' identities and times it was taken at: read again only when one changed (a start hashes each folder once, not at every weighing). */
const digests = new Map<string, { stamp: string; digest: string; each: Record<string, string> }>();

/** The hash of each file (path within the folder → hash) of the folder skill whose SKILL.md is `path`, as its last digest with `digest` read them; undefined when none did. */
export function folderFiles(path: string, digest: string): Record<string, string> | undefined {
  const known = digests.get(dirname(path));
  return known?.digest === digest ? known.each : undefined;
}

/** The regular files below `dir`, sorted; stops looking past SKILL_FILES_MAX + 1 (the count past the cap is still told apart). */
function filesBelow(dir: string): string[] {
  const out: string[] = [];
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (out.length > SKILL_FILES_MAX) return;
      if (entry.name === ".git") continue; // a skill cloned with git: its history is not what the model reads
      const path = join(at, entry.name);
      const kind = entry.isSymbolicLink() ? statKind(path) : entry.isDirectory() ? "dir" : entry.isFile() ? "file" : undefined;
      if (kind === "dir") walk(path);
      else if (kind === "file") out.push(path);
    }
  };
  walk(dir);
  return out;
}

function statKind(path: string): "dir" | "file" | undefined {
  try {
    const s = statSync(path);
    return s.isDirectory() ? "dir" : s.isFile() ? "file" : undefined;
  } catch {
    return undefined; // a broken link: nothing the model can read
  }
}

/** At most `size` bytes of `path` (what stat said a moment ago): a file growing meanwhile is not read past it. */
function readBounded(path: string, size: number): Uint8Array {
  const fd = openSync(path, "r");
  try {
    const buffer = Buffer.alloc(size);
    const n = readSync(fd, buffer, 0, size, 0);
    return buffer.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}

/** sha256 of the bytes, 32 hex digits, as the record keeps a config's fingerprints. */
export const hashOf = (bytes: Uint8Array | string) => new Bun.CryptoHasher("sha256").update(bytes).digest("hex").slice(0, 32);

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile(); // links followed: a skills folder kept with the dotfiles
  } catch {
    return false;
  }
}
