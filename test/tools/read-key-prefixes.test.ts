// read_file hides a private key whatever its lines carry before the armour (x83 #1): a key commented
// out in code, quoted, or kept as a log's lines is hidden in a read of the whole file and in a window
// that cuts it, shown as one line numbered with its BEGIN line. The key is a fake: base64 filler
// between a PKCS#8 key's armour lines.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { redactShapes } from "../../src/config/secret-shapes.ts";
import type { ToolContext } from "../../src/kernel/tool.ts";
import { createReadFileTool } from "../../src/tools/read-file.ts";
import { callTool } from "../helpers/call-tool.ts";

const BODY = [...Array.from({ length: 13 }, (_, i) => `MIIE${i}`.padEnd(64, "Qk9EWQ")), "Ab9x=="];
const KEY = ["-----BEGIN PRIVATE KEY-----", ...BODY, "-----END PRIVATE KEY-----"];
const H = "[secret: private-key]";
const PREFIXES: [string, string][] = [
  ["hash", "# "],
  ["slashes", "// "],
  ["star", " * "],
  ["quote", "> "],
  ["kubectl", "[pod/api-1/app] "],
];
let dir: string;
let ctx: ToolContext;
const read = (args: Record<string, unknown>) => callTool(createReadFileTool({ redact: (text) => redactShapes(text) }), args, ctx);

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "hey-read-key-prefix-"));
  ctx = { cwd: dir, signal: new AbortController().signal };
  // lines 1–2 code, 3–18 the key, 19 code
  for (const [name, prefix] of PREFIXES)
    writeFileSync(join(dir, `${name}.txt`), ["import os", "", ...KEY.map((l) => `${prefix}${l}`), "print(os.name)", ""].join("\n"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.each(PREFIXES)("a key behind %p", (name, prefix) => {
  test("a whole read, as the tool pipeline hides it, shows it hidden", async () => {
    const { output } = await read({ path: `${name}.txt` });
    expect(redactShapes(output)).toBe(` 1\timport os\n 2\t\n 3\t${prefix}${H}\n19\tprint(os.name)`);
  });

  test("a window inside it shows it hidden, and reads on after it", async () => {
    const { output } = await read({ path: `${name}.txt`, offset: 4, limit: 3 });
    expect(output).toBe(`3\t${prefix}${H}\n… 1 more line; use offset=19`);
  });
});
