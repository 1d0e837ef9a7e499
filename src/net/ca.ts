// The certificate authorities model requests trust (SPEC §24 §3). Bun's default store already holds
// Mozilla's CAs, NODE_EXTRA_CA_CERTS and what OpenSSL's default paths hold — $SSL_CERT_FILE (else
// /etc/ssl/cert.pem) and $SSL_CERT_DIR — read by the runtime itself (oven-sh/bun#42970), at no cost
// to hey. `[network] ca_file` is hey's: its PEM bundle is added to that store, never put in its
// place, so a corporate CA does not make public endpoints untrusted. Read once per run, only when set.
import { readFileSync } from "node:fs";
import { NetConfigError } from "./proxy.ts";
import { errnoCode, errorText } from "../kernel/errors.ts";

export interface CaSources {
  /** an absolute path (config/resolve.ts makes it so) */
  caFile?: string;
  /** where caFile was set, for messages: "[network] ca_file in PATH" */
  caFileSource?: string;
  env: Record<string, string | undefined>;
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/**
 * The CA list to pass as fetch's `tls.ca`, or undefined without `[network] ca_file` (then fetch
 * keeps its default store, and nothing is read). A `tls.ca` replaces the default store, so the list
 * holds that store's certificates and SSL_CERT_FILE's too (read here for that reason only, and
 * skipped when unreadable, as the runtime skips it). Throws NetConfigError naming the setting when
 * ca_file cannot be read or holds no PEM certificate.
 */
export function trustedCas(sources: CaSources): string[] | undefined {
  if (!sources.caFile) return undefined;
  const added = readPemBundle(sources.caFile, sources.caFileSource ?? "[network] ca_file");
  const sslCertFile = sources.env.SSL_CERT_FILE;
  let system: string[] = [];
  if (sslCertFile) {
    try {
      system = splitPem(readFileSync(sslCertFile, "utf8"));
    } catch {}
  }
  // node:tls only now: loading it costs start-up time every other run would pay for nothing
  const { getCACertificates } = require("node:tls") as typeof import("node:tls");
  return [...new Set([...getCACertificates("default"), ...system, ...added])];
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
