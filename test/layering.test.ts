// The architecture as a test (STYLE.md "Shape"): the kernel and the pure modules import no vendor
// SDK and do no I/O, and each SDK is imported by exactly one file, lazily.
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const ROOT = join(import.meta.dir, "..");
const SRC = join(ROOT, "src");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(".ts"))
    .map((e) => join(e.parentPath, e.name));
}

const SDKS = ["openai", "@anthropic-ai/sdk", "@google/genai", "@modelcontextprotocol/sdk"];

/** Module specifiers a file imports, statically or dynamically, with whether the import is type-only. */
function imports(code: string): { spec: string; typeOnly: boolean; dynamic: boolean }[] {
  const out: { spec: string; typeOnly: boolean; dynamic: boolean }[] = [];
  for (const m of code.matchAll(/^\s*(import|export)\s+(type\s+)?[^;]*?\bfrom\s+["']([^"']+)["']/gms))
    out.push({ spec: m[3]!, typeOnly: Boolean(m[2]), dynamic: false });
  for (const m of code.matchAll(/^\s*import\s+["']([^"']+)["']/gm)) out.push({ spec: m[1]!, typeOnly: false, dynamic: false });
  for (const m of code.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)) out.push({ spec: m[1]!, typeOnly: false, dynamic: true });
  return out;
}

const isSdk = (spec: string) => SDKS.some((s) => spec === s || spec.startsWith(s + "/"));

describe("kernel and pure modules", () => {
  const files = [...sourceFiles(join(SRC, "kernel")), ...sourceFiles(join(SRC, "pure"))];

  test("exist", () => {
    expect(files.length).toBeGreaterThan(3);
  });

  test.each(files.map((f) => [relative(ROOT, f), f]))("%s imports no SDK and does no I/O", (_name, file) => {
    const code = readFileSync(file, "utf8");
    const bad: string[] = [];
    for (const { spec } of imports(code)) {
      if (isSdk(spec)) bad.push(`imports ${spec}`);
      if (/^(node:)?(fs|fs\/promises|child_process|net|http|https|tls|dns|os)$/.test(spec)) bad.push(`imports ${spec}`);
      if (spec.startsWith(".")) {
        const target = relative(SRC, resolve(dirname(file), spec));
        const allowed = /^(kernel|pure)\//; // the two pure layers may use each other, nothing else
        if (!allowed.test(target)) bad.push(`imports ${target}, outside its layer`);
      } else if (!spec.startsWith("node:") && !isSdk(spec)) bad.push(`imports package ${spec}`);
    }
    if (/\bBun\./.test(code)) bad.push("uses Bun.*");
    if (/\bprocess\.env\b/.test(code)) bad.push("reads process.env");
    if (/\bprocess\.(stdout|stderr|stdin|exit)\b/.test(code)) bad.push("touches process streams");
    if (/\bfetch\(/.test(code)) bad.push("calls fetch");
    expect(bad).toEqual([]);
  });
});

describe("vendor SDKs", () => {
  const all = sourceFiles(SRC);
  test.each(SDKS.map((s) => [s]))("%s is imported by at most one file, and only lazily", (sdk) => {
    const users = all.filter((f) => imports(readFileSync(f, "utf8")).some((i) => i.spec === sdk || i.spec.startsWith(sdk + "/")));
    expect(users.length).toBeLessThanOrEqual(1);
    for (const f of users) {
      const eager = imports(readFileSync(f, "utf8")).filter((i) => (i.spec === sdk || i.spec.startsWith(sdk + "/")) && !i.typeOnly && !i.dynamic);
      expect({ file: relative(ROOT, f), eager: eager.map((e) => e.spec) }).toEqual({ file: relative(ROOT, f), eager: [] });
    }
  });
});
