// The line ends write_file gives a file it replaces whole (SPEC §7), as edit keeps them: a file
// whose line ends are mostly CRLF stays CRLF even when a tool appended one LF line to it, and the
// lines the new content leaves as they were (from the top down and from the bottom up, up to the
// first changed line) keep the end each had. Pure.

/** How many lines of `text` end in CRLF and how many in a bare LF. */
export function lineEndCounts(text: string): { crlf: number; lf: number } {
  let crlf = 0;
  let lf = 0;
  for (let nl = text.indexOf("\n"); nl !== -1; nl = text.indexOf("\n", nl + 1)) {
    if (nl > 0 && text[nl - 1] === "\r") crlf++;
    else lf++;
  }
  return { crlf, lf };
}

/**
 * `content` (its lines ending in LF) with the line ends of the file it replaces (`old`): a line the
 * same as the old file's at the same place counted from the top or from the bottom keeps the old
 * line's end; every other line ends in CRLF when most of the old file's lines did. `content` is
 * returned as it is when it has a CR of its own (its author chose its line ends) or the old file
 * has no CRLF.
 */
export function withLineEnds(old: string, content: string): string {
  if (content.includes("\r") || !content.includes("\n") || !old.includes("\r\n")) return content;
  const { crlf, lf } = lineEndCounts(old);
  const was = old.replace(/^\uFEFF/, "").split("\n");
  const lines = content.split("\n");
  // the last piece of each follows the last line end: it has none of its own
  const ends = Math.min(was.length, lines.length) - 1;
  const text = (line: string) => (line.endsWith("\r") ? line.slice(0, -1) : line);
  let top = 0;
  while (top < ends && text(was[top]!) === lines[top]) top++;
  let bottom = 0;
  while (top + bottom < ends && text(was[was.length - 2 - bottom]!) === lines[lines.length - 2 - bottom]) bottom++;
  const usual = crlf > lf ? "\r\n" : "\n";
  const out: string[] = [];
  for (let i = 0; i < lines.length - 1; i++) {
    const fromEnd = lines.length - 2 - i;
    const same = i < top ? was[i]! : fromEnd < bottom ? was[was.length - 2 - fromEnd]! : undefined;
    out.push(lines[i]!, same === undefined ? usual : same.endsWith("\r") ? "\r\n" : "\n");
  }
  out.push(lines.at(-1)!);
  return out.join("");
}

/**
 * What write_file says when the file it wrote (`now`) has line ends of another kind than the file
 * it replaced (`old`) had (`line ends: 7 CRLF → LF`): the ends of one kind that went while ends of
 * the other kind came; undefined when there are none, or the old file had no line ends.
 */
export function lineEndChange(old: string, now: string): string | undefined {
  const before = lineEndCounts(old);
  if (before.crlf + before.lf === 0) return undefined;
  const after = lineEndCounts(now);
  const toLf = Math.min(before.crlf - after.crlf, after.lf - before.lf);
  if (toLf > 0) return `line ends: ${toLf} CRLF → LF`;
  const toCrlf = Math.min(before.lf - after.lf, after.crlf - before.crlf);
  if (toCrlf > 0) return `line ends: ${toCrlf} LF → CRLF`;
  return undefined;
}
