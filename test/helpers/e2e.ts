// Runs the compiled dist/hey as a user would (SPEC §21). The binary is rebuilt once per test
// process when any source is newer than it.
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "../../scripts/build.ts";

export const ROOT = join(import.meta.dir, "..", "..");
export const BINARY = join(ROOT, "dist", "hey");

let building: Promise<string> | undefined;

function newestSource(): number {
  const dirs = [join(ROOT, "src")];
  let newest = Math.max(statSync(join(ROOT, "package.json")).mtimeMs, statSync(join(ROOT, "scripts", "build.ts")).mtimeMs);
  for (const dir of dirs)
    for (const e of readdirSync(dir, { withFileTypes: true, recursive: true }))
      if (e.isFile()) newest = Math.max(newest, statSync(join(e.parentPath, e.name)).mtimeMs);
  return newest;
}

/** Path of an up-to-date dist/hey, building it if needed (once per test process). */
export function ensureBinary(): Promise<string> {
  building ??= (async () => {
    let built = 0;
    try {
      built = statSync(BINARY).mtimeMs;
    } catch {}
    if (built < newestSource()) await build();
    return BINARY;
  })();
  return building;
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
    const proc = Bun.spawn([bin, ...args], {
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
