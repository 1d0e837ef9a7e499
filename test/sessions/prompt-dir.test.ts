// Which working directory a continued session's system prompt names (sessions/resumed.ts
// promptDir): where it began, when that is another directory of the same project, so `hey -c`
// from a subdirectory (or back at the root) sends the prompt the cache holds; else where hey runs.
import { expect, test } from "bun:test";
import { promptDir } from "../../src/sessions/resumed.ts";

/** /p is a project; /p/vendor/lib a repository of its own inside it */
const projectOf = (dir: string) => (dir.startsWith("/p/vendor/lib") ? "/p/vendor/lib" : dir.startsWith("/p") ? "/p" : dir);

test.each([
  ["a new session: where hey runs", undefined, "/p/src", "/p/src"],
  ["continued where it began", "/p", "/p", "/p"],
  ["continued from a subdirectory: where it began", "/p", "/p/src", "/p"],
  ["begun in a subdirectory, continued at the root: where it began", "/p/src", "/p", "/p/src"],
  ["begun in another project (--resume ID): where hey runs", "/q", "/p", "/p"],
  ["begun in a repository nested in this one: where hey runs", "/p/vendor/lib", "/p", "/p"],
  ["a sibling whose name starts like the root: where hey runs", "/pp", "/p", "/p"],
] as const)("%s", (_, began, cwd, want) => {
  expect(promptDir(began, { cwd, root: "/p" }, projectOf)).toBe(want);
});
