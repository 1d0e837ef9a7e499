// Release signatures (issue 29): what scripts/sign.ts writes verifies in hey, with ssh-keygen and
// (as install.sh does it) with openssl; what `ssh-keygen -Y sign` writes verifies in hey; and each
// way a signature can be wrong is refused with its reason. The key in source, install.sh and the
// README is one key.
import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadKey } from "../../scripts/sign.ts";
import { PRODUCTION_KEY, RELEASE_KEY } from "../../src/upgrade/release-key.ts";
import {
  fingerprint,
  formatPublicKey,
  parsePublicKey,
  parseSignature,
  sign,
  SIG_NAMESPACE,
  SignatureError,
  spkiBase64,
  verifySignature,
} from "../../src/upgrade/signature.ts";
import { tempDir } from "../helpers/e2e.ts";
import { TEST_KEY, TEST_KEY_PEM } from "../helpers/release-key.ts";
import { testNeeding } from "../helpers/tools.ts";

const ROOT = join(import.meta.dir, "..", "..");
const dir = tempDir("hey-signature-");
afterAll(() => dir.remove());

const sums = new TextEncoder().encode(`${"a".repeat(64)}  hey-linux-x64.tar.gz\n${"b".repeat(64)}  hey-linux-x64\n`);
const testKey = parsePublicKey(TEST_KEY);
const der = loadKey(TEST_KEY_PEM).privateKey.export({ type: "pkcs8", format: "der" });
const privateKey = await crypto.subtle.importKey("pkcs8", new Uint8Array(der), { name: "Ed25519" }, false, ["sign"]);
const signature = await sign(sums, privateKey, testKey);

const reason = async (p: Promise<unknown>) => {
  try {
    await p;
    return "verified";
  } catch (e) {
    expect(e).toBeInstanceOf(SignatureError);
    return (e as Error).message;
  }
};

describe("verifySignature", () => {
  test("accepts the key's signature of the file", async () => {
    expect(await reason(verifySignature(sums, signature, testKey))).toBe("verified");
    expect(signature).toStartWith("-----BEGIN SSH SIGNATURE-----\n");
    expect(parseSignature(signature)).toMatchObject({ namespace: SIG_NAMESPACE, hash: "sha512" });
  });

  test("refuses a changed file, another key, another namespace, and text that is no signature", async () => {
    const changed = sums.slice();
    changed[0] = 0x62; // one hex digit of the first checksum
    expect(await reason(verifySignature(changed, signature, testKey))).toBe("it does not match the file: the file or the signature was changed");
    const production = parsePublicKey(PRODUCTION_KEY);
    expect(await reason(verifySignature(sums, signature, production))).toBe(
      `it was made with another key (${await fingerprint(testKey)}), not hey's release key (${await fingerprint(production)})`,
    );
    expect(await reason(verifySignature(sums, "<html>Not Found</html>", testKey))).toBe(
      'not an SSH signature (no "-----BEGIN SSH SIGNATURE-----" … "-----END SSH SIGNATURE-----")',
    );
    const lines = signature.trim().split("\n");
    const blob = Buffer.from(lines.slice(1, -1).join(""), "base64");
    const truncated = [lines[0], blob.subarray(0, 40).toString("base64"), lines.at(-1)].join("\n");
    expect(await reason(verifySignature(sums, truncated, testKey))).toBe("a truncated SSH signature or key");
  });

  test("the fingerprint is ssh-keygen's", () => {
    expect(fingerprint(testKey)).resolves.toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
  });
});

testNeeding(["ssh-keygen"])("ssh-keygen verifies hey's signature, and hey verifies ssh-keygen's; another namespace is refused", async () => {
  const file = join(dir.path, "SHA256SUMS");
  writeFileSync(file, sums);
  writeFileSync(`${file}.sig`, signature);
  const signers = join(dir.path, "allowed_signers");
  writeFileSync(signers, `hey-release ${TEST_KEY}\n`);
  const verify = Bun.spawnSync(["ssh-keygen", "-Y", "verify", "-f", signers, "-I", "hey-release", "-n", SIG_NAMESPACE, "-s", `${file}.sig`], {
    stdin: Bun.file(file),
  });
  expect(verify.stdout.toString()).toStartWith('Good "hey-release" signature for hey-release with ED25519 key SHA256:');
  expect(verify.exitCode).toBe(0);

  // a key of ssh-keygen's own making, signing with its own code
  const key = join(dir.path, "id_ed25519");
  expect(Bun.spawnSync(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "", "-f", key]).exitCode).toBe(0);
  const own = parsePublicKey(readFileSync(`${key}.pub`, "utf8"));
  for (const ns of [SIG_NAMESPACE, "file"]) {
    rmSync(`${file}.sig`, { force: true });
    const made = Bun.spawnSync(["ssh-keygen", "-q", "-Y", "sign", "-f", key, "-n", ns, file]);
    expect(made.exitCode).toBe(0);
    const result = await reason(verifySignature(sums, readFileSync(`${file}.sig`, "utf8"), own));
    expect(result).toBe(ns === SIG_NAMESPACE ? "verified" : `it was made for "file", not for hey releases ("${SIG_NAMESPACE}")`);
  }
});

test("the public key forms round-trip, and openssl's SPKI form is the key's", () => {
  expect(formatPublicKey(parsePublicKey(TEST_KEY))).toBe(TEST_KEY);
  const spki = Buffer.from(spkiBase64(testKey), "base64");
  expect([...spki.subarray(12)]).toEqual([...testKey]);
  expect(() => parsePublicKey("ssh-rsa AAAAB3NzaC1yc2E")).toThrow("not an ssh-ed25519 public key");
});

describe("the release key", () => {
  test("an ordinary build trusts the production key (tests build another binary for the test key)", () => {
    expect(RELEASE_KEY).toBe(PRODUCTION_KEY);
    expect(PRODUCTION_KEY).not.toBe(TEST_KEY);
  });

  test("install.sh and the README carry the same key as src/upgrade/release-key.ts", () => {
    const key = parsePublicKey(PRODUCTION_KEY);
    const sh = readFileSync(join(ROOT, "scripts", "install.sh"), "utf8");
    expect(sh).toContain(`HEY_RELEASE_KEY="${formatPublicKey(key, "")}"\n`);
    expect(sh).toContain(`HEY_RELEASE_KEY_SPKI="${spkiBase64(key)}"\n`);
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    expect(readme).toContain(`hey-release ${formatPublicKey(key, "")}`);
  });
});
