// x94 #3, #4, #8: what key-runs took for a piece of a private key and what it missed. Certificates in
// SAML metadata, RFC 4716 public keys and `openssl base64` of signatures and files are shown again;
// a key's middle in base64 is hidden also when the same piece reaches the certificate after it;
// long lines of random base64 are decoded nowhere. The keys and signatures are made by node:crypto.
import { afterEach, describe, expect, test } from "bun:test";
import { generateKeyPairSync, randomBytes, sign } from "node:crypto";
import { redactShapes } from "../../src/config/secret-shapes.ts";

const H = "[secret: private-key]";
const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
const RSA = privateKey.export({ type: "pkcs1", format: "pem" }).toString();
/** `bytes` in base64 wrapped at `width`, as `openssl base64` (64) or `ssh-keygen -e` (70) writes it. */
const wrapped = (bytes: Buffer, width: number) => bytes.toString("base64").match(new RegExp(`.{1,${width}}`, "g"))!;
/** A certificate's DER: a SEQUENCE whose first member is the SEQUENCE of what it signs (then random bytes). */
const CERT_DER = Buffer.concat([Buffer.from([0x30, 0x82, 0x03, 0x0c, 0x30, 0x82, 0x02, 0xf4, 0xa0, 0x03, 0x02, 0x01, 0x02]), randomBytes(771)]);
const CERT = `-----BEGIN CERTIFICATE-----\n${wrapped(CERT_DER, 64).join("\n")}\n-----END CERTIFICATE-----\n`;

describe("certificates, public keys and signatures are shown", () => {
  test.each([
    [
      "a certificate in SAML metadata, its first line after the tag",
      `  <ds:X509Data>\n    <ds:X509Certificate>${wrapped(CERT_DER, 64)
        .map((line, i) => (i === 0 ? line : `      ${line}`))
        .join("\n")}\n    </ds:X509Certificate>\n  </ds:X509Data>\n`,
    ],
    [
      "an RFC 4716 public key (ssh-keygen -e)",
      `---- BEGIN SSH2 PUBLIC KEY ----\nComment: "2048-bit RSA, converted by ana@vm from OpenSSH"\n${wrapped(
        Buffer.concat([Buffer.from("\0\0\0\x07ssh-rsa\0\0\0\x03\x01\0\x01\0\0\x01\x01\0", "latin1"), randomBytes(256)]),
        70,
      ).join("\n")}\n---- END SSH2 PUBLIC KEY ----\n`,
    ],
    ["openssl base64 of an RSA signature", `${wrapped(sign("sha256", Buffer.from("release.tar.gz"), privateKey), 64).join("\n")}\n`],
    ["openssl base64 of a 300-byte file", `${wrapped(randomBytes(300), 64).join("\n")}\n`],
    ["100 KB of base64 wrapped at 64", `${wrapped(randomBytes(75_000), 64).join("\n")}\n`],
  ])("%s", (_, text) => {
    expect(redactShapes(text)).toBe(text);
  });
});

describe("a key's pieces stay hidden", () => {
  test("a key and its certificate in base64 on one line, cut past the key's BEGIN and into the certificate", () => {
    const line = btoa(RSA + CERT);
    const piece = line.slice(400, 3000); // cut -c 401-3000
    expect(redactShapes(piece)).toBe(H);
  });

  test.each([
    ["RSA 4096, PKCS#8", generateKeyPairSync("rsa", { modulusLength: 4096 }).privateKey.export({ type: "pkcs8", format: "pem" }).toString()],
    ["RSA 2048, PKCS#1", RSA],
    ["EC P-384, SEC1", generateKeyPairSync("ec", { namedCurve: "P-384" }).privateKey.export({ type: "sec1", format: "pem" }).toString()],
  ])("%s: its last body lines, from any line that leaves two whole ones, without the END line", (_, pem) => {
    const lines = pem.trimEnd().split("\n");
    for (let from = 1; from < lines.length - 3; from++) {
      const piece = lines.slice(from, -1);
      // README's one exception: exactly an RSA signature's 256 bytes, all inside the key's last number
      // (its CRT coefficient, which does not give the key away), read as `openssl base64` of a signature
      if (Buffer.from(piece.join(""), "base64").length === 256) continue;
      expect(redactShapes(`${piece.join("\n")}\n`)).toBe(`${H}\n`);
    }
  });
});

test("an OpenPGP secret key's last lines, from any line above its closing signature packet, stay hidden", () => {
  // a secret key packet's bytes, then a version 4 signature packet (old format, two length bytes), as gpg exports a key without a passphrase
  const packets = Buffer.concat([randomBytes(600), Buffer.from([0x89, 0x01, 0x1c, 0x04]), randomBytes(283)]);
  const lines = wrapped(packets, 64);
  for (let from = 0; from * 48 < 600; from++) expect(redactShapes(`${lines.slice(from).join("\n")}\n`)).toBe(`${H}\n`);
});

describe("long lines of base64", () => {
  const atob = globalThis.atob;
  afterEach(() => {
    globalThis.atob = atob;
  });
  test("random base64 in lines of 300 (a JSON's or minified asset's data) is decoded nowhere", () => {
    const text = `${wrapped(randomBytes(75_000), 300).join("\n")}\n`;
    let decoded = 0;
    globalThis.atob = (data: string) => {
      decoded += data.length;
      return atob(data);
    };
    expect(redactShapes(text)).toBe(text);
    // each line's first 32 characters tell it opens no key; before, each line was decoded whole four times
    expect(decoded).toBeLessThan(text.length / 4);
  });
});

describe("a line without a digit goes on a run of a key's width (about one in 50,000 lines of base64 has none)", () => {
  const body = (pem: string) => pem.split("\n").filter((l) => /^[A-Za-z0-9+/]{64}$/.test(l));
  /** `line` with its digits turned into letters: still base64 of the width, with two kinds of character */
  const noDigits = (line: string) => line.replace(/\d/g, (d) => "ghijklmnop"[Number(d)]!);
  test("a key's middle lines (sed -n 5,20p), one of them without a digit: all hidden, that line too", () => {
    const lines = body(RSA).slice(4, 20);
    lines[8] = noDigits(lines[8]!);
    const text = `${lines.join("\n")}\n`;
    const out = redactShapes(text);
    expect(out).not.toContain(lines[8]!);
    expect(out).not.toContain(lines[15]!);
  });
  test("300 lines of openssl base64, line 150 without a digit: shown whole, not its first 150 lines taken for a key", () => {
    const lines = wrapped(Buffer.from(Array.from({ length: 14_400 }, (_, i) => (i * 7919 + (i >> 3) * 104_729) & 0xff)), 64);
    lines[150] = noDigits(lines[150]!);
    const text = `${lines.join("\n")}\n`;
    expect(redactShapes(text)).toBe(text);
  });
});
