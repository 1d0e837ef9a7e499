// A directory's names as hey writes them (fs/odd-names.ts): readdir reads a name that is not UTF-8
// with U+FFFD in place of each such byte, a name no file has; such names are read again as bytes.
import { readdir } from "node:fs/promises";
import { type Dirent, lstatSync, readdirSync } from "node:fs";
import { bytesPath, mayBeOdd, shownName } from "./odd-names.ts";

/**
 * What to give the file system for `path` as hey writes names (fs/odd-names.ts bytesPath): the bytes
 * a name like `caf\xE9.txt` stands for, unless a file is there under the path as written (a name
 * that holds a backslash, `docs\notes.md`, is itself). Only a path with a backslash is looked at.
 */
export function diskPath(path: string): string | Buffer {
  const bytes = bytesPath(path);
  if (bytes === path) return path;
  try {
    return lstatSync(path, { throwIfNoEntry: false }) ? path : bytes;
  } catch {
    return bytes; // not a directory on the way, or not ours to look at: as written it names nothing
  }
}

/**
 * Gives each entry of directory `dir` (as readdir read it, `withFileTypes`) that mayBeOdd its name as
 * shownName writes it, read again from the directory as bytes. Only a directory with such a name is
 * read twice, and only then is there a promise to wait for. Never rejects: a name that cannot be
 * read again keeps readdir's.
 */
export function showNames(dir: string, entries: Dirent[]): Promise<void> | undefined {
  if (!entries.some((e) => mayBeOdd(e.name))) return undefined; // the common case: no second read, no await
  return readdir(diskPath(dir), { encoding: "buffer" }).then(
    (raw) => rename(entries, raw),
    () => {},
  );
}

/** showNames, synchronous: for Tab completion, which answers at once. */
export function showNamesSync(dir: string, entries: Dirent[]): void {
  if (!entries.some((e) => mayBeOdd(e.name))) return;
  try {
    rename(entries, readdirSync(diskPath(dir), { encoding: "buffer" }));
  } catch {
    // the names stay as readdir read them
  }
}

/** Names each entry that mayBeOdd after the one of `raw` (the directory's names as bytes) that reads as it. */
function rename(entries: Dirent[], raw: Buffer[]): void {
  const byText = new Map<string, Buffer[]>();
  for (const name of raw) {
    const text = new TextDecoder().decode(name);
    if (mayBeOdd(text)) byText.set(text, [...(byText.get(text) ?? []), name]);
  }
  for (const entry of entries) {
    const bytes = mayBeOdd(entry.name) ? byText.get(entry.name)?.shift() : undefined;
    if (bytes) entry.name = shownName(bytes);
  }
}

/** The names in directory `dir` (hey's form, as shownName writes them); [] when it cannot be read. */
export async function namesIn(dir: string): Promise<string[]> {
  const entries = await readdir(diskPath(dir), { withFileTypes: true }).catch(() => [] as Dirent[]);
  await showNames(dir, entries);
  return entries.map((e) => e.name);
}
