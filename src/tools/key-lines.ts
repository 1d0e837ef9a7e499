// read_file knows the whole file, so a window that starts or ends inside a private key block hides
// the whole block, as a read of the whole file does (x78 #3): `offset=2` into server.key must not
// show its body, nor say "use offset=7" to page through the rest of it. A block is what redaction
// takes for a key (config/key-blocks.ts): an armour line in code, with no key body after it, cuts
// nothing (x82 #1). Pure.
import { keyScanner, type KeySpan } from "../config/key-blocks.ts";

/** A private key block of a file: its first and last lines (1-based) and their text. */
export interface KeyBlock {
  begin: number;
  end: number;
  text: string;
}

/** More lines than any key has (a PGP key with a photo runs to a few hundred): a longer run of base64 is kept no further, and shown as it is. */
const KEY_MAX_LINES = 2000;

/**
 * The private key blocks of a file's lines, fed in order (`line`, then `finish` at the file's end),
 * keeping those that end at or after line `from` (the window's first): `open` says a block may have
 * begun and not ended, so the lines after the window are read until it ends.
 */
export function keyBlockTracker(from: number) {
  const blocks: KeyBlock[] = [];
  const scanner = keyScanner();
  let kept: [number, string][] = []; // the lines of the block begun and not ended
  let tooLong = false;
  const keep = (spans: KeySpan[]) => {
    for (const {
      from: [begin],
      to: [end],
    } of spans)
      if (end >= from && !tooLong)
        blocks.push({
          begin,
          end,
          text: kept
            .filter(([no]) => no >= begin && no <= end)
            .map(([, text]) => text)
            .join("\n"),
        });
  };
  const settle = () => {
    const since = scanner.openSince();
    kept = since === undefined ? [] : kept.filter(([no]) => no >= since);
    if (since === undefined) tooLong = false;
    else if (kept.length > KEY_MAX_LINES) [kept, tooLong] = [[], true];
  };
  return {
    blocks,
    open: () => scanner.openSince() !== undefined,
    line(no: number, text: string) {
      if ((scanner.openSince() !== undefined && !tooLong) || text.includes("PRIVATE KEY")) kept.push([no, text]);
      keep(scanner.line(no, text));
      settle();
    },
    finish() {
      keep(scanner.finish());
      settle();
    },
  };
}

/**
 * The window's lines (`lines`, the first numbered `offset`), with each private key block it cuts
 * (begun before it, or ending after it) shown as its one line: what `hide` makes of the block's
 * lines (config/secrets.ts redactText: `[secret: private-key]`), numbered with the block's first
 * line, as a read of the whole file shows it. `next`: the first line after the window and the
 * blocks it cut (the note's offset). A block `hide` leaves as it is (hiding is off) is shown.
 */
export function withCutKeysHidden(
  lines: readonly string[],
  offset: number,
  blocks: readonly KeyBlock[],
  hide: (text: string) => string,
): { rows: [number, string][]; next: number } {
  let rows: [number, string][] = lines.map((line, i) => [offset + i, line]);
  let next = offset + lines.length;
  const last = next - 1;
  for (const block of blocks) {
    const { begin, end, text } = block;
    if (begin > last || end < offset || (begin >= offset && end <= last)) continue; // outside, or whole: the result's own redaction hides it
    const hidden = hide(text);
    if (hidden === text || hidden.includes("\n")) continue;
    rows = [...rows.filter(([no]) => no < begin), [begin, hidden], ...rows.filter(([no]) => no > end)];
    next = Math.max(next, end + 1);
  }
  return { rows, next };
}
