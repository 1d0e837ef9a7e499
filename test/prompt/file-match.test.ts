// `@word` that is no path, looked for among the project's files (prompt/file-match.ts).
import { expect, test } from "bun:test";
import { filesNamed, namedNotice, rankFiles } from "../../src/prompt/file-match.ts";

const files = ["README.md", "src/deep/cli.ts", "src/cli-args.ts", "src/ui/commands.ts", "test/cli.test.ts", "docs/client/guide.md", "scripts/check-sizes.ts"];

test("a file whose name is the word comes first, then names that start with it, then paths holding it, then its letters in order", () => {
  expect(rankFiles("cli", files)).toEqual(["src/deep/cli.ts", "src/cli-args.ts", "test/cli.test.ts", "docs/client/guide.md"]);
  expect(rankFiles("cli.ts", files)).toEqual(["src/deep/cli.ts", "src/cli-args.ts", "test/cli.test.ts"]); // the exact name first, then its letters in order
  expect(rankFiles("deep/c", files)).toEqual(["src/deep/cli.ts"]);
  expect(rankFiles("uicmd", files)).toEqual(["src/ui/commands.ts"]); // a subsequence
  expect(rankFiles("CLI", files)[0]).toBe("src/deep/cli.ts"); // case does not count
  expect(rankFiles("zzz", files)).toEqual([]);
  expect(rankFiles("", files)).toEqual([]);
});

test("at most the asked number of files, shorter paths first among equals", () => {
  const many = Array.from({ length: 500 }, (_, i) => `pkg${i}/index.ts`);
  expect(rankFiles("index", many, 3)).toEqual(["pkg0/index.ts", "pkg1/index.ts", "pkg2/index.ts"]);
  expect(rankFiles("index", many)).toHaveLength(50);
});

test("a name names the files of exactly that name; a path or a part of a name names none", () => {
  expect(filesNamed("cli.ts", files)).toEqual(["src/deep/cli.ts"]);
  expect(filesNamed("cli", files)).toEqual([]);
  expect(filesNamed("deep/cli.ts", files)).toEqual([]);
  expect(filesNamed("index.ts", ["b/index.ts", "a/index.ts"])).toEqual(["a/index.ts", "b/index.ts"]);
  expect(filesNamed("re\u0301sume\u0301.md", ["cv/résumé.md"])).toEqual(["cv/résumé.md"]); // typed decomposed, stored composed
});

test("the notice says which file was attached, or lists up to 5 of several and attaches none", () => {
  expect(namedNotice("@cli.ts", ["src/deep/cli.ts"])).toBe("@cli.ts → src/deep/cli.ts");
  const seven = Array.from({ length: 7 }, (_, i) => `p${i}/index.ts`);
  expect(namedNotice("@index.ts", seven)).toBe(
    "@index.ts names 7 files: p0/index.ts, p1/index.ts, p2/index.ts, p3/index.ts, p4/index.ts and 2 more; none attached, mention one by its path",
  );
});
