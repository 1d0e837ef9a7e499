// Packing built binaries into the release directory (SPEC §20): one archive per target — the
// binary (`hey`, or `hey.exe` in a .zip for Windows) and LICENSE — plus SHA256SUMS. Used by
// `bun run build --all` and by the tests that serve a release directory to install.sh and
// `hey upgrade`.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { GZIP_LEVEL, packTarGz, packZip } from "../src/upgrade/archive.ts";
import { formatSums } from "../src/upgrade/release.ts";
import { assetName, binaryName, isWindows } from "../src/upgrade/targets.ts";

const ROOT = join(import.meta.dir, "..");

export interface Asset {
  name: string;
  bytes: Uint8Array;
}

/** The archive of `binary` for target `id`; `level` (gzip) is lowered by tests for speed. */
export function packAsset(id: string, binary: Uint8Array, mtime: Date, level = GZIP_LEVEL): Asset {
  const entries = [
    { name: binaryName(id), data: binary, mode: 0o755 },
    { name: "LICENSE", data: new Uint8Array(readFileSync(join(ROOT, "LICENSE"))), mode: 0o644 },
  ];
  return { name: assetName(id), bytes: isWindows(id) ? packZip(entries, mtime) : packTarGz(entries, mtime, level) };
}

export const sha256 = (bytes: Uint8Array) => new Bun.CryptoHasher("sha256").update(bytes).digest("hex");

/** Writes the assets and their SHA256SUMS into `dir`; returns the SHA256SUMS text. */
export function writeRelease(dir: string, assets: Asset[]): string {
  mkdirSync(dir, { recursive: true });
  for (const a of assets) writeFileSync(join(dir, a.name), a.bytes);
  const sums = formatSums(new Map(assets.map((a) => [a.name, sha256(a.bytes)])));
  writeFileSync(join(dir, "SHA256SUMS"), sums);
  return sums;
}
