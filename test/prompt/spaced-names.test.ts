// Files whose names have spaces: how a message mentions them (`@"my notes.txt"`, `@my\ notes.txt`),
// how Tab writes them, and a whole `hey "@my notes.txt"` argument; `@` in ordinary text stays text.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expandPrompt, spacedArguments } from "../../src/prompt/input.ts";
import { completeMention, findMentions, quoteArgument, writeMention } from "../../src/prompt/mentions.ts";
import { tempDir } from "../helpers/e2e.ts";

describe("findMentions", () => {
  test.each([
    ['look at @"my notes.txt" please', "my notes.txt", '@"my notes.txt"'],
    ['what is in @"my notes.txt"?', "my notes.txt", '@"my notes.txt"'],
    ["look at @'my notes.txt' please", "my notes.txt", "@'my notes.txt'"],
    ["look at @my\\ notes.txt please", "my notes.txt", "@my\\ notes.txt"],
    ["look at @my\\ notes.txt.", "my notes.txt", "@my\\ notes.txt"],
    ['@"docs/a b/c d.md"', "docs/a b/c d.md", '@"docs/a b/c d.md"'],
    ["@'say \"hi\".txt'", 'say "hi".txt', "@'say \"hi\".txt'"],
  ])("%p mentions %p", (message, path, written) => {
    expect(findMentions(message)).toEqual([{ path, looksLikePath: true, written }]);
  });

  test.each([["mail user@host.com about it"], ["ping @here and @channel"], ['he said "@nobody"'], ["a@b c@d"]])(
    "%p: no file mention beyond plain words",
    (message) => {
      expect(findMentions(message).filter((m) => m.looksLikePath)).toEqual([]);
      for (const m of findMentions(message)) expect(m.path).not.toContain(" ");
    },
  );

  test("an @ inside a word is not a mention; a quote never opened by @ is not one", () => {
    expect(findMentions("mail user@host.com about it")).toEqual([]);
    expect(findMentions('ping @here about "my notes.txt"')).toEqual([{ path: "here", looksLikePath: false, written: "@here" }]);
  });

  test("an unclosed quote is no mention of a spaced name", () => {
    expect(findMentions('@"my notes.txt what').map((m) => m.path)).toEqual(['"my']);
  });

  test("a Windows path keeps its backslashes", () => {
    expect(findMentions("see @src\\a.ts now").map((m) => m.path)).toEqual(["src\\a.ts"]);
  });
});

test.each([
  ["a.ts", "@a.ts"],
  ["src/cli.ts", "@src/cli.ts"],
  ["my notes.txt", '@"my notes.txt"'],
  ['say "hi".txt', "@'say \"hi\".txt'"],
])("writeMention(%p) is %p, which findMentions reads back", (path, written) => {
  expect(writeMention(path)).toBe(written);
  expect(findMentions(`see ${written} now`)[0]!.path).toBe(path);
});

test.each([
  ["@my notes.txt what is in it", '@"my notes.txt" what is in it'],
  ["what is in @my notes.txt", 'what is in @"my notes.txt"'],
  ["@my notes.txt", '@"my notes.txt"'],
  ["x@my notes.txt", "x@my notes.txt"], // not a whole argument
  ["@my notes.txts", "@my notes.txts"],
])("quoteArgument(%p) is %p", (message, want) => {
  expect(quoteArgument(message, "my notes.txt")).toBe(want);
});

describe("completeMention (the part after the line's last space, as the line editor replaces it)", () => {
  const names = ["mydir/", "my notes.txt", "my plans.txt", "My Documents/", "readme.md", "My Documents/a b.txt", "My Documents/c.txt"];
  const list = (partial: string) => names.filter((n) => n !== partial && n.startsWith(partial) && !n.slice(partial.length).replace(/\/$/, "").includes("/"));
  test.each([
    ["look @read", ["@readme.md"]],
    ["look @my n", []], // `n` is a word after the mention `@my`
    ["look @my", ['@"mydir/', '@"my notes.txt"', '@"my plans.txt"']], // one quoted, so all are: they share `@"my`
    ["look @my ", []],
    ['look @"my', ['@"mydir/', '@"my notes.txt"', '@"my plans.txt"']],
    ['look @"my n', ['notes.txt"']],
    ['look @"My Documents/', ['Documents/a b.txt"', 'Documents/c.txt"']],
    ["look @'my n", ["notes.txt'"]],
    ["look @my\\ n", ["notes.txt"]],
    ["look @My\\ Documents/a", ["Documents/a\\ b.txt"]],
    ["mail user@my", []],
    ['look @"my notes.txt" and', []],
  ])("%p completes to %p", (line, want) => {
    expect(completeMention(line, list)).toEqual(want);
  });
});

describe("files with spaces, read", () => {
  let dir: ReturnType<typeof tempDir>;
  beforeAll(() => {
    dir = tempDir();
    writeFileSync(join(dir.path, "my notes.txt"), "spacey content\n");
    mkdirSync(join(dir.path, "My Documents"));
  });
  afterAll(() => dir.remove());
  const expand = (message: string, required: string[] = []) => {
    const warnings: string[] = [];
    const content = expandPrompt(message, { cwd: dir.path, home: dir.path, maxBytes: 1000, required, warn: (w) => warnings.push(w) });
    return { text: content[0]!.type === "text" ? content[0]!.text : "", warnings };
  };

  test.each([['look @"my notes.txt"'], ["look @'my notes.txt'"], ["look @my\\ notes.txt"]])("%p attaches the file", (message) => {
    expect(expand(message)).toEqual({ text: `${message}\n\n${"```"}my notes.txt\nspacey content\n${"```"}`, warnings: [] });
  });

  test("a quoted name that is no file is said so, quoted as it is typed", () => {
    expect(expand('look @"my nots.txt"').warnings).toEqual(['@"my nots.txt" is not a file here; it is sent as written']);
  });

  test("a whole argument naming a file with spaces is one mention, attached; one naming nothing stays words", () => {
    const args = spacedArguments("@my notes.txt what is in it", ["my notes.txt"], dir.path, dir.path);
    expect(args).toEqual({ message: '@"my notes.txt" what is in it', files: ['"my notes.txt"'] });
    expect(expand(args.message, args.files).text).toBe(`@"my notes.txt" what is in it\n\n${"```"}my notes.txt\nspacey content\n${"```"}`);
    const words = spacedArguments("@john please look", ["john please look"], dir.path, dir.path);
    expect(words).toEqual({ message: "@john please look", files: ["john please look"] });
    expect(expand(words.message, words.files)).toEqual({ text: "@john please look", warnings: [] });
  });

  test("a whole argument naming a directory with spaces is refused, as any whole @directory is", () => {
    const args = spacedArguments("@My Documents", ["My Documents"], dir.path, dir.path);
    expect(() => expand(args.message, args.files)).toThrow('@"My Documents": is a directory; mention files, or ask hey to look inside it');
  });

  test("whole arguments already quoted or escaped are mentions as they are, and must be files", () => {
    expect(spacedArguments('@"my notes.txt" hi', ['"my notes.txt"'], dir.path, dir.path).message).toBe('@"my notes.txt" hi');
    expect(expand('@"my notes.txt" hi', ['"my notes.txt"']).text).toContain("spacey content");
    expect(expand("@my\\ notes.txt hi", ["my\\ notes.txt"]).text).toContain("spacey content");
    expect(() => expand('@"gone file.txt" hi', ['"gone file.txt"'])).toThrow('@"gone file.txt": no such file (');
  });
});
