// `hey upgrade [--check]` (SPEC §20, §24, issue 29): SHA256SUMS and its signature are downloaded
// from the release directory (release.ts: GitHub, or HEY_RELEASE_URL / HEY_VERSION) and the
// signature is checked against the release key built into hey (release-key.ts, signature.ts)
// before any checksum in it is believed. SHA256SUMS lists this target's binary as well as its
// archive: when that line is this binary's own hash there is nothing to do, and --check stops
// there either way, having downloaded two small files. Otherwise the archive is downloaded,
// checked, unpacked, its binary checked against its own line, run once with --version and renamed
// over the running binary. Until that rename nothing the user has is touched, and the rename is
// atomic: on any failure the old hey is still there and works.
import { upgradeFetch } from "./net.ts";
import { NetConfigError } from "../net/proxy.ts";
import { chmod, open, readFile, realpath, rename, unlink } from "node:fs/promises";
import { dirname, join } from "node:path";
import { canDraw, writer } from "../ui/term.ts";
import { ArchiveError, readTarGz, readZip } from "./archive.ts";
import { BUILD, parseVersionLine, versionLine } from "./build-info.ts";
import { RELEASE_KEY } from "./release-key.ts";
import { checkTransport, compareVersions, parseSums, ReleaseError, releaseUrl, SIGNATURE_FILE, SUMS_FILE } from "./release.ts";
import { parsePublicKey, SignatureError, verifySignature } from "./signature.ts";
import { assetName, binaryName, builtName, hostTarget, isWindows, TARGETS, type Target } from "./targets.ts";
import { errnoCode, errorText } from "../kernel/errors.ts";

const USAGE =
  "usage: hey upgrade [--check]   (--check exits 0 when up to date, 100 when an update is available;\n                               HEY_RELEASE_URL, HEY_VERSION, HEY_INSECURE: see README)\n";
/** `--check`'s exit code when the release differs from this binary, as `dnf check-update` (0: none, 1: error). */
export const UPDATE_AVAILABLE = 100;
// A server that sends nothing this long has stalled; a slow link still sends something, so a
// 50 MB archive that keeps moving is never cut. HEY_UPGRADE_TIMEOUT_MS changes it (tests, a bad link).
const IDLE_TIMEOUT_MS = 30_000;
const VERSION_TIMEOUT_MS = 15_000; // a first run of a 100 MB binary from a cold disk
const PROGRESS_EVERY_MS = 100; // redraws of the progress line, so a fast link does not flood the terminal

/** A reason the upgrade stopped; the message is complete and says that nothing was changed when so. */
class UpgradeError extends Error {
  override name = "UpgradeError";
}

const fail = (message: string): never => {
  throw new UpgradeError(message);
};

const warn = (message: string | undefined) => void (message && writer(2).write(`hey upgrade: warning: ${message}\n`));

/**
 * Runs the subcommand; the exit code: 0 done (or nothing to do), 1 failed, 2 bad arguments, and
 * with --check 0 up to date, 100 an update is available.
 */
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
    const { text, code } = await upgrade(check, process.env);
    out.write(text);
    return code;
  } catch (e) {
    if (!(e instanceof UpgradeError || e instanceof ReleaseError || e instanceof ArchiveError || e instanceof NetConfigError)) throw e;
    err.write(`hey upgrade: ${e.message}\n`);
    return 1;
  }
}

/** Does the upgrade (or, with `check`, only finds out); returns what to tell the user and the exit code. */
async function upgrade(check: boolean, env: Record<string, string | undefined>): Promise<{ text: string; code: number }> {
  if (!Bun.isStandaloneExecutable) fail("this hey runs from source (bun src/main.ts): pull and rebuild it instead");
  const self = await realpath(process.execPath);
  if (/[\\/]Cellar[\\/]hey[\\/]/.test(self)) fail(`${self} was installed by Homebrew: run brew upgrade hey`);
  const target = thisTarget() ?? fail(`no release of hey is built for ${process.platform}-${process.arch}`);
  const insecure = env.HEY_INSECURE === "1";
  const idleMs = idleTimeout(env.HEY_UPGRADE_TIMEOUT_MS);
  const dir = releaseUrl({ releaseUrl: env.HEY_RELEASE_URL, version: env.HEY_VERSION });
  warn(checkTransport(dir, insecure));

  const net = { env, insecure, idleMs, fetch: upgradeFetch(env, warn) };
  const sumsBytes = (await download(`${dir}/${SUMS_FILE}`, net))!;
  await checkSignature(dir, sumsBytes, net);
  const sums = parseSums(new TextDecoder().decode(sumsBytes));
  const built = builtName(target.id);
  const expectedBinary = sums.get(built) ?? fail(`${dir}/${SUMS_FILE} lists no ${built} (the checksum of the binary itself); nothing was changed`);
  if (expectedBinary === sha256(await readFile(self))) return { text: `${versionLine()} is up to date (${dir})\n`, code: 0 };
  if (check)
    return {
      text: `an update is available: ${dir} has another build of hey for ${target.id} than this ${versionLine()}; run hey upgrade\n`,
      code: UPDATE_AVAILABLE,
    };

  const asset = assetName(target.id);
  const expected = sums.get(asset) ?? fail(`${dir}/${SUMS_FILE} lists no ${asset}; nothing was changed`);
  const archive = (await download(`${dir}/${asset}`, { ...net, large: true }))!;
  const actual = sha256(archive);
  if (actual !== expected) fail(`checksum mismatch for ${asset}: ${SUMS_FILE} says ${expected}, the download is ${actual}; nothing was changed`);
  const name = binaryName(target.id);
  const entries = isWindows(target.id) ? readZip(archive) : readTarGz(archive);
  const binary = entries.find((e) => e.name === name)?.data ?? fail(`${asset} holds no ${name}; nothing was changed`);
  if (sha256(binary) !== expectedBinary) fail(`the ${name} in ${asset} is not the ${built} that ${SUMS_FILE} lists; nothing was changed`);

  const candidate = await stage(binary, dirname(self), target);
  try {
    const line = await versionOf(candidate);
    const version = parseVersionLine(line) ?? fail(`the downloaded hey printed ${JSON.stringify(line.slice(0, 200))} for --version; nothing was changed`);
    if (compareVersions(version, BUILD.version) < 0 && !env.HEY_VERSION)
      fail(`${dir} has hey ${version}, older than this hey ${BUILD.version}; not replacing it (set HEY_VERSION=${version} to downgrade)`);
    await replace(candidate, self);
    return { text: `upgraded ${self}: ${versionLine()} → ${line}\n`, code: 0 };
  } finally {
    await unlink(candidate).catch(() => {});
  }
}

/**
 * Believes `sums` only when SHA256SUMS.sig is the release key's signature of it. A release without
 * one (404), or with a signature that does not verify, is refused — or, with HEY_INSECURE=1, used
 * with a warning.
 */
async function checkSignature(dir: string, sums: Uint8Array, net: DownloadOptions): Promise<void> {
  const { insecure } = net;
  const sig = await download(`${dir}/${SIGNATURE_FILE}`, { ...net, missingOk: true });
  let problem: string;
  if (sig === undefined) problem = `${dir} is not signed (no ${SIGNATURE_FILE}), so the checksums in its ${SUMS_FILE} prove nothing`;
  else {
    try {
      await verifySignature(sums, new TextDecoder().decode(sig), parsePublicKey(RELEASE_KEY));
      return;
    } catch (e) {
      if (!(e instanceof SignatureError)) throw e;
      problem = `${dir}/${SIGNATURE_FILE} is not a valid signature of its ${SUMS_FILE}: ${e.message}`;
    }
  }
  if (!insecure) fail(`${problem}; nothing was changed (HEY_INSECURE=1 goes on without the signature, for a mirror you trust)`);
  warn(`HEY_INSECURE=1: going on unverified: ${problem}`);
}

/** The target this binary was built for, else the one of this machine. */
function thisTarget(): Target | undefined {
  if (BUILD.target) return TARGETS.find((t) => t.id === BUILD.target);
  const report = (process.report?.getReport() ?? {}) as { header?: { glibcVersionRuntime?: string } };
  return hostTarget(process.platform, process.arch, Boolean(report.header?.glibcVersionRuntime));
}

/** HEY_UPGRADE_TIMEOUT_MS, else IDLE_TIMEOUT_MS; a ReleaseError-like failure when it is not a positive whole number. */
function idleTimeout(text: string | undefined): number {
  if (text === undefined || text === "") return IDLE_TIMEOUT_MS;
  const ms = Number(text);
  if (!/^\d+$/.test(text) || ms < 1 || ms > 3_600_000)
    fail(`HEY_UPGRADE_TIMEOUT_MS must be a whole number of milliseconds from 1 to 3600000, got ${JSON.stringify(text)}`);
  return ms;
}

interface DownloadOptions {
  env: Record<string, string | undefined>;
  /** the run's fetch: its proxy and CAs (net.ts upgradeFetch) */
  fetch: typeof fetch;
  insecure: boolean;
  /** the download fails when nothing arrives for this long (before the answer, or between two parts of the body) */
  idleMs: number;
  /** a progress line on a terminal (else one "downloading" line) */
  large?: boolean;
  /** a 404 answers undefined instead of failing */
  missingOk?: boolean;
}

/** An abort signal that fires once nothing has happened for `ms`; `touch` restarts the wait. */
function idleSignal(ms: number): { signal: AbortSignal; touch(): void; stop(): void } {
  const stalled = new AbortController();
  const timer = setTimeout(() => stalled.abort(), ms);
  return {
    signal: stalled.signal,
    touch: () => timer.refresh(),
    stop: () => clearTimeout(timer),
  };
}

/** The body of `url` (undefined: a 404 with `missingOk`); an UpgradeError on any other failure. */
async function download(url: string, opts: DownloadOptions): Promise<Uint8Array | undefined> {
  // an idle timeout, not a total one: every part of the body that arrives restarts it
  const idle = idleSignal(opts.idleMs);
  const quiet = `no answer in ${opts.idleMs / 1000} s`;
  try {
    let res: Response;
    try {
      res = await opts.fetch(url, { signal: idle.signal });
    } catch (e) {
      return fail(`could not download ${url}: ${idle.signal.aborted ? quiet : errorText(e)}; nothing was changed`);
    }
    return await readBody(url, res, opts, idle, quiet);
  } finally {
    idle.stop();
  }
}

async function readBody(
  url: string,
  res: Response,
  opts: DownloadOptions,
  idle: ReturnType<typeof idleSignal>,
  quiet: string,
): Promise<Uint8Array | undefined> {
  const err = writer(2);
  // a redirect may lead elsewhere: the same rule for where it ended
  if (res.redirected) warn(checkTransport(res.url, opts.insecure));
  if (res.status === 404 && opts.missingOk) return undefined;
  if (!res.ok || !res.body) {
    const hint = res.status === 404 && opts.env.HEY_VERSION ? ` (is there a release ${opts.env.HEY_VERSION}?)` : "";
    return fail(`could not download ${url}: HTTP ${res.status}${hint}; nothing was changed`);
  }
  const total = Number(res.headers.get("content-length")) || 0;
  const tty = opts.large && canDraw(2, opts.env);
  const file = url.slice(url.lastIndexOf("/") + 1);
  if (opts.large && !tty) err.write(`downloading ${url}\n`);
  const chunks: Uint8Array[] = [];
  let got = 0;
  let drawn = 0;
  try {
    for await (const chunk of res.body) {
      idle.touch();
      chunks.push(chunk);
      got += chunk.length;
      if (tty && performance.now() - drawn > PROGRESS_EVERY_MS) {
        drawn = performance.now();
        err.write(`\r\x1b[Kdownloading ${file}  ${progress(got, total)}`);
      }
    }
  } catch (e) {
    if (tty) err.write("\n");
    if (idle.signal.aborted) return fail(`the download of ${url} stalled after ${mb(got)}: ${quiet}; nothing was changed`);
    return fail(`the download of ${url} broke off after ${mb(got)}: ${errorText(e)}; nothing was changed`);
  }
  if (total && got !== total) fail(`the download of ${url} ended after ${mb(got)} of ${mb(total)}; nothing was changed`);
  if (tty) err.write(`\r\x1b[Kdownloaded ${file}  ${mb(got)}\n`);
  return Buffer.concat(chunks);
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
const progress = (got: number, total: number) => (total ? `${mb(got)} / ${mb(total)}  ${Math.floor((got / total) * 100)} %` : mb(got));

/** Writes the new binary next to the old one (a rename is atomic only within one filesystem), executable. */
async function stage(binary: Uint8Array, dir: string, target: Target): Promise<string> {
  const name = `.hey-upgrade-${process.pid}-${crypto.randomUUID().slice(0, 8)}${isWindows(target.id) ? ".exe" : ""}`;
  try {
    return await writeExecutable(join(dir, name), binary);
  } catch (e) {
    const code = errnoCode(e) ?? errorText(e);
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
    return broken(errorText(e));
  }
}

/**
 * Puts `candidate` where `self` is. POSIX renames over a running binary (the running process keeps
 * the old inode). Windows cannot replace a running .exe but can rename it: the old one moves
 * aside to `hey.exe.old` (removed by the next upgrade) and comes back if the second rename fails.
 */
async function replace(candidate: string, self: string): Promise<void> {
  const denied = (e: unknown) => fail(`cannot replace ${self}: ${errorText(e)}; nothing was changed`);
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
