// The Homebrew formula generator: its output is valid Ruby, and evaluated against a stand-in
// Formula class it installs, for each of macOS/Linux × arm/intel, the release asset whose
// checksum SHA256SUMS gives.
import { afterAll, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { formula } from "../../scripts/homebrew.ts";
import { formatSums, parseSums, REPO } from "../../src/upgrade/release.ts";
import { assetName, TARGETS } from "../../src/upgrade/targets.ts";
import { tempDir } from "../helpers/e2e.ts";
import { testNeeding } from "../helpers/tools.ts";

const dir = tempDir("hey-homebrew-");
afterAll(() => dir.remove());

const sums = new Map(TARGETS.map((t) => [assetName(t.id), new Bun.CryptoHasher("sha256").update(t.id).digest("hex")]));
const sumsFile = join(dir.path, "SHA256SUMS");
writeFileSync(sumsFile, formatSums(sums));
const out = join(dir.path, "Formula", "hey.rb");
const base = `https://github.com/${REPO}/releases/download/v1.2.3`;

const expected = [
  ["macos", "arm", `${base}/hey-darwin-arm64.tar.gz`, sums.get("hey-darwin-arm64.tar.gz")],
  ["macos", "intel", `${base}/hey-darwin-x64.tar.gz`, sums.get("hey-darwin-x64.tar.gz")],
  ["linux", "arm", `${base}/hey-linux-arm64.tar.gz`, sums.get("hey-linux-arm64.tar.gz")],
  ["linux", "intel", `${base}/hey-linux-x64.tar.gz`, sums.get("hey-linux-x64.tar.gz")],
];

// Records what the formula declares instead of installing anything.
const HARNESS = `
require "json"
class Formula
  @@seen = { "platforms" => [] }
  def self.seen = @@seen
  %w[desc homepage version license].each { |k| define_singleton_method(k) { |v| @@seen[k] = v } }
  def self.on_macos = (@os = "macos"; yield)
  def self.on_linux = (@os = "linux"; yield)
  def self.on_arm = (@cpu = "arm"; yield)
  def self.on_intel = (@cpu = "intel"; yield)
  def self.url(u) = @@seen["platforms"] << [@os, @cpu, u]
  def self.sha256(s) = @@seen["platforms"].last << s
  def self.test = @@seen["test"] = true
  def self.conflicts_with(name, because:) = (@@seen["conflicts"] ||= []) << [name, because]
end
load ARGV[0]
puts JSON.generate(Formula.seen.merge("class" => Object.const_defined?(:Hey) && Hey.superclass.name))
`;

const CONFLICT = "hey is also the name of rakyll's HTTP load generator (homebrew/core hey); both install a `hey` command";

function generate(): string {
  const run = Bun.spawnSync([
    process.execPath,
    join(import.meta.dir, "..", "..", "scripts", "homebrew.ts"),
    "--sums",
    sumsFile,
    "--version",
    "v1.2.3",
    "--out",
    out,
  ]);
  expect(run.stderr.toString()).toBe("");
  expect(run.exitCode).toBe(0);
  return readFileSync(out, "utf8");
}

test("bun scripts/homebrew.ts writes the formula from SHA256SUMS, declaring the conflict with the other hey", () => {
  const text = generate();
  // checked without Ruby: every url with the sha256 right after it
  const pairs = [...text.matchAll(/url "([^"]+)"\n\s+sha256 "([0-9a-f]{64})"/g)].map((m) => [m[1], m[2]]);
  expect(pairs).toEqual(expected.map(([, , url, sha]) => [url, sha]));
  for (const [url, sha] of pairs) expect(sums.get(url!.split("/").pop()!)).toBe(sha!);
  expect(text).toContain(`  conflicts_with "hey", because: "${CONFLICT}"\n`);
});

testNeeding(["ruby"])("the formula is valid Ruby and, evaluated, declares each platform's asset and checksum", () => {
  const text = generate();
  expect(text).toContain("class Hey < Formula");
  const ruby = Bun.which("ruby")!;
  const syntax = Bun.spawnSync([ruby, "-c", out]);
  expect(syntax.stdout.toString()).toBe("Syntax OK\n");
  const harness = join(dir.path, "harness.rb");
  writeFileSync(harness, HARNESS);
  const evaluated = Bun.spawnSync([ruby, harness, out]);
  expect(evaluated.stderr.toString()).toBe("");
  expect(JSON.parse(evaluated.stdout.toString())).toEqual({
    class: "Formula",
    desc: "Minimal terminal AI coding agent in one binary",
    homepage: `https://github.com/${REPO}`,
    version: "1.2.3",
    license: "MIT",
    platforms: expected,
    test: true,
    conflicts: [["hey", CONFLICT]],
  });
});

test("a SHA256SUMS without a platform's archive is an error naming it", () => {
  const partial = parseSums(formatSums(sums));
  partial.delete("hey-linux-arm64.tar.gz");
  expect(() => formula({ version: "1.2.3", repo: REPO, sums: partial })).toThrow("SHA256SUMS lists no hey-linux-arm64.tar.gz");
});

test("the committed tap formula is what the generator writes for its own checksums", () => {
  const committed = readFileSync(join(import.meta.dir, "..", "..", "packaging", "homebrew", "Formula", "hey.rb"), "utf8");
  const version = /version "([^"]+)"/.exec(committed)![1]!;
  const own = new Map([...committed.matchAll(/url "[^"]+\/([^/"]+)"\n\s+sha256 "([0-9a-f]{64})"/g)].map((m) => [m[1]!, m[2]!]));
  expect(formula({ version, repo: REPO, sums: own })).toBe(committed);
});
