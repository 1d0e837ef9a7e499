// x82 #1, through dist/hey: code that names a private key's armour line (the reviewer's pem.go and
// detect.py) reaches the model as it is, read whole or in a window, and each window's note pages on.
import { expect, setDefaultTimeout, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { eachTempDir, fileModelServer, localModel, writeUserConfig } from "../helpers/fixtures.ts";
import { ensureBinary, runHey } from "../helpers/e2e.ts";
import { DETECT_PY, PEM_GO } from "../helpers/key-code.ts";
import { resultText, type Turn } from "../helpers/model-server.ts";

setDefaultTimeout(60_000);

const home = eachTempDir("hey-home-");
const project = eachTempDir("hey-project-");
const model = fileModelServer((req): Turn => {
  if (req.messages.some((m) => m.role === "tool")) return { text: "done" };
  return {
    calls: [
      ["read_file", { path: "pem.go", offset: 100, limit: 3 }],
      ["read_file", { path: "detect.py", offset: 2, limit: 2 }],
      ["read_file", { path: "pem.go" }], // after the window: a read of lines already shown is answered with a note
    ],
  };
});

test("code after a PEM header string reaches the model, whole and in windows", async () => {
  await ensureBinary();
  writeUserConfig(home.path, localModel(model.baseUrl));
  writeFileSync(join(project.path, "pem.go"), PEM_GO);
  writeFileSync(join(project.path, "detect.py"), DETECT_PY);
  const run = await runHey(["-p", "read the code"], { cwd: project.path, env: { HOME: home.path } });
  expect(run.code).toBe(0);
  const results = model.requests
    .at(-1)!
    .messages.filter((m) => m.role === "tool")
    .map((m) => resultText(m).replace(/\n\[#\w+\]$/, "")); // the result's id for compress
  const numbered = PEM_GO.split("\n")
    .slice(0, 204)
    .map((line, i) => `${String(i + 1).padStart(3)}\t${line}`);
  expect(results[0]).toBe(`${numbered.slice(99, 102).join("\n")}\n… 102 more lines; use offset=103`);
  expect(results[1]).toBe(`2\t${DETECT_PY.split("\n")[1]}\n3\t${DETECT_PY.split("\n")[2]}\n… 4 more lines; use offset=4`);
  expect(results[1]).toContain("-----BEGIN OPENSSH PRIVATE KEY-----");
  expect(results[2]).toBe(numbered.join("\n"));
});
