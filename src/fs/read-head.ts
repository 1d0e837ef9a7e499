// Bounded reads of text files hey reads but does not own (AGENTS.md, skills): at most `maxBytes`
// of the file, whatever its size, so a huge or endless file cannot stall start-up or fill the
// prompt. Links are followed; whether a link may be followed is the caller's decision.
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";

/**
 * The first `maxBytes` of `path` as UTF-8 (a character cut at the limit becomes U+FFFD);
 * `truncated` says whether the file is longer. Throws the system error (ENOENT, EACCES…), or
 * an error with code EISDIR / EINVAL when `path` is a directory or not a regular file (a FIFO
 * is opened non-blocking, so it cannot hang the read).
 */
export function readHead(path: string, maxBytes: number): { text: string; truncated: boolean } {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const st = fstatSync(fd);
    if (st.isDirectory()) throw Object.assign(new Error(`${path} is a directory`), { code: "EISDIR" });
    if (!st.isFile()) throw Object.assign(new Error(`${path} is not a regular file`), { code: "EINVAL" });
    const want = Math.min(st.size, maxBytes);
    const buf = Buffer.alloc(want);
    let got = 0;
    while (got < want) {
      const n = readSync(fd, buf, got, want - got, got);
      if (n === 0) break;
      got += n;
    }
    return { text: buf.toString("utf8", 0, got), truncated: st.size > got };
  } finally {
    closeSync(fd);
  }
}
