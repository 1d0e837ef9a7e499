// The release archives: what build --all writes, tar/unzip and `hey upgrade` must read back, with
// the binary executable and the bytes unchanged; damaged archives are refused, not half-read.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { ArchiveError, packTarGz, packZip, readTarGz, readZip, type ArchiveEntry } from "../../src/upgrade/archive.ts";

const dir = mkdtempSync(join(tmpdir(), "hey-archive-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const binary = new Uint8Array(300_000).map((_, i) => (i * 7919) % 251); // not a multiple of 512
const entries: ArchiveEntry[] = [
  { name: "hey", data: binary, mode: 0o755 },
  { name: "LICENSE", data: new TextEncoder().encode("MIT\n"), mode: 0o644 },
];
const when = new Date("2026-12-02T10:20:30Z");

/** `cmd`'s output; in UTC, so tar shows `when` as it is, not in this machine's zone (a day later east of UTC+13:40). */
function sh(cmd: string[], cwd = dir): string {
  const p = Bun.spawnSync(cmd, { cwd, stdout: "pipe", stderr: "pipe", env: { ...process.env, TZ: "UTC" } });
  if (p.exitCode !== 0) throw new Error(`${cmd.join(" ")}: ${p.stderr.toString()}`);
  return p.stdout.toString();
}

describe("tar.gz", () => {
  const archive = packTarGz(entries, when, 1);

  test("reads back the same files, modes and bytes", () => {
    expect(
      readTarGz(archive).map((e) => [e.name, e.mode, Buffer.compare(Buffer.from(e.data), Buffer.from(entries.find((x) => x.name === e.name)!.data))]),
    ).toEqual([
      ["hey", 0o755, 0],
      ["LICENSE", 0o644, 0],
    ]);
  });

  test("the same inputs give the same bytes (so SHA256SUMS is reproducible)", () => {
    expect(Buffer.compare(Buffer.from(packTarGz(entries, when, 1)), Buffer.from(archive))).toBe(0);
  });

  test("tar lists and extracts it: hey is executable, owned by root, dated, byte-identical", () => {
    writeFileSync(join(dir, "a.tar.gz"), archive);
    const listing = sh(["tar", "-tvzf", "a.tar.gz"]).trim().split("\n");
    expect(listing[0]).toMatch(/^-rwxr-xr-x root\/root\s+300000 2026-12-02 10:20 hey$/);
    expect(listing[1]).toMatch(/^-rw-r--r-- root\/root\s+4 .* LICENSE$/);
    sh(["tar", "-xzf", "a.tar.gz", "hey"]);
    expect(statSync(join(dir, "hey")).mode & 0o777).toBe(0o755);
    expect(Buffer.compare(readFileSync(join(dir, "hey")), Buffer.from(binary))).toBe(0);
  });

  test("reads an archive tar wrote (the npm package tarballs are such archives)", () => {
    const src = join(dir, "from-tar");
    sh(["mkdir", "-p", "from-tar/package/bin"]);
    writeFileSync(join(src, "package", "bin", "rg"), binary);
    sh(["tar", "-czf", "../t.tgz", "package"], src);
    expect(readTarGz(new Uint8Array(readFileSync(join(dir, "t.tgz")))).map((e) => [e.name, e.data.length])).toEqual([["package/bin/rg", 300_000]]);
  });

  test("a damaged archive is refused with the reason", () => {
    expect(() => readTarGz(archive.subarray(0, archive.length / 2))).toThrow(ArchiveError);
    expect(() => readTarGz(new TextEncoder().encode("<html>404</html>"))).toThrow(/bad header checksum|truncated/);
    const tar = gunzipSync(archive);
    tar[10] = tar[10]! ^ 1; // inside the first header's name
    expect(() => readTarGz(tar)).toThrow("tar: bad header checksum at byte 0");
    expect(() => readTarGz(gunzipSync(archive).subarray(0, 1024))).toThrow("tar: archive is truncated");
  });
});

describe("zip", () => {
  const archive = packZip(entries, when);

  test("reads back the same files, modes and bytes", () => {
    expect(readZip(archive).map((e) => [e.name, e.mode, e.data.length])).toEqual([
      ["hey", 0o755, 300_000],
      ["LICENSE", 0o644, 4],
    ]);
    expect(Buffer.compare(Buffer.from(readZip(archive)[0]!.data), Buffer.from(binary))).toBe(0);
  });

  test("unzip tests it and extracts hey executable and byte-identical", () => {
    writeFileSync(join(dir, "a.zip"), archive);
    expect(sh(["unzip", "-t", "a.zip"])).toContain("No errors detected");
    expect(sh(["unzip", "-Z", "a.zip"])).toMatch(/-rwxr-xr-x .* unx\s+300000 .* 26-Dec-02 10:20 hey/);
    sh(["unzip", "-o", "-d", "unzipped", "a.zip"]);
    expect(statSync(join(dir, "unzipped", "hey")).mode & 0o777).toBe(0o755);
    expect(Buffer.compare(readFileSync(join(dir, "unzipped", "hey")), Buffer.from(binary))).toBe(0);
  });

  test("a damaged archive is refused with the reason", () => {
    expect(() => readZip(archive.subarray(0, 100))).toThrow("zip: no end-of-central-directory record");
    const bad = archive.slice();
    bad[40] = bad[40]! ^ 0xff; // inside hey's compressed data
    expect(() => readZip(bad)).toThrow(/zip: (CRC mismatch in hey|hey does not inflate)/);
  });
});
