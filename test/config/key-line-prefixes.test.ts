// A private key is hidden whatever its lines carry before the armour (x83 #1): grep's and awk's
// line numbers, a key commented out or quoted, log and kubectl prefixes, a script that writes it
// line by line. The prefix on the BEGIN line is the key's own; its other lines are judged without
// it. The key is a fake: base64 filler between a PKCS#8 key's armour lines.
import { describe, expect, test } from "bun:test";
import { redactShapes } from "../../src/config/secret-shapes.ts";

const BODY = [...Array.from({ length: 13 }, (_, i) => `MIIE${i}`.padEnd(64, "Qk9EWQ")), "Ab9x=="];
const KEY = ["-----BEGIN PRIVATE KEY-----", ...BODY, "-----END PRIVATE KEY-----"];
const H = "[secret: private-key]";

/** Each way of writing a key's lines: what goes before line `n` (1-based) of the key, and after it. */
const PREFIXES: [string, (n: number) => string, (n: number) => string][] = [
  ["grep -n . server.key", (n) => `${n}:`, () => ""],
  ["grep -n -A40 BEGIN server.key", (n) => (n === 1 ? "1:" : `${n}-`), () => ""],
  ["awk '{print NR\": \"$0}'", (n) => `${n}: `, () => ""],
  ["commented out with #", () => "# ", () => ""],
  ["commented out with //", () => "// ", () => ""],
  ["inside a /* */ comment", () => " * ", () => ""],
  ["quoted in a mail", () => "> ", () => ""],
  ["journal lines", (n) => `Dec 06 10:00:${String(n).padStart(2, "0")} host app[12]: `, () => ""],
  ["kubectl logs --prefix", () => "[pod/api-1/app] ", () => ""],
  ["a script that echoes it", () => 'echo "', (n) => (n === 1 ? '" > k' : '" >> k')],
];
const written = (prefix: (n: number) => string, suffix: (n: number) => string, lines: string[]) =>
  lines.map((line, i) => `${prefix(i + 1)}${line}${suffix(i + 1)}`).join("\n");

describe("a key whatever its line prefix", () => {
  test.each(PREFIXES)("%s: hidden from its BEGIN line to its END line", (_, prefix, suffix) => {
    const text = `$ run\n${written(prefix, suffix, KEY)}\ndone`;
    expect(redactShapes(text)).toBe(`$ run\n${prefix(1)}${H}${suffix(KEY.length)}\ndone`);
  });

  test.each(PREFIXES.filter(([name]) => !name.includes("echo")))("%s, cut short by head: hidden to its last body line", (_, prefix, suffix) => {
    const text = written(prefix, suffix, KEY.slice(0, 8));
    expect(redactShapes(text)).toBe(`${prefix(1)}${H}`);
  });
});

describe("what is not a key stays", () => {
  test.each([
    [
      "commented code between commented armour lines",
      '# "-----BEGIN RSA PRIVATE KEY-----"\n# if line.startswith(x):\n#     return True\n# "-----END RSA PRIVATE KEY-----"',
    ],
    ["an elided body after a prefix", "1:-----BEGIN RSA PRIVATE KEY-----\n2:MIIEpAIBAAKCAQEA...\n3:-----END RSA PRIVATE KEY-----"],
    ["short words up to an END line", 'x = ["-----BEGIN EC PRIVATE KEY-----",\n  "abc", "def",\n  "-----END EC PRIVATE KEY-----"]'],
  ])("%s", (_, text) => {
    expect(redactShapes(text)).toBe(text);
  });
});

describe("a key's end without its BEGIN line, whatever its line prefix", () => {
  test.each(PREFIXES.filter(([name]) => !name.includes("echo")))("%s, as tail shows it", (_, prefix, suffix) => {
    const lines = KEY.map((line, i) => `${prefix(i + 1)}${line}${suffix(i + 1)}`).slice(-5);
    const hidden = redactShapes(lines.join("\n"));
    for (const line of BODY) expect(hidden).not.toContain(line);
    expect(hidden).toEndWith(H);
  });

  test("a base64 line above code that names the END armour stays", () => {
    const text = 'const cert = "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA"\nif (s.endsWith("-----END RSA PRIVATE KEY-----")) {';
    expect(redactShapes(text)).toBe(text);
  });
});

test("a key wrapped narrower than 16 characters a line is hidden whole", () => {
  const narrow = BODY.join("").match(/.{1,12}/g)!;
  const hidden = redactShapes(["-----BEGIN PRIVATE KEY-----", ...narrow, "-----END PRIVATE KEY-----"].join("\n"));
  expect(hidden).toBe(H);
  expect(redactShapes(["-----BEGIN PRIVATE KEY-----", ...narrow.slice(0, 9), "$ ls"].join("\n"))).toBe(`${H}\n$ ls`);
});

test("a key parser's code between the armour strings stays, long names and all", () => {
  const text = [
    'if (line === "-----BEGIN RSA PRIVATE KEY-----") {',
    "  const privateKeyBase64Content = readLines(input)",
    "  anotherVeryLongIdentifierName = decodeTheContent(x)",
    "  yetAnotherLongIdentifierHere2 = 1",
    '} else if (line === "-----END RSA PRIVATE KEY-----") {',
  ].join("\n");
  expect(redactShapes(text)).toBe(text);
});
