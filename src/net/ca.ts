// The certificate authorities model requests trust (SPEC §24 §3). Bun's default store already holds
// Mozilla's CAs, NODE_EXTRA_CA_CERTS and what OpenSSL's default paths hold — $SSL_CERT_FILE (else
// /etc/ssl/cert.pem) and $SSL_CERT_DIR (else /etc/ssl/certs) — read by the runtime itself
// (oven-sh/bun#42970), at no cost to hey. `[network] ca_file` is hey's: its PEM bundle is added to
// that store, never put in its place, so a corporate CA does not make public endpoints untrusted.
// Read once per run, only when set.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { delimiter, join } from "node:path";
import { NetError } from "./errors.ts";
import { NetConfigError } from "./proxy.ts";
import { errnoCode, errorText } from "../kernel/errors.ts";

export interface CaSources {
  /** an absolute path (config/resolve.ts makes it so) */
  caFile?: string;
  /** where caFile was set, for messages: "[network] ca_file in PATH" */
  caFileSource?: string;
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/**
 * The CA list to pass as fetch's `tls.ca`, or undefined without `[network] ca_file` (then fetch
 * keeps its default store, and nothing is read). A `tls.ca` replaces the default store, so the list
 * holds all that store trusts — the bundled CAs and NODE_EXTRA_CA_CERTS ("default"), and OpenSSL's
 * paths, SSL_CERT_FILE and SSL_CERT_DIR or the system's file and directory ("system", which the
 * runtime reads only when asked, skipping what it cannot read) — with ca_file's added. Throws
 * NetConfigError naming the setting when ca_file cannot be read or holds no PEM certificate.
 */
export function trustedCas(sources: CaSources): string[] | undefined {
  if (!sources.caFile) return undefined;
  const added = readPemBundle(sources.caFile, sources.caFileSource ?? "[network] ca_file");
  // node:tls only now: loading it costs start-up time every other run would pay for nothing
  const { getCACertificates } = require("node:tls") as typeof import("node:tls");
  return [...new Set([...getCACertificates("default"), ...getCACertificates("system"), ...added])];
}

/** The CA variables the runtime reads (and skips, without a word, when it cannot) */
const CA_VARIABLES = ["SSL_CERT_FILE", "NODE_EXTRA_CA_CERTS", "SSL_CERT_DIR"] as const;

/**
 * `failure` (a certificate that failed verification) with what is wrong with each CA variable of
 * `env` that is set but adds no CA — a path that cannot be read, a file with no PEM certificate, a
 * directory of SSL_CERT_DIR's list (`:`-separated, `;` on Windows, as OpenSSL reads it) that cannot be
 * read or holds none — said at its end: the message tells the user to set them, and they may have.
 * Reads only those variables' paths, only on such a failure. Never throws.
 */
export function withUnreadCas(failure: NetError, env: Record<string, string | undefined>): NetError {
  const unread = CA_VARIABLES.flatMap((name) => {
    const value = env[name];
    if (!value) return [];
    if (name !== "SSL_CERT_DIR") {
      const problem = caPathProblem(value, false);
      return problem ? [`${name}=${value} is set but ${problem}, so it adds no CA`] : [];
    }
    const dirs = value.split(delimiter).filter((d) => d !== "");
    return dirs.flatMap((dir) => {
      const problem = caPathProblem(dir, true);
      if (!problem) return [];
      return [
        dirs.length === 1 && dir === value
          ? `${name}=${value} is set but ${problem}, so it adds no CA`
          : `${dir} of ${name}=${value} ${problem}, so it adds no CA`,
      ];
    });
  });
  return unread.length ? new NetError(failure.kind, `${failure.message} — ${unread.join("; ")}`) : failure;
}

/** Why the CA file (or directory) at `path` adds nothing, in words; undefined when it can add something. */
function caPathProblem(path: string, directory: boolean): string | undefined {
  try {
    if (directory) {
      const names = readdirSync(path);
      if (names.length === 0) return "is an empty directory";
      return names.some((name) => holdsCertificate(join(path, name)))
        ? undefined
        : "holds no PEM certificate file (-----BEGIN CERTIFICATE----- …) at its top level";
    }
    return splitPem(readFileSync(path, "utf8")).length === 0 ? "holds no PEM certificate (-----BEGIN CERTIFICATE----- …)" : undefined;
  } catch (e) {
    const code = errnoCode(e);
    const words =
      code === "ENOENT"
        ? "no such file or directory"
        : code === "EACCES"
          ? "permission denied"
          : code === "EISDIR"
            ? "it is a directory"
            : code === "ENOTDIR"
              ? "it is not a directory"
              : errorText(e);
    return `cannot be read (${code ? `${code}: ${words}` : words})`;
  }
}

/**
 * Whether the file at `path` (a link followed) holds a PEM certificate; false for anything that is
 * not a regular file (a FIFO would hold the read forever) or cannot be read.
 */
function holdsCertificate(path: string): boolean {
  try {
    return statSync(path).isFile() && readFileSync(path, "utf8").includes("-----BEGIN CERTIFICATE-----");
  } catch {
    return false;
  }
}

/** The certificates of a PEM bundle. Throws NetConfigError naming `label` and the path. */
function readPemBundle(path: string, label: string): string[] {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    const code = errnoCode(e);
    // a directory of certificates (/etc/ssl/certs) is what SSL_CERT_DIR takes, not a file setting
    const dir = code === "EISDIR" ? `: it is a directory — give one PEM file (a bundle) here, or point SSL_CERT_DIR at a directory of hashed certificates` : "";
    throw new NetConfigError(`${label}: cannot read ${path} (${code ?? errorText(e)})${dir}`);
  }
  const certificates = splitPem(text);
  if (certificates.length === 0) throw new NetConfigError(`${label}: ${path} holds no PEM certificate (-----BEGIN CERTIFICATE----- …)`);
  return certificates;
}

/** The PEM certificates in a bundle's text, in order; keys, comments and other blocks are left out. */
export function splitPem(text: string): string[] {
  return [...text.replace(/\r\n/g, "\n").matchAll(PEM_CERTIFICATE)].map((m) => `${m[0]}\n`);
}
