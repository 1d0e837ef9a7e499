// Comments that name a file name one that exists: a header that says "the rules live in
// pure/mentions.ts" after the file moved sends every reader to the wrong place. A name is looked
// for beside the file, under src/ and from the repository's root; `@path` mentions and `file:line`
// locations inside comments are examples, not references.
import { expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";

const ROOT = join(import.meta.dir, "..");
const SRC = join(ROOT, "src");

/** Source files (`.ts`) and repository paths (`scripts/…`, `docs/…`, `test/…`) named in a comment. */
const NAMED = /(?<![\w/.@-])((?:[\w-]+\/)*[\w-]+\.ts|(?:scripts|docs|test)\/[\w/.-]+\.\w+)\b(?!:\d)/g;
const COMMENT = /\/\/[^\n]*|\/\*[\s\S]*?\*\//g;

function named(file: string): { name: string; line: number }[] {
  const text = readFileSync(file, "utf8");
  const out: { name: string; line: number }[] = [];
  for (const c of text.matchAll(COMMENT))
    for (const m of c[0].matchAll(NAMED)) out.push({ name: m[1]!, line: text.slice(0, c.index! + m.index!).split("\n").length });
  return out;
}

const files = readdirSync(SRC, { recursive: true, withFileTypes: true })
  .filter((e) => e.isFile() && e.name.endsWith(".ts"))
  .map((e) => join(e.parentPath, e.name));

test("the pattern finds names, not examples", () => {
  const found = (comment: string) => [...comment.matchAll(NAMED)].map((m) => m[1]);
  expect(found("// the rules live in pure/mentions.ts; see net/proxy.ts and scripts/build.ts")).toEqual([
    "pure/mentions.ts",
    "net/proxy.ts",
    "scripts/build.ts",
  ]);
  expect(found("// `@src/a.ts` is a mention; (x.ts:3:5) is a stack frame")).toEqual([]);
});

test("every file named in a comment under src/ exists", () => {
  const missing = files.flatMap((file) =>
    named(file)
      .filter(({ name }) => ![join(dirname(file), name), join(SRC, name), join(ROOT, name)].some((p) => existsSync(p)))
      .map(({ name, line }) => `${relative(ROOT, file)}:${line} names ${name}`),
  );
  expect(missing).toEqual([]);
});
