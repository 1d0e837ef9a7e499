// A private CA made with openssl at test time, and server certificates signed by it: one valid for
// the loopback names tests use, one expired, one for another host name. Nothing is stored in the
// repository; everything lives in a temp directory the caller removes.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface TestCa {
  dir: string;
  /** the CA's certificate (PEM file path): what a user puts in ca_file / SSL_CERT_FILE / NODE_EXTRA_CA_CERTS */
  caFile: string;
  /** PEM text of a second, unrelated CA, for bundles with several certificates */
  otherCaPem: string;
  /** for 127.0.0.1, 0.0.0.0 and localhost */
  valid: KeyPair;
  /** same names, notAfter in the past */
  expired: KeyPair;
  /** for other.test only */
  misnamed: KeyPair;
  remove(): void;
}

export interface KeyPair {
  cert: string;
  key: string;
}

/** The names every valid certificate covers: the proxies reach the mock server as 0.0.0.0 (see real-proxies.ts). */
const LOOPBACK_SAN = "subjectAltName=IP:127.0.0.1,IP:0.0.0.0,DNS:localhost";

function openssl(dir: string, args: string[]): void {
  const run = Bun.spawnSync(["openssl", ...args], { cwd: dir, stdout: "ignore", stderr: "pipe" });
  if (run.exitCode !== 0) throw new Error(`openssl ${args[0]} failed: ${run.stderr.toString()}`);
}

/** Makes the CA and the certificates (~0.3 s: RSA keys are generated). Needs openssl on PATH. */
export function makeTestCa(): TestCa {
  const dir = mkdtempSync(join(tmpdir(), "hey-ca-"));
  const ca = (name: string, cn: string) =>
    openssl(dir, ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", `${name}.key`, "-out", `${name}.pem`, "-days", "2", "-subj", `/CN=${cn}`]);
  ca("ca", "hey test CA");
  ca("other-ca", "hey other test CA");
  const leaf = (name: string, cn: string, san: string, days: string): KeyPair => {
    writeFileSync(join(dir, `${name}.ext`), `${san}\n`);
    openssl(dir, ["req", "-newkey", "rsa:2048", "-nodes", "-keyout", `${name}.key`, "-out", `${name}.csr`, "-subj", `/CN=${cn}`]);
    openssl(dir, [
      "x509",
      "-req",
      "-in",
      `${name}.csr`,
      "-CA",
      "ca.pem",
      "-CAkey",
      "ca.key",
      "-CAcreateserial",
      "-out",
      `${name}.pem`,
      "-days",
      days,
      "-extfile",
      `${name}.ext`,
    ]);
    return { cert: readFileSync(join(dir, `${name}.pem`), "utf8"), key: readFileSync(join(dir, `${name}.key`), "utf8") };
  };
  return {
    dir,
    caFile: join(dir, "ca.pem"),
    otherCaPem: readFileSync(join(dir, "other-ca.pem"), "utf8"),
    valid: leaf("valid", "hey test server", LOOPBACK_SAN, "2"),
    // notBefore is now and notAfter a day earlier: expired, whatever the clock's precision
    expired: leaf("expired", "hey test server", LOOPBACK_SAN, "-1"),
    misnamed: leaf("misnamed", "other.test", "subjectAltName=DNS:other.test", "2"),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
