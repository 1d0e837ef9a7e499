// The certificate authorities model requests trust (SPEC §24 §3): Bun's own store (Mozilla's CAs,
// plus NODE_EXTRA_CA_CERTS, which Bun reads at start-up) and, added to it, the PEM bundles named by
// `[network] ca_file` and SSL_CERT_FILE. Added rather than replacing: a corporate CA file must not
// make public endpoints untrusted. Read once per run, only when one of them is set.
import { readFileSync } from "node:fs";
import { ConfigError } from "../config/settings.ts";

export interface CaSources {
  /** an absolute path (config/resolve.ts makes it so) */
  caFile?: string;
  /** where caFile was set, for messages: "[network] ca_file in PATH" */
  caFileSource?: string;
  env: Record<string, string | undefined>;
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/**
 * The CA list to pass as fetch's `tls.ca`, or undefined when neither `[network] ca_file` nor
 * SSL_CERT_FILE is set (then fetch keeps its default store, and nothing is read). Throws
 * ConfigError naming the setting when a file cannot be read or holds no PEM certificate.
 */
export function trustedCas(sources: CaSources): string[] | undefined {
  const files: [path: string, label: string][] = [];
  if (sources.caFile) files.push([sources.caFile, sources.caFileSource ?? "[network] ca_file"]);
  const sslCertFile = sources.env.SSL_CERT_FILE;
  if (sslCertFile) files.push([sslCertFile, "SSL_CERT_FILE"]);
  if (files.length === 0) return undefined;
  const added = files.flatMap(([path, label]) => readPemBundle(path, label));
  // node:tls only now: loading it costs start-up time every other run would pay for nothing
  const { getCACertificates } = require("node:tls") as typeof import("node:tls");
  return [...getCACertificates("default"), ...added];
}

/** The certificates of a PEM bundle. Throws ConfigError naming `label` and the path. */
function readPemBundle(path: string, label: string): string[] {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    throw new ConfigError(`${label}: cannot read ${path} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  const certificates = splitPem(text);
  if (certificates.length === 0) throw new ConfigError(`${label}: ${path} holds no PEM certificate (-----BEGIN CERTIFICATE----- …)`);
  return certificates;
}

/** The PEM certificates in a bundle's text, in order; keys, comments and other blocks are left out. */
export function splitPem(text: string): string[] {
  return [...text.replace(/\r\n/g, "\n").matchAll(PEM_CERTIFICATE)].map((m) => `${m[0]}\n`);
}
