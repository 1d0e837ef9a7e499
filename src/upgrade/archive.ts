// The release archives (SPEC §20): `hey-<target>.tar.gz`, or `.zip` for Windows, written by
// scripts/build.ts and read back by `hey upgrade`, so one file owns both directions. Pure: bytes in,
// bytes out (node:zlib compresses, no file is touched).
//
// Written by hand because the output must be exact and reproducible: the binary's mode 0755 must
// survive `tar -x` and `unzip` (Bun's own Archive class writes every entry 0644), and owner,
// times and gzip header are fixed so the same inputs give the same bytes, hence the same
// SHA256SUMS.
//   tar: POSIX ustar, one 512-byte header per file, data padded to 512, two zero blocks at the end.
//   zip: PKWARE APPNOTE 6.3 without zip64 (entries < 4 GiB), deflate, "made by Unix" so the mode
//        in the external attributes is honoured by unzip and ignored by Windows.
import { crc32, deflateRawSync, gunzipSync, gzipSync, inflateRawSync } from "node:zlib";
import { errorText } from "../kernel/errors.ts";

export interface ArchiveEntry {
  name: string;
  data: Uint8Array;
  /** permission bits, e.g. 0o755 for the binary, 0o644 for a text file */
  mode: number;
}

/** A file that is not a well-formed archive of ours; the message says what is wrong. */
export class ArchiveError extends Error {
  override name = "ArchiveError";
}

const BLOCK = 512;
/** Highest gzip level: an archive is compressed once and downloaded many times. */
export const GZIP_LEVEL = 9;

/** A .tar.gz of `entries`, all dated `mtime`, owned by 0:0. `level` trades size for time (1–9). */
export function packTarGz(entries: ArchiveEntry[], mtime: Date, level = GZIP_LEVEL): Uint8Array {
  const blocks: Uint8Array[] = [];
  for (const entry of entries) {
    blocks.push(tarHeader(entry, Math.floor(mtime.getTime() / 1000)), entry.data);
    const pad = (BLOCK - (entry.data.length % BLOCK)) % BLOCK;
    if (pad) blocks.push(new Uint8Array(pad));
  }
  blocks.push(new Uint8Array(2 * BLOCK));
  return gzipSync(Buffer.concat(blocks), { level });
}

function tarHeader(entry: ArchiveEntry, mtime: number): Uint8Array {
  const name = new TextEncoder().encode(entry.name);
  if (name.length > 100) throw new ArchiveError(`tar: name over 100 bytes: ${entry.name}`);
  const h = new Uint8Array(BLOCK);
  const put = (at: number, text: string) => h.set(new TextEncoder().encode(text), at);
  const octal = (at: number, width: number, n: number) => put(at, n.toString(8).padStart(width - 1, "0"));
  h.set(name, 0);
  octal(100, 8, entry.mode & 0o7777);
  octal(108, 8, 0);
  octal(116, 8, 0);
  octal(124, 12, entry.data.length);
  octal(136, 12, mtime);
  put(148, "        "); // the checksum field counts as spaces while the checksum is summed
  put(156, "0");
  put(257, "ustar\u000000");
  put(265, "root");
  put(297, "root");
  put(148, checksum(h).toString(8).padStart(6, "0") + "\u0000 ");
  return h;
}

const checksum = (header: Uint8Array) => header.reduce((sum, byte, i) => sum + (i >= 148 && i < 156 ? 32 : byte), 0);

/** The regular files of a .tar.gz (or plain .tar), in order. Throws ArchiveError when malformed. */
export function readTarGz(bytes: Uint8Array): ArchiveEntry[] {
  let tar: Uint8Array;
  try {
    tar = bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes;
  } catch (e) {
    throw new ArchiveError(`not a valid gzip file: ${errorText(e)}`);
  }
  const entries: ArchiveEntry[] = [];
  const field = (h: Uint8Array, at: number, width: number) => new TextDecoder().decode(h.subarray(at, at + width)).replace(/\0.*$/s, "");
  const number = (h: Uint8Array, at: number, width: number) => parseInt(field(h, at, width).trim() || "0", 8);
  for (let at = 0; at + BLOCK <= tar.length; ) {
    const h = tar.subarray(at, at + BLOCK);
    if (h.every((b) => b === 0)) return entries;
    if (number(h, 148, 8) !== checksum(h)) throw new ArchiveError(`tar: bad header checksum at byte ${at}`);
    const size = number(h, 124, 12);
    const type = String.fromCharCode(h[156]!);
    const start = at + BLOCK;
    if (start + size > tar.length) throw new ArchiveError("tar: archive is truncated");
    const prefix = field(h, 345, 155);
    const name = (prefix ? prefix + "/" : "") + field(h, 0, 100);
    // pax and GNU long-name records, directories and links are skipped: ours hold none
    if (type === "0" || type === "\0") entries.push({ name, data: tar.subarray(start, start + size), mode: number(h, 100, 8) });
    at = start + Math.ceil(size / BLOCK) * BLOCK;
  }
  throw new ArchiveError("tar: archive is truncated (no end-of-archive blocks)");
}

/** A .zip of `entries` (deflated), all dated `mtime` (DOS time has 2-second steps, no zone). */
export function packZip(entries: ArchiveEntry[], mtime: Date): Uint8Array {
  const { time, date } = dosTime(mtime);
  const locals: Uint8Array[] = [];
  const centrals: Uint8Array[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = new TextEncoder().encode(entry.name);
    const packed = deflateRawSync(entry.data, { level: GZIP_LEVEL });
    const crc = crc32(entry.data);
    const local = new DataView(new ArrayBuffer(30));
    local.setUint32(0, 0x04034b50, true);
    local.setUint16(4, 20, true); // version needed: 2.0 (deflate)
    local.setUint16(8, 8, true); // method: deflate
    local.setUint16(10, time, true);
    local.setUint16(12, date, true);
    local.setUint32(14, crc, true);
    local.setUint32(18, packed.length, true);
    local.setUint32(22, entry.data.length, true);
    local.setUint16(26, name.length, true);
    locals.push(new Uint8Array(local.buffer), name, packed);

    const central = new DataView(new ArrayBuffer(46));
    central.setUint32(0, 0x02014b50, true);
    central.setUint16(4, (3 << 8) | 20, true); // made by: Unix, 2.0
    central.setUint16(6, 20, true);
    central.setUint16(10, 8, true);
    central.setUint16(12, time, true);
    central.setUint16(14, date, true);
    central.setUint32(16, crc, true);
    central.setUint32(20, packed.length, true);
    central.setUint32(24, entry.data.length, true);
    central.setUint16(28, name.length, true);
    central.setUint32(38, ((0o100000 | (entry.mode & 0o7777)) << 16) >>> 0, true); // regular file + mode
    central.setUint32(42, offset, true);
    centrals.push(new Uint8Array(central.buffer), name);
    offset += 30 + name.length + packed.length;
  }
  const dirSize = centrals.reduce((n, b) => n + b.length, 0);
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, 0x06054b50, true);
  end.setUint16(8, entries.length, true);
  end.setUint16(10, entries.length, true);
  end.setUint32(12, dirSize, true);
  end.setUint32(16, offset, true);
  return Buffer.concat([...locals, ...centrals, new Uint8Array(end.buffer)]);
}

function dosTime(d: Date): { time: number; date: number } {
  const year = Math.max(1980, d.getUTCFullYear());
  return {
    time: (d.getUTCHours() << 11) | (d.getUTCMinutes() << 5) | (d.getUTCSeconds() >> 1),
    date: ((year - 1980) << 9) | ((d.getUTCMonth() + 1) << 5) | d.getUTCDate(),
  };
}

/** The files of a .zip (stored or deflated), CRC-checked. Throws ArchiveError when malformed. */
export function readZip(bytes: Uint8Array): ArchiveEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let eocd = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 0xffff); i--) {
    if (view.getUint32(i, true) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new ArchiveError("zip: no end-of-central-directory record");
  const count = view.getUint16(eocd + 10, true);
  let at = view.getUint32(eocd + 16, true);
  const entries: ArchiveEntry[] = [];
  for (let n = 0; n < count; n++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== 0x02014b50) throw new ArchiveError("zip: corrupt central directory");
    const method = view.getUint16(at + 10, true);
    const crc = view.getUint32(at + 16, true);
    const packedSize = view.getUint32(at + 20, true);
    const nameLength = view.getUint16(at + 28, true);
    const skip = view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    const mode = (view.getUint32(at + 38, true) >>> 16) & 0o7777;
    const local = view.getUint32(at + 42, true);
    const name = new TextDecoder().decode(bytes.subarray(at + 46, at + 46 + nameLength));
    at += 46 + nameLength + skip;
    if (name.endsWith("/")) continue;
    if (local + 30 > bytes.length || view.getUint32(local, true) !== 0x04034b50) throw new ArchiveError(`zip: corrupt local header for ${name}`);
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    if (start + packedSize > bytes.length) throw new ArchiveError("zip: archive is truncated");
    const packed = bytes.subarray(start, start + packedSize);
    let data: Uint8Array;
    if (method === 0) data = packed;
    else if (method === 8) {
      try {
        data = inflateRawSync(packed);
      } catch (e) {
        throw new ArchiveError(`zip: ${name} does not inflate: ${errorText(e)}`);
      }
    } else throw new ArchiveError(`zip: ${name} uses compression method ${method}, not stored or deflate`);
    if (crc32(data) !== crc) throw new ArchiveError(`zip: CRC mismatch in ${name}`);
    entries.push({ name, data, mode: mode || 0o644 });
  }
  return entries;
}
