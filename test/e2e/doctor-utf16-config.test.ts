// `hey doctor --write` on a config.toml Windows PowerShell 5.1's `>` wrote (UTF-16 LE with a
// byte-order mark, CRLF; x79 #1): hey loads such a file, so the flags are written into it too,
// in its own encoding and line ends, and the backup is the file as it was, byte for byte.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startQuirkyServer, type MockServer } from "../helpers/doctor-mocks.ts";
import { runHey, tempDir } from "../helpers/e2e.ts";

let work: ReturnType<typeof tempDir>;
let server: MockServer;
beforeAll(() => {
  work = tempDir();
  server = startQuirkyServer("qm", { rejectsDeveloper: true });
});
afterAll(() => {
  server.stop();
  work.remove();
});

const utf16 = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text.replace(/\n/g, "\r\n"), "utf16le")]);

test("--write records the flags in a UTF-16 CRLF config.toml, keeping it UTF-16 and CRLF", async () => {
  const xdg = join(work.path, "xdg");
  mkdirSync(join(xdg, "hey"), { recursive: true });
  const configFile = join(xdg, "hey", "config.toml");
  const before = utf16(`# my endpoints\n[provider.quirky]\nbase_url = "${server.url}/v1"\nmodels = ["qm"]\nsystem_role = "developer"\n`);
  writeFileSync(configFile, before);
  const run = await runHey(["doctor", "quirky", "--write"], { cwd: work.path, env: { XDG_CONFIG_HOME: xdg } });
  expect(run.stderr).toBe("");
  expect(run.stdout).toContain(`to ${configFile} (the previous file is ${configFile}.bak)`);
  expect(readFileSync(`${configFile}.bak`)).toEqual(before);
  const after = readFileSync(configFile);
  expect([...after.subarray(0, 2)]).toEqual([0xff, 0xfe]);
  const text = new TextDecoder("utf-16le").decode(after.subarray(2));
  expect(text).toBe(`# my endpoints\r\n[provider.quirky]\r\nbase_url = "${server.url}/v1"\r\nmodels = ["qm"]\r\nsystem_role = "system"\r\n`);
});
