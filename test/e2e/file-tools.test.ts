// The file tools through the compiled binary against a mock model that issues the calls: what a
// real project's files do to them (links, read-only files, binary output) and what the model reads back.
import { expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey } from "../helpers/e2e.ts";
import { type ModelServer, resultText, textOf, type Turn } from "../helpers/model-server.ts";
import { eachModelServers, eachTempDir } from "../helpers/fixtures.ts";

const project = eachTempDir("hey-e2e-files-");
const model = eachModelServers();

/** The tool results the model read in its last request. */
const toolResults = (server: ModelServer): string[] =>
  server.requests
    .at(-1)!
    .messages.filter((m) => m.role === "tool")
    .map(resultText);

/** A model that makes `calls` in one turn, then says done; returns the results it read. */
async function oneTurn(calls: [string, unknown][]): Promise<string[]> {
  const server = model((req): Turn => (req.messages.at(-1)!.role === "tool" ? { text: "done" } : { calls }));
  const run = await runHey(["--base-url", server.baseUrl, "-m", "m", "-p", "go"], { cwd: project.path });
  expect(run.code).toBe(0);
  return toolResults(server);
}

test("two edits of one turn, one through a link and one through its target, both land (one file, edited in call order)", async () => {
  mkdirSync(join(project.path, "config"));
  writeFileSync(join(project.path, "config", "app.toml"), "name = 'a'\nport = 1\nhost = 'h'\n");
  symlinkSync(join("config", "app.toml"), join(project.path, "app.toml"));
  const results = await oneTurn([
    ["edit", { path: "app.toml", old_string: "port = 1", new_string: "port = 2" }],
    ["edit", { path: "config/app.toml", old_string: "host = 'h'", new_string: "host = 'x'" }],
    ["edit", { path: "app.toml", old_string: "name = 'a'", new_string: "name = 'b'" }],
  ]);
  expect(results.map((r) => r.split("\n")[0])).toEqual([
    "edited app.toml: 1 replacement",
    "edited config/app.toml: 1 replacement",
    "edited app.toml: 1 replacement",
  ]);
  expect(readFileSync(join(project.path, "config", "app.toml"), "utf8")).toBe("name = 'b'\nport = 2\nhost = 'x'\n");
});

test("what the model reads back from a real project's awkward files: Latin-1, read-only, binary, minified", async () => {
  writeFileSync(join(project.path, "messages.properties"), Buffer.from("title=Caf\xe9\n", "latin1"));
  writeFileSync(join(project.path, "schema.gen.ts"), "// generated\n", { mode: 0o444 });
  writeFileSync(join(project.path, "logo.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48]));
  writeFileSync(join(project.path, "bundle.min.js"), `${"var a=0;".repeat(1000)}function target(){}${"var b=1;".repeat(1000)}\n`);
  const results = await oneTurn([
    ["read_file", { path: "messages.properties" }],
    ["edit", { path: "messages.properties", old_string: "Café", new_string: "Crème" }],
    ["edit", { path: "schema.gen.ts", old_string: "generated", new_string: "edited" }],
    ["bash", { command: "cat logo.png" }],
    ["grep", { pattern: "function target", path: "bundle.min.js" }],
  ]);
  expect(results[0]).toBe("[messages.properties is not UTF-8: shown as Windows-1252 (Latin-1), which edit keeps]\n1\ttitle=Café");
  expect(results[1]).toStartWith("edited messages.properties: 1 replacement (kept in Windows-1252 (Latin-1))\n");
  expect(readFileSync(join(project.path, "messages.properties"))).toEqual(Buffer.from("title=Cr\xe8me\n", "latin1"));
  expect(results[2]).toBe("schema.gen.ts is read-only (mode 444); not changed. If it really should change, make it writable first (chmod u+w)");
  expect(readFileSync(join(project.path, "schema.gen.ts"), "utf8")).toBe("// generated\n");
  expect(results[3]).toMatch(/^\[binary output: 14 bytes, not shown; pipe it through od -c \| head to see its start\]\n\[exit code 0\]\n\[full output: .+\]$/);
  const line = `${"var a=0;".repeat(1000)}function target(){}${"var b=1;".repeat(1000)}`;
  expect(results[4]).toBe(`bundle.min.js:1: …${line.slice(line.indexOf("function") - 100, line.indexOf("function") + 200)}…`);
});

test("a command in the same turn as an edit sees the edited file", async () => {
  writeFileSync(join(project.path, "version.txt"), "1.0\n");
  const calls: [string, unknown][] = [];
  for (let i = 0; i < 5; i++)
    calls.push(["edit", { path: "version.txt", old_string: `1.${i}`, new_string: `1.${i + 1}` }], ["bash", { command: "cat version.txt" }]);
  const results = await oneTurn(calls);
  expect(results.filter((_, i) => i % 2 === 1)).toEqual([
    "1.1\n[exit code 0]",
    "1.2\n[exit code 0]",
    "1.3\n[exit code 0]",
    "1.4\n[exit code 0]",
    "1.5\n[exit code 0]",
  ]);
});

test("the user saves a change between the model's read and its whole-file write: the write is refused, the change kept, and a write after a new read keeps it", async () => {
  mkdirSync(join(project.path, "src"));
  const app = join(project.path, "src", "app.ts");
  writeFileSync(app, "export const port = 1;\n");
  const user = "export const port = 1;\nexport const userEdit = true; // saved in the editor meanwhile\n";
  const server = model((req): Turn => {
    const results = req.messages.filter((m) => m.role === "tool").map(resultText);
    const last = results.at(-1);
    if (results.length === 0) return { calls: [["read_file", { path: "src/app.ts" }]] };
    if (results.length === 1) {
      writeFileSync(app, user); // the user's editor, while the model thinks
      return { calls: [["write_file", { path: "src/app.ts", content: "export const port = 2;\n" }]] };
    }
    if (results.length === 2) return { calls: [["read_file", { path: "src/app.ts" }]] };
    if (results.length === 3)
      return { calls: [["write_file", { path: "src/app.ts", content: last!.replace(/^\d+\t/gm, "").replace("port = 1", "port = 2") + "\n" }]] };
    return { text: "done" };
  });
  const run = await runHey(["--base-url", server.baseUrl, "-m", "m", "-p", "set the port to 2"], { cwd: project.path });
  expect(run.code).toBe(0);
  const results = toolResults(server);
  expect(results[1]).toBe(
    "src/app.ts has changed since it was last read or written (by the user, a command or another program); not written, so that change is kept: " +
      "read it again with read_file and make your change to what it holds now",
  );
  expect(results[3]).toBe("overwrote src/app.ts (2 lines, 86 bytes)");
  expect(readFileSync(app, "utf8")).toBe(user.replace("port = 1", "port = 2"));
});

test("a file the user's message brought whole (@file) counts as read: the model's write from memory after the user saved a change is refused, the change kept", async () => {
  const app = join(project.path, "app.ts");
  writeFileSync(app, "export const port = 1;\n");
  const user = "export const port = 1;\nexport const userEdit = true;\n";
  const server = model((req): Turn => {
    if (req.messages.at(-1)!.role === "tool") return { text: "done" };
    writeFileSync(app, user); // saved in the editor while the model thinks
    return { calls: [["write_file", { path: "app.ts", content: "export const port = 2;\n" }]] };
  });
  const run = await runHey(["--base-url", server.baseUrl, "-m", "m", "-p", "set the port in @app.ts to 2"], { cwd: project.path });
  expect(run.code).toBe(0);
  const [result] = toolResults(server);
  expect(result).toStartWith("app.ts has changed since it was last read or written");
  expect(readFileSync(app, "utf8")).toBe(user);
});

test("hey -c: the model's write_file of a file it read in the earlier run, which the user changed since, is refused until it reads the file again", async () => {
  const state = join(project.path, ".state");
  mkdirSync(join(project.path, "src"));
  const calc = join(project.path, "src", "calc2.py");
  writeFileSync(calc, "def add(a, b):\n    return a + b\n");
  const stale = "def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a * b\n";
  const server = model((req): Turn => {
    const said = textOf(req.messages.findLast((m) => m.role === "user"));
    const results = req.messages.filter((m) => m.role === "tool").map(resultText);
    if (said.includes("read calc2")) return results.length === 0 ? { calls: [["read_file", { path: "src/calc2.py" }]] } : { text: "read" };
    const since = results.slice(1); // this run's, after the first run's read
    if (since.length === 0) return { calls: [["write_file", { path: "src/calc2.py", content: stale }]] };
    if (since.length === 1) return { calls: [["read_file", { path: "src/calc2.py" }]] };
    if (since.length === 2)
      return { calls: [["write_file", { path: "src/calc2.py", content: `${readFileSync(calc, "utf8")}\n\ndef mul(a, b):\n    return a * b\n` }]] };
    return { text: "done" };
  });
  const hey = (args: string[]) => runHey(["--base-url", server.baseUrl, "-m", "m", ...args], { cwd: project.path, env: { XDG_STATE_HOME: state } });
  expect((await hey(["-p", "read calc2"])).code).toBe(0);
  writeFileSync(calc, "def add(a, b):\n    return a + b\n# the user's line\n");
  const run = await hey(["-c", "-p", "add mul"]);
  expect(run.code).toBe(0);
  const results = toolResults(server);
  expect(results[1]).toBe(
    "src/calc2.py exists and has not been read or written in this run; not written, so what it holds is kept: read it with read_file and make your change to what it holds now",
  );
  expect(results[3]).toStartWith("overwrote src/calc2.py");
  expect(readFileSync(calc, "utf8")).toBe("def add(a, b):\n    return a + b\n# the user's line\n\n\ndef mul(a, b):\n    return a * b\n");
});

test("edit of text the user changed after the model read the file: the error says the file changed since it was read, first", async () => {
  const calc = join(project.path, "calc.py");
  writeFileSync(calc, "def add(a, b):\n    return a + b\n");
  const server = model((req): Turn => {
    const results = req.messages.filter((m) => m.role === "tool").length;
    if (results === 0) return { calls: [["read_file", { path: "calc.py" }]] };
    if (results === 1) {
      writeFileSync(calc, "def add(a, b):\n    return a+b\n"); // the user's formatter, while the model thinks
      return { calls: [["edit", { path: "calc.py", old_string: "return a + b", new_string: "return b + a" }]] };
    }
    return { text: "done" };
  });
  expect((await runHey(["--base-url", server.baseUrl, "-m", "m", "-p", "swap them"], { cwd: project.path })).code).toBe(0);
  expect(toolResults(server)[1]).toStartWith(
    "calc.py has changed since you last read it (by the user, a command or another program): read it again with read_file and take old_string from what it holds now\n" +
      "old_string not found in calc.py, but it matches when whitespace is ignored, at line 2:",
  );
});

test('a path ending in "/" names a directory: write_file and edit refuse it and leave the file of that name alone', async () => {
  writeFileSync(join(project.path, "t.txt"), "one\n");
  const results = await oneTurn([
    ["write_file", { path: "zz.txt/", content: "x" }],
    ["edit", { path: "t.txt/", old_string: "one", new_string: "two" }],
    ["write_file", { path: "t.txt/", content: "x" }],
  ]);
  expect(results).toEqual([
    'write_file: zz.txt/ ends with "/", which names a directory; give the file\'s path',
    'edit: t.txt/ ends with "/", which names a directory; give the file\'s path',
    'write_file: t.txt/ ends with "/", which names a directory; give the file\'s path',
  ]);
  expect(existsSync(join(project.path, "zz.txt"))).toBe(false);
  expect(readFileSync(join(project.path, "t.txt"), "utf8")).toBe("one\n");
});

test("grep over a 3 MB line that matches on every character: one line back, cut at 300 characters", async () => {
  writeFileSync(join(project.path, "huge.txt"), `${"x".repeat(3_000_000)}\n`);
  writeFileSync(join(project.path, "small.txt"), "x marks the spot\n");
  const results = await oneTurn([["grep", { pattern: "x" }]]);
  expect(results).toEqual([`huge.txt:1: ${"x".repeat(300)}…\nsmall.txt:1: x marks the spot`]);
});
