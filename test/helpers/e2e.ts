// Runs the compiled dist/hey as a user would (SPEC §21). The binary is rebuilt once per test
// process when any source is newer than it.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build, buildInfo, BYTECODE_ORDER, compileTarget } from "../../scripts/build.ts";
import { builtName, TARGETS } from "../../src/upgrade/targets.ts";

export const ROOT = join(import.meta.dir, "..", "..");
export const BINARY = join(ROOT, "dist", "hey");
/** dist/hey built to trust the test release key (test/helpers/release-key.ts) instead of the real one */
export const TEST_KEY_BINARY = join(ROOT, "dist", "test-key", "hey");

let building: Promise<string> | undefined;
let buildingTestKey: Promise<string> | undefined;

function newestSource(): number {
  const dirs = [join(ROOT, "src")];
  let newest = Math.max(statSync(join(ROOT, "package.json")).mtimeMs, statSync(join(ROOT, "scripts", "build.ts")).mtimeMs);
  if (existsSync(BYTECODE_ORDER)) newest = Math.max(newest, statSync(BYTECODE_ORDER).mtimeMs);
  for (const dir of dirs)
    for (const e of readdirSync(dir, { withFileTypes: true, recursive: true }))
      if (e.isFile()) newest = Math.max(newest, statSync(join(e.parentPath, e.name)).mtimeMs);
  return newest;
}

async function upToDate(path: string, make: () => Promise<void>): Promise<string> {
  let built = 0;
  try {
    built = statSync(path).mtimeMs;
  } catch {}
  if (built < newestSource()) await make();
  return path;
}

/** Path of an up-to-date dist/hey, building it if needed (once per test process). */
export function ensureBinary(): Promise<string> {
  building ??= upToDate(BINARY, () => build());
  return building;
}

/**
 * Path of an up-to-date dist/test-key/hey: dist/hey but trusting the test release key, for the
 * tests of signed releases (`hey upgrade`, install.sh with the real binary). Built after dist/hey,
 * never beside it, so two builds do not share the 2 cores.
 */
export function ensureTestKeyBinary(): Promise<string> {
  buildingTestKey ??= (async () => {
    await ensureBinary();
    const { TEST_KEY } = await import("./release-key.ts");
    mkdirSync(join(ROOT, "dist", "test-key"), { recursive: true });
    return upToDate(TEST_KEY_BINARY, () => build(TEST_KEY_BINARY, { releaseKey: TEST_KEY }));
  })();
  return buildingTestKey;
}

/**
 * Path of an up-to-date dist/platforms/hey-<target>[.exe]: a release build of another platform,
 * its ripgrep inside (npm pack fetches it once), for test:platforms.
 */
export async function ensureTargetBinary(id: string): Promise<string> {
  const target = TARGETS.find((t) => t.id === id);
  if (!target) throw new Error(`no release target ${id}`);
  const path = join(ROOT, "dist", "platforms", builtName(id));
  mkdirSync(join(ROOT, "dist", "platforms"), { recursive: true });
  return upToDate(path, async () => compileTarget(target, path, await buildInfo()));
}

export interface HeyRun {
  code: number;
  stdout: string;
  stderr: string;
}

export interface HeyOptions {
  cwd?: string;
  /** added to a clean environment: a temp HOME, PATH, and nothing else of the caller's */
  env?: Record<string, string | undefined>;
  stdin?: string;
  timeoutMs?: number;
  /** `ulimit -f`: the largest file hey may write, in KB (a write past it fails with EFBIG) */
  fileSizeLimitKb?: number;
}

/** A temporary directory removed by the returned function. */
export function tempDir(prefix = "hey-test-"): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/**
 * Runs dist/hey with `args` in a clean environment (its own HOME, no API keys, no proxies).
 * stdin is `opts.stdin` when given, else empty and not a TTY.
 */
export async function runHey(args: string[], opts: HeyOptions = {}): Promise<HeyRun> {
  const bin = await ensureBinary();
  const home = tempDir("hey-home-");
  try {
    const env: Record<string, string> = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home.path, NO_COLOR: "1" };
    for (const [k, v] of Object.entries(opts.env ?? {})) if (v !== undefined) env[k] = v;
    const limited = opts.fileSizeLimitKb === undefined ? [] : ["sh", "-c", `ulimit -f ${opts.fileSizeLimitKb} && exec "$0" "$@"`];
    const proc = Bun.spawn([...limited, bin, ...args], {
      cwd: opts.cwd ?? home.path,
      env,
      stdin: new Blob([opts.stdin ?? ""]),
      stdout: "pipe",
      stderr: "pipe",
      timeout: opts.timeoutMs ?? 20_000,
      killSignal: "SIGKILL",
    });
    const [stdout, stderr, code] = await Promise.all([proc.stdout.text(), proc.stderr.text(), proc.exited]);
    return { code, stdout, stderr };
  } finally {
    home.remove();
  }
}

/** Parses `--output json` stdout into events, failing loudly on a line that is not JSON. */
export function jsonEvents(stdout: string): Record<string, unknown>[] {
  return stdout
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l, i) => {
      try {
        return JSON.parse(l) as Record<string, unknown>;
      } catch {
        throw new Error(`stdout line ${i + 1} is not JSON: ${l}`);
      }
    });
}
