// The user's own instruction files, as the approvals rule weighs them (trust/instructions.ts):
// the user-level AGENTS.md the prompt reads (`~/.config/hey/AGENTS.md`, else Codex's or Claude
// Code's) and the skill files of the user's three skill folders. Every session in every project
// reads them, so each is hashed here — only while a permission list is set: without one the agent
// may change anything anyway, and the start pays nothing.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { PeerDirs } from "../fs/places.ts";
import { userPeerFiles } from "./agents-md.ts";
import { skillFolders } from "../skills/load.ts";
import type { UserInstruction } from "../trust/instruction-approval.ts";

/** Lines of a file the question shows (trust/instruction-approval.ts). */
const HEAD_LINES = 6;

/** Where the user's files are: hey's config folder, the home directory, the other agents' folders. */
export interface UserPlaces extends PeerDirs {
  configDir: string;
  home: string;
}

/** The user-level instruction files there now, each with the hash of its text; a file that cannot be read is left to the prompt's reading to report. */
export function userInstructionFiles(at: UserPlaces): UserInstruction[] {
  const out: UserInstruction[] = [];
  // the first that exists of the user's place, as agents-md.ts reads it (the others are not read then)
  for (const path of [join(at.configDir, "AGENTS.md"), ...userPeerFiles(at)]) {
    if (!isFile(path)) continue;
    const read = hashed(path, "AGENTS.md");
    if (read) out.push(read);
    break;
  }
  for (const { dir } of skillFolders({ ...at, root: at.home, project: false })) {
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch {
      continue; // no such folder: nothing there
    }
    for (const name of names) {
      if (name.startsWith(".")) continue;
      const path = join(dir, name);
      const file = name.endsWith(".md") && isFile(path) ? path : isFile(join(path, "SKILL.md")) ? join(path, "SKILL.md") : undefined;
      const read = file && hashed(file, "skill");
      if (read) out.push(read);
    }
  }
  return out;
}

/** The hash of the text at `path` now, or undefined when it cannot be read (gone since, unreadable). */
export function instructionHash(path: string): string | undefined {
  try {
    return hashOf(readFileSync(path));
  } catch {
    return undefined;
  }
}

/** sha256 of the bytes, 32 hex digits, as the record keeps a config's fingerprints. */
const hashOf = (bytes: Uint8Array) => new Bun.CryptoHasher("sha256").update(bytes).digest("hex").slice(0, 32);

function hashed(path: string, kind: UserInstruction["kind"]): UserInstruction | undefined {
  try {
    // every .md at a folder's root, frontmatter or not: what skills/load.ts takes for one (UTF-16, a BOM) is its decoding's to say
    return { path, kind, hash: hashOf(readFileSync(path)) };
  } catch {
    return undefined;
  }
}

/** A file's first lines, as the question shows them; read only for a file that waits (the start hashes, it does not decode). */
export function instructionHead(path: string): string[] {
  let text: string;
  try {
    text = readFileSync(path, "utf8").replace(/^\uFEFF/, "");
  } catch {
    return [];
  }
  const lines = text.split(/\r?\n/);
  const head = lines.slice(0, HEAD_LINES);
  return lines.length > HEAD_LINES ? [...head, `… (${lines.length} lines)`] : head;
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile(); // links followed: a skills folder kept with the dotfiles
  } catch {
    return false;
  }
}
