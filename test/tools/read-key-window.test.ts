// read_file knows the whole file (x78 #3): a window that starts or ends inside a private key block
// shows the block hidden, numbered with its BEGIN line, as a read of the whole file does, and its
// note reads on past the key; without hiding (redact_secrets = false) the lines are shown. The key
// is a fake: base64 filler between a PKCS#8 key's BEGIN and END lines.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { redactShapes } from "../../src/config/secret-shapes.ts";
import type { ToolContext } from "../../src/kernel/tool.ts";
import { createReadFileTool } from "../../src/tools/read-file.ts";
import { callTool } from "../helpers/call-tool.ts";
import { DETECT_PY, PEM_GO } from "../helpers/key-code.ts";

const BODY = Array.from({ length: 26 }, (_, i) => `Qk9EWQ${String(i).padStart(2, "0")}`.padEnd(64, "x"));
const KEY = ["-----BEGIN PRIVATE KEY-----", ...BODY, "-----END PRIVATE KEY-----"]; // lines 1–28
const H = "[secret: private-key]";
let dir: string;
let ctx: ToolContext;
// a tool for each read: one that saw lines before answers a re-read of them with a note
const read = (args: Record<string, unknown>, redact = (text: string) => redactShapes(text)) => callTool(createReadFileTool({ redact }), args, ctx);

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "hey-read-key-"));
  ctx = { cwd: dir, signal: new AbortController().signal };
  writeFileSync(join(dir, "server.key"), `${KEY.join("\n")}\n`);
  // a config file whose key sits in an indented block, lines 4–31, with lines after it
  writeFileSync(join(dir, "pem.go"), PEM_GO);
  writeFileSync(join(dir, "detect.py"), DETECT_PY);
  // a key cut short: no END line, then other text
  writeFileSync(join(dir, "cut.txt"), [...KEY.slice(0, 10), "$ ls", "src", ""].join("\n"));
  writeFileSync(join(dir, "conf.yaml"), ["name: app", "tls:", "  key: |", ...KEY.map((l) => `    ${l}`), "  after: yes", "last: 1", ""].join("\n"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("a window inside a key shows it hidden from its BEGIN line, and no note to page through it", async () => {
  const { output } = await read({ path: "server.key", offset: 2, limit: 5 });
  expect(output).toBe(`1\t${H}`);
});

test("a window that ends inside a key hides it to its END line, and the note reads on after it", async () => {
  expect((await read({ path: "conf.yaml", offset: 2, limit: 4 })).output).toBe(`2\ttls:\n3\t  key: |\n4\t    ${H}\n… 2 more lines; use offset=32`);
});

test("a window that starts inside a key shows the lines after its END line", async () => {
  expect((await read({ path: "conf.yaml", offset: 20 })).output).toBe(` 4\t    ${H}\n32\t  after: yes\n33\tlast: 1`);
});

test("a window that ends just before a key, or starts just after it, is as it was", async () => {
  expect((await read({ path: "conf.yaml", limit: 3 })).output).toBe("1\tname: app\n2\ttls:\n3\t  key: |\n… 30 more lines; use offset=4");
  expect((await read({ path: "conf.yaml", offset: 32 })).output).toBe("32\t  after: yes\n33\tlast: 1");
});

test("with hiding off, the window's lines are shown", async () => {
  const { output } = await read({ path: "server.key", offset: 2, limit: 2 }, (text) => text);
  expect(output).toBe(`2\t${BODY[0]}\n3\t${BODY[1]}\n… 25 more lines; use offset=4`);
});

// x82 #1: an armour line in code is no key; the window shows the code, and its note pages on
test("a window of code after a header string shows that code, and pages on", async () => {
  expect((await read({ path: "pem.go", offset: 100, limit: 3 })).output).toBe(
    "100\tfunc f96(x int) int { return x + 96 }\n101\tfunc f97(x int) int { return x + 97 }\n102\tfunc f98(x int) int { return x + 98 }\n… 102 more lines; use offset=103",
  );
  expect((await read({ path: "pem.go", offset: 1, limit: 5 })).output).toBe(
    '1\tpackage pem\n2\t\n3\tconst begin = "-----BEGIN RSA PRIVATE KEY-----"\n4\tfunc f0(x int) int { return x + 0 }\n5\tfunc f1(x int) int { return x + 1 }\n… 199 more lines; use offset=6',
  );
});

test("a header in a detector with no END line hides nothing after it", async () => {
  expect((await read({ path: "detect.py", offset: 2, limit: 3 })).output).toBe(
    '2\t    if line.startswith("-----BEGIN OPENSSH PRIVATE KEY-----"):\n3\t        return True\n4\t    return False\n… 3 more lines; use offset=5',
  );
});

test("a key cut short is hidden to its last body line, and the note reads on after it", async () => {
  expect((await read({ path: "cut.txt", offset: 3, limit: 2 })).output).toBe(`1\t${H}\n… 2 more lines; use offset=11`);
  expect((await read({ path: "cut.txt", offset: 9 })).output).toBe(` 1\t${H}\n11\t$ ls\n12\tsrc`);
});
