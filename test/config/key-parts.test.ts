// Private keys whose BEGIN line is not in the text (x78 #3): a key's end with its END line, its
// first lines, a key PEM in base64 (kubeconfig's client-key-data) are hidden; certificates and
// public keys are kept. The keys are fakes: DER headers of each kind followed by filler bytes.
import { describe, expect, test } from "bun:test";
import { generateKeyPairSync, type KeyObject } from "node:crypto";
import { redactShapes } from "../../src/config/secret-shapes.ts";

/** A fake PEM body: `head` bytes, then filler, as base64 lines of 64 characters. */
const body = (head: number[], size = 600) => {
  const bytes = Array.from({ length: size }, (_, i) => head[i] ?? (i * 37 + 11) % 256);
  return btoa(String.fromCharCode(...bytes)).match(/.{1,64}/g)!;
};
const pem = (label: string, lines: string[]) => [`-----BEGIN ${label}-----`, ...lines, `-----END ${label}-----`];
const PKCS8 = body([0x30, 0x82, 0x02, 0x54, 0x02, 0x01, 0x00, 0x30, 0x0d, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01]);
const RSA = body([0x30, 0x82, 0x02, 0x54, 0x02, 0x01, 0x00, 0x02, 0x82, 0x01, 0x01, 0x00]);
const EC = body([0x30, 0x77, 0x02, 0x01, 0x01, 0x04, 0x20], 121);
const ENCRYPTED = body([0x30, 0x82, 0x02, 0x54, 0x30, 0x4e, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x05, 0x0d]);
const CERT_HEAD = [0x30, 0x82, 0x02, 0x54, 0x30, 0x82, 0x01, 0xbc, 0xa0, 0x03, 0x02, 0x01, 0x02, 0x02, 0x14];
const CERT = body(CERT_HEAD);
const PUBLIC = body([0x30, 0x82, 0x01, 0x22, 0x30, 0x0d, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00, 0x03]);
const RSA_PUBLIC = body([0x30, 0x82, 0x01, 0x0a, 0x02, 0x82, 0x01, 0x01, 0x00]);
const KEY = pem("PRIVATE KEY", PKCS8);
/** a real key's PEM, as `openssl genpkey` writes it */
const pkcs8 = (key: KeyObject) => key.export({ type: "pkcs8", format: "pem" }).toString();
const H = "[secret: private-key]";

describe("a private key without its BEGIN line is hidden", () => {
  test.each([
    ["tail of a key", `${KEY.slice(-4).join("\n")}\n`, `${H}\n`],
    [
      "tail of an RSA key, under cat -n",
      `${pem("RSA PRIVATE KEY", RSA)
        .map((l, i) => `${String(i + 1).padStart(6)}\t${l}`)
        .slice(-3)
        .join("\n")}\n`,
      `    ${RSA.length}\t${H}\n`,
    ], // line 1 is BEGIN, so the body's last line has the body's count
    ["tail, as grep shows context", `server.key-12-${PKCS8.at(-1)}\nserver.key:13:-----END PRIVATE KEY-----`, `server.key-12-${H}`],
    [
      "the end of a key in one JSON line",
      `${PKCS8.at(-2)}\\n${PKCS8.at(-1)}\\n-----END PRIVATE KEY-----\\n",\n  "client_email": "a@b.iam"`,
      `${H}\\n",\n  "client_email": "a@b.iam"`,
    ],
    ["first lines of a PKCS#8 key", `${PKCS8.slice(0, 5).join("\n")}\n`, `${H}\n`],
    [
      "first lines of an RSA key, read_file's numbers",
      RSA.slice(0, 3)
        .map((l, i) => `${i + 2}\t${l}`)
        .join("\n"),
      `2\t${H}`,
    ],
    ["an EC key's body, whole", EC.join("\n"), H],
    ["first lines of an encrypted key", ENCRYPTED.slice(0, 2).join("\n"), H],
    ["an OpenSSH key's first line", "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW", H],
    ["a key in base64, one line", btoa(`${KEY.join("\n")}\n`), H],
    [
      "a key in base64, wrapped as base64 does, then a word",
      `${btoa(`${KEY.join("\n")}\n`)
        .match(/.{1,76}/g)!
        .join("\n")}\nafter`,
      `${H}\nafter`,
    ],
    [
      "kubeconfig's client-key-data; its certificate stays",
      `    client-certificate-data: ${btoa(pem("CERTIFICATE", CERT).join("\n"))}\n    client-key-data: ${btoa(pem("RSA PRIVATE KEY", RSA).join("\n"))}\n    token: abc`,
      `    client-certificate-data: ${btoa(pem("CERTIFICATE", CERT).join("\n"))}\n    client-key-data: ${H}\n    token: abc`,
    ],
    [
      "a key in base64 inside base64 JSON (a service account in a Secret)",
      `  key.json: ${btoa(`{"private_key": "${KEY.join("\\n")}\\n"}`)}`,
      `  key.json: ${H}`,
    ],
  ])("%s", (_, text, hidden) => {
    expect(redactShapes(text)).toBe(hidden);
  });
});

describe("a key in base64 right after other base64 is hidden, a certificate kept", () => {
  // `kubectl get secret web-tls -o jsonpath='{.data.tls\.crt}{.data.tls\.key}'`, or `base64 -w0` of
  // each in turn: the key's base64 starts right after the certificate's `=` padding
  const certificate = (padding: string) => {
    for (let size = 600; ; size++) {
      const encoded = btoa(`${pem("CERTIFICATE", body(CERT_HEAD, size)).join("\n")}\n`);
      if (encoded.endsWith(padding) && !encoded.endsWith(`${padding}=`)) return encoded;
    }
  };
  const keys = {
    Ed25519: generateKeyPairSync("ed25519"), // 160 characters of base64: too short for the fallback that catches long runs
    "EC P-256": generateKeyPairSync("ec", { namedCurve: "prime256v1" }),
  };
  test.each(Object.entries(keys).flatMap(([name, pair]) => ["=", "=="].map((padding) => [name, padding, pair.privateKey] as const)))(
    "%s key after a certificate ending in %s",
    (_, padding, key) => {
      const crt = certificate(padding);
      const command = "$ kubectl get secret web-tls -o jsonpath='{.data.tls\\.crt}{.data.tls\\.key}'";
      const text = `${command}\n${crt}${btoa(pkcs8(key))}\n`;
      expect(redactShapes(text)).toBe(`${command}\n${crt}${H}\n`);
    },
  );

  test("a key in base64 on one line, then another wrapped as base64 does: both hidden whole", () => {
    // the first line's token took the next line as its shorter last one, and the second key, found
    // from that line, was then dropped as overlapping: its lines below were shown
    const wrapped = btoa(pkcs8(generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey))
      .match(/.{1,76}/g)!
      .join("\n");
    expect(redactShapes(`${btoa(pkcs8(keys.Ed25519.privateKey))}\n${wrapped}\n`)).toBe(`${H}\n`);
  });
});

describe("a key in base64 wrapped as base64 does, with text after its last line, is hidden to that text", () => {
  // `echo "$(base64 tls.key)"` inside quotes, a comment after it: the last line was shown (no fallback
  // takes lines 76 wide)
  const wrapped = btoa(pkcs8(generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey))
    .match(/.{1,76}/g)!
    .join("\n");
  test.each([['"'], ['",'], [" <- tls.key"], [" "]])("%j", (after) => {
    expect(redactShapes(`${wrapped}${after}\nnext`)).toBe(`${H}${after}\nnext`);
  });
});

describe("certificates and public keys are kept", () => {
  test.each([
    ["a certificate's tail", pem("CERTIFICATE", CERT).slice(-4).join("\n")],
    ["a certificate's first lines", CERT.slice(0, 4).join("\n")],
    ["a public key's first lines", PUBLIC.slice(0, 3).join("\n")],
    ["an RSA public key's first lines", RSA_PUBLIC.slice(0, 3).join("\n")],
    ["a certificate in base64", `certificate-authority-data: ${btoa(pem("CERTIFICATE", CERT).join("\n"))}`],
    [
      "a public key in base64, wrapped",
      btoa(pem("PUBLIC KEY", PUBLIC).join("\n"))
        .match(/.{1,76}/g)!
        .join("\n"),
    ],
    ["an END line alone", "-----END PRIVATE KEY-----"],
    ["prose above an END line", "the key ends with\n-----END PRIVATE KEY-----"],
  ])("%s", (_, text) => {
    expect(redactShapes(text)).toBe(text);
  });
});
