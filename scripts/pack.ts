// Packing built binaries into the release directory (SPEC §20): one archive per target — the
// binary (`hey`, or `hey.exe` in a .zip for Windows) and LICENSE — plus SHA256SUMS, which lists
// each archive and, under its built name (`hey-linux-x64`, `hey-windows-x64.exe`), the binary
// inside it: `hey upgrade --check` compares that line with its own hash without downloading the
// archive. scripts/sign.ts then signs SHA256SUMS. Used by `bun run build --all` and by the tests
// that serve a release directory to install.sh and `hey upgrade`.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { GZIP_LEVEL, packTarGz, packZip } from "../src/upgrade/archive.ts";
import { formatSums } from "../src/upgrade/release.ts";
import { assetName, binaryName, builtName, isWindows } from "../src/upgrade/targets.ts";

const ROOT = join(import.meta.dir, "..");

export interface Asset {
  name: string;
  bytes: Uint8Array;
  /** the binary inside: its built name and SHA-256, listed in SHA256SUMS beside the archive */
  binary: { name: string; sha256: string };
}

/** The archive of `binary` for target `id`; `level` (gzip) is lowered by tests for speed. */
export function packAsset(id: string, binary: Uint8Array, mtime: Date, level = GZIP_LEVEL): Asset {
  const entries = [
    { name: binaryName(id), data: binary, mode: 0o755 },
    { name: "LICENSE", data: new Uint8Array(readFileSync(join(ROOT, "LICENSE"))), mode: 0o644 },
  ];
  const bytes = isWindows(id) ? packZip(entries, mtime) : packTarGz(entries, mtime, level);
  return { name: assetName(id), bytes, binary: { name: builtName(id), sha256: sha256(binary) } };
}

export const sha256 = (bytes: Uint8Array) => new Bun.CryptoHasher("sha256").update(bytes).digest("hex");

/** Writes the assets and their SHA256SUMS into `dir`; returns the SHA256SUMS text. */
export function writeRelease(dir: string, assets: Asset[]): string {
  mkdirSync(dir, { recursive: true });
  for (const a of assets) writeFileSync(join(dir, a.name), a.bytes);
  const sums = formatSums(
    new Map(
      assets.flatMap((a) => [
        [a.name, sha256(a.bytes)],
        [a.binary.name, a.binary.sha256],
      ]),
    ),
  );
  writeFileSync(join(dir, "SHA256SUMS"), sums);
  return sums;
}
