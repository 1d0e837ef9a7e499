// The key table is the one home of every config key: the README's reference is written from it,
// and each row is consistent with the checks derived from it.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { MCP_SERVER_KEYS, PROVIDER_KEYS, resolveTable, SECTIONS, type Key } from "../../src/config/keys.ts";
import { configReference } from "../../src/config/reference.ts";
import { checkRange, checkValue, keyAt } from "../../src/config/schema.ts";
import { withReference } from "../../scripts/config-reference.ts";

const README = readFileSync(join(import.meta.dir, "..", "..", "README.md"), "utf8");

test("README.md holds the reference as the key table writes it (bun scripts/config-reference.ts)", () => {
  expect(withReference(README, configReference())).toBe(README);
});

const rows: [string, string[], Key][] = [
  ...Object.entries(SECTIONS).flatMap(([section, keys]) =>
    Object.entries(keys as Record<string, Key>).map(([k, spec]): [string, string[], Key] => [`[${section}] ${k}`, [section, k], spec]),
  ),
  ...Object.entries(PROVIDER_KEYS as Record<string, Key>).map(([k, spec]): [string, string[], Key] => [`[provider.NAME] ${k}`, ["provider", "x", k], spec]),
  ...Object.entries(MCP_SERVER_KEYS as Record<string, Key>).map(([k, spec]): [string, string[], Key] => [`[mcp.NAME] ${k}`, ["mcp", "servers", "x", k], spec]),
];

test.each(rows)("%s: documented, found where the checks look, its default a value it accepts", (_name, path, spec) => {
  expect(spec.doc.length).toBeGreaterThan(10);
  expect(keyAt(path)).toBe(spec);
  if (spec.range) expect(["positive", "count", "fraction"]).toContain(spec.kind);
  if ("default" in spec) {
    expect(checkValue(spec.kind, spec.default, "default")).toBeUndefined();
    expect(checkRange(path, spec.default, "default")).toBeUndefined();
  }
});

test("a range is enforced, and named in the message", () => {
  expect(checkRange(["agent", "max_turns"], 10_001, "[agent] max_turns")).toBe("[agent] max_turns must be between 1 and 10000, got 10001");
  expect(checkRange(["provider", "x", "max_tokens"], 0, "[provider.x] max_tokens")).toBe("[provider.x] max_tokens must be between 1 and 10000000, got 0");
  expect(checkRange(["mcp", "servers", "fs", "timeout_ms"], 99, "t")).toBe("t must be between 100 and 86400000, got 99");
});

test("a table's settings: the file's values, else the defaults, camelCase; an empty string where there is no default is unset", () => {
  expect(resolveTable(SECTIONS.tools, { bash_timeout_ms: 5_000, shell: "" })).toEqual({
    bashFilter: "builtin",
    bashTimeoutMs: 5_000,
    keepEnv: [],
    redactSecrets: true,
  });
  const a = resolveTable(SECTIONS.tools, undefined);
  const b = resolveTable(SECTIONS.tools, undefined);
  a.keepEnv.push("X");
  expect(b.keepEnv).toEqual([]); // defaults are copies, never shared
});
