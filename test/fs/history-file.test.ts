// The per-project REPL history file (fs/history-file.ts), named after the project root that
// fs/places.ts computes (its own tests: test/fs/places.test.ts).
import { expect, test } from "bun:test";
import { projectHistoryFile } from "../../src/fs/history-file.ts";

test("each root has its own history file, named readably, never shared by two roots", () => {
  const a = projectHistoryFile("/s/histories", "/home/ana/src/app");
  expect(a).toMatch(/^\/s\/histories\/home-ana-src-app-[0-9a-f]{8}$/);
  // never an option or a hidden file to the shell's tools
  expect(projectHistoryFile("/s/histories", "/")).toMatch(/^\/s\/histories\/[0-9a-f]{8}$/);
  expect(projectHistoryFile("/s/histories", "/.hidden/x")).toMatch(/^\/s\/histories\/hidden-x-[0-9a-f]{8}$/);
  expect(projectHistoryFile("/s/histories", "/home/ana/src/app")).toBe(a); // stable
  // the same readable name, other paths: the hash tells them apart
  expect(projectHistoryFile("/s/histories", "/home/ana/src-app")).not.toBe(a);
  expect(
    projectHistoryFile("/s/histories", `/${"x".repeat(300)}`)
      .split("/")
      .at(-1)!.length,
  ).toBeLessThanOrEqual(69);
});
