// `hey upgrade [--check]` (SPEC §20, §24): the release for this binary's target is downloaded
// from the release directory (release.ts: GitHub, or HEY_RELEASE_URL / HEY_VERSION), checked
// against SHA256SUMS, unpacked, and — when the binary in it differs from the running one — run
// once with --version and renamed over the running binary. Until that rename nothing the user
// has is touched, and the rename is atomic: on any failure the old hey is still there and works.
// There is no manifest: "is there something new" is "does the published binary differ from me".
import { chmod, open, realpath, rename, unlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { isTty, writer } from "../ui/term.ts";
import { ArchiveError, readTarGz, readZip } from "./archive.ts";
import { BUILD, parseVersionLine, versionLine } from "./build-info.ts";
import { compareVersions, parseSums, ReleaseError, releaseUrl } from "./release.ts";
import { assetName, binaryName, hostTarget, isWindows, TARGETS, type Target } from "./targets.ts";

const USAGE = "usage: hey upgrade [--check]   (HEY_RELEASE_URL, HEY_VERSION: see README)\n";
const DOWNLOAD_TIMEOUT_MS = 10 * 60_000; // a 50 MB archive over a slow link, not a hung server forever
const VERSION_TIMEOUT_MS = 15_000; // a first run of a 100 MB binary from a cold disk
const PROGRESS_EVERY_MS = 100; // redraws of the progress line, so a fast link does not flood the terminal

/** A reason the upgrade stopped; the message is complete and says that nothing was changed when so. */
class UpgradeError extends Error {
  override name = "UpgradeError";
}

const fail = (message: string): never => {
  throw new UpgradeError(message);
};

/** Runs the subcommand; the exit code: 0 done (or nothing to do), 1 failed, 2 bad arguments. */
export async function upgradeCommand(argv: string[]): Promise<number> {
  const out = writer(1);
  const err = writer(2);
  let check = false;
  for (const arg of argv) {
    if (arg === "--check") check = true;
    else if (arg === "-h" || arg === "--help") {
      out.write(USAGE);
      return 0;
    } else {
      err.write(`hey upgrade: unknown argument ${JSON.stringify(arg)}\n${USAGE}`);
      return 2;
    }
  }
  try {
    out.write(await upgrade(check, process.env));
    return 0;
  } catch (e) {
    if (!(e instanceof UpgradeError || e instanceof ReleaseError || e instanceof ArchiveError)) throw e;
    err.write(`hey upgrade: ${e.message}\n`);
    return 1;
  }
}

/** Does the upgrade (or, with `check`, only finds out); returns what to tell the user. */
async function upgrade(check: boolean, env: Record<string, string | undefined>): Promise<string> {
  if (!Bun.isStandaloneExecutable) fail("this hey runs from source (bun src/main.ts): pull and rebuild it instead");
  const self = await realpath(process.execPath);
  if (/[\\/]Cellar[\\/]hey[\\/]/.test(self)) fail(`${self} was installed by Homebrew: run brew upgrade hey`);
  const target = thisTarget() ?? fail(`no release of hey is built for ${process.platform}-${process.arch}`);
  const dir = releaseUrl({ releaseUrl: env.HEY_RELEASE_URL, version: env.HEY_VERSION });
  const asset = assetName(target.id);

  const sums = parseSums(new TextDecoder().decode(await download(`${dir}/SHA256SUMS`, false, env)));
  const expected = sums.get(asset) ?? fail(`${dir}/SHA256SUMS lists no ${asset}`);
  const archive = await download(`${dir}/${asset}`, true, env);
  const actual = sha256(archive);
  if (actual !== expected) fail(`checksum mismatch for ${asset}: SHA256SUMS says ${expected}, the download is ${actual}; nothing was changed`);
  const name = binaryName(target.id);
  const entries = isWindows(target.id) ? readZip(archive) : readTarGz(archive);
  const binary = entries.find((e) => e.name === name)?.data ?? fail(`${asset} holds no ${name}; nothing was changed`);
  if (sha256(binary) === sha256(await Bun.file(self).bytes())) return `${versionLine()} is up to date (${dir})\n`;

  const candidate = await stage(binary, dirname(self), check, target);
  try {
    const line = await versionOf(candidate);
    const version = parseVersionLine(line) ?? fail(`the downloaded hey printed ${JSON.stringify(line.slice(0, 200))} for --version; nothing was changed`);
    const older = compareVersions(version, BUILD.version) < 0;
    if (check) return older ? `${dir} has hey ${version}, older than this ${versionLine()}\n` : `${line} is available (this is ${versionLine()}): run hey upgrade\n`;
    if (older && !env.HEY_VERSION) fail(`${dir} has hey ${version}, older than this hey ${BUILD.version}; not replacing it (set HEY_VERSION=${version} to downgrade)`);
    await replace(candidate, self);
    return `upgraded ${self}: ${versionLine()} → ${line}\n`;
  } finally {
    await unlink(candidate).catch(() => {});
  }
}

/** The target this binary was built for, else the one of this machine. */
function thisTarget(): Target | undefined {
  if (BUILD.target) return TARGETS.find((t) => t.id === BUILD.target);
  const report = (process.report?.getReport() ?? {}) as { header?: { glibcVersionRuntime?: string } };
  return hostTarget(process.platform, process.arch, Boolean(report.header?.glibcVersionRuntime));
}

/** The body of `url`, with a progress line on a terminal for `large` files. */
async function download(url: string, large: boolean, env: Record<string, string | undefined>): Promise<Uint8Array> {
  const err = writer(2);
  let res: Response;
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS) });
  } catch (e) {
    return fail(`could not download ${url}: ${(e as Error).message}; nothing was changed`);
  }
  if (!res.ok || !res.body) {
    const hint = res.status === 404 && env.HEY_VERSION ? ` (is there a release ${env.HEY_VERSION}?)` : "";
    return fail(`could not download ${url}: HTTP ${res.status}${hint}; nothing was changed`);
  }
  const total = Number(res.headers.get("content-length")) || 0;
  const tty = large && isTty(2);
  const file = url.slice(url.lastIndexOf("/") + 1);
  if (large && !tty) err.write(`downloading ${url}\n`);
  const chunks: Uint8Array[] = [];
  let got = 0;
  let drawn = 0;
  try {
    for await (const chunk of res.body) {
      chunks.push(chunk);
      got += chunk.length;
      if (tty && performance.now() - drawn > PROGRESS_EVERY_MS) {
        drawn = performance.now();
        err.write(`\r\x1b[Kdownloading ${file}  ${progress(got, total)}`);
      }
    }
  } catch (e) {
    if (tty) err.write("\n");
    return fail(`the download of ${url} broke off after ${mb(got)}: ${(e as Error).message}; nothing was changed`);
  }
  if (total && got !== total) fail(`the download of ${url} ended after ${mb(got)} of ${mb(total)}; nothing was changed`);
  if (tty) err.write(`\r\x1b[Kdownloaded ${file}  ${mb(got)}\n`);
  return Buffer.concat(chunks);
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
const progress = (got: number, total: number) => (total ? `${mb(got)} / ${mb(total)}  ${Math.floor((got / total) * 100)} %` : mb(got));

/**
 * Writes the new binary next to the old one (a rename is atomic only within one filesystem),
 * executable. A --check that may not write there uses the temp dir: it only runs the file.
 */
async function stage(binary: Uint8Array, dir: string, check: boolean, target: Target): Promise<string> {
  const name = `.hey-upgrade-${process.pid}-${crypto.randomUUID().slice(0, 8)}${isWindows(target.id) ? ".exe" : ""}`;
  try {
    return await writeExecutable(join(dir, name), binary);
  } catch (e) {
    if (check) return writeExecutable(join(tmpdir(), name), binary);
    const code = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
    return fail(`cannot write to ${dir} (${code}): run hey upgrade as the user who installed hey, or reinstall with install.sh; nothing was changed`);
  }
}

async function writeExecutable(path: string, bytes: Uint8Array): Promise<string> {
  const handle = await open(path, "wx", 0o755);
  try {
    await handle.writeFile(bytes);
    await handle.sync(); // a power cut after the rename must not leave an empty hey
  } catch (e) {
    await handle.close();
    await unlink(path).catch(() => {});
    throw e;
  }
  await handle.close();
  await chmod(path, 0o755);
  return path;
}

/** The first line `candidate --version` prints; an UpgradeError when it does not run. */
async function versionOf(candidate: string): Promise<string> {
  const broken = (why: string) => fail(`the downloaded hey does not run here (${why}); nothing was changed`);
  try {
    const proc = Bun.spawn([candidate, "--version"], { stdin: "ignore", stdout: "pipe", stderr: "pipe", timeout: VERSION_TIMEOUT_MS });
    const [stdout, stderr, code] = await Promise.all([proc.stdout.text(), proc.stderr.text(), proc.exited]);
    if (code !== 0) broken(`exit ${code}${stderr.trim() ? `: ${stderr.trim().slice(0, 200)}` : ""}`);
    return stdout.trim().split("\n")[0] ?? "";
  } catch (e) {
    if (e instanceof UpgradeError) throw e;
    return broken((e as Error).message);
  }
}

/**
 * Puts `candidate` where `self` is. POSIX renames over a running binary (the running process keeps
 * the old inode). Windows cannot replace a running .exe but can rename it: the old one moves
 * aside to `hey.exe.old` (removed by the next upgrade) and comes back if the second rename fails.
 */
async function replace(candidate: string, self: string): Promise<void> {
  const denied = (e: unknown) => fail(`cannot replace ${self}: ${(e as Error).message}; nothing was changed`);
  if (process.platform !== "win32") return rename(candidate, self).catch(denied);
  const aside = `${self}.old`;
  await unlink(aside).catch(() => {});
  await rename(self, aside).catch(denied);
  try {
    await rename(candidate, self);
  } catch (e) {
    await rename(aside, self).catch(() => {});
    denied(e);
  }
}

const sha256 = (bytes: Uint8Array) => new Bun.CryptoHasher("sha256").update(bytes).digest("hex");
