// Which ripgrep the grep tool runs (SPEC §7, §24): `rg` on PATH, else the one embedded in the
// release binary (scripts/build.ts puts the target's rg in with `--asset`), else none and grep
// walks the tree itself. `[tools] rg` bypasses this lookup (grep.ts).
//
// An embedded file cannot be executed from inside the binary, so on the first search it is
// written once to the user's cache dir under a name made from its SHA-256 (a new hey with a new
// ripgrep gets a new file, two versions of hey never fight over one), mode 0755, through a
// temporary file renamed into place so a concurrent hey never runs a half-written one. Before
// each use (once per process) the file is hashed again: a truncated or altered file is replaced.
import { chmod, mkdir, open, rename, stat, unlink } from "node:fs/promises";
import { join } from "node:path";

const EMBEDDED_NAMES = new Set(["rg", "rg.exe"]);

/** The ripgrep to run, or null when there is none; an embedded one is written to `cacheDir` (fs/places.ts). Never throws. */
export async function locateRipgrep(cacheDir: string): Promise<string | null> {
  return Bun.which("rg") ?? (await embeddedRipgrep(cacheDir)) ?? null;
}

/** The embedded ripgrep, extracted and verified; undefined when this binary has none or it cannot be written. */
async function embeddedRipgrep(cacheDir: string): Promise<string | undefined> {
  if (!Bun.isStandaloneExecutable) return undefined;
  const blob = Bun.embeddedFiles.find((b) => EMBEDDED_NAMES.has((b as Blob & { name?: string }).name ?? ""));
  if (!blob) return undefined;
  return installRipgrep(new Uint8Array(await blob.arrayBuffer()), cacheDir, process.platform === "win32");
}

/**
 * Puts `bytes` at `<dir>/rg-<sha256 prefix>[.exe]` unless a verified copy is already there, and
 * returns that path; undefined when it cannot be written (read-only home, full disk), so grep
 * falls back to its walker. Never throws.
 */
export async function installRipgrep(bytes: Uint8Array, dir: string, exe: boolean): Promise<string | undefined> {
  const hash = sha256(bytes);
  const path = join(dir, `rg-${hash.slice(0, 16)}${exe ? ".exe" : ""}`);
  if (await isVerified(path, hash, exe)) return path;
  const tmp = `${path}.${process.pid}.${crypto.randomUUID().slice(0, 8)}.tmp`;
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 }); // hey's cache is private, as the rest of its state
    const handle = await open(tmp, "wx", 0o700);
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await chmod(tmp, 0o700); // open() applied the umask
    if (!(await isVerified(tmp, hash, exe))) throw new Error("the written copy does not match");
    await rename(tmp, path);
    return path;
  } catch {
    await unlink(tmp).catch(() => {});
    return undefined;
  }
}

/** A regular file with the expected SHA-256 that its owner may execute. */
async function isVerified(path: string, hash: string, exe: boolean): Promise<boolean> {
  const info = await stat(path).catch(() => undefined);
  if (!info?.isFile() || (!exe && (info.mode & 0o100) === 0)) return false;
  const bytes = await Bun.file(path)
    .bytes()
    .catch(() => undefined);
  return bytes !== undefined && sha256(bytes) === hash;
}

const sha256 = (bytes: Uint8Array) => new Bun.CryptoHasher("sha256").update(bytes).digest("hex");
