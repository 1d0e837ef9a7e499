// A subdirectory's AGENTS.md reaches the model with the first file tool result under it (issue 26):
// once while the model can still see it, again when what it saw last no longer holds it, never for
// the directories the system prompt already covers, never from outside the project.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createNestedAgents, nestedSection, type LastRequest } from "../../src/prompt/nested-agents.ts";
import { tempDir } from "../helpers/e2e.ts";

let tmp: ReturnType<typeof tempDir>;
let repo: string;
const warnings: string[] = [];
beforeEach(() => {
  tmp = tempDir("hey-nested-");
  repo = join(realpathSync(tmp.path), "repo");
  for (const d of [".git", "sub/deep", "lib", "empty"]) mkdirSync(join(repo, d), { recursive: true });
  writeFileSync(join(repo, "AGENTS.md"), "root rules");
  writeFileSync(join(repo, "sub", "AGENTS.md"), "sub rules");
  writeFileSync(join(repo, "sub", "deep", "CLAUDE.md"), "deep rules");
  writeFileSync(join(repo, "lib", "AGENTS.md"), "lib rules");
  warnings.length = 0;
});
afterEach(() => tmp.remove());

/** What the model saw in its last request: a fresh id per request, holding `texts`. */
const saw = (texts: string[] = []): LastRequest => ({ id: {}, has: (t) => texts.some((x) => x.includes(t)) });
const open = (cwd: string) => createNestedAgents({ cwd, configDir: join(tmp.path, "config"), warn: (w) => void warnings.push(w) });

test("from the root: a file under sub/deep brings sub's AGENTS.md and deep's CLAUDE.md, outermost first; the root's own is the system prompt's", () => {
  const nested = open(repo);
  const found = nested.forPath(join(repo, "sub", "deep", "x.ts"), saw());
  expect(found?.files).toEqual(["sub/AGENTS.md", "sub/deep/CLAUDE.md"]);
  expect(found?.text).toBe(
    `Instructions from ${join(repo, "sub", "AGENTS.md")} (for files under ${join(repo, "sub")}/):\nsub rules\n\n` +
      `Instructions from ${join(repo, "sub", "deep", "CLAUDE.md")} (for files under ${join(repo, "sub", "deep")}/):\ndeep rules`,
  );
  expect(nested.forPath(join(repo, "README.md"), saw())).toBeUndefined();
  expect(nested.forPath(join(repo, "empty", "x"), saw())).toBeUndefined();
});

test("given once while the model can see it: not again in the same turn, nor when its last request held it", () => {
  const nested = open(repo);
  const turn = saw();
  const first = nested.forPath(join(repo, "lib", "a.ts"), turn)!;
  expect(first.files).toEqual(["lib/AGENTS.md"]);
  expect(nested.forPath(join(repo, "lib", "b.ts"), turn)).toBeUndefined(); // a parallel call of the same turn
  expect(nested.forPath(join(repo, "lib", "b.ts"), saw([first.text]))).toBeUndefined(); // the next turn: it is in the request
  // pruned away since (a duplicate read, compress, a summary): the next touch brings it back
  expect(nested.forPath(join(repo, "lib", "c.ts"), saw(["other text"]))?.files).toEqual(["lib/AGENTS.md"]);
});

test("from a subdirectory: the chain down to it is the system prompt's, a sibling's file is not, a directory path counts as itself", () => {
  const nested = open(join(repo, "sub"));
  expect(nested.forPath(join(repo, "sub", "x.ts"), saw())).toBeUndefined();
  expect(nested.forPath(join(repo, "sub", "deep"), saw())?.files).toEqual(["deep/CLAUDE.md"]);
  expect(nested.forPath(join(repo, "lib", "new-file.ts"), saw())?.files).toEqual(["../lib/AGENTS.md"]); // not created yet: its directory
  expect(nested.forPath(join(tmp.path, "elsewhere.txt"), saw())).toBeUndefined(); // outside the project
});

test("an AGENTS.md that links outside the project is left out, with one warning", () => {
  writeFileSync(join(tmp.path, "secret.txt"), "secret");
  mkdirSync(join(repo, "evil"));
  symlinkSync(join(tmp.path, "secret.txt"), join(repo, "evil", "AGENTS.md"));
  const nested = open(repo);
  expect(nested.forPath(join(repo, "evil", "x"), saw())).toBeUndefined();
  expect(nested.forPath(join(repo, "evil", "y"), saw())).toBeUndefined();
  expect(warnings).toEqual([
    `${join(repo, "evil", "AGENTS.md")} is a link to ${join(realpathSync(tmp.path), "secret.txt")}, outside the project; left out of the prompt`,
  ]);
});

test("nestedSection notes a file cut at the cap", () => {
  expect(nestedSection({ path: "/r/a/AGENTS.md", text: "x", truncated: true })).toBe(
    "Instructions from /r/a/AGENTS.md (for files under /r/a/):\nx\n[/r/a/AGENTS.md is cut here, at 32 KB; read the file for the rest]",
  );
});

test("a nested CLAUDE.md's imports come with it, under their importer; a file the system prompt holds is not given again", () => {
  writeFileSync(join(repo, "sub", "deep", "CLAUDE.md"), "deep rules: @../../AGENTS.md @style.md");
  writeFileSync(join(repo, "sub", "deep", "style.md"), "deep style");
  const found = open(repo).forPath(join(repo, "sub", "deep", "x.ts"), saw());
  const claude = join(repo, "sub", "deep", "CLAUDE.md");
  expect(found?.text).toBe(
    `Instructions from ${join(repo, "sub", "AGENTS.md")} (for files under ${join(repo, "sub")}/):\nsub rules\n\n` +
      `Instructions from ${claude} (for files under ${join(repo, "sub", "deep")}/):\ndeep rules: @../../AGENTS.md @style.md\n\n` +
      `Instructions from ${join(repo, "sub", "deep", "style.md")} (imported by ${claude}):\ndeep style`,
  );
});

test("a nested CLAUDE.md (a dependency's, node_modules/x) never imports from outside the project", () => {
  writeFileSync(join(tmp.path, "secret.md"), "outside notes");
  mkdirSync(join(repo, "node_modules", "dep"), { recursive: true });
  writeFileSync(join(repo, "node_modules", "dep", "CLAUDE.md"), `dep rules @${join(tmp.path, "secret.md")}`);
  const found = open(repo).forPath(join(repo, "node_modules", "dep", "index.js"), saw());
  expect(found?.files).toEqual(["node_modules/dep/CLAUDE.md"]);
  expect(found?.text).not.toContain("outside notes");
  expect(warnings[0]).toContain("is outside the project; left out of the prompt");
});
