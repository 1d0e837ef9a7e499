// A project file the agent writes below the project root (config/write-check.ts withStrayNote, x136
// finding 3): `.hey/skills/x/SKILL.md` written relative to a subdirectory is never read, and the
// write's result names where it belongs, so the model moves it in the same turn. Pure.
import { expect, test } from "bun:test";
import { strayProjectFile, withStrayNote, type WriteVet } from "../../src/config/write-check.ts";

test.each([
  ["/p/web/.hey/skills/oops/SKILL.md", "/p/.hey/skills/oops/SKILL.md"],
  ["/p/web/src/.hey/config.toml", "/p/.hey/config.toml"],
  ["/p/web/.mcp.json", "/p/.mcp.json"],
  ["/p/web/.agents/skills/x/SKILL.md", "/p/.agents/skills/x/SKILL.md"],
  ["/p/.hey/skills/oops/SKILL.md", undefined], // the root's own
  ["/p/.mcp.json", undefined],
  ["/p/web/.hey/task.md", undefined], // not a project file hey loads (fs/places.ts strayTaskNotes says that one)
  ["/p/web/.mcp.json/x", undefined],
  ["/p/web/src/main.ts", undefined],
  ["/elsewhere/.hey/skills/x/SKILL.md", undefined], // outside the project
])("%s belongs at %s", (abs, belongs) => {
  expect(strayProjectFile(abs, "/p")).toBe(belongs);
});

test("the write's result says the file is not read and where to write it; a refusal stays a refusal; none at home", () => {
  const none: WriteVet = () => undefined;
  const said = withStrayNote(none, "/p", "/h")("/p/web/.hey/skills/oops/SKILL.md", "x");
  expect(said && "note" in said && said.note).toContain(
    "note: not where hey reads it: a project's skills, .hey/config.toml and .mcp.json are read at its root, /p;",
  );
  expect(said && "note" in said && said.note).toContain("write it as /p/.hey/skills/oops/SKILL.md");
  expect(withStrayNote(none, "/p", "/h")("/p/web/app.ts", "x")).toBeUndefined();
  const refuse: WriteVet = () => ({ refused: "no" });
  expect(withStrayNote(refuse, "/p", "/h")("/p/web/.hey/config.toml", "x")).toEqual({ refused: "no" });
  const noted: WriteVet = () => ({ note: "note: first" });
  const both = withStrayNote(noted, "/p", "/h")("/p/web/.hey/config.toml", "x");
  expect(both && "note" in both && both.note.split("\n")).toHaveLength(2);
  expect(withStrayNote(none, "/h", "/h")("/h/proj/.hey/skills/x/SKILL.md", "x")).toBeUndefined(); // home is no project
});
