// Ctrl-R at the prompt (issue 28): incremental search through the history, newest first, as
// readline does it. Typing narrows the query and keeps the match where it is while it still
// matches; Ctrl-R goes to the next older match, Ctrl-S back to a newer one; the same line is never
// shown twice in a row; a line's folded pastes (paste-fold.ts) are searched too. Pure: repl-state.ts
// holds the search and decides what keys mean.
import { matchFolded, type Pastes } from "./paste-fold.ts";

export interface Search {
  query: string;
  /** the history index of the line shown; undefined before anything matched */
  at: number | undefined;
  /** where the query starts in that line (the cursor goes there) */
  offset: number;
  /** the query matches no line (the last match stays shown) */
  failed: boolean;
}

export const newSearch = (): Search => ({ query: "", at: undefined, offset: 0, failed: false });

/** The prompt that stands before the line while searching. */
export const searchPrompt = (s: Search) => `(${s.failed ? "failing " : ""}reverse-i-search)'${s.query}': `;

/**
 * Where `query` occurs in `line`, or -1. Lower-case queries ignore case (smart case, as fzf and
 * ripgrep's -S do): `git` finds `Git`, `Git` does not find `git`.
 */
export function matchAt(line: string, query: string): number {
  const found = indexIn(line, query);
  if (found >= 0 || (line.normalize("NFC") === line && query.normalize("NFC") === query)) return found;
  // the two compared in one Unicode form (NFC): `é` typed composed finds `e` + U+0301 (pasted from a macOS name)
  const composed = line.normalize("NFC");
  const at = indexIn(composed, query.normalize("NFC"));
  if (at < 0) return -1;
  const before = composed.slice(0, at);
  for (let i = 0; i <= line.length; i++) if (line.slice(0, i).normalize("NFC") === before) return i; // where that is in the line as written
  return -1;
}

const indexIn = (line: string, query: string) => (query === query.toLowerCase() ? line.toLowerCase().indexOf(query) : line.indexOf(query));

/**
 * The nearest history entry holding `query` from index `from` on, going older (`dir` -1) or newer
 * (+1), skipping entries whose text is `skip` (the line already shown); undefined when none is.
 */
export function findEntry(
  history: readonly string[],
  query: string,
  from: number,
  dir: -1 | 1,
  skip?: string,
  pastes: Pastes = [],
): { at: number; offset: number } | undefined {
  for (let i = from; i >= 0 && i < history.length; i += dir) {
    const line = history[i]!;
    if (line === skip) continue;
    const offset = matchFolded(pastes, line, query, matchAt);
    if (offset >= 0) return { at: i, offset };
  }
  return undefined;
}

/** The query with `text` typed after it: the match stays when it still matches, else the next older one. */
export function narrow(s: Search, history: readonly string[], text: string, pastes: Pastes = []): Search {
  const query = s.query + text;
  const found = findEntry(history, query, s.at ?? history.length - 1, -1, undefined, pastes);
  return found ? { query, ...found, failed: false } : { ...s, query, failed: true };
}

/** The query one character shorter: searched again from the newest line. */
export function widen(s: Search, history: readonly string[], pastes: Pastes = []): Search {
  const query = [...s.query].slice(0, -1).join("");
  if (query === "") return { ...newSearch(), at: s.at, offset: s.offset };
  const found = findEntry(history, query, history.length - 1, -1, undefined, pastes);
  return found ? { query, ...found, failed: false } : { ...s, query, failed: true };
}

/**
 * Ctrl-R (`dir` -1) or Ctrl-S (+1): the next match that is another line. An empty query takes up
 * `previous`, the last search's (readline's Ctrl-R Ctrl-R).
 */
export function again(s: Search, history: readonly string[], dir: -1 | 1, previous: string, pastes: Pastes = []): Search {
  const query = s.query === "" ? previous : s.query;
  if (query === "") return s;
  const start = s.at === undefined || s.query === "" ? history.length - 1 : s.at + dir;
  const shown = s.at === undefined || s.query === "" ? undefined : history[s.at];
  const found = findEntry(history, query, start, dir, shown, pastes);
  return found ? { query, ...found, failed: false } : { ...s, query, failed: true };
}
