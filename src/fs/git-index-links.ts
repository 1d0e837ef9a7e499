// The submodules a git index records (gitlinks, mode 160000), by path: git status and git diff run
// git inside each one that is checked out, with the config of the repository its `.git` names, even
// where `.gitmodules` does not list it (a clone added with `git add`). Read from the index's bytes
// (gitformat-index(5), versions 2 to 4), not from a git the repository configures. Pure.

const GITLINK = 0o160000;
const MODE_MASK = 0o170000;
/** ctime, mtime (8 bytes each), dev, ino, mode, uid, gid, size (4 each), before the object name. */
const STAT_BYTES = 40;
const MODE_AT = 24;
const EXTENDED = 0x4000;
const NAME_LENGTH = 0xfff;

/**
 * The paths of the gitlinks in the index `bytes`, whose object names are `hashBytes` long (20 for
 * SHA-1, 32 for SHA-256); undefined where the bytes are no index this reads to its last entry (a
 * version it does not know, cut short), so the caller cannot know them all.
 */
export function gitlinkPaths(bytes: Uint8Array, hashBytes: number): string[] | undefined {
  if (bytes.length < 12) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  if (String.fromCharCode(...bytes.subarray(0, 4)) !== "DIRC") return undefined;
  const version = view.getUint32(4);
  if (version < 2 || version > 4) return undefined;
  const count = view.getUint32(8);
  const decoder = new TextDecoder();
  const links: string[] = [];
  let at = 12;
  let name = new Uint8Array(4096); // version 4: the previous name, in place, its length in `length`
  let length = 0;
  for (let i = 0; i < count; i++) {
    const start = at;
    const flagsAt = start + STAT_BYTES + hashBytes;
    if (flagsAt + 2 > bytes.length) return undefined;
    const mode = view.getUint32(start + MODE_AT);
    const flags = view.getUint16(flagsAt);
    at = flagsAt + 2 + (version >= 3 && flags & EXTENDED ? 2 : 0);
    let path: Uint8Array;
    if (version === 4) {
      // the name is the previous one less its last N bytes (N a varint), then what follows up to a NUL
      let strip = 0;
      for (let more = true, first = true; more; first = false) {
        if (at >= bytes.length) return undefined;
        const b = bytes[at++]!;
        strip = first ? b & 0x7f : ((strip + 1) << 7) | (b & 0x7f);
        more = (b & 0x80) !== 0;
      }
      const end = bytes.indexOf(0, at);
      if (end === -1 || strip > length) return undefined;
      const kept = length - strip;
      length = kept + end - at;
      if (length > name.length) {
        const larger = new Uint8Array(length * 2);
        larger.set(name.subarray(0, kept));
        name = larger;
      }
      name.set(bytes.subarray(at, end), kept);
      path = name.subarray(0, length);
      at = end + 1;
    } else {
      const size = flags & NAME_LENGTH;
      const end = size < NAME_LENGTH ? at + size : bytes.indexOf(0, at);
      if (end === -1 || end > bytes.length) return undefined;
      path = bytes.subarray(at, end);
      at = start + Math.ceil((end - start + 1) / 8) * 8; // one to eight NULs pad the entry to a multiple of 8
    }
    if ((mode & MODE_MASK) === GITLINK) links.push(decoder.decode(path));
  }
  return links;
}

/**
 * Whether the index `bytes` holds an entry named `path` (`/`-separated, from the work tree's top):
 * its name followed by a NUL, its length in the flags before it (two bytes, or four with version
 * 3's extended flags); undefined for an index this cannot search (version 4 writes each name against
 * the one before it).
 */
export function indexHolds(bytes: Uint8Array, path: string): boolean | undefined {
  if (bytes.length < 12 || String.fromCharCode(...bytes.subarray(0, 4)) !== "DIRC") return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  const version = view.getUint32(4);
  if (version < 2 || version > 3) return undefined;
  const name = new TextEncoder().encode(path);
  // one character a byte, so that a string's index is the byte's
  const latin = new TextDecoder("latin1");
  const needle = latin.decode(new Uint8Array([...name, 0]));
  const haystack = latin.decode(bytes);
  const length = Math.min(name.length, NAME_LENGTH);
  for (let at = haystack.indexOf(needle, 12); at >= 0; at = haystack.indexOf(needle, at + 1))
    if ([2, 4].some((back) => at >= 12 + back && (view.getUint16(at - back) & NAME_LENGTH) === length)) return true;
  return false;
}
