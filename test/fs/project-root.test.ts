// The project a directory belongs to (fs/project-root.ts): the nearest `.hey/`, else the git root,
// else the directory; and the per-project history file named after it.
import { expect, test } from "bun:test";
import { projectHistoryFile, projectRoot } from "../../src/fs/project-root.ts";

const tree =
  (...paths: string[]) =>
  (p: string) =>
    paths.includes(p);

test.each([
  ["the nearest .hey/ wins over a git root above or below it", "/r/app/src", tree("/r/.git", "/r/app/.hey"), "/r/app"],
  ["else the git root", "/r/app/src", tree("/r/.git"), "/r"],
  ["a .hey/ above the git root is still the project", "/r/app/src", tree("/r/.hey", "/r/app/.git"), "/r"],
  ["else the directory itself", "/tmp/scratch", tree(), "/tmp/scratch"],
  ["the directory can be its own root", "/r", tree("/r/.git"), "/r"],
])("%s", (_name, cwd, exists, root) => {
  expect(projectRoot(cwd, exists)).toBe(root);
});

test("each root has its own history file, named readably, never shared by two roots", () => {
  const a = projectHistoryFile("/s/histories", "/home/ana/src/app");
  expect(a).toMatch(/^\/s\/histories\/-home-ana-src-app-[0-9a-f]{8}$/);
  expect(projectHistoryFile("/s/histories", "/home/ana/src/app")).toBe(a); // stable
  // the same readable name, other paths: the hash tells them apart
  expect(projectHistoryFile("/s/histories", "/home/ana/src-app")).not.toBe(a);
  expect(
    projectHistoryFile("/s/histories", `/${"x".repeat(300)}`)
      .split("/")
      .at(-1)!.length,
  ).toBeLessThanOrEqual(69);
});
