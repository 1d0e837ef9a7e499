// x83 #1, through dist/hey: a private key reaches the model hidden whatever its lines carry before
// the armour: `grep -n`'s numbers, `sed`'s `# `, awk's `N: `, and a key commented out in a file that
// read_file shows whole or in a window. The key is a fake: base64 filler between its armour lines.
import { expect, setDefaultTimeout, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { eachTempDir, fileModelServer, localModel, writeUserConfig } from "../helpers/fixtures.ts";
import { ensureBinary, runHey } from "../helpers/e2e.ts";
import { resultText, type Turn } from "../helpers/model-server.ts";

setDefaultTimeout(60_000);

const BODY = [...Array.from({ length: 12 }, (_, i) => `MIIE${i}`.padEnd(64, "Qk9EWQ")), "Ab9xQk9EWQ=="];
const KEY = ["-----BEGIN PRIVATE KEY-----", ...BODY, "-----END PRIVATE KEY-----"];
const H = "[secret: private-key]";
const home = eachTempDir("hey-home-");
const project = eachTempDir("hey-project-");
const model = fileModelServer((req): Turn => {
  if (req.messages.some((m) => m.role === "tool")) return { text: "done" };
  return {
    calls: [
      ["bash", { command: "grep -n . server.key" }],
      ["bash", { command: "sed 's/^/# /' server.key" }],
      ["bash", { command: `awk '{print NR": "$0}' server.key` }],
      ["read_file", { path: "commented.py", offset: 4, limit: 3 }],
      ["read_file", { path: "commented.py" }],
    ],
  };
});

test("no line of a key's body reaches the model, whatever goes before its lines", async () => {
  await ensureBinary();
  writeUserConfig(home.path, localModel(model.baseUrl));
  writeFileSync(join(project.path, "server.key"), `${KEY.join("\n")}\n`);
  writeFileSync(join(project.path, "commented.py"), ["import ssl", "", ...KEY.map((l) => `# ${l}`), "ssl.create_default_context()", ""].join("\n"));
  const run = await runHey(["-p", "look at the key"], { cwd: project.path, env: { HOME: home.path } });
  expect(run.code).toBe(0);
  const results = model.requests
    .at(-1)!
    .messages.filter((m) => m.role === "tool")
    .map((m) => resultText(m).replace(/\n\[#\w+\]$/, ""));
  expect(results).toHaveLength(5);
  for (const result of results) for (const line of BODY) expect(result).not.toContain(line);
  expect(results[0]).toStartWith(`1:${H}`);
  expect(results[1]).toStartWith(`# ${H}`);
  expect(results[2]).toStartWith(`1: ${H}`);
  expect(results[3]).toBe(`3\t# ${H}\n… 1 more line; use offset=18`);
  expect(results[4]).toBe(` 1\timport ssl\n 2\t\n 3\t# ${H}\n18\tssl.create_default_context()`);
});
