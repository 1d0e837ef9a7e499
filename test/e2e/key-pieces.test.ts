// x90, through dist/hey: pieces of real private keys that bash prints with neither armour line —
// a key's middle lines (`sed -n 10,12p`, `head -c | tail -c`), its first lines behind a prefix
// (`grep -n`, `# `), the rest of a base64 key line past read_file's cut (`sed | cut -c 2001-6000`)
// — reach neither the model, the session file nor the terminal. The keys are made by node:crypto.
import { expect, setDefaultTimeout, test } from "bun:test";
import { generateKeyPairSync } from "node:crypto";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureBinary, runHey } from "../helpers/e2e.ts";
import { eachTempDir, fileModelServer, localModel, writeUserConfig } from "../helpers/fixtures.ts";
import { resultText, type Turn } from "../helpers/model-server.ts";

setDefaultTimeout(60_000);

const RSA = generateKeyPairSync("rsa", { modulusLength: 4096 }).privateKey.export({ type: "pkcs1", format: "pem" }).toString();
const ED = generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).toString();
const H = "[secret: private-key]";
const COMMANDS = [
  "sed -n 10,12p id_rsa",
  "head -c 600 id_rsa | tail -c 300",
  "sed -n 2,5p id_rsa | grep -n .",
  "sed -n 2p ed.pem | sed 's/^/# /'",
  "sed -n 1p kubeconfig | cut -c 2001-6000",
];
const home = eachTempDir("hey-home-");
const project = eachTempDir("hey-project-");
const model = fileModelServer((req): Turn => {
  if (req.messages.some((m) => m.role === "tool")) return { text: "done" };
  return { calls: COMMANDS.map((command) => ["bash", { command }]) };
});

/** Every 24 characters of `base64` (stepping by 8): no piece of it may be shown. */
const pieces = (base64: string) => Array.from({ length: Math.floor((base64.length - 24) / 8) }, (_, i) => base64.slice(i * 8, i * 8 + 24));

test("pieces of a key with neither armour line reach neither the model, the session nor the terminal", async () => {
  await ensureBinary();
  writeUserConfig(home.path, localModel(model.baseUrl));
  writeFileSync(join(project.path, "id_rsa"), RSA);
  writeFileSync(join(project.path, "ed.pem"), ED);
  const encoded = btoa(RSA);
  writeFileSync(join(project.path, "kubeconfig"), `    client-key-data: ${encoded}\n`);
  const run = await runHey(["-p", "look at the keys"], { cwd: project.path, env: { HOME: home.path } });
  expect(run.code).toBe(0);
  const results = model.requests
    .at(-1)!
    .messages.filter((m) => m.role === "tool")
    .map((m) => resultText(m).replace(/\n\[#\w+\]$/, ""));
  expect(results).toEqual([`${H}\n[exit code 0]`, `${H}\n[exit code 0]`, `1:${H}\n[exit code 0]`, `# ${H}\n[exit code 0]`, `${H}\n[exit code 0]`]);
  const dir = join(home.path, ".local", "state", "hey", "sessions");
  const saved = readdirSync(dir)
    .map((f) => readFileSync(join(dir, f), "utf8"))
    .join("");
  const sent = JSON.stringify(model.requests);
  const body = (pem: string) =>
    pem
      .split("\n")
      .filter((line) => !line.startsWith("-----"))
      .join("");
  for (const piece of [...pieces(body(RSA)), ...pieces(body(ED)), ...pieces(encoded.slice(2000))]) {
    expect(sent).not.toContain(piece);
    expect(saved).not.toContain(piece);
    expect(run.stdout + run.stderr).not.toContain(piece);
  }
});
