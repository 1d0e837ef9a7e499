// A `-----BEGIN … PRIVATE KEY-----` line is a private key only when key body follows it (x82 #1):
// code that names the armour line (a TLS library, a key detector, hey's own tests) is shown as it
// is, while keys in the forms files and tools write them stay hidden. The keys are fakes: base64
// filler between a key's armour lines.
import { describe, expect, test } from "bun:test";
import { redactShapes } from "../../src/config/secret-shapes.ts";
import { DETECT_PY, PEM_GO } from "../helpers/key-code.ts";

const BODY = Array.from({ length: 6 }, (_, i) => `MIIE${i}`.padEnd(64, "Qk9EWQ"));
const H = "[secret: private-key]";
describe("code that names the armour lines is shown as it is", () => {
  test.each([
    ["pem.go: the header string, code, then the footer string", PEM_GO],
    ["detect.py: the header in a test, no END line", DETECT_PY],
    ["both armour lines in one condition", 'if (s.startsWith("-----BEGIN RSA PRIVATE KEY-----") || s.endsWith("-----END RSA PRIVATE KEY-----")) {'],
    ["a list of headers", '\t"-----BEGIN RSA PRIVATE KEY-----",\n\t"-----BEGIN EC PRIVATE KEY-----",\n\t"-----END EC PRIVATE KEY-----",\n}'],
    ["prose about the format", "A key starts with -----BEGIN RSA PRIVATE KEY----- and ends with -----END RSA PRIVATE KEY----- lines."],
    ["Ruby's case, short words between", 'case line\nwhen "-----BEGIN RSA PRIVATE KEY-----"\n  start\nend\nputs line'],
    ["an elided body in docs", "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA...\n-----END RSA PRIVATE KEY-----"],
  ])("%s", (_, text) => {
    expect(redactShapes(text)).toBe(text);
  });
});

describe("keys stay hidden", () => {
  test.each([
    ["a PEM file", `-----BEGIN RSA PRIVATE KEY-----\n${BODY.join("\n")}\nAb==\n-----END RSA PRIVATE KEY-----\nafter`, `${H}\nafter`],
    ["CRLF line ends", `-----BEGIN PRIVATE KEY-----\r\n${BODY.join("\r\n")}\r\n-----END PRIVATE KEY-----\r\n`, `${H}\r\n`],
    ["cut short, then other output", `-----BEGIN PRIVATE KEY-----\n${BODY.join("\n")}\n$ ls\nsrc`, `${H}\n$ ls\nsrc`],
    [
      "a legacy encrypted key's headers",
      `-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,0A1B2C3D\n\n${BODY.join("\n")}\n-----END RSA PRIVATE KEY-----`,
      H,
    ],
    [
      "a PGP key with its checksum",
      `-----BEGIN PGP PRIVATE KEY BLOCK-----\nVersion: GnuPG v2\n\n${BODY.join("\n")}\nAbc\n=XyZ1\n-----END PGP PRIVATE KEY BLOCK-----`,
      H,
    ],
    [
      "a JSON string",
      `{"private_key": "-----BEGIN PRIVATE KEY-----\\n${BODY.join("\\n")}\\n-----END PRIVATE KEY-----\\n", "id": 1}`,
      `{"private_key": "${H}\\n", "id": 1}`,
    ],
    [
      "a JSON string cut at read_file's line limit",
      `{"private_key": "-----BEGIN PRIVATE KEY-----\\n${BODY.join("\\n")}… [line cut]`,
      `{"private_key": "${H}… [line cut]`,
    ],
    ["one line with blanks", `KEY="-----BEGIN PRIVATE KEY----- ${BODY.join(" ")} -----END PRIVATE KEY-----"`, `KEY="${H}"`],
    [
      "Go strings joined with +",
      `var k = "-----BEGIN RSA PRIVATE KEY-----\\n" +\n${BODY.map((l) => `\t"${l}\\n" +`).join("\n")}\n\t"-----END RSA PRIVATE KEY-----\\n"\nfunc f() {}`,
      `var k = "${H}\\n"\nfunc f() {}`,
    ],
    [
      "a YAML block",
      `tls:\n  key: |\n    -----BEGIN EC PRIVATE KEY-----\n${BODY.map((l) => `    ${l}`).join("\n")}\n    -----END EC PRIVATE KEY-----\n  ok: 1`,
      `tls:\n  key: |\n    ${H}\n  ok: 1`,
    ],
    [
      "grep's context lines",
      `k.pem:1:-----BEGIN PRIVATE KEY-----\n${BODY.map((l, i) => `k.pem-${i + 2}-${l}`).join("\n")}\nk.pem-8------END PRIVATE KEY-----`,
      `k.pem:1:${H}`,
    ],
    [
      "a key after code that names the header",
      `const b = "-----BEGIN RSA PRIVATE KEY-----"\nf()\nk := \`-----BEGIN RSA PRIVATE KEY-----\n${BODY.join("\n")}\n-----END RSA PRIVATE KEY-----\``,
      `const b = "-----BEGIN RSA PRIVATE KEY-----"\nf()\nk := \`${H}\``,
    ],
  ])("%s", (_, text, hidden) => {
    expect(redactShapes(text)).toBe(hidden);
  });
});
