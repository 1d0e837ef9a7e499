// A saved copy hides what hiding the whole output hides when a line is longer than the pieces it is
// read and hidden in (x142): one-line JSON (`kubectl get secret -o json | jq -c`, `terraform show
// -json`) with a secret across a piece's edge, and text whose characters a cut could split.
import { afterAll, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createRedaction, redactText } from "../../src/config/secrets.ts";
import type { Captured } from "../../src/tools/capture.ts";
import { saveFullOutput } from "../../src/tools/save-full-output.ts";
import { PIECE_BYTES } from "../../src/tools/saved-output.ts";
import { tempDir } from "../helpers/e2e.ts";

const dir = tempDir("hey-saved-long-line-");
afterAll(() => dir.remove());

const KNOWN = "s3cr3t-V4lue-0123456789abcdefXYZ";
const GITHUB = `ghp_${"A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"}`;
const AWS = "AKIAIOSFODNN7EXAMPLQ";
/** A known secret that is not ASCII: read as Latin-1, its bytes are other characters. */
const UNICODE = "pässwört-ünïcödé-Ωμέγα-2024";

/** What the file holds for `text` spilled as stdout, hidden with redactText as the result is. */
async function saved(name: string, text: string): Promise<{ file: string; whole: string }> {
  const spill = join(dir.path, `${name}.spill`);
  writeFileSync(spill, text);
  const bytes = Buffer.byteLength(text);
  const stdout: Captured = { head: "", tail: "", hidden: { lines: 0, bytes }, bytes, foreign: 0, spill };
  const stderr: Captured = { head: "", tail: "", hidden: { lines: 0, bytes: 0 }, bytes: 0, foreign: 0 };
  const r = createRedaction(
    () => [UNICODE, KNOWN],
    () => true,
  );
  const path = join(dir.path, `${name}.txt`);
  const { note } = await saveFullOutput(path, { stdout, stderr, exitCode: 0, ended: "exit" }, 0, (t) => redactText(t, r));
  expect(note).toBe(`[full output: ${path}]`);
  return { file: readFileSync(path, "utf8"), whole: `${redactText(text, r)}\n[exit code 0]\n` };
}

test.each([
  ["a known value", KNOWN, "pw"],
  ["a GitHub token", GITHUB, "token"],
  ["an AWS key id", AWS, "aws_access_key_id"],
])("a 707 KB JSON line with %s across the 512 KB mark: hidden as in the whole text", async (_, secret, field) => {
  const head = "header\n";
  const opening = `{"${field}":"`;
  const pad = 2 * PIECE_BYTES - head.length - opening.length - Math.floor(secret.length / 2);
  const filler = '{"k":"v"},'.repeat(pad / 10 + 1).slice(0, pad);
  const text = `${head}${filler}${opening}${secret}"},${'{"k":"v"},'.repeat(20_000)}\ntail\n`;
  const { file, whole } = await saved(field, text);
  expect(file).not.toContain(secret); // old code: each was left in the file as it was
  expect(file).toBe(whole);
});

test("a line of non-ASCII text longer than a piece: no character split, a known secret that is not ASCII hidden", async () => {
  let before = `${"✓".repeat(50_000)}${UNICODE}`;
  // the first piece's edge falls inside a 3-byte ✓
  while ((PIECE_BYTES - Buffer.byteLength(before)) % 3 === 0) before = `x${before}`;
  const text = `${before}${"✓".repeat(200_000)}${UNICODE}\n`;
  const { file, whole } = await saved("unicode", text);
  expect(file).not.toContain(UNICODE); // old code: a piece cut inside a character was read as Latin-1, and kept it
  expect(file).toBe(whole);
});
