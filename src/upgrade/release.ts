// Where releases live and how their checksums read (SPEC §20). Pure. scripts/install.sh applies
// the same rules in sh; test/scripts/install-sh.test.ts holds the two to the same behaviour.
//
// A release directory holds the archives and SHA256SUMS, nothing else. By default it is a GitHub
// release of REPO: `releases/latest/download` (latest) or `releases/download/v<version>`.
// HEY_RELEASE_URL names the directory instead (mirrors, tests); a `{version}` in it is replaced
// by HEY_VERSION, so one mirror can keep several versions side by side.
import pkg from "../../package.json" with { type: "json" };
import { isLoopback } from "../net/proxy.ts";

/** The checksum list of a release, and its signature (signature.ts). */
export const SUMS_FILE = "SHA256SUMS";
export const SIGNATURE_FILE = "SHA256SUMS.sig";

/** A release location or checksum list that cannot be used; the message says why. */
export class ReleaseError extends Error {
  override name = "ReleaseError";
}

/** `owner/name` of the GitHub repository, from package.json's `repository`. */
export const REPO: string = /github\.com[/:]([^/]+\/[^/.]+)/.exec(pkg.repository.url)?.[1] ?? "";

const VERSION_RE = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/;

/** "0.2.0" from "0.2.0" or "v0.2.0"; a ReleaseError for anything else. */
export function normalizeVersion(version: string): string {
  const v = version.trim().replace(/^v/, "");
  if (!VERSION_RE.test(v)) throw new ReleaseError(`HEY_VERSION must be a version such as 0.2.0, got ${JSON.stringify(version)}`);
  return v;
}

/** The release directory (no trailing slash) for the given HEY_RELEASE_URL and HEY_VERSION. */
export function releaseUrl(opts: { releaseUrl?: string; version?: string; repo?: string }): string {
  const version = opts.version ? normalizeVersion(opts.version) : undefined;
  const custom = opts.releaseUrl?.trim();
  if (custom) {
    if (!/^https?:\/\/[^/]/.test(custom)) throw new ReleaseError(`HEY_RELEASE_URL must be an http:// or https:// URL, got ${JSON.stringify(custom)}`);
    if (custom.includes("{version}") && !version) throw new ReleaseError("HEY_RELEASE_URL contains {version}: set HEY_VERSION too");
    return (version ? custom.replaceAll("{version}", version) : custom).replace(/\/+$/, "");
  }
  const base = `https://github.com/${opts.repo ?? REPO}/releases`;
  return version ? `${base}/download/v${version}` : `${base}/latest/download`;
}

/**
 * Whether hey may download from `url`: https, or plain http to this machine (a mirror in a test or
 * on localhost). Plain http elsewhere is refused (a ReleaseError saying how to override), unless
 * `insecure` (HEY_INSECURE=1), when the returned warning is to be shown. Checked for the release
 * directory and again for where a redirect ended.
 */
export function checkTransport(url: string, insecure: boolean): string | undefined {
  const u = URL.parse(url);
  if (!u || u.protocol === "https:" || (u.protocol === "http:" && isLoopback(u.hostname))) return undefined;
  if (u.protocol !== "http:") throw new ReleaseError(`${url} is not an http:// or https:// URL`);
  if (!insecure)
    throw new ReleaseError(
      `${url} is plain http to another machine: anyone on the way can read and change what is downloaded; use https (HEY_INSECURE=1 allows it)`,
    );
  return `HEY_INSECURE=1: downloading over plain http from ${u.host}`;
}

/** `file → lowercase hex SHA-256` from `sha256sum` output (text or `*binary` mode). */
export function parseSums(text: string): Map<string, string> {
  const sums = new Map<string, string>();
  for (const [i, line] of text.split("\n").entries()) {
    if (line.trim() === "") continue;
    const m = /^([0-9a-fA-F]{64}) [ *](.+)$/.exec(line.replace(/\r$/, ""));
    if (!m) throw new ReleaseError(`SHA256SUMS line ${i + 1} is not "<sha256>  <file>": ${JSON.stringify(line.slice(0, 120))}`);
    sums.set(m[2]!, m[1]!.toLowerCase());
  }
  return sums;
}

/** SHA256SUMS text, sorted by file name, as `sha256sum -c` reads it. */
export function formatSums(sums: Map<string, string>): string {
  return [...sums]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([file, hash]) => `${hash}  ${file}\n`)
    .join("");
}

/** Semver order of two versions (pre-releases before their release); 0 when equal. */
export function compareVersions(a: string, b: string): number {
  const split = (v: string) => {
    const [core, pre] = v.split("-", 2) as [string, string | undefined];
    return { nums: core.split(".").map(Number), pre };
  };
  const x = split(a);
  const y = split(b);
  for (let i = 0; i < 3; i++) if (x.nums[i] !== y.nums[i]) return (x.nums[i] ?? 0) - (y.nums[i] ?? 0);
  if (x.pre === y.pre) return 0;
  if (x.pre === undefined) return 1;
  if (y.pre === undefined) return -1;
  return x.pre < y.pre ? -1 : 1;
}
