// The project's files for `@name` (tools/project-files.ts): listed once, kept, paths from the working directory.
import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { projectFiles } from "../../src/tools/project-files.ts";
import { tempDir } from "../helpers/e2e.ts";
import { until } from "../helpers/wait.ts";

test("without a ripgrep the project is walked; known() never waits, and gives the list once it is made", async () => {
  const dir = tempDir();
  try {
    mkdirSync(join(dir.path, "src", "deep"), { recursive: true });
    mkdirSync(join(dir.path, "docs"));
    writeFileSync(join(dir.path, "src", "deep", "cli.ts"), "x");
    writeFileSync(join(dir.path, "README.md"), "x");
    const files = projectFiles(dir.path, dir.path, async () => null);
    expect(files.known()).toEqual([]); // the listing started, nothing known yet
    await until(() => files.known().length === 2, "the project listed");
    expect([...files.known()].sort()).toEqual(["README.md", "src/deep/cli.ts"]);
    const fromDocs = await projectFiles(dir.path, join(dir.path, "docs"), async () => null).fresh();
    expect([...fromDocs].sort()).toEqual(["../README.md", "../src/deep/cli.ts"]); // as a mention typed in docs/ names them
  } finally {
    dir.remove();
  }
});
