// Which of the project's files a typed `@word` means when it is no path (SPEC §2): the `@cli` that
// Claude Code, Codex and opencode answer with a search over the project. Pure: the caller lists the files.

/** how many files Tab offers for a word: more is a list nobody reads */
export const OFFERED_MAX = 50;
/** how many of the files a name fits a message names when it attaches none */
export const NAMED_MAX = 5;

const baseName = (path: string) => path.slice(path.lastIndexOf("/") + 1);
const fold = (text: string) => text.normalize("NFC").toLowerCase();

/** Whether `word`'s characters appear in `text` in order (`ucli` in `app/ui/cli.py`). */
function isSubsequence(word: string, text: string): boolean {
  let at = -1;
  for (const ch of word) if ((at = text.indexOf(ch, at + 1)) === -1) return false;
  return true;
}

/** Each list's paths folded once (a list is the session's until it is listed again): Tab in 200,000 files stays quick. */
const foldedLists = new WeakMap<readonly string[], string[]>();
const foldedOf = (files: readonly string[]) => {
  let folded = foldedLists.get(files);
  if (!folded) foldedLists.set(files, (folded = files.map(fold)));
  return folded;
};

/**
 * How well `path` (`/`-separated, relative) fits `word`, lower is better, undefined when not at
 * all: its name is the word (0), starts with it (1), the path holds it (2), the word's
 * characters in order (3). Case and Unicode form do not count.
 */
function fitOf(word: string, path: string): number | undefined {
  const name = baseName(path);
  if (name === word || name.slice(0, name.lastIndexOf(".")) === word) return 0;
  if (name.startsWith(word)) return 1;
  if (path.includes(word)) return 2;
  return isSubsequence(word, path) ? 3 : undefined;
}

/**
 * The files of `files` that `word` fits (fitOf), best first; among equals the shorter path, then
 * path order; at most `max`. An empty word fits none.
 */
export function rankFiles(word: string, files: readonly string[], max = OFFERED_MAX): string[] {
  const key = fold(word);
  if (key === "") return [];
  const fits: { path: string; fit: number }[] = [];
  const folded = foldedOf(files);
  for (const [i, path] of files.entries()) {
    const fit = fitOf(key, folded[i]!);
    if (fit !== undefined) fits.push({ path, fit });
  }
  fits.sort((a, b) => a.fit - b.fit || a.path.length - b.path.length || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return fits.slice(0, max).map((f) => f.path);
}

/** The files of `files` whose name is exactly `name` (as typed: `cli.ts`), in path order; none for a name with a `/`. */
export function filesNamed(name: string, files: readonly string[]): string[] {
  if (name === "" || name.includes("/")) return [];
  const key = name.normalize("NFC");
  return files.filter((path) => baseName(path).normalize("NFC") === key).sort();
}

/** The project's files a message's `@name` that is no path may mean (user-input.ts filesForNames); its code loads only for such a name. */
export interface FilesByName {
  /** the files named `name` (filesNamed) */
  named(name: string): string[];
  /** what the user is told of them (namedNotice) */
  notice(written: string, found: readonly string[]): string;
}

/** FilesByName over the listed `files`. */
export function filesByName(files: readonly string[]): FilesByName {
  return { named: (name) => filesNamed(name, files), notice: namedNotice };
}

/**
 * What the user is told of `@name` found by its name alone: the one file attached
 * (`@cli.py → app/deep/cli.py`), or, when several have the name, up to NAMED_MAX of them and that
 * none was attached.
 */
export function namedNotice(written: string, found: readonly string[]): string {
  if (found.length === 1) return `${written} → ${found[0]}`;
  const more = found.length > NAMED_MAX ? ` and ${found.length - NAMED_MAX} more` : "";
  return `${written} names ${found.length} files: ${found.slice(0, NAMED_MAX).join(", ")}${more}; none attached, mention one by its path`;
}
