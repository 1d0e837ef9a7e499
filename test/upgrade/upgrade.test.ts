// `hey upgrade [--check]` run as a user would, on a copy of dist/test-key/hey (dist/hey trusting the
// test release key), against release directories on a loopback server: it checks the signature of
// SHA256SUMS before it believes a checksum in it, replaces itself atomically when the published
// binary differs, and on every failure (unsigned or mis-signed checksums, a tampered archive, a
// broken download, a binary that does not run, an older release, plain http elsewhere) leaves the
// old binary in place and working. A tampered binary is never run, not even for its --version.
import { afterAll, beforeAll, beforeEach, describe, expect, test, setDefaultTimeout } from "bun:test";
import { copyFileSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { packAsset, sha256, writeRelease } from "../../scripts/pack.ts";
import { ensureTestKeyBinary, tempDir, TEST_KEY_BINARY } from "../helpers/e2e.ts";
import { signWithOtherKey, signWithTestKey } from "../helpers/release-key.ts";
import { serveRelease, type ReleaseServer } from "../helpers/release-server.ts";
import { hostTarget, assetName, builtName } from "../../src/upgrade/targets.ts";
import pkg from "../../package.json" with { type: "json" };

// each test runs the binary or a shell several times: seconds on a loaded 2-core machine
setDefaultTimeout(30_000);

const glibc = Boolean((process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header?.glibcVersionRuntime);
const target = hostTarget(process.platform, process.arch, glibc)!.id;
const asset = assetName(target);
const when = new Date("2027-01-01T00:00:00Z");
const script = (text: string) => new TextEncoder().encode(`#!/bin/sh\n${text}\n`);
const NEW_LINE = `hey 9.9.0 (feedfacefeed, built 2027-01-01, ${target})`;

let work: ReturnType<typeof tempDir>;
let server: ReleaseServer;
let heyBytes: Uint8Array;
/** a file the tampered binaries create when run: it must never exist */
let pwned: string;

/** A release directory `name` whose archive holds `binary`, signed with the test key unless `signed` is false. */
async function release(name: string, binary: Uint8Array, opts: { signed?: boolean; sums?: (text: string) => string } = {}): Promise<string> {
  const dir = join(work.path, "www", name);
  const text = writeRelease(dir, [packAsset(target, binary, when, 1)]);
  if (opts.sums) writeFileSync(join(dir, "SHA256SUMS"), opts.sums(text));
  if (opts.signed !== false) await signWithTestKey(dir);
  return `${server.url}/${name}`;
}

/**
 * What an attacker who can serve the release does: replace the archive with their own and rewrite
 * SHA256SUMS to match it, keeping (or dropping, or re-making with their own key) the signature.
 */
function tamper(from: string, to: string, sig: "keep" | "drop"): void {
  const src = join(work.path, "www", from);
  const evil = packAsset(target, script(`touch '${pwned}'; echo "${NEW_LINE}"`), when, 1);
  const dir = join(work.path, "www", to);
  writeRelease(dir, [evil]);
  if (sig === "keep") copyFileSync(join(src, "SHA256SUMS.sig"), join(dir, "SHA256SUMS.sig"));
}

beforeAll(async () => {
  work = tempDir("hey-upgrade-");
  pwned = join(work.path, "pwned");
  server = serveRelease(join(work.path, "www"));
  heyBytes = new Uint8Array(readFileSync(await ensureTestKeyBinary()));
  await release("new", script(`echo "${NEW_LINE}"`));
  await release("same", heyBytes);
  await release("bad-sum", script(`echo "${NEW_LINE}"`), { sums: (t) => t.replace(/^[0-9a-f]{8}(?=[0-9a-f]{56}  hey-[\w-]+\.)/m, "00000000") });
  await release("no-entry", script(`echo "${NEW_LINE}"`), { sums: () => `${"0".repeat(64)}  hey-plan9-mips.tar.gz\n` });
  await release("broken", script('echo "Illegal instruction" >&2; exit 132'));
  await release("older", script(`echo "hey 0.0.1 (0000000c0ffe, built 2020-01-01, ${target})"`));
  await release("unsigned", script(`echo "${NEW_LINE}"`), { signed: false });
  tamper("new", "tampered", "keep");
  tamper("new", "tampered-unsigned", "drop");
  tamper("new", "tampered-other-key", "drop");
  await signWithOtherKey(join(work.path, "www", "tampered-other-key"));
  // the archive is intact and listed, but its binary is not the one SHA256SUMS names
  await release("inner", script(`touch '${pwned}'; echo "${NEW_LINE}"`), { sums: (t) => t.replace(/^[0-9a-f]{64}(?=  hey-[\w-]+$)/m, "1".repeat(64)) });
  // big and incompressible, so the headers and a first part go out before the connection breaks
  const noise = new Uint8Array(4_000_000).map(() => Math.floor(Math.random() * 256));
  await release("cut", new Uint8Array([...script(`echo "${NEW_LINE}"; exit 0`), ...noise]));
  server.cutOff(`/cut/${asset}`);
  await release("stalled", script(`echo "${NEW_LINE}"`));
  server.stall("/stalled/SHA256SUMS", "start");
  await release("stalled-sig", script(`echo "${NEW_LINE}"`));
  server.stall("/stalled-sig/SHA256SUMS.sig", "start");
  await release("stalled-half", new Uint8Array([...script(`echo "${NEW_LINE}"; exit 0`), ...noise]));
  server.stall(`/stalled-half/${asset}`, "half");
  await release("slow", script(`echo "${NEW_LINE}"`));
  server.trickle(`/slow/${asset}`, 6, 150);
}, 240_000);
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
  copyFileSync(TEST_KEY_BINARY, bin);
});

async function upgrade(releaseUrl: string, args: string[] = [], extra: Record<string, string> = {}) {
  const proc = Bun.spawn([bin, "upgrade", ...args], {
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: work.path, HEY_RELEASE_URL: releaseUrl, ...extra },
    stdout: "pipe",
    stderr: "pipe",
    timeout: 20_000, // a hung upgrade fails its test instead of outliving it
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
  expect(existsSync(pwned)).toBe(false);
}

const requestsOf = async (f: () => Promise<unknown>) => {
  const before = server.requests.length;
  await f();
  return server.requests.slice(before);
};

describe("hey upgrade", () => {
  test("replaces itself when the signed release's binary differs: a new file renamed into place, 0755", async () => {
    const before = statSync(bin).ino;
    const old = ownLine();
    let run!: Awaited<ReturnType<typeof upgrade>>;
    const asked = await requestsOf(async () => (run = await upgrade(`${server.url}/new`)));
    expect(run).toMatchObject({ code: 0, stdout: `upgraded ${bin}: ${old} → ${NEW_LINE}\n` });
    expect(run.stderr).toBe(`downloading ${server.url}/new/${asset}\n`);
    expect(versionOf(bin)).toBe(NEW_LINE);
    expect(statSync(bin).ino).not.toBe(before);
    expect(statSync(bin).mode & 0o777).toBe(0o755);
    expect(readdirSync(join(bin, ".."))).toEqual(["hey"]);
    expect(asked).toEqual(["/new/SHA256SUMS", "/new/SHA256SUMS.sig", `/new/${asset}`]);
  });

  test("--check reads only SHA256SUMS and its signature, exits 100 for an update and changes nothing", async () => {
    let run!: Awaited<ReturnType<typeof upgrade>>;
    const asked = await requestsOf(async () => (run = await upgrade(`${server.url}/new`, ["--check"])));
    expect(run).toMatchObject({
      code: 100,
      stderr: "",
      stdout: `an update is available: ${server.url}/new has another build of hey for ${target} than this ${ownLine()}; run hey upgrade\n`,
    });
    expect(asked).toEqual(["/new/SHA256SUMS", "/new/SHA256SUMS.sig"]);
    expectUnchanged();
  });

  test("up to date when the signed SHA256SUMS lists this binary's own hash: exit 0, no archive downloaded", async () => {
    for (const args of [[], ["--check"]]) {
      let run!: Awaited<ReturnType<typeof upgrade>>;
      const asked = await requestsOf(async () => (run = await upgrade(`${server.url}/same`, args)));
      expect(run).toMatchObject({ code: 0, stderr: "", stdout: `${ownLine()} is up to date (${server.url}/same)\n` });
      expect(asked).toEqual(["/same/SHA256SUMS", "/same/SHA256SUMS.sig"]);
      expectUnchanged();
    }
  });

  test("refuses an unsigned release, and a tampered archive with a matching SHA256SUMS that is unsigned, signed with another key, or carries the old signature", async () => {
    const unsigned = (name: string) =>
      `hey upgrade: ${server.url}/${name} is not signed (no SHA256SUMS.sig), so the checksums in its SHA256SUMS prove nothing; nothing was changed (HEY_INSECURE=1 goes on without the signature, for a mirror you trust)\n`;
    for (const name of ["unsigned", "tampered-unsigned"]) {
      for (const args of [[], ["--check"]]) expect(await upgrade(`${server.url}/${name}`, args)).toMatchObject({ code: 1, stdout: "", stderr: unsigned(name) });
    }
    const other = await upgrade(`${server.url}/tampered-other-key`);
    expect(other.code).toBe(1);
    expect(other.stderr).toMatch(
      new RegExp(
        `^hey upgrade: ${server.url}/tampered-other-key/SHA256SUMS\\.sig is not a valid signature of its SHA256SUMS: it was made with another key \\(SHA256:[\\w+/]{43}\\), not hey's release key \\(SHA256:[\\w+/]{43}\\); nothing was changed`,
      ),
    );
    const kept = await upgrade(`${server.url}/tampered`);
    expect(kept).toMatchObject({
      code: 1,
      stderr: `hey upgrade: ${server.url}/tampered/SHA256SUMS.sig is not a valid signature of its SHA256SUMS: it does not match the file: the file or the signature was changed; nothing was changed (HEY_INSECURE=1 goes on without the signature, for a mirror you trust)\n`,
    });
    // none of them fetched the archive: the signature is checked first
    expect(server.requests.filter((r) => r.startsWith("/tampered") && r.endsWith(asset))).toEqual([]);
    expectUnchanged();
  });

  test("HEY_INSECURE=1 goes on with an unsigned release, warning", async () => {
    const run = await upgrade(`${server.url}/unsigned`, [], { HEY_INSECURE: "1" });
    expect(run.code).toBe(0);
    expect(run.stderr).toStartWith(
      `hey upgrade: warning: HEY_INSECURE=1: going on unverified: ${server.url}/unsigned is not signed (no SHA256SUMS.sig), so the checksums in its SHA256SUMS prove nothing\n`,
    );
    expect(versionOf(bin)).toBe(NEW_LINE);
  });

  test("plain http to anything but this machine is refused before anything is downloaded", async () => {
    // 0.0.0.0 is not a loopback address, yet Linux connects it to this machine: were the rule
    // missing, the download would reach the test server and be counted
    const url = `http://0.0.0.0:${new URL(server.url).port}/new`;
    const asked = await requestsOf(async () => {
      const run = await upgrade(url);
      expect(run).toMatchObject({
        code: 1,
        stderr: `hey upgrade: ${url} is plain http to another machine: anyone on the way can read and change what is downloaded; use https (HEY_INSECURE=1 allows it)\n`,
      });
    });
    expect(asked).toEqual([]);
    expectUnchanged();
    const allowed = await upgrade(url, ["--check"], { HEY_INSECURE: "1" });
    expect(allowed).toMatchObject({
      code: 100,
      stderr: `hey upgrade: warning: HEY_INSECURE=1: downloading over plain http from 0.0.0.0:${new URL(server.url).port}\n`,
    });
  });

  test("refuses an archive whose checksum does not match SHA256SUMS", async () => {
    const run = await upgrade(`${server.url}/bad-sum`);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      new RegExp(
        `hey upgrade: checksum mismatch for ${asset.replaceAll(".", "\\.")}: SHA256SUMS says 00000000[0-9a-f]{56}, the download is [0-9a-f]{64}; nothing was changed\n$`,
      ),
    );
    expectUnchanged();
  });

  test("refuses an archive whose binary is not the one SHA256SUMS lists, without running it", async () => {
    const run = await upgrade(`${server.url}/inner`);
    expect(run).toMatchObject({
      code: 1,
      stderr: `downloading ${server.url}/inner/${asset}\nhey upgrade: the hey in ${asset} is not the ${builtName(target)} that SHA256SUMS lists; nothing was changed\n`,
    });
    expectUnchanged();
  });

  test("refuses a SHA256SUMS without this platform", async () => {
    const run = await upgrade(`${server.url}/no-entry`);
    expect(run).toMatchObject({
      code: 1,
      stderr: `hey upgrade: ${server.url}/no-entry/SHA256SUMS lists no ${builtName(target)} (the checksum of the binary itself); nothing was changed\n`,
    });
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
    expect(missing).toMatchObject({
      code: 1,
      stderr: `hey upgrade: could not download ${server.url}/v7.7.7/SHA256SUMS: HTTP 404 (is there a release 7.7.7?); nothing was changed\n`,
    });
    const cut = await upgrade(`${server.url}/cut`);
    expect(cut.code).toBe(1);
    expect(cut.stderr).toMatch(/hey upgrade: the download of .*\/cut\/hey-[\w-]+\.tar\.gz (broke off after|ended after) [\d.]+ MB.*; nothing was changed\n$/);
    const down = await upgrade("http://127.0.0.1:9/none");
    expect(down.code).toBe(1);
    expect(down.stderr).toStartWith("hey upgrade: could not download http://127.0.0.1:9/none/SHA256SUMS: ");
    expectUnchanged();
  });

  test("a server that goes silent fails the upgrade after HEY_UPGRADE_TIMEOUT_MS, naming the URL; nothing is changed", async () => {
    const quick = { HEY_UPGRADE_TIMEOUT_MS: "500" };
    expect(await upgrade(`${server.url}/stalled`, ["--check"], quick)).toMatchObject({
      code: 1,
      stdout: "",
      stderr: `hey upgrade: could not download ${server.url}/stalled/SHA256SUMS: no answer in 0.5 s; nothing was changed\n`,
    });
    expect(await upgrade(`${server.url}/stalled-sig`, [], quick)).toMatchObject({
      code: 1,
      stderr: `hey upgrade: could not download ${server.url}/stalled-sig/SHA256SUMS.sig: no answer in 0.5 s; nothing was changed\n`,
    });
    const half = await upgrade(`${server.url}/stalled-half`, [], quick);
    expect(half.code).toBe(1);
    expect(half.stderr).toMatch(
      /hey upgrade: the download of .*\/stalled-half\/hey-[\w-]+\.tar\.gz stalled after [\d.]+ MB: no answer in 0\.5 s; nothing was changed\n$/,
    );
    expectUnchanged();
  });

  test("an archive that keeps arriving is not cut off, however long it takes in all", async () => {
    // six parts with pauses shorter than the timeout: longer in all than the timeout
    const run = await upgrade(`${server.url}/slow`, [], { HEY_UPGRADE_TIMEOUT_MS: "600" });
    expect(run).toMatchObject({ code: 0, stderr: `downloading ${server.url}/slow/${asset}\n` });
    expect(versionOf(bin)).toBe(NEW_LINE);
  });

  test("does not go back to an older release unless HEY_VERSION asks for it", async () => {
    const refused = await upgrade(`${server.url}/older`);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toEndWith(
      `\nhey upgrade: ${server.url}/older has hey 0.0.1, older than this hey ${pkg.version}; not replacing it (set HEY_VERSION=0.0.1 to downgrade)\n`,
    );
    expectUnchanged();
    const pinned = await upgrade(`${server.url}/older`, [], { HEY_VERSION: "0.0.1" });
    expect(pinned.code).toBe(0);
    expect(versionOf(bin)).toStartWith("hey 0.0.1 (");
  });

  test("a bad argument or setting is a clear error", async () => {
    expect(await upgrade(`${server.url}/new`, ["--force"])).toMatchObject({
      code: 2,
      stderr:
        'hey upgrade: unknown argument "--force"\nusage: hey upgrade [--check]   (--check exits 0 when up to date, 100 when an update is available;\n                               HEY_RELEASE_URL, HEY_VERSION, HEY_INSECURE: see README)\n',
    });
    expect(await upgrade(`${server.url}/new`, [], { HEY_UPGRADE_TIMEOUT_MS: "soon" })).toMatchObject({
      code: 1,
      stderr: 'hey upgrade: HEY_UPGRADE_TIMEOUT_MS must be a whole number of milliseconds from 1 to 3600000, got "soon"\n',
    });
    expect(await upgrade("ftp://mirror/hey")).toMatchObject({
      code: 1,
      stderr: 'hey upgrade: HEY_RELEASE_URL must be an http:// or https:// URL, got "ftp://mirror/hey"\n',
    });
    expectUnchanged();
  });
});

test("dist/hey itself trusts only the production key: the test-signed release is refused", async () => {
  copyFileSync(join(import.meta.dir, "..", "..", "dist", "hey"), bin);
  const run = await upgrade(`${server.url}/new`, ["--check"]);
  expect(run.code).toBe(1);
  expect(run.stderr).toContain("is not a valid signature of its SHA256SUMS: it was made with another key");
});
