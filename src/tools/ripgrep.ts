// Which ripgrep the grep tool runs (SPEC §7, §24): `rg` on PATH, else the one embedded in the
// release binary (scripts/build.ts puts the target's rg in with `--asset`), else none and grep
// walks the tree itself. `[tools] rg` bypasses this lookup while it names a program that can be
// run; one that cannot (a typo, a removed build) is said at start (config/load.ts) and in `hey
// doctor` (fs/ripgrep-choice.ts), and grep takes the lookup's ripgrep rather than the ten times slower walk.
//
// An embedded file cannot be executed from inside the binary, so on the first search it is
// written once to the user's cache dir under a name made from its SHA-256 (a new hey with a new
// ripgrep gets a new file, two versions of hey never fight over one), mode 0755, through a
// temporary file renamed into place so a concurrent hey never runs a half-written one. Before
// every search the file is checked again (the agent's own tools, or anything else running as the
// user, could have rewritten it since): hashed when its identity — device, inode, size, mode,
// mtime, ctime — differs from the one it had when last verified (ctime moves on any write and
// cannot be set back by a user process), replaced when the hash is wrong. An unchanged file
// costs one stat, not a hash of several MB.
import { chmod, mkdir, open, rename, stat, unlink } from "node:fs/promises";
import { closeSync, openSync, readSync, statSync, type Stats } from "node:fs";
import { join } from "node:path";
import { places } from "../fs/places.ts";
import { EMBEDDED_NAMES, unrunnable } from "../fs/ripgrep-choice.ts";

/**
 * The ripgrep a tool runs: `rg` when given (`[tools] rg`; null: none) and it can be run, else
 * locateRipgrep in `cacheDir` (default: hey's cache dir under `home`, fs/places.ts). Never throws.
 */
export function ripgrepFor(rg: string | null | undefined, home: string, cacheDir?: string): Promise<string | null> {
  if (rg === null || (rg !== undefined && !unrunnable(rg))) return Promise.resolve(rg);
  return locateRipgrep(cacheDir ?? places(process.env, home, process.cwd(), process.platform).cacheDir);
}

export async function locateRipgrep(cacheDir: string): Promise<string | null> {
  onPath ??= Bun.which("rg");
  return onPath ?? (await embeddedRipgrep(cacheDir)) ?? null;
}
let onPath: string | null | undefined;

// The embedded ripgrep's SHA-256, put in by scripts/build.ts with `--define`: its bytes, mapped from
// the binary, are read only to write the copy (hashing them in every process cost +13 MB of memory).
declare const HEY_RG_SHA256: string | undefined;

/** The embedded ripgrep, extracted and verified; undefined when this binary has none or it cannot be written. */
async function embeddedRipgrep(cacheDir: string): Promise<string | undefined> {
  if (!Bun.isStandaloneExecutable) return undefined;
  const blob = Bun.embeddedFiles.find((b) => EMBEDDED_NAMES.has((b as Blob & { name?: string }).name ?? ""));
  const hash = typeof HEY_RG_SHA256 === "string" ? HEY_RG_SHA256 : undefined;
  return blob && installRipgrep(blob, cacheDir, process.platform === "win32", hash);
}

/**
 * Puts the bytes of `rg` at `<dir>/rg-<sha256 prefix>[.exe]` unless a verified copy is already there,
 * and returns that path; undefined when it cannot be written (read-only home, full disk), so grep
 * falls back to its walker. `hash`: the SHA-256 of `rg` when known (a copy that does not match it is
 * not used). Never throws. Files are hashed through one small buffer, never read whole.
 */
export async function installRipgrep(rg: Blob, dir: string, exe: boolean, hash?: string): Promise<string | undefined> {
  hash ??= await hashOf(rg);
  const path = join(dir, `rg-${hash.slice(0, 16)}${exe ? ".exe" : ""}`);
  if (await isVerified(path, hash, exe)) return path;
  const tmp = `${path}.${process.pid}.${crypto.randomUUID().slice(0, 8)}.tmp`;
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 }); // hey's cache is private, as the rest of its state
    const handle = await open(tmp, "wx", 0o700);
    try {
      for await (const chunk of rg.stream()) await handle.write(chunk);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await chmod(tmp, 0o700); // open() applied the umask
    if (!(await isVerified(tmp, hash, exe))) throw new Error("the written copy does not match");
    verified.delete(tmp);
    await rename(tmp, path);
    return path;
  } catch {
    await unlink(tmp).catch(() => {});
    return undefined;
  }
}

/** Each path verified in this process, and the identity (identityOf) its file had then. */
const verified = new Map<string, string>();

/** What changes when a file is written, replaced or chmod-ed; ctime is set by the kernel only. */
const identityOf = (info: Stats) => [info.dev, info.ino, info.size, info.mode, info.mtimeMs, info.ctimeMs].join(":");

/** A regular file with the expected SHA-256 that its owner may execute; hashed only when its identity changed since it last was. */
async function isVerified(path: string, hash: string, exe: boolean): Promise<boolean> {
  const info = await stat(path).catch(() => undefined);
  if (!info?.isFile() || (!exe && (info.mode & 0o100) === 0)) return false;
  const identity = `${hash}:${identityOf(info)}`;
  if (verified.get(path) === identity) return true;
  verified.delete(path);
  if (fileHash(path) !== hash) return false;
  // read after the stat: a write in between moved ctime, so the next check hashes again
  verified.set(path, identity);
  return true;
}

/** The SHA-256 of the file at `path`, read 64 KB at a time; undefined when it cannot be read. */
function fileHash(path: string): string | undefined {
  const hasher = new Bun.CryptoHasher("sha256");
  const buf = Buffer.alloc(64 * 1024);
  let fd: number | undefined;
  try {
    fd = openSync(path, "r");
    for (let n = readSync(fd, buf); n > 0; n = readSync(fd, buf)) hasher.update(buf.subarray(0, n));
    return hasher.digest("hex");
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** A Blob without a known hash (tests, the release bench) is the same object on every call: hashed once. */
const hashes = new WeakMap<Blob, Promise<string>>();
function hashOf(rg: Blob): Promise<string> {
  const known =
    hashes.get(rg) ??
    (async () => {
      const hasher = new Bun.CryptoHasher("sha256");
      for await (const chunk of rg.stream()) hasher.update(chunk);
      return hasher.digest("hex");
    })();
  hashes.set(rg, known);
  return known;
}

/**
 * Whether the ripgrep at `rg` can run PCRE2 (`--pcre2`), which takes look-around and backreferences
 * as JavaScript writes them; asked once per binary (`rg --pcre2-version` exits 0 when it can, 1
 * when it was built without it). Never throws: a ripgrep that cannot say is taken to have none.
 */
export function hasPcre2(rg: string, env?: Record<string, string | undefined>): Promise<boolean> {
  let known = pcre2.get(rg);
  if (!known) {
    known = (async () => {
      try {
        const proc = Bun.spawn([rg, "--pcre2-version"], { stdin: "ignore", stdout: "ignore", stderr: "ignore", ...(env ? { env } : {}) });
        return (await proc.exited) === 0;
      } catch {
        return false;
      }
    })();
    pcre2.set(rg, known);
  }
  return known;
}
const pcre2 = new Map<string, Promise<boolean>>();

/** Records of ripgrep's output read between two turns of the event loop, where an abort is heard. */
const YIELD_RECORDS = 2000;

/**
 * Reads ripgrep's `stdout` record by record — lines at "\n", `--null` names at NUL (`sep`) — giving
 * each whole to `take`, the last one too when no separator ends it. A separator byte is never
 * inside a UTF-8 character, so each record decodes alone. Once `stopped()` says so it reads no
 * further and gives no more. ripgrep's output may come faster than it is read, each chunk already
 * there: every YIELD_RECORDS records it lets the event loop turn, else Esc (and the abort that
 * kills ripgrep) would wait for the end. A failed read throws.
 */
export async function eachRecord(
  stdout: AsyncIterable<Uint8Array>,
  sep: number,
  take: (record: Uint8Array) => void,
  stopped: () => boolean = () => false,
): Promise<void> {
  let partial: Uint8Array[] = [];
  let read = 0;
  for await (const chunk of stdout) {
    let start = 0;
    for (let end = chunk.indexOf(sep); end !== -1; end = chunk.indexOf(sep, start)) {
      take(partial.length === 0 ? chunk.subarray(start, end) : Buffer.concat([...partial, chunk.subarray(start, end)]));
      partial = [];
      start = end + 1;
      if (++read % YIELD_RECORDS === 0) await new Promise((next) => setImmediate(next));
      if (stopped()) return;
    }
    if (start < chunk.length) partial.push(chunk.slice(start));
  }
  if (partial.length > 0 && !stopped()) take(Buffer.concat(partial));
}
