// Every tool result goes through redactShapes, so a line a repository may hold (minified JS, a
// lockfile, a generated blob) must not stall hey. Each input below is a long line of one pattern's
// own pieces (or `base64` of a bundle of certificates), then a secret that must still be hidden. The
// old code read on to the line's end from every piece: on this 2-core machine each input took 10 s
// to over two minutes; the new code takes 1–80 ms once compiled (the faster of two runs is taken, as
// the first also compiles it), 250 ms with the machine's load at 11. The bound, 2 s, is at most a
// fifth of the old time and 8 times the new one under that load: a ratio, not a tight timing.
import { describe, expect, test } from "bun:test";
import { generateKeyPairSync } from "node:crypto";
import { redactShapes } from "../../src/config/secret-shapes.ts";

const BOUND_MS = 2000;

const pem = () => generateKeyPairSync("ec", { namedCurve: "prime256v1" }).privateKey.export({ type: "pkcs8", format: "pem" }).toString();

/** The redaction of `text` and how long it took: the faster of two runs, but one far over the bound (the old code's seconds) is not run again. */
function timed(text: string): { out: string; ms: number } {
  const once = () => {
    const start = performance.now();
    const out = redactShapes(text);
    return { out, ms: performance.now() - start };
  };
  const first = once();
  if (first.ms > 3 * BOUND_MS) return first;
  const second = once();
  return second.ms < first.ms ? second : first;
}

describe("a long line of one pattern's pieces is read in linear time, and the secret after it is hidden", () => {
  test.each([
    // a dotted name whose parts hold `-`: read from every `-` to the line's end (250 KB: 15 s)
    ["`a-a.` (dotted names)", "a-a.".repeat(62_500), "my-app.db.password=Zq8vN3kL1pX7", "my-app.db.password=[secret: password]"],
    ["`a-1-`", "a-1-".repeat(100_000), "API_KEY=Zq8vN3kL1pX7", "API_KEY=[secret: API_KEY]"],
    // each name's value ran to the end of the run, read again for every name in it (400 KB: 33 s)
    ["`token=~` (values that are paths)", "token=~".repeat(57_000), "GITHUB_TOKEN=Zq8vN3kL1pX7", "GITHUB_TOKEN=[secret: GITHUB_TOKEN]"],
    [
      "`xToken=ab=` ending in `:` (values judged as text)",
      `${"xToken=ab=".repeat(25_000)}:`,
      "clientSecret=Zq8vN3kL1pX7",
      "clientSecret=[secret: clientSecret]",
    ],
    // the blanks around a name/value pair's comma were split every way (50 KB: 10 s)
    [
      "blanks after `name: x`",
      `name: x${" ".repeat(50_000)}z`,
      "- name: DB_PASSWORD\n  value: Zq8vN3kL1pX7",
      "- name: DB_PASSWORD\n  value: [secret: DB_PASSWORD]",
    ],
    // a netrc line read from every `machine` to the line's end (400 KB: over two minutes)
    [
      "`machine `",
      "machine ".repeat(50_000),
      "machine example.com login ana password Zq8vN3kL1pX7",
      "machine example.com login ana password [secret: password]",
    ],
  ])("%s", (_name, filler, secret, hidden) => {
    const { out, ms } = timed(`${filler}\n${secret}`);
    expect(out).toBe(`${filler}\n${hidden}`);
    expect(ms).toBeLessThan(BOUND_MS);
  });
});

describe("a long line of private-key armour is read in linear time, and the key after it is hidden", () => {
  const key = pem();
  const lines = key.trimEnd().split("\n");

  test("END armours on one line, then a key's last lines (100 KB: 11 s)", () => {
    const filler = "-----END PRIVATE KEY-----".repeat(4_000);
    const { out, ms } = timed(`${filler}\n${lines.slice(2).join("\n")}\n`);
    expect(out).toBe(`${filler}\n[secret: private-key]\n`);
    expect(ms).toBeLessThan(BOUND_MS);
  });

  test("BEGIN armours with a short body on one line, then a whole key (150 KB: 10 s)", () => {
    const filler = "-----BEGIN PRIVATE KEY-----AAAA!".repeat(4_700);
    const { out, ms } = timed(`${filler}\n${key}`);
    expect(out).toBe(`${filler}\n[secret: private-key]\n`);
    expect(ms).toBeLessThan(BOUND_MS);
  });

  test("`base64` of a bundle of certificates, then a key in base64 (1 MB: 9 s)", () => {
    const body = `${"MIIBszCCAVmgAwIBAgIUQ2x0ZXN0LWNlcnRpZmljYXRlLWJvZHktbGluZS0xMjM0NTY3".slice(0, 64)}\n`;
    const certificate = `-----BEGIN CERTIFICATE-----\n${body.repeat(3)}-----END CERTIFICATE-----\n`;
    const wrapped = (text: string) =>
      btoa(text)
        .match(/.{1,76}/g)!
        .join("\n");
    const filler = wrapped(certificate.repeat(3_000));
    const { out, ms } = timed(`${filler}\n\n${wrapped(key)}\n`);
    expect(out).toBe(`${filler}\n\n[secret: private-key]\n`);
    expect(ms).toBeLessThan(BOUND_MS);
  });

  test("`-----BEGIN` in base64 many times in one token, then a key in base64 (100 KB: 10 s)", () => {
    const filler = "LS0tLS1CRUdJT".repeat(7_700);
    const { out, ms } = timed(`${filler}\n\n${btoa(key)}\n`);
    expect(out).toBe(`${filler}\n\n[secret: private-key]\n`);
    expect(ms).toBeLessThan(BOUND_MS);
  });

  test("`base64` of `-----BEGIN` glued many times (`LS0tLS1CRUdJTg==`…), then a key in base64 glued on (200 KB)", () => {
    // each part after a `=` is read from its own start (where its groups of four start), found once
    // while reading on, not looked for again from every place (x110: 18 s). The parts before the key, read with it,
    // decode to its BEGIN line too and are hidden with it: more than the key, never less
    const filler = "LS0tLS1CRUdJTg==".repeat(12_501);
    // an Ed25519 key: too short for the fallback that catches long runs of a key's base64 (key-runs.ts)
    const encoded = btoa(generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).toString());
    const { out, ms } = timed(`${filler}${encoded}\n`);
    expect(out.endsWith("[secret: private-key]\n")).toBe(true);
    for (let at = 0; at + 24 <= encoded.length; at += 24) expect(out).not.toContain(encoded.slice(at, at + 24));
    expect(ms).toBeLessThan(BOUND_MS);
  });
});
