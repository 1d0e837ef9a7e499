// What a one-shot run loads before its first request: main.ts, then run.ts and here.ts (which
// main.ts imports once the flags are parsed), and everything they import statically. Code only some
// runs use is imported where it is used (`await import()`), so a run that never resumes a session,
// searches with grep, misses a file or reads a compressed PDF does not map it (SPEC §22's short
// task: each module loaded costs resident memory). Type-only imports load nothing and are not followed.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const SRC = join(import.meta.dir, "..", "src");
const transpiler = new Bun.Transpiler({ loader: "ts" });

/** The src-relative files and the packages/builtins a one-shot run loads at start. */
function loadedAtStart(): Set<string> {
  const loaded = new Set<string>();
  const visit = (file: string) => {
    const name = relative(SRC, file);
    if (loaded.has(name)) return;
    loaded.add(name);
    if (!file.endsWith(".ts")) return;
    for (const { path, kind } of transpiler.scanImports(readFileSync(file, "utf8"))) {
      if (kind !== "import-statement") continue; // import() loads when it runs
      if (path.startsWith(".")) visit(resolve(dirname(file), path));
      else loaded.add(path);
    }
  };
  for (const entry of ["main.ts", "run.ts", "here.ts"]) visit(join(SRC, entry));
  return loaded;
}

const loaded = loadedAtStart();

test("a one-shot run loads the run's flow, its tools and its session writer at start", () => {
  const used = ["run.ts", "wire.ts", "tools/grep.ts", "tools/read-file.ts", "tools/edit.ts", "sessions/writer.ts", "fs/pdf-bytes.ts"];
  expect(used.filter((f) => !loaded.has(f))).toEqual([]);
});

test.each([
  ["resuming a session (hey -c, --resume)", ["sessions/reader.ts", "sessions/listing.ts", "sessions/scope.ts"]],
  ["listing sessions (hey --sessions)", ["ui/sessions-list.ts"]],
  [
    "grep's search: ripgrep, the built-in walker, the regex and glob checks, the formatter",
    ["tools/grep-search.ts", "tools/ripgrep.ts", "tools/grep-regex.ts", "tools/grep-glob.ts", "tools/grep-results.ts"],
  ],
  ["the walk that finds the file a model meant by a missing path", ["tools/walk.ts"]],
  ["inflating a PDF's compressed object streams", ["node:zlib"]],
  ["keeping copies for the REPL's /undo", ["tools/checkpoints.ts", "tools/undo-folders.ts"]],
  ["naming the jobs the agent left running", ["ui/jobs-command.ts"]],
  ["going back to a model /model switched away from", ["models-left.ts"]],
  ["an @name that is no path: listing the project's files and matching the name", ["tools/project-files.ts", "prompt/file-match.ts"]],
])("a one-shot run loads the code of %s only when it does it", (_what, modules) => {
  expect(modules.filter((m) => loaded.has(m))).toEqual([]);
});
