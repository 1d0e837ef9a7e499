// bun run build        → dist/hey for this machine, with this machine's ripgrep inside when npm
//                        installed it (no download: the tests build this)
// bun run build --all  → every release target (SPEC §20): dist/hey-<target>[.exe] and
//                        dist/release/hey-<target>.tar.gz (.zip for Windows) + SHA256SUMS
//
// --splitting keeps each SDK in its own chunk, loaded by import() only when its protocol is used;
// --bytecode needs --format=esm for top-level await (oven-sh/bun#40968); the two
// --no-compile-autoload flags stop a repository's .env/bunfig.toml from reaching the binary
// (a .env with OPENAI_BASE_URL could otherwise redirect the user's key). See notes/sdk-facts.md §5.
// --asset puts the target's ripgrep in the binary (src/tools/ripgrep.ts extracts it); --define
// gives `hey --version` its commit, date and target (src/upgrade/build-info.ts), and ripgrep.ts the
// embedded ripgrep's SHA-256 (HEY_RG_SHA256).
// --compile-jit-policy=16 makes JavaScriptCore 16 times more reluctant to JIT-compile
// (Bun.unsafe.setJITPolicy): a run is mostly code that runs once, and compiling it was ~4.5 MB of the
// short task's peak RSS (SPEC §22), while hot code still compiles (a 500-turn session took no longer).
// The REPL returns to the normal policy once it waits for the user (src/interactive.ts).
// --bytecode-order lays the bytecode out by packaging/bytecode-order.txt (scripts/bytecode-order.ts
// records it): what a one-shot run uses lies together, and the short task touched ~3 MB fewer
// pages of the binary. A profile recorded from older code still applies; changed functions lose it.
// SOURCE_DATE_EPOCH (seconds) fixes the build date, as reproducible-build tools expect.
// The tests build a binary that trusts the test release key (`releaseKey`, defined as
// HEY_RELEASE_KEY: src/upgrade/release-key.ts); every other build trusts the production key.
import { existsSync, mkdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { builtName, hostTarget, ripgrepName, TARGETS, type Target } from "../src/upgrade/targets.ts";
import { packAsset, writeRelease, type Asset } from "./pack.ts";
import { ripgrepBinary } from "./ripgrep-packages.ts";

const ROOT = join(import.meta.dir, "..");
const DIST = join(ROOT, "dist");
/** The bytecode layout profile (scripts/bytecode-order.ts); a build without it works, laid out as it comes. */
export const BYTECODE_ORDER = join(ROOT, "packaging", "bytecode-order.txt");
const FLAGS = [
  "--compile",
  "--minify",
  "--bytecode",
  "--format=esm",
  "--splitting",
  "--sourcemap",
  "--no-compile-autoload-dotenv",
  "--no-compile-autoload-bunfig",
  "--compile-jit-policy=16",
];

/** Builds dist/hey (or `outfile`) for this machine; `releaseKey` replaces the key it trusts (tests only). */
export async function build(outfile = join(DIST, "hey"), opts: { releaseKey?: string } = {}): Promise<void> {
  const report = (process.report?.getReport() ?? {}) as { header?: { glibcVersionRuntime?: string } };
  const host = hostTarget(process.platform, process.arch, Boolean(report.header?.glibcVersionRuntime));
  const rg = host && (await ripgrepBinary(host.ripgrep, { fetch: false }));
  if (!rg) console.warn(`note: no @vscode/ripgrep package for ${process.platform}-${process.arch} in node_modules: dist/hey has no ripgrep inside`);
  const stage = opts.releaseKey ? "host-test-key" : "host";
  await compile({
    outfile,
    stage,
    targetId: host?.id,
    rg: rg && { name: ripgrepName(host.id), bytes: rg },
    info: await buildInfo(),
    releaseKey: opts.releaseKey,
  });
}

interface CompileJob {
  outfile: string;
  /** names the stage dir: "host", or the target (several builds may run at once) */
  stage: string;
  /** the release target; undefined: this machine, which hey has no release for */
  targetId?: string;
  /** `--target` for a cross-compile; undefined: this machine */
  bunTarget?: string;
  rg?: { name: string; bytes: Uint8Array };
  info: { commit: string; date: Date };
  /** an OpenSSH public key line to trust instead of the production release key (tests) */
  releaseKey?: string;
}

/**
 * One `bun build --compile`, in a stage dir of its own (the per-chunk .map files and the staged
 * ripgrep stay there and are removed), then the binary is moved to `outfile`.
 */
async function compile(job: CompileJob): Promise<void> {
  const stage = join(DIST, `.stage-${job.stage}`);
  rmSync(stage, { recursive: true, force: true });
  mkdirSync(stage, { recursive: true });
  try {
    const defines = {
      HEY_COMMIT: job.info.commit,
      HEY_BUILD_DATE: job.info.date.toISOString().slice(0, 10),
      ...(job.targetId ? { HEY_TARGET: job.targetId } : {}),
      ...(job.releaseKey ? { HEY_RELEASE_KEY: job.releaseKey } : {}),
      ...(job.rg ? { HEY_RG_SHA256: new Bun.CryptoHasher("sha256").update(job.rg.bytes).digest("hex") } : {}),
    };
    const cmd = [process.execPath, "build", ...FLAGS, ...(job.bunTarget ? [`--target=${job.bunTarget}`] : [])];
    if (existsSync(BYTECODE_ORDER)) cmd.push(`--bytecode-order=${BYTECODE_ORDER}`);
    for (const [name, value] of Object.entries(defines)) cmd.push("--define", `${name}=${JSON.stringify(value)}`);
    if (job.rg) {
      writeFileSync(join(stage, job.rg.name), job.rg.bytes, { mode: 0o755 });
      cmd.push("--asset", join(stage, job.rg.name));
    }
    cmd.push(join(ROOT, "src", "main.ts"), "--outfile", join(stage, "hey"));
    const proc = Bun.spawn(cmd, { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
    const [out, err, code] = await Promise.all([proc.stdout.text(), proc.stderr.text(), proc.exited]);
    if (code !== 0) throw new Error(`bun build failed (exit ${code}):\n${out}${err}`);
    const built = [join(stage, "hey.exe"), join(stage, "hey")].find((p) => existsSync(p))!;
    rmSync(job.outfile, { force: true });
    renameSync(built, job.outfile);
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

/** The short commit (`-dirty` with uncommitted changes to tracked files) and the build date. */
export async function buildInfo(): Promise<CompileJob["info"]> {
  const git = async (...args: string[]) => {
    const proc = Bun.spawn(["git", ...args], { cwd: ROOT, stdout: "pipe", stderr: "ignore" });
    const [out, code] = await Promise.all([proc.stdout.text(), proc.exited]);
    return code === 0 ? out.trim() : undefined;
  };
  const hash = await git("rev-parse", "--short=12", "HEAD").catch(() => undefined);
  const dirty = hash && (await git("status", "--porcelain", "--untracked-files=no"));
  const epoch = Number(process.env.SOURCE_DATE_EPOCH);
  return { commit: hash ? hash + (dirty ? "-dirty" : "") : "unknown", date: Number.isFinite(epoch) && epoch > 0 ? new Date(epoch * 1000) : new Date() };
}

/** Builds and packs every target into dist/release/; returns the assets. */
export async function buildAll(): Promise<Asset[]> {
  const info = await buildInfo();
  const release = join(DIST, "release");
  rmSync(release, { recursive: true, force: true });
  const assets: Asset[] = [];
  for (const target of TARGETS) {
    const started = performance.now();
    const outfile = join(DIST, builtName(target.id));
    await compileTarget(target, outfile, info);
    const asset = packAsset(target.id, new Uint8Array(await Bun.file(outfile).arrayBuffer()), info.date);
    assets.push(asset);
    console.log(
      `${target.id.padEnd(15)} ${mb(statSync(outfile).size)} binary, ${mb(asset.bytes.length)} ${asset.name}  (${((performance.now() - started) / 1000).toFixed(1)} s)`,
    );
  }
  writeRelease(release, assets);
  return assets;
}

/** Cross-compiles `target` with its ripgrep inside to `outfile` (also used by test:platforms). */
export async function compileTarget(target: Target, outfile: string, info: CompileJob["info"]): Promise<void> {
  const rg = await ripgrepBinary(target.ripgrep, { fetch: true });
  if (!rg) throw new Error(`no ripgrep for ${target.id}`); // fetch: true returns one or throws
  await compile({ outfile, stage: target.id, targetId: target.id, bunTarget: target.bun, rg: { name: ripgrepName(target.id), bytes: rg }, info });
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1).padStart(6)} MB`;

if (import.meta.main) {
  const started = performance.now();
  const seconds = () => ((performance.now() - started) / 1000).toFixed(1);
  if (process.argv.includes("--all")) {
    await buildAll();
    console.log(`built ${TARGETS.length} targets into dist/ and dist/release/ (archives + SHA256SUMS) in ${seconds()} s`);
    console.log("SHA256SUMS is not signed: the release workflow signs it (bun scripts/sign.ts dist/release)");
  } else {
    await build();
    console.log(`built dist/hey in ${seconds()} s`);
  }
}
