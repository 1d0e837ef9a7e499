// The test release key (test/fixtures/release/test-signing-key.pem): its private half is committed
// on purpose, so that tests can sign releases; only dist/test-key/hey (e2e.ts) and the copies of
// install.sh the tests write trust it. Also an unrelated key, for signatures made by someone else.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadKey, signRelease } from "../../scripts/sign.ts";
import { SIGNATURE_FILE, SUMS_FILE } from "../../src/upgrade/release.ts";
import { formatPublicKey, sign, spkiBase64 } from "../../src/upgrade/signature.ts";

export const TEST_KEY_PEM = readFileSync(join(import.meta.dir, "..", "fixtures", "release", "test-signing-key.pem"), "utf8");
const testPublic = loadKey(TEST_KEY_PEM).publicKey;
/** The test key as an OpenSSH public key line, as release-key.ts holds the real one. */
export const TEST_KEY = formatPublicKey(testPublic);
/** The test key's SPKI (openssl) form, as install.sh holds the real one's. */
export const TEST_KEY_SPKI = spkiBase64(testPublic);

/** Signs `dir`/SHA256SUMS with the test key. */
export const signWithTestKey = (dir: string) => signRelease(dir, TEST_KEY_PEM, TEST_KEY);

/** Signs `dir`/SHA256SUMS with a freshly made key that nobody trusts. */
export async function signWithOtherKey(dir: string): Promise<void> {
  const pair = (await crypto.subtle.generateKey({ name: "Ed25519" }, true, ["sign", "verify"])) as unknown as CryptoKeyPair;
  const publicKey = new Uint8Array(await crypto.subtle.exportKey("raw", pair.publicKey));
  writeFileSync(join(dir, SIGNATURE_FILE), await sign(new Uint8Array(readFileSync(join(dir, SUMS_FILE))), pair.privateKey, publicKey));
}
