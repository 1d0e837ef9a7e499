// The ripgrep binaries embedded in hey (SPEC §20): one per target, from the per-platform packages
// of @vscode/ripgrep in the npm registry. package-lock.json pins each one's version and SHA-512
// integrity; npm installs only this machine's, so the others are fetched with `npm pack` (through
// the user's npm config: registry, proxy, auth), checked against that integrity, and kept in
// node_modules/.cache/hey-ripgrep/ for the next build.
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { readTarGz } from "../src/upgrade/archive.ts";

const ROOT = join(import.meta.dir, "..");
const CACHE = join(ROOT, "node_modules", ".cache", "hey-ripgrep");

interface Pin {
  version: string;
  integrity: string;
}

/** The lockfile's version and integrity of `@vscode/ripgrep-<platform>`. */
function pinOf(platform: string): Pin {
  const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8")) as { packages: Record<string, Partial<Pin>> };
  const entry = lock.packages[`node_modules/@vscode/ripgrep-${platform}`];
  if (!entry?.version || !entry.integrity?.startsWith("sha512-"))
    throw new Error(`package-lock.json pins no @vscode/ripgrep-${platform} (with a sha512 integrity): run npm install`);
  return { version: entry.version, integrity: entry.integrity };
}

/**
 * The rg (or rg.exe) of `@vscode/ripgrep-<platform>` at the locked version: from node_modules when
 * npm installed that version there (npm checked its integrity), else from the registry — or, with
 * `fetch: false`, undefined.
 */
export async function ripgrepBinary(platform: string, opts: { fetch: boolean }): Promise<Uint8Array | undefined> {
  const pin = pinOf(platform);
  const file = platform.startsWith("win32") ? "rg.exe" : "rg";
  const installed = join(ROOT, "node_modules", "@vscode", `ripgrep-${platform}`);
  if (existsSync(join(installed, "bin", file))) {
    const pkg = JSON.parse(readFileSync(join(installed, "package.json"), "utf8")) as { version: string };
    if (pkg.version === pin.version) return new Uint8Array(readFileSync(join(installed, "bin", file)));
  }
  if (!opts.fetch) return undefined;
  const tgz = await fetchPackage(platform, pin);
  const entry = readTarGz(tgz).find((e) => e.name === `package/bin/${file}`);
  if (!entry) throw new Error(`@vscode/ripgrep-${platform}@${pin.version} holds no bin/${file}`);
  return entry.data;
}

/** The package tarball, verified against the lockfile's integrity; a mismatch is never cached. */
async function fetchPackage(platform: string, pin: Pin): Promise<Uint8Array> {
  const path = join(CACHE, `vscode-ripgrep-${platform}-${pin.version}.tgz`);
  if (!existsSync(path)) {
    mkdirSync(CACHE, { recursive: true });
    const spec = `@vscode/ripgrep-${platform}@${pin.version}`;
    const npm = process.platform === "win32" ? "npm.cmd" : "npm";
    const proc = Bun.spawn([npm, "pack", spec, "--pack-destination", CACHE, "--silent"], { cwd: CACHE, stdout: "pipe", stderr: "pipe" });
    const [err, code] = await Promise.all([proc.stderr.text(), proc.exited]);
    if (code !== 0 || !existsSync(path)) throw new Error(`npm pack ${spec} failed (exit ${code}): ${err.trim()}`);
  }
  const bytes = new Uint8Array(readFileSync(path));
  const integrity = "sha512-" + new Bun.CryptoHasher("sha512").update(bytes).digest("base64");
  if (integrity !== pin.integrity) {
    rmSync(path, { force: true });
    throw new Error(`@vscode/ripgrep-${platform}@${pin.version}: integrity ${integrity} does not match package-lock.json's ${pin.integrity}`);
  }
  return bytes;
}
