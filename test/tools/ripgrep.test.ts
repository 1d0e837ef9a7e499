// The embedded ripgrep written to the cache dir: once, content-addressed, executable, verified,
// replaced when damaged (also after it was verified: checked again on each call), and no error (grep then walks the tree itself) when it cannot be written.
import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { grepLine, unrunnableRipgrep } from "../../src/fs/ripgrep-choice.ts";
import { installRipgrep, ripgrepFor } from "../../src/tools/ripgrep.ts";

const root = mkdtempSync(join(tmpdir(), "hey-rg-cache-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

// a real ripgrep, so "verified and usable" means it runs (the devDependency's, as in grep.test.ts)
const rgPath = (await import("@vscode/ripgrep")).rgPath as string;
const bytes = new Uint8Array(readFileSync(rgPath));
const rg = new Blob([bytes]);
const hash = new Bun.CryptoHasher("sha256").update(bytes).digest("hex");

describe("installRipgrep", () => {
  test("writes rg-<sha256 prefix>, mode 0700 in a 0700 folder (hey's state is private), that runs; leaves no temporary file", async () => {
    const dir = join(root, "a", "hey");
    const path = await installRipgrep(rg, dir, false);
    expect(path).toBe(join(dir, `rg-${hash.slice(0, 16)}`));
    expect(statSync(path!).mode & 0o777).toBe(0o700);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(Bun.spawnSync([path!, "--version"]).stdout.toString()).toStartWith("ripgrep ");
    expect(readdirSync(dir)).toEqual([`rg-${hash.slice(0, 16)}`]);
  });

  test("a second call reuses the verified file without rewriting it", async () => {
    const dir = join(root, "b");
    const path = (await installRipgrep(rg, dir, false))!;
    const before = statSync(path);
    expect(await installRipgrep(rg, dir, false)).toBe(path);
    expect(statSync(path).ino).toBe(before.ino);
  });

  test("a damaged or non-executable copy is replaced", async () => {
    const dir = join(root, "c");
    const path = (await installRipgrep(rg, dir, false))!;
    writeFileSync(path, bytes.subarray(0, 1000));
    expect(await installRipgrep(rg, dir, false)).toBe(path);
    expect(new Bun.CryptoHasher("sha256").update(readFileSync(path)).digest("hex")).toBe(hash);
    chmodSync(path, 0o644);
    await installRipgrep(rg, dir, false);
    expect(statSync(path).mode & 0o777).toBe(0o700);
  });

  test("a verified copy rewritten in place (same size, mode kept, mtime set back) is replaced on the next call", async () => {
    const dir = join(root, "e");
    const path = (await installRipgrep(rg, dir, false))!;
    expect(await installRipgrep(rg, dir, false)).toBe(path); // verified: its identity is remembered
    const before = statSync(path);
    const evil = new Uint8Array(bytes.length).fill(0x23);
    writeFileSync(path, evil);
    utimesSync(path, before.atime, before.mtime); // ctime still moves: no user process sets it
    expect(await installRipgrep(rg, dir, false)).toBe(path);
    expect(new Bun.CryptoHasher("sha256").update(readFileSync(path)).digest("hex")).toBe(hash);
  });

  test("a Windows copy is named .exe", async () => {
    expect(await installRipgrep(rg, join(root, "w"), true)).toEndWith(`rg-${hash.slice(0, 16)}.exe`);
  });

  test("concurrent first searches of several hey processes all get a whole file", async () => {
    const dir = join(root, "d");
    const paths = await Promise.all(Array.from({ length: 4 }, () => installRipgrep(rg, dir, false)));
    expect(new Set(paths).size).toBe(1);
    expect(readdirSync(dir)).toHaveLength(1);
  });

  test("an unwritable cache dir gives undefined, not an error", async () => {
    const file = join(root, "not-a-dir");
    writeFileSync(file, "");
    expect(await installRipgrep(rg, join(file, "hey"), false)).toBeUndefined();
  });
});

describe("[tools] rg that cannot be run", () => {
  const dir = join(root, "configured");
  const home = join(root, "home");
  test("is not used: grep takes the ripgrep it would without it; the line names the key, where it is set and why", async () => {
    const missing = join(dir, "no-such-rg");
    expect(await ripgrepFor(missing, home, join(root, "cache-x"))).toBe(await ripgrepFor(undefined, home, join(root, "cache-x")));
    expect(unrunnableRipgrep(missing, "/c.toml:7")).toStartWith(`/c.toml:7: [tools] rg ${JSON.stringify(missing)} cannot be run (not found); grep uses `);
    expect(unrunnableRipgrep("no-such-rg-on-path", "/c.toml:7")).toContain("cannot be run (not on PATH)");
    expect(grepLine(missing)).toStartWith(`! grep: [tools] rg ${JSON.stringify(missing)} cannot be run (not found); grep uses `);
  });

  test("a file that is not executable is named so; one that is runs as set", async () => {
    const { mkdirSync } = await import("node:fs");
    mkdirSync(dir, { recursive: true });
    const plain = join(dir, "plain-rg");
    writeFileSync(plain, "#!/bin/sh\n");
    expect(unrunnableRipgrep(plain, "/c.toml:7")).toContain("cannot be run (not executable)");
    chmodSync(plain, 0o755);
    expect(unrunnableRipgrep(plain, "/c.toml:7")).toBeUndefined();
    expect(await ripgrepFor(plain, home)).toBe(plain);
    expect(grepLine(plain)).toBe(`grep: ${plain} ([tools] rg)`);
    expect(grepLine(undefined)).toStartWith("grep: ");
  });
});
