// AGENTS.md files (SPEC §11, §24): the user's own file, then one per directory from the git root
// down to the working directory (no git: the working directory alone); a directory without an
// AGENTS.md contributes its CLAUDE.md instead. They are plain text, read in every project,
// trusted or not. They are read at start-up and again at `/reload` (prompt/source.ts): the system
// prompt stays the same within a run, for the providers' prompt caches. A CLAUDE.md's `@path`
// imports are followed inside the project (imports.ts), each imported file listed after its
// importer — but never a file that holds secrets or that git ignores (importRefusal).
import { basename, dirname, isAbsolute, join, resolve } from "node:path";
import { readHeadText } from "../fs/read-head.ts";
import { lookAt, realPathAt } from "../fs/root-probe.ts";
import { isWithin } from "../fs/within.ts";
import type { PeerDirs } from "../fs/places.ts";
import { AGENTS_MD_MAX_BYTES, type AgentsFile } from "./system.ts";
import { errnoCode, errorText } from "../kernel/errors.ts";
import { IMPORT_DEPTH_MAX, IMPORTS_MAX, importRefs, looksLikeFile, secretStore } from "./imports.ts";
import { ignoredByGit } from "./git-ignored.ts";

export type { AgentsFile } from "./system.ts";
/** What a project directory may hold, in order of preference (Claude Code reads `.claude/CLAUDE.md` as a directory's CLAUDE.md). */
export const PROJECT_NAMES = ["AGENTS.md", "CLAUDE.md", join(".claude", "CLAUDE.md")];

/**
 * The user's own rules for other agents, read when hey has none of its own (`~/.config/hey/AGENTS.md`):
 * the first that exists, as opencode reads them — in the folders those agents use (fs/places.ts:
 * `$CODEX_HOME`, `$CLAUDE_CONFIG_DIR`, else `~/.codex` and `~/.claude`).
 */
export const userPeerFiles = (peers: PeerDirs): string[] => [join(peers.codexDir, "AGENTS.md"), join(peers.claudeDir, "CLAUDE.md")];

export interface AgentsMd {
  /** outermost first: the user's file, then the git root down to the working directory */
  files: AgentsFile[];
  /** one line per file left out (unreadable, a link leaving the project); never fatal */
  warnings: string[];
  /** those of `warnings` that are the project's — a CLAUDE.md's imports left out, files over the size cap (source.ts) — said once until they change (peers/said.ts) */
  imports: string[];
  /**
   * those of `warnings` that say where a project's link leads (out of the project, to secrets, to a
   * file git ignores): the user's to read, never in the model's note — the target may be your
   * `~/.aws/credentials`, and hey's refusal is no mistake of the model's to fix
   */
  userOnly: string[];
}

/** A directory that may hold instructions. */
export interface AgentsPlace {
  dir: string;
  /** file names tried in order (relative to `dir`, or absolute); the first that exists is used */
  names: string[];
  /** a link there must resolve inside this directory (the project); undefined: followed anywhere */
  within?: string;
}

/**
 * Where instructions for `cwd` live: `userDir`'s AGENTS.md (else, given `peers`, userPeerFiles'),
 * then each directory from the git root (the nearest ancestor holding `.git`) down to `cwd`, as
 * real paths: a working directory reached through a symbolic link still finds the repository it
 * really is in.
 */
export function agentsPlaces(cwd: string, userDir: string, peers?: PeerDirs): AgentsPlace[] {
  let real = cwd;
  try {
    real = realPathAt(cwd);
  } catch {
    // a working directory that vanished: its path as given, which finds nothing
  }
  const dirs: string[] = [];
  for (let dir = real; ; dir = dirname(dir)) {
    dirs.unshift(dir);
    if (exists(join(dir, ".git"))) break;
    if (dirname(dir) === dir) {
      dirs.splice(0, dirs.length - 1); // no repository: the working directory alone
      break;
    }
  }
  const user: AgentsPlace = { dir: userDir, names: ["AGENTS.md", ...(peers === undefined ? [] : userPeerFiles(peers))] };
  const project = dirs.filter((d) => d !== userDir).map((dir) => ({ dir, names: PROJECT_NAMES, within: dirs[0] }));
  return [user, ...project];
}

/** How readAgentsFiles reads. */
export interface AgentsReading {
  /** real paths of files the model has already (the system prompt's, for nested-agents.ts): not imported again */
  shown?: Iterable<string>;
  /**
   * a CLAUDE.md's imports outside the project (the system prompt's): `@~/…` is under `home`;
   * followed when the user `trusted` the project by their own decision, else left out with a word
   * that trusting would let them in. undefined: never followed (a deeper directory's CLAUDE.md)
   */
  outside?: OutsideImports;
  /** readHeadText (UTF-16 by its byte-order mark, as read_file reads it); tests may count the reads */
  read?: typeof readHeadText;
}

/** Where a CLAUDE.md's imports may lead outside the project (AgentsReading). */
export interface OutsideImports {
  home: string;
  trusted: boolean;
}

/** Reads what `places` hold now. */
export function readAgentsFiles(places: AgentsPlace[], how: AgentsReading = {}): AgentsMd {
  const files: AgentsFile[] = [];
  const warnings: string[] = [];
  const imports: string[] = [];
  const userOnly: string[] = [];
  const given = new Set(how.shown); // real paths: a file imported twice, or imported and in the chain, is given once
  const read = how.read ?? readHeadText;
  const count = { files: 0, over: [] as string[] };
  for (const place of places) {
    const path = firstExisting(place);
    if (!path) continue;
    try {
      const real = realPathAt(path);
      if (place.within && !isWithin(real, place.within)) {
        said(`${path} is a link to ${real}, outside the project; left out of the prompt`);
        continue;
      }
      const linked = place.within && real !== path ? linkRefusal(path, real, place.within) : undefined;
      if (linked) {
        said(`${path} is a link to ${real}, ${linked}; left out of the prompt`);
        continue;
      }
      if (given.has(real)) continue;
      const file = readText(path, read);
      given.add(real);
      if (file.text.trim() !== "") files.push(file);
      if (place.within && basename(path) === "CLAUDE.md") {
        followImports(file, { within: place.within, outside: how.outside, read, given, files, warnings, imports, userOnly, depth: 1, count });
      }
    } catch (e) {
      warnings.push(`${path}: cannot read (${errnoCode(e) ?? errorText(e)}); left out of the prompt`);
    }
  }
  const [over, ...more] = count.over; // one line for them all: 25 imports of a 20-file cap are not 5 warnings
  if (over)
    leftOut(
      { warnings, imports },
      `${over}: more than ${IMPORTS_MAX} imported files; left out of the prompt${more.length > 0 ? `, and ${more.length} more after it` : ""}`,
    );
  return { files, warnings, imports, userOnly };

  function said(line: string): void {
    warnings.push(line);
    userOnly.push(line);
  }
}

interface Importing {
  within: string;
  outside: AgentsReading["outside"];
  read: typeof readHeadText;
  given: Set<string>;
  files: AgentsFile[];
  warnings: string[];
  /** the import lines of `warnings` */
  imports: string[];
  /** AgentsMd.userOnly */
  userOnly: string[];
  depth: number;
  /** files imported so far in this reading (shared by every level), and the imports past IMPORTS_MAX */
  count: { files: number; over: string[] };
}

/**
 * Claude Code's `@path` imports of `file`, depth first, each after its importer: relative to the
 * importing file, at most IMPORT_DEPTH_MAX hops and IMPORTS_MAX files, and only files that may
 * hold instructions (importRefusal). A word that names no file (`@alice`, `@types/node`) stays
 * text; one that looks like a file's name is a warning.
 */
function followImports(file: AgentsFile, at: Importing): void {
  for (const ref of importRefs(file.text)) {
    const where = `${file.path}:${ref.line}: @${ref.path}`;
    const target = importTarget(ref.path, file.path, at.outside?.home);
    if (target === undefined) {
      leftOut(at, `${where} is outside the project; ${NESTED_OUTSIDE}`); // `~` where no home is given: a deeper directory's
      continue;
    }
    let real: string;
    try {
      real = realPathAt(target);
    } catch {
      if (looksLikeFile(ref.path)) leftOut(at, `${where}: no such file; the import is left out`);
      continue;
    }
    const refused = importRefusal(real, target, at);
    if (refused) {
      leftOut(at, `${where} ${refused}`);
      if (refused.includes(real)) at.userOnly.push(`${where} ${refused}`); // where a link led: the user's
      continue;
    }
    if (at.given.has(real)) continue;
    if (at.depth > IMPORT_DEPTH_MAX) {
      leftOut(at, `${where}: more than ${IMPORT_DEPTH_MAX} imports deep; left out of the prompt`);
      continue;
    }
    if (at.count.files >= IMPORTS_MAX) {
      at.count.over.push(where);
      continue;
    }
    let imported: AgentsFile;
    try {
      imported = { ...readText(target, at.read), importedBy: file.path };
    } catch (e) {
      const code = errnoCode(e);
      if (code !== "EISDIR") leftOut(at, `${where}: cannot read (${code ?? errorText(e)}); left out of the prompt`);
      continue;
    }
    at.given.add(real);
    at.count.files++;
    if (imported.text.includes("\0")) {
      leftOut(at, `${where} is not a text file; left out of the prompt`);
      continue;
    }
    if (imported.text.trim() !== "") at.files.push(imported);
    followImports(imported, { ...at, depth: at.depth + 1 });
  }
}

/** An import left out: a warning, and one of the imports' (AgentsMd.imports). */
function leftOut(at: Pick<Importing, "warnings" | "imports">, line: string): void {
  at.warnings.push(line);
  at.imports.push(line);
}

const NESTED_OUTSIDE = "left out of the prompt (a deeper directory's CLAUDE.md imports from the project only)";

/**
 * Why the file an import names (`target`, `real` once links are resolved) is not imported, as the
 * rest of the warning; undefined when it is. The rule: inside the project, a file git does not
 * ignore; outside it, a markdown file, once the user trusted the project; nowhere a file that
 * holds secrets by its name (imports.ts secretStore). Its text would go to the model's provider
 * with every request, and a repository's CLAUDE.md knows the name of your `.env` as well as that
 * of your `~/.ssh/id_rsa` (Claude Code asks before it follows an import from outside the project).
 */
function importRefusal(real: string, target: string, at: Importing): string | undefined {
  const secrets = secretStore(real);
  if (secrets) return `holds secrets (${secrets}): never imported`;
  if (isWithin(real, at.within))
    return ignoredByGit(real, at.within) ? "is ignored by git (your checkout's own file, not the project's): never imported" : undefined;
  const how = isWithin(resolve(target), at.within) ? "is a link out of the project" : "is outside the project";
  if (!at.outside) return `${how}; ${NESTED_OUTSIDE}`;
  if (!/\.md$/i.test(real)) return `${how} and no markdown file (${real}): never imported`;
  if (!at.outside.trusted) return `${how}; left out of the prompt (hey follows it once you trust the project: hey trust)`;
  return undefined;
}

/** Why a project's AGENTS.md or CLAUDE.md that is a link to `real` (inside the project) is left out, in importRefusal's words. */
function linkRefusal(path: string, real: string, within: string): string | undefined {
  const secrets = secretStore(real);
  if (secrets) return `which holds secrets (${secrets})`;
  return ignoredByGit(real, within) && !ignoredByGit(path, within) ? "which git ignores (your checkout's own file)" : undefined;
}

/** The file an import names: relative to its importer, absolute, or under `home` (`@~/…`; undefined without one). */
function importTarget(ref: string, importer: string, home: string | undefined): string | undefined {
  if (ref === "~" || ref.startsWith("~/")) return home === undefined ? undefined : join(home, ref.slice(1));
  return isAbsolute(ref) ? ref : resolve(dirname(importer), ref);
}

/** `+ AGENTS.md path`, `- AGENTS.md path`, `~ AGENTS.md path` between two readings. */
export function agentsChanges(before: readonly AgentsFile[], after: readonly AgentsFile[]): string[] {
  const old = new Map(before.map((f) => [f.path, f.text]));
  const now = new Map(after.map((f) => [f.path, f.text]));
  const out: string[] = [];
  for (const [path, text] of now) {
    if (!old.has(path)) out.push(`+ AGENTS.md ${path}`);
    else if (old.get(path) !== text) out.push(`~ AGENTS.md ${path}`);
  }
  for (const path of old.keys()) if (!now.has(path)) out.push(`- AGENTS.md ${path}`);
  return out;
}

/** The real paths of the files `places` hold (those readAgentsFiles would read first), for `shown`. */
export function placedFiles(places: AgentsPlace[]): string[] {
  return places.flatMap((place) => {
    const path = firstExisting(place);
    try {
      return path ? [realPathAt(path)] : [];
    } catch {
      return [];
    }
  });
}

function firstExisting(place: AgentsPlace): string | undefined {
  for (const name of place.names) {
    const path = isAbsolute(name) ? name : join(place.dir, name);
    if (exists(path)) return path;
  }
  return undefined;
}

function exists(path: string): boolean {
  try {
    lookAt(path);
    return true;
  } catch (e) {
    // a file that exists but cannot be read is reported when it is read. EACCES here is a
    // directory on the way that cannot be searched (a `chmod 000 secret/` of the user's): whether
    // it holds an AGENTS.md no one can tell, and a warning would name a file that may not exist
    const code = errnoCode(e);
    return code !== "ENOENT" && code !== "ENOTDIR" && code !== "EACCES";
  }
}

/** `path`'s text as the prompt shows it: at most AGENTS_MD_MAX_BYTES. Throws as readHeadText does. */
function readText(path: string, read: typeof readHeadText): AgentsFile {
  const head = read(path, AGENTS_MD_MAX_BYTES);
  return { path, text: clean(head.text, head.truncated), truncated: head.truncated };
}

/** Without a byte-order mark and CRs; a cut file ends at its last whole line. */
function clean(text: string, truncated: boolean): string {
  let out = text.replace(/^\uFEFF/, "").replace(/\r\n/g, "\n");
  if (truncated) {
    const end = out.lastIndexOf("\n");
    if (end > 0) out = out.slice(0, end);
  }
  return out.trimEnd();
}
