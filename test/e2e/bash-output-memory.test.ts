// A bash call that prints 50 MB, read back in reused 256 KB pieces (SPEC §22 keeps the run under
// 100 MB at its peak; `bun run bench` measures that, since memory limits in tests flake on a shared
// machine). The model's result and the saved copy are checked with a secret in the middle and tokens
// across the 1 MB and 2 MB marks, where the spill file is read in pieces.
import { afterAll, expect, test } from "bun:test";
import { chmodSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runMeasured } from "../../scripts/bench-mock.ts";
import { hideSecrets } from "../../src/config/secrets.ts";
import { ensureBinary, tempDir } from "../helpers/e2e.ts";
import { startModelServer, textOf } from "../helpers/model-server.ts";

const KEY = "sk-live-0123456789abcdefghij"; // the API key: a secret hey knows
const TOKEN = "ghp_abcdefghijklmnopqrstuvwxyz0123456789AB"; // one shaped like a credential
const model = startModelServer((req) => (req.messages.at(-1)!.role === "tool" ? { text: "Built." } : { calls: [["bash", { command: "./build.sh" }]] }));
const work = tempDir("hey-output-memory-");
afterAll(() => {
  model.stop();
  work.remove();
});

/**
 * What build.sh prints: ~50 MB, 2.3 million lines, as a compiler does (a line at a time, not a file
 * at once), a token across the 1 MB and 2 MB marks (it starts 20 bytes before each), a failure with the key in the middle.
 */
const BUILD = `#!/bin/sh
awk -v key='${KEY}' -v token='${TOKEN}' 'BEGIN {
  mark[1] = 1048576; mark[2] = 2097152; k = 1; n = 0
  for (i = 1; i <= 2300000; i++) {
    if (k <= 2 && n + 60 > mark[k]) { line = sprintf("%" (mark[k] - n - 26) "s", "") "token " token; k++ }
    else if (i == 1150000) line = "error: the middle broke, key " key
    else line = "compiling unit " i
    print line
    n += length(line) + 1
  }
}'
`;

/** The text build.sh prints, made here the same way. */
function buildLog(): string {
  const lines: string[] = [];
  let bytes = 0;
  let marks = [1 << 20, 2 << 20];
  for (let i = 1; i <= 2_300_000; i++) {
    let line = `compiling unit ${i}`;
    if (marks.length > 0 && bytes + 60 > marks[0]!) {
      line = `${" ".repeat(marks[0]! - bytes - 26)}token ${TOKEN}`;
      marks = marks.slice(1);
    } else if (i === 1_150_000) line = `error: the middle broke, key ${KEY}`;
    lines.push(line);
    bytes += line.length + 1;
  }
  return `${lines.join("\n")}\n`;
}

test("a bash call printing 50 MB: the result and the saved copy have every secret hidden and every other byte kept", async () => {
  writeFileSync(join(work.path, "build.sh"), BUILD);
  chmodSync(join(work.path, "build.sh"), 0o755);
  const bin = await ensureBinary();
  const cache = join(work.path, "cache");
  const run = await runMeasured([bin, "--base-url", model.baseUrl, "-m", "m", "--api-key", KEY, "-p", "build it"], {
    cwd: work.path,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: work.path,
      XDG_CONFIG_HOME: join(work.path, "config"),
      XDG_STATE_HOME: join(work.path, "state"),
      XDG_CACHE_HOME: cache,
    },
    timeoutMs: 60_000,
  });
  console.log(`bash call printing 52 MB: ${(run.ms / 1000).toFixed(2)} s, peak RSS ${(run.peakRss / 1e6).toFixed(1)} MB`);
  expect(run).toMatchObject({ code: 0, stdout: "Built.\n" });

  const result = textOf(model.requests[1]!.messages.at(-1)!);
  expect(result).toStartWith("[output filtered: 2299969 of 2300000 lines dropped;");
  expect(result).toContain("\ncompiling unit 1149999\nerror: the middle broke, key [redacted]\ncompiling unit 1150001\n");
  expect(result).toContain("\ncompiling unit 2300000\n[exit code 0]\n[full output: ");
  const text = buildLog();
  const saved = readFileSync(result.match(/\[full output: (\S+)\]/)![1]!, "latin1");
  expect(saved.includes(KEY) || saved.includes(TOKEN)).toBe(false);
  expect(saved === `${hideSecrets(() => [KEY])(text)}\n[exit code 0]\n`).toBe(true); // every other byte kept
  const outputs = join(cache, "hey", "outputs");
  expect(
    readdirSync(outputs)
      .flatMap((session) => readdirSync(join(outputs, session)))
      .filter((name) => !name.endsWith(".log")),
  ).toEqual([]); // no spill file left
}, 90_000);
