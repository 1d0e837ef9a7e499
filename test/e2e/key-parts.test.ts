// x78 #3, through dist/hey: a private key whose BEGIN line is not in what the model reads (read_file
// from an offset, `tail`, `base64`, a kubeconfig's client-key-data) reaches neither the model, the
// session file nor the terminal; the placeholder read_file shows cannot be written back over the
// key; the kubeconfig's certificate is still shown. The key is a fake: PKCS#8's first bytes, then filler.
import { expect, setDefaultTimeout, test } from "bun:test";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { eachTempDir, fileModelServer, localModel, writeUserConfig } from "../helpers/fixtures.ts";
import { ensureBinary, runHey } from "../helpers/e2e.ts";
import { resultText, type Turn } from "../helpers/model-server.ts";

setDefaultTimeout(60_000);

const head = [0x30, 0x82, 0x02, 0x54, 0x02, 0x01, 0x00, 0x30, 0x0d, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01];
const BODY = btoa(String.fromCharCode(...Array.from({ length: 600 }, (_, i) => head[i] ?? (i * 37 + 11) % 256))).match(/.{1,64}/g)!;
const KEY = `-----BEGIN PRIVATE KEY-----\n${BODY.join("\n")}\n-----END PRIVATE KEY-----\n`;
const CERT = btoa("-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUBvK3\n-----END CERTIFICATE-----\n");
const H = "[secret: private-key]";
const home = eachTempDir("hey-home-");
const project = eachTempDir("hey-project-");
// two turns: the reads and a write of what read_file showed, then the commands
const model = fileModelServer((req): Turn => {
  const results = req.messages.filter((m) => m.role === "tool").length;
  if (results === 0)
    return {
      calls: [
        ["read_file", { path: "server.key", offset: 2, limit: 5 }],
        ["write_file", { path: "server.key", content: `${H}\n` }],
      ],
    };
  if (results === 2)
    return {
      calls: [
        ["bash", { command: "tail -n 4 server.key" }],
        ["bash", { command: "base64 -w0 server.key" }],
        ["read_file", { path: "kubeconfig" }],
      ],
    };
  return { text: "done" };
});

test("no line of a key without its BEGIN line reaches the model, the session or the terminal; its placeholder is not written over it", async () => {
  await ensureBinary();
  writeUserConfig(home.path, localModel(model.baseUrl));
  writeFileSync(join(project.path, "server.key"), KEY);
  writeFileSync(join(project.path, "kubeconfig"), `users:\n- user:\n    client-certificate-data: ${CERT}\n    client-key-data: ${btoa(KEY)}\n`);
  const run = await runHey(["-p", "look at the key"], { cwd: project.path, env: { HOME: home.path } });
  expect(run.code).toBe(0);
  const results = model.requests
    .at(-1)!
    .messages.filter((m) => m.role === "tool")
    .map((m) => resultText(m).replace(/\n\[#\w+\]$/, "")); // the result's id for compress
  expect(results[0]).toBe(`1\t${H}`);
  expect(results[1]).toStartWith(`write_file: content holds ${H}, which stands for a value hey hid from you`);
  expect(results[2]).toBe(`${H}\n[exit code 0]`);
  expect(results[3]).toBe(`${H}\n[exit code 0]`);
  expect(results[4]).toBe(`1\tusers:\n2\t- user:\n3\t    client-certificate-data: ${CERT}\n4\t    client-key-data: ${H}`);
  expect(readFileSync(join(project.path, "server.key"), "utf8")).toBe(KEY);
  const dir = join(home.path, ".local", "state", "hey", "sessions");
  const saved = readdirSync(dir).map((f) => readFileSync(join(dir, f), "utf8"));
  for (const line of BODY) {
    expect(JSON.stringify(model.requests)).not.toContain(line);
    expect(saved.join("")).not.toContain(line);
    expect(run.stdout + run.stderr).not.toContain(line);
  }
  expect(JSON.stringify(model.requests)).not.toContain(btoa(KEY).slice(0, 200));
});
