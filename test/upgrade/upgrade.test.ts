// `hey upgrade [--check]` run as a user would, on a copy of dist/hey, against a release directory
// on a loopback server: it replaces itself atomically when the published binary differs, and on
// every failure (bad checksum, broken download, a binary that does not run, an older release)
// leaves the old binary in place and working.
import { afterAll, beforeAll, beforeEach, describe, expect, test, setDefaultTimeout } from "bun:test";
import { copyFileSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { packAsset, sha256, writeRelease } from "../../scripts/pack.ts";
import { ensureBinary, tempDir } from "../helpers/e2e.ts";
import { serveRelease, type ReleaseServer } from "../helpers/release-server.ts";
import { hostTarget, assetName } from "../../src/upgrade/targets.ts";
import pkg from "../../package.json" with { type: "json" };

// each test runs dist/hey or a shell several times: seconds on a loaded 2-core machine
setDefaultTimeout(30_000);

const glibc = Boolean((process.report?.getReport() as { header?: { glibcVersionRuntime?: string } }).header?.glibcVersionRuntime);
const target = hostTarget(process.platform, process.arch, glibc)!.id;
const asset = assetName(target);
const when = new Date("2027-01-01T00:00:00Z");
const script = (text: string) => new TextEncoder().encode(`#!/bin/sh\n${text}\n`);
const NEW_LINE = `hey 9.9.0 (feedfacefeed, built 2027-01-01, ${target})`;

let work: ReturnType<typeof tempDir>;
let server: ReleaseServer;
let heyBytes: Uint8Array;

/** A release directory `name` whose archive holds `binary`; `sums` rewrites SHA256SUMS. */
function release(name: string, binary: Uint8Array, sums?: (text: string) => string): string {
  const dir = join(work.path, "www", name);
  const text = writeRelease(dir, [packAsset(target, binary, when, 1)]);
  if (sums) writeFileSync(join(dir, "SHA256SUMS"), sums(text));
  return `${server.url}/${name}`;
}

beforeAll(async () => {
  work = tempDir("hey-upgrade-");
  server = serveRelease(join(work.path, "www"));
  heyBytes = new Uint8Array(readFileSync(await ensureBinary()));
  release("new", script(`echo "${NEW_LINE}"`));
  release("same", heyBytes);
  release("bad-sum", script(`echo "${NEW_LINE}"`), (t) => t.replace(/^[0-9a-f]{8}/, "00000000"));
  release("no-entry", script(`echo "${NEW_LINE}"`), () => `${"0".repeat(64)}  hey-plan9-mips.tar.gz\n`);
  release("broken", script('echo "Illegal instruction" >&2; exit 132'));
  release("older", script(`echo "hey 0.0.1 (0000000c0ffe, built 2020-01-01, ${target})"`));
  // big and incompressible, so the headers and a first part go out before the connection breaks
  const noise = new Uint8Array(4_000_000).map(() => Math.floor(Math.random() * 256));
  release("cut", new Uint8Array([...script(`echo "${NEW_LINE}"; exit 0`), ...noise]));
  server.cutOff(`/cut/${asset}`);
}, 120_000);
afterAll(() => {
  server.stop();
  work.remove();
});

let bin: string;
let n = 0;
beforeEach(() => {
  const dir = join(work.path, `bin${++n}`);
  Bun.spawnSync(["mkdir", "-p", dir]);
  bin = join(dir, "hey");
  copyFileSync(join(import.meta.dir, "..", "..", "dist", "hey"), bin);
});

async function upgrade(releaseUrl: string, args: string[] = [], extra: Record<string, string> = {}) {
  const proc = Bun.spawn([bin, "upgrade", ...args], {
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: work.path, HEY_RELEASE_URL: releaseUrl, ...extra },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([proc.stdout.text(), proc.stderr.text(), proc.exited]);
  return { code, stdout, stderr };
}

const versionOf = (path: string) => Bun.spawnSync([path, "--version"]).stdout.toString().trim();
const ownLine = () => versionOf(bin);

/** The old binary is untouched, still runs, and no temporary file is left beside it. */
function expectUnchanged() {
  expect(sha256(readFileSync(bin))).toBe(sha256(heyBytes));
  expect(versionOf(bin)).toStartWith(`hey ${pkg.version} (`);
  expect(readdirSync(join(bin, ".."))).toEqual(["hey"]);
}

describe("hey upgrade", () => {
  test("replaces itself when the published binary differs: a new file renamed into place, 0755", async () => {
    const before = statSync(bin).ino;
    const old = ownLine();
    const run = await upgrade(`${server.url}/new`);
    expect(run).toMatchObject({ code: 0, stdout: `upgraded ${bin}: ${old} → ${NEW_LINE}\n` });
    expect(run.stderr).toBe(`downloading ${server.url}/new/${asset}\n`);
    expect(versionOf(bin)).toBe(NEW_LINE);
    expect(statSync(bin).ino).not.toBe(before);
    expect(statSync(bin).mode & 0o777).toBe(0o755);
    expect(readdirSync(join(bin, ".."))).toEqual(["hey"]);
    expect(server.requests.slice(-2)).toEqual(["/new/SHA256SUMS", `/new/${asset}`]);
  });

  test("--check reports the new version and changes nothing", async () => {
    const run = await upgrade(`${server.url}/new`, ["--check"]);
    expect(run).toMatchObject({ code: 0, stdout: `${NEW_LINE} is available (this is ${ownLine()}): run hey upgrade\n` });
    expectUnchanged();
  });

  test("says it is up to date when the published binary is this one", async () => {
    for (const args of [[], ["--check"]]) {
      const run = await upgrade(`${server.url}/same`, args);
      expect(run).toMatchObject({ code: 0, stdout: `${ownLine()} is up to date (${server.url}/same)\n` });
      expectUnchanged();
    }
  }, 30_000);

  test("refuses an archive whose checksum does not match SHA256SUMS", async () => {
    const run = await upgrade(`${server.url}/bad-sum`);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(new RegExp(`hey upgrade: checksum mismatch for ${asset.replaceAll(".", "\\.")}: SHA256SUMS says 00000000[0-9a-f]{56}, the download is [0-9a-f]{64}; nothing was changed\n$`));
    expectUnchanged();
  });

  test("refuses a SHA256SUMS without this platform", async () => {
    const run = await upgrade(`${server.url}/no-entry`);
    expect(run).toMatchObject({ code: 1, stderr: `hey upgrade: ${server.url}/no-entry/SHA256SUMS lists no ${asset}\n` });
    expectUnchanged();
  });

  test("keeps the old binary when the new one does not run here", async () => {
    const run = await upgrade(`${server.url}/broken`);
    expect(run.code).toBe(1);
    expect(run.stderr).toEndWith("hey upgrade: the downloaded hey does not run here (exit 132: Illegal instruction); nothing was changed\n");
    expectUnchanged();
  });

  test("keeps the old binary when the download fails: missing release, broken connection, no server", async () => {
    const missing = await upgrade(`${server.url}/v{version}`, [], { HEY_VERSION: "7.7.7" });
    expect(missing).toMatchObject({ code: 1, stderr: `hey upgrade: could not download ${server.url}/v7.7.7/SHA256SUMS: HTTP 404 (is there a release 7.7.7?); nothing was changed\n` });
    const cut = await upgrade(`${server.url}/cut`);
    expect(cut.code).toBe(1);
    expect(cut.stderr).toMatch(/hey upgrade: the download of .*\/cut\/hey-[\w-]+\.tar\.gz (broke off after|ended after) [\d.]+ MB.*; nothing was changed\n$/);
    const down = await upgrade("http://127.0.0.1:9/none");
    expect(down.code).toBe(1);
    expect(down.stderr).toStartWith("hey upgrade: could not download http://127.0.0.1:9/none/SHA256SUMS: ");
    expectUnchanged();
  });

  test("does not go back to an older release unless HEY_VERSION asks for it", async () => {
    const refused = await upgrade(`${server.url}/older`);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toEndWith(`\nhey upgrade: ${server.url}/older has hey 0.0.1, older than this hey ${pkg.version}; not replacing it (set HEY_VERSION=0.0.1 to downgrade)\n`);
    expectUnchanged();
    const pinned = await upgrade(`${server.url}/older`, [], { HEY_VERSION: "0.0.1" });
    expect(pinned.code).toBe(0);
    expect(versionOf(bin)).toStartWith("hey 0.0.1 (");
  });

  test("a bad argument or setting is a clear error", async () => {
    expect(await upgrade(`${server.url}/new`, ["--force"])).toMatchObject({ code: 2, stderr: 'hey upgrade: unknown argument "--force"\nusage: hey upgrade [--check]   (HEY_RELEASE_URL, HEY_VERSION: see README)\n' });
    expect(await upgrade("ftp://mirror/hey")).toMatchObject({ code: 1, stderr: 'hey upgrade: HEY_RELEASE_URL must be an http:// or https:// URL, got "ftp://mirror/hey"\n' });
    expectUnchanged();
  });
});
