// The file tools in a big repository, through the compiled binary against a mock model: a grep
// over a CSV with wide context never sends the model megabytes, and overwriting a big file says
// what it replaced instead of a diff that shows nothing removed.
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey } from "../helpers/e2e.ts";
import { resultText, type Turn } from "../helpers/model-server.ts";
import { eachModelServers, eachTempDir } from "../helpers/fixtures.ts";

const project = eachTempDir("hey-e2e-big-");
const model = eachModelServers();

test("grep with wide context over a CSV of long lines: the request after it stays small, and the result says how to narrow", async () => {
  const rows = Array.from({ length: 30_000 }, (_, i) => `${i},${i % 21 === 0 ? "ERR" : "OK"},${"v".repeat(480)}`);
  writeFileSync(join(project.path, "events.csv"), rows.join("\n") + "\n");
  const server = model(
    (req): Turn => (req.messages.at(-1)!.role === "tool" ? { text: "done" } : { calls: [["grep", { pattern: ",ERR,", context: 10, max_results: 1000 }]] }),
  );
  const run = await runHey(["--base-url", server.baseUrl, "-m", "m", "-p", "go"], { cwd: project.path });
  expect(run.code).toBe(0);
  expect(server.sizes.at(-1)!).toBeLessThan(80_000); // was 7 MB
  const result = resultText(server.requests.at(-1)!.messages.find((m) => m.role === "tool")!);
  expect(result.split("\n").at(-1)).toMatch(
    /^… \d+ more matches not shown \(1429 in all; the result stops at 50000 characters\); narrow with path, glob, a smaller context or max_results, or a more specific pattern$/,
  );
});

test("overwriting a file too big to diff says what was replaced, not a diff with nothing removed", async () => {
  // 1,000 long lines, 600 KB: the model reads them all, in windows (a write may drop only lines it has seen)
  const line = (i: number) => `export const v${i} = ${JSON.stringify("x".repeat(570))};`;
  writeFileSync(join(project.path, "big.ts"), Array.from({ length: 1000 }, (_, i) => line(i)).join("\n") + "\n");
  const turns: Turn[] = [
    { calls: Array.from({ length: 10 }, (_, k): [string, unknown] => ["read_file", { path: "big.ts", offset: 1 + 100 * k, limit: 100 }]) },
    { calls: [["write_file", { path: "big.ts", content: "export const v1 = 1;\n" }]] },
    { text: "done" },
  ];
  const server = model((req): Turn => turns[req.messages.filter((m) => m.role === "assistant").length]!);
  const run = await runHey(["--base-url", server.baseUrl, "-m", "m", "-p", "go"], { cwd: project.path });
  expect(run.code).toBe(0);
  expect(run.stderr).toContain("replaced 580 KB, 1,000 lines, with 1 line (no diff: the old file is over 512 KB)");
  expect(run.stderr).not.toContain("@@ -1,0 +1,1 @@");
});
