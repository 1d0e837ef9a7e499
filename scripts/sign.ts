// bun scripts/sign.ts DIR            signs DIR/SHA256SUMS into DIR/SHA256SUMS.sig with the private
//                                   key in $HEY_RELEASE_SIGNING_KEY (PEM text) or --key FILE
// bun scripts/sign.ts --rotate FILE  makes the key in FILE (PEM) hey's release key: rewrites the
//                                   public key in src/upgrade/release-key.ts, scripts/install.sh
//                                   and README.md
//
// Release signing (SPEC §20, issue 29). The key is Ed25519 in PKCS#8 PEM, as
// `openssl genpkey -algorithm ed25519 -out key.pem` writes it; the signature is an OpenSSH one
// (src/upgrade/signature.ts), which `ssh-keygen -Y verify`, openssl (install.sh) and `hey upgrade`
// all check. DIR is signed only with the key hey trusts: a signature nobody can verify would make
// every install fail, so a wrong key stops here, before anything is published.
import { createPrivateKey, createPublicKey, type KeyObject } from "node:crypto";
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PRODUCTION_KEY } from "../src/upgrade/release-key.ts";
import { SIGNATURE_FILE, SUMS_FILE } from "../src/upgrade/release.ts";
import { fingerprint, formatPublicKey, parsePublicKey, sign, spkiBase64, verifySignature } from "../src/upgrade/signature.ts";

const ROOT = join(import.meta.dir, "..");

/** The private key of a PEM text, and its public half (32 bytes). Throws naming what is wrong. */
export function loadKey(pem: string): { privateKey: KeyObject; publicKey: Uint8Array } {
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(pem);
  } catch (e) {
    throw new Error(`not a PEM private key: ${(e as Error).message}`);
  }
  if (privateKey.asymmetricKeyType !== "ed25519") throw new Error(`an ${privateKey.asymmetricKeyType} key, not Ed25519 (openssl genpkey -algorithm ed25519)`);
  const spki = createPublicKey(privateKey).export({ type: "spki", format: "der" });
  return { privateKey, publicKey: new Uint8Array(spki.subarray(spki.length - 32)) };
}

/**
 * Writes `dir`/SHA256SUMS.sig, the signature of `dir`/SHA256SUMS with the key in `pem`, after
 * checking that it is `trusted` (an OpenSSH public key line) and that the written file verifies.
 */
export async function signRelease(dir: string, pem: string, trusted: string = PRODUCTION_KEY): Promise<string> {
  const { privateKey, publicKey } = loadKey(pem);
  const expected = parsePublicKey(trusted);
  if (formatPublicKey(publicKey) !== formatPublicKey(expected))
    throw new Error(
      `this key (${await fingerprint(publicKey)}) is not hey's release key (${await fingerprint(expected)}): a release signed with it would be refused by every hey; run --rotate to change keys`,
    );
  const der = privateKey.export({ type: "pkcs8", format: "der" });
  const key = await crypto.subtle.importKey("pkcs8", new Uint8Array(der), { name: "Ed25519" }, false, ["sign"]);
  const sums = new Uint8Array(readFileSync(join(dir, SUMS_FILE)));
  const text = await sign(sums, key, publicKey);
  await verifySignature(sums, text, expected);
  const path = join(dir, SIGNATURE_FILE);
  writeFileSync(`${path}.tmp`, text);
  renameSync(`${path}.tmp`, path);
  return path;
}

/** Replaces the release key in the files that carry it; returns the files changed. */
function rotate(pem: string): string[] {
  const { publicKey } = loadKey(pem);
  const old = parsePublicKey(PRODUCTION_KEY);
  const pairs: [string, string][] = [
    [formatPublicKey(old, ""), formatPublicKey(publicKey, "")],
    [spkiBase64(old), spkiBase64(publicKey)],
  ];
  const changed: string[] = [];
  for (const file of ["src/upgrade/release-key.ts", "scripts/install.sh", "README.md"]) {
    const path = join(ROOT, file);
    const before = readFileSync(path, "utf8");
    const after = pairs.reduce((text, [from, to]) => text.replaceAll(from, to), before);
    if (after !== before) {
      writeFileSync(`${path}.tmp`, after);
      renameSync(`${path}.tmp`, path);
      changed.push(file);
    }
  }
  return changed;
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const value = (flag: string) => {
    const i = args.indexOf(flag);
    return i >= 0 ? args.splice(i, 2)[1] : undefined;
  };
  try {
    const rotateFile = value("--rotate");
    if (rotateFile) {
      const changed = rotate(readFileSync(rotateFile, "utf8"));
      console.log(
        changed.length
          ? `the release key is now ${formatPublicKey(loadKey(readFileSync(rotateFile, "utf8")).publicKey)} in ${changed.join(", ")}`
          : "that key is already hey's release key",
      );
    } else {
      const keyFile = value("--key");
      const pem = keyFile ? readFileSync(keyFile, "utf8") : process.env.HEY_RELEASE_SIGNING_KEY;
      if (!pem) throw new Error("no key: set HEY_RELEASE_SIGNING_KEY to the PEM text of the release key, or pass --key FILE");
      if (args.length !== 1) throw new Error("usage: bun scripts/sign.ts [--key FILE] DIR   |   bun scripts/sign.ts --rotate FILE");
      console.log(`wrote ${await signRelease(args[0]!, pem)}`);
    }
  } catch (e) {
    console.error(`sign: ${(e as Error).message}`);
    process.exit(1);
  }
}
