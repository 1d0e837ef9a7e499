// read_file knows the whole file, so a window that starts or ends inside a private key block hides
// the whole block, as a read of the whole file does (x78 #3): `offset=2` into server.key must not
// show its body, nor say "use offset=7" to page through the rest of it. Pure.

/** A private key block of a file: its BEGIN and END lines (1-based; no END: it runs to the file's end) and their text. */
export interface KeyBlock {
  begin: number;
  first: string;
  end?: number;
  last?: string;
}

const BEGIN = /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/;
const END = /-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/;

/**
 * The private key blocks of a file's lines, fed in order (`line`), keeping those that end at or
 * after line `from` (the window's first): `open` says a block has begun and not ended, so the lines
 * after the window are read until it ends.
 */
export function keyBlockTracker(from: number) {
  const blocks: KeyBlock[] = [];
  let open: KeyBlock | undefined;
  return {
    blocks,
    open: () => open !== undefined,
    line(no: number, text: string) {
      if (!text.includes("PRIVATE KEY")) return;
      if (!open && BEGIN.test(text)) {
        open = { begin: no, first: text };
        blocks.push(open);
      }
      if (open && END.test(text) && (open.begin < no || text.search(END) > text.search(BEGIN))) {
        open.end = no;
        open.last = text;
        if (no < from) blocks.pop();
        open = undefined;
      }
    },
  };
}

/**
 * The window's lines (`lines`, the first numbered `offset`), with each private key block it cuts
 * (begun before it, or ending after it) shown as its one line: what `hide` makes of the block's
 * BEGIN and END lines (config/secrets.ts redactText: `[secret: private-key]`), numbered with the
 * block's BEGIN line, as a read of the whole file shows it. `next`: the first line after the window
 * and the blocks it cut (the note's offset). A block `hide` leaves as it is (hiding is off) is shown.
 */
export function withCutKeysHidden(
  lines: readonly string[],
  offset: number,
  blocks: readonly KeyBlock[],
  total: number,
  hide: (text: string) => string,
): { rows: [number, string][]; next: number } {
  let rows: [number, string][] = lines.map((line, i) => [offset + i, line]);
  let next = offset + lines.length;
  const last = next - 1;
  for (const block of blocks) {
    const end = block.end ?? total;
    if (block.begin > last || end < offset || (block.begin >= offset && end <= last)) continue; // outside, or whole: the result's own redaction hides it
    const text = block.last === undefined ? block.first : `${block.first}\n${block.last}`;
    const hidden = hide(text);
    if (hidden === text || hidden.includes("\n")) continue;
    rows = [...rows.filter(([no]) => no < block.begin), [block.begin, hidden], ...rows.filter(([no]) => no > end)];
    next = Math.max(next, end + 1);
  }
  return { rows, next };
}
