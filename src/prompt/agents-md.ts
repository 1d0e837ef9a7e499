// AGENTS.md files (SPEC §11, §24): the user's own file, then one per directory from the git root
// down to the working directory (no git: the working directory alone); a directory without an
// AGENTS.md contributes its CLAUDE.md instead. They are plain text, read in every project,
// trusted or not. They are read at start-up and again at `/reload` (prompt/source.ts): the system
// prompt stays the same within a run, for the providers' prompt caches.
import { realpathSync, statSync } from "node:fs";
import { dirname, join, sep } from "node:path";
import { readHead } from "../fs/read-head.ts";
import { AGENTS_MD_MAX_BYTES, type AgentsFile } from "./system.ts";
import { errnoCode, errorText } from "../kernel/errors.ts";

export type { AgentsFile } from "./system.ts";
/** What a project directory may hold, in order of preference. */
export const PROJECT_NAMES = ["AGENTS.md", "CLAUDE.md"];

export interface AgentsMd {
  /** outermost first: the user's file, then the git root down to the working directory */
  files: AgentsFile[];
  /** one line per file left out (unreadable, a link leaving the project); never fatal */
  warnings: string[];
}

/** A directory that may hold instructions. */
export interface AgentsPlace {
  dir: string;
  /** file names tried in order; the first that exists is used */
  names: string[];
  /** a link there must resolve inside this directory (the project); undefined: followed anywhere */
  within?: string;
}

/**
 * Where instructions for `cwd` live: `userDir`'s AGENTS.md, then each directory from the git
 * root (the nearest ancestor holding `.git`) down to `cwd`, as real paths: a working directory
 * reached through a symbolic link still finds the repository it really is in.
 */
export function agentsPlaces(cwd: string, userDir: string): AgentsPlace[] {
  let real = cwd;
  try {
    real = realpathSync(cwd);
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
  const user: AgentsPlace = { dir: userDir, names: ["AGENTS.md"] };
  const project = dirs.filter((d) => d !== userDir).map((dir) => ({ dir, names: PROJECT_NAMES, within: dirs[0] }));
  return [user, ...project];
}

/** Reads what `places` hold now. `read` is readHead; tests count the reads. */
export function readAgentsFiles(places: AgentsPlace[], read = readHead): AgentsMd {
  const files: AgentsFile[] = [];
  const warnings: string[] = [];
  for (const place of places) {
    const path = firstExisting(place);
    if (!path) continue;
    try {
      if (place.within) {
        const real = realpathSync(path);
        if (real !== place.within && !real.startsWith(place.within.endsWith(sep) ? place.within : place.within + sep)) {
          warnings.push(`${path} is a link to ${real}, outside the project; left out of the prompt`);
          continue;
        }
      }
      const head = read(path, AGENTS_MD_MAX_BYTES);
      const text = clean(head.text, head.truncated);
      if (text.trim() !== "") files.push({ path, text, truncated: head.truncated });
    } catch (e) {
      warnings.push(`${path}: cannot read (${errnoCode(e) ?? errorText(e)}); left out of the prompt`);
    }
  }
  return { files, warnings };
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

function firstExisting(place: AgentsPlace): string | undefined {
  for (const name of place.names) {
    const path = join(place.dir, name);
    if (exists(path)) return path;
  }
  return undefined;
}

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch (e) {
    // a file that exists but cannot be looked at is reported when it is read
    const code = errnoCode(e);
    return code !== "ENOENT" && code !== "ENOTDIR";
  }
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
