// Where a CLAUDE.md's `@path` imports are (prompt/imports.ts): words starting with `@` in prose,
// not in code, without the sentence's punctuation.
import { expect, test } from "bun:test";
import { importRefs, looksLikeFile, secretStore } from "../../src/prompt/imports.ts";

test("an @path in prose is an import, with its line; trailing punctuation is the sentence's", () => {
  const text = ["# Rules", "See @AGENTS.md and @docs/style.md.", "Git workflow: @docs/git.md, (also @./notes.md)"].join("\n");
  expect(importRefs(text)).toEqual([
    { path: "AGENTS.md", line: 2 },
    { path: "docs/style.md", line: 2 },
    { path: "docs/git.md", line: 3 },
    { path: "./notes.md", line: 3 },
  ]);
});

test("an @ inside a word (an address), a code span or a fenced block is no import", () => {
  const text = [
    "Mail alice@example.com about `@types/node` and ``@a` `@b``.",
    "```sh",
    "npm i @scope/pkg.md",
    "```",
    "~~~~",
    "@inside.md",
    "~~~",
    "still inside: @fenced.md",
    "~~~~",
    "@after.md",
  ].join("\n");
  expect(importRefs(text)).toEqual([{ path: "after.md", line: 10 }]);
});

test("a name with an extension or a path prefix looks like a file; a handle or a scope does not", () => {
  expect(["docs/style.md", "./rules", "../shared", "~/.claude/mine.md", "notes.txt"].every(looksLikeFile)).toBe(true);
  expect(["alice", "types/node", "here"].some(looksLikeFile)).toBe(false);
});

test.each([
  ["/p/.env", "a .env file"],
  ["/p/.env.local", "a .env file"],
  ["/p/prod.env", "a .env file"],
  ["/p/.envrc", "a .env file"],
  ["/p/deploy/server.pem", "a key file"],
  ["/p/tls.key", "a key file"],
  ["/h/.ssh/id_ed25519", "under .ssh"],
  ["/h/id_rsa", "a key file"],
  ["/h/.aws/config", "under .aws"],
  ["/h/.config/gh/hosts.yml", "under .config/gh"],
  ["/h/.netrc", "a credentials file"],
  ["/p/secrets.txt", "a credentials file"],
  ["/p/credentials.json", "a credentials file"],
  ["/p/config/secrets.yaml", "a credentials file"],
])("%s holds secrets by its name: %s", (path, what) => {
  expect(secretStore(path)).toBe(what);
});

test.each([
  "/p/docs/style.md",
  "/p/package.json",
  "/p/docs/secrets.md",
  "/p/environment.md",
  "/p/id_rsa.pub",
  "/p/keys.md",
  "/h/.config/git/notes.md",
  "/p/.ssh",
])("%s may hold instructions", (path) => {
  expect(secretStore(path)).toBeUndefined();
});
