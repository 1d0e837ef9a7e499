// write_file through the compiled binary never replaces lines the model has not seen: after
// `hey -c`, an edit of a file shows it only the lines it changed, and a read_file window only part
// of a long file; a whole-file write from its memory that would lose the rest is refused.
import { expect, test } from "bun:test";
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey, tempDir } from "../helpers/e2e.ts";
import { resultText, type Turn } from "../helpers/model-server.ts";
import { eachModelServers, eachTempDir } from "../helpers/fixtures.ts";

const project = eachTempDir("hey-e2e-unseen-");
const model = eachModelServers();

/** A model that makes each turn's calls in order after the user's message, then says done. */
function scripted(turns: [string, unknown][][]) {
  return model((req): Turn => {
    const step = req.messages.slice(req.messages.findLastIndex((m) => m.role === "user")).filter((m) => m.role === "assistant").length;
    return step < turns.length ? { calls: turns[step]! } : { text: "done" };
  });
}

const FUNCTIONS = Array.from({ length: 10 }, (_, i) => `def f${i}():\n    return ${i}\n`).join("\n");

test("after hey -c, an edit then a write_file of the file as remembered is refused, keeping the function the user added between runs", async () => {
  const state = tempDir("hey-e2e-state-");
  try {
    const file = join(project.path, "m.py");
    writeFileSync(file, FUNCTIONS);
    const hey = (server: { baseUrl: string }, args: string[]) =>
      runHey(["--base-url", server.baseUrl, "-m", "m", ...args], { cwd: project.path, env: { XDG_STATE_HOME: state.path } });
    expect((await hey(scripted([[["read_file", { path: "m.py" }]]]), ["-p", "read m.py"])).code).toBe(0);
    appendFileSync(file, '\ndef user_fn(): return "USER WORK between runs"\n');
    const remembered = `${FUNCTIONS.replace("return 0", "return 100")}\ndef g():\n    return 1\n`;
    const server = scripted([
      [["edit", { path: "m.py", old_string: "return 0", new_string: "return 100" }]],
      [["write_file", { path: "m.py", content: remembered }]],
    ]);
    const run = await hey(server, ["-c", "-p", "add g"]);
    expect(run.code).toBe(0);
    const results = server.requests
      .at(-1)!
      .messages.filter((m) => m.role === "tool")
      .map(resultText);
    expect(results.at(-1)).toBe(
      "m.py has 31 lines, and content drops or changes line 31, which you have not seen whole in this run (you have seen none of it whole); " + // the edit left line 2's indentation, unseen
        "not written, so they are kept: read them with read_file (offset=31) first, or change the file with edit",
    );
    expect(readFileSync(file, "utf8")).toBe(`${FUNCTIONS.replace("return 0", "return 100")}\ndef user_fn(): return "USER WORK between runs"\n`);
  } finally {
    state.remove();
  }
});

test("read_file's first 2000 lines of a 3000-line file, then write_file of those lines: refused, the last 1000 kept, the model told which to read", async () => {
  const lines = Array.from({ length: 3000 }, (_, i) => `row ${i + 1}`);
  const file = join(project.path, "long.txt");
  writeFileSync(file, `${lines.join("\n")}\n`);
  const server = scripted([
    [["read_file", { path: "long.txt" }]],
    [["write_file", { path: "long.txt", content: `${lines.slice(0, 2000).join("\n")}\nrow 2001 (new)\n` }]],
  ]);
  const run = await runHey(["--base-url", server.baseUrl, "-m", "m", "-p", "append a row"], { cwd: project.path });
  expect(run.code).toBe(0);
  const results = server.requests
    .at(-1)!
    .messages.filter((m) => m.role === "tool")
    .map(resultText);
  expect(results[0]).toEndWith("\n… 1000 more lines; use offset=2001");
  expect(results[1]).toBe(
    "long.txt has 3000 lines, and content drops or changes lines 2001-3000, which you have not seen whole in this run (you have seen lines 1-2000); " +
      "not written, so they are kept: read them with read_file (offset=2001) first, or change the file with edit",
  );
  expect(readFileSync(file, "utf8")).toBe(`${lines.join("\n")}\n`);
});
