// x90: pieces of a private key with neither armour line, as bash prints them — its middle lines
// (`sed -n 10,12p`, `head -c | tail -c`), its lines behind any prefix (`grep -n`, `# `, a log's time
// and host), the rest of a base64 key line past read_file's cut (`sed | cut -c 2001-6000`) — are
// hidden by their shape; ordinary base64 stays. The keys are made by node:crypto, the OpenSSH body
// is random bytes wrapped as ssh-keygen wraps them.
import { describe, expect, test } from "bun:test";
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { redactShapes } from "../../src/config/secret-shapes.ts";

const H = "[secret: private-key]";
const RSA = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs1", format: "pem" }).toString();
const EC = generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({ type: "pkcs8", format: "pem" }).toString();
const ED = generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).toString();
const OPENSSH = `-----BEGIN OPENSSH PRIVATE KEY-----\n${`b3BlbnNzaC1rZXktdjE${randomBytes(1800).toString("base64")}`.match(/.{1,70}/g)!.join("\n")}\n-----END OPENSSH PRIVATE KEY-----\n`;
/** Lines `from` to `to` (1-based), as `sed -n FROM,TOp` prints them. */
const sed = (text: string, from: number, to: number) =>
  `${text
    .split("\n")
    .slice(from - 1, to)
    .join("\n")}\n`;
/** Random base64 wrapped at `width`, as a fixture or `base64` writes it. */
const wrapped = (bytes: number, width: number) =>
  randomBytes(bytes)
    .toString("base64")
    .match(new RegExp(`.{1,${width}}`, "g"))!
    .join("\n");

describe("pieces of a key are hidden", () => {
  test.each([
    ["sed -n 10,12p of an RSA key", sed(RSA, 10, 12), `${H}\n`],
    ["sed -n 5,6p of an RSA key: two lines", sed(RSA, 5, 6), `${H}\n`],
    ["head -c 600 | tail -c 300, cut inside its lines", RSA.slice(300, 600), H],
    ["its last body lines without the END line", sed(RSA, 20, RSA.split("\n").length - 2), `${H}\n`],
    ["an OpenSSH key's middle lines, 70 wide", sed(OPENSSH, 6, 9), `${H}\n`],
    ["sed -n 10,12p on Windows line ends", sed(RSA, 10, 12).replaceAll("\n", "\r\n"), `${H}\r\n`],
    [
      "a diff's lines from a key's middle",
      `@@ -9,3 +9,3 @@\n${sed(RSA, 10, 12)
        .trimEnd()
        .split("\n")
        .map((l) => `+${l}`)
        .join("\n")}`,
      `@@ -9,3 +9,3 @@\n+${H}`,
    ],
  ] as [string, string, string][])("%s", (_, text, hidden) => {
    expect(redactShapes(text)).toBe(hidden);
  });

  test.each([
    ["grep -n", (n: number) => `${n}:`],
    ["cat -n", (n: number) => `${String(n).padStart(6)}\t`],
    ["commented out with #", () => "# "],
    ["a log's time and host", (n: number) => `2026-12-07T01:00:${String(n).padStart(2, "0")}Z web-1 app[42]: `],
    ["kubectl logs --prefix", () => "[pod/api-1/app] "],
  ])("middle and first lines behind %s", (_, prefix) => {
    const numbered = (text: string) =>
      text
        .trimEnd()
        .split("\n")
        .map((line, i) => `${prefix(i + 1)}${line}`)
        .join("\n");
    expect(redactShapes(numbered(sed(RSA, 10, 13)))).toBe(`${prefix(1)}${H}`);
    expect(redactShapes(numbered(sed(EC, 2, 3)))).toBe(`${prefix(1)}${H}`);
    expect(redactShapes(numbered(sed(RSA, 2, 4)))).toBe(`${prefix(1)}${H}`);
    expect(redactShapes(numbered(sed(ED, 2, 2)))).toBe(`${prefix(1)}${H}`);
  });

  test("the rest of a base64 key line past read_file's 2,000 characters", () => {
    const rsa4096 = generateKeyPairSync("rsa", { modulusLength: 4096 }).privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    const line = `    client-key-data: ${btoa(rsa4096)}`;
    for (const from of [2000, 2001, 2002, 2003]) expect(redactShapes(line.slice(from, from + 4000))).toBe(H);
  });
});

describe("what is not a key stays", () => {
  const PNG = randomBytes(60).toString("base64");
  test.each([
    ["a short data: URI", `<img src="data:image/png;base64,${PNG}">`],
    [
      "sha512 integrity strings of a package-lock.json",
      Array.from({ length: 4 }, (_, i) => `      "integrity": "sha512-${randomBytes(64).toString("base64")}",\n      "dev": ${i % 2 === 0}`).join("\n"),
    ],
    ["a yarn.lock's integrity lines", Array.from({ length: 3 }, () => `  integrity sha512-${randomBytes(64).toString("base64")}`).join("\n")],
    ["a JWT header example", "header: eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9\npayload: eyJzdWIiOiIxMjM0NTY3ODkwIn0"],
    [
      "a base64 fixture in code, quoted lines",
      wrapped(400, 64)
        .split("\n")
        .map((l) => `  "${l}" +`)
        .join("\n"),
    ],
    ["base64 output, wrapped at 76", wrapped(1200, 76)],
    ["sha256 digests, one a line", Array.from({ length: 4 }, () => randomBytes(32).toString("hex")).join("\n")],
    ["a certificate, whole", `-----BEGIN CERTIFICATE-----\n${wrapped(900, 64)}\n-----END CERTIFICATE-----`],
    ["a certificate's last lines", `${wrapped(300, 64)}\n-----END CERTIFICATE-----`],
    [
      "a public key, grep -n'd",
      `1:-----BEGIN PUBLIC KEY-----\n${wrapped(290, 64)
        .split("\n")
        .map((l, i) => `${i + 2}:${l}`)
        .join("\n")}\n9:-----END PUBLIC KEY-----`,
    ],
    ["a signature", `-----BEGIN SSH SIGNATURE-----\n${wrapped(400, 70)}\n-----END SSH SIGNATURE-----`],
    ["a long base64 image, one line", `{"image": "${randomBytes(6000).toString("base64")}"}`],
    ["a CA bundle in base64, past the cut", btoa(`-----BEGIN CERTIFICATE-----\n${wrapped(1000, 64)}\n-----END CERTIFICATE-----\n`.repeat(4)).slice(2000, 6000)],
  ])("%s", (_, text) => {
    expect(redactShapes(text)).toBe(text);
  });
});
