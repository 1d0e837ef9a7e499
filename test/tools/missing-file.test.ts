// read_file and edit given a path that names no file: they say where they looked and which files
// the model may have meant, and find a file whose name differs only in its Unicode form.
import { beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ToolContext } from "../../src/kernel/tool.ts";
import { createEditTool } from "../../src/tools/edit.ts";
import { nearerFirst } from "../../src/tools/missing-file.ts";
import { createReadFileTool } from "../../src/tools/read-file.ts";
import { callTool } from "../helpers/call-tool.ts";
import { eachTempDir } from "../helpers/fixtures.ts";
import { findRg, NO_RG } from "../helpers/find-rg.ts";

const project = eachTempDir("hey-missing-");

/** The file tools of a hey started in `cwd` (below the project). */
function tools(cwd: string) {
  const ctx: ToolContext = { cwd, signal: new AbortController().signal };
  return {
    read: (args: Record<string, unknown>) => callTool(createReadFileTool({ home: "/nonexistent-home" }), args, ctx),
    edit: (args: Record<string, unknown>) => callTool(createEditTool({ home: "/nonexistent-home" }), args, ctx),
  };
}

/** A git project with `real.txt` at its root and `sub/s.txt`; hey started in `sub`. */
function layout() {
  const root = project.path;
  mkdirSync(join(root, ".git"));
  mkdirSync(join(root, "sub"));
  writeFileSync(join(root, "real.txt"), "hello\n");
  writeFileSync(join(root, "sub", "s.txt"), "s\n");
  return { root, sub: join(root, "sub") };
}

test("started in a subdirectory, a path meant from the project root: the error says where hey looked and names the file, not write_file", async () => {
  const { root, sub } = layout();
  const { read, edit } = tools(sub);
  expect(await edit({ path: "real.txt", old_string: "hello", new_string: "bye" })).toEqual({
    isError: true,
    output: `file not found: real.txt (looked for ${join(sub, "real.txt")}); did you mean ../real.txt (${join(root, "real.txt")})?`,
  });
  expect(await read({ path: "sub/s.txt" })).toEqual({
    isError: true,
    output: `file not found: sub/s.txt (looked for ${join(sub, "sub", "s.txt")}); did you mean s.txt (${join(sub, "s.txt")})?`,
  });
  expect(readFileSync(join(root, "real.txt"), "utf8")).toBe("hello\n");
});

test("no such file anywhere: edit says where it looked and how to create one; read_file where it looked", async () => {
  const { sub } = layout();
  const { read, edit } = tools(sub);
  expect(await edit({ path: "new.txt", old_string: "a", new_string: "b" })).toEqual({
    isError: true,
    output: `file not found: new.txt (looked for ${join(sub, "new.txt")}); to create it, use write_file`,
  });
  expect(await read({ path: "nope/missing.txt" })).toEqual({
    isError: true,
    output: `file not found: nope/missing.txt (looked for ${join(sub, "nope", "missing.txt")})`,
  });
});

test("a name in another case, and the same name in another directory of the project, are offered", async () => {
  const { root } = layout();
  writeFileSync(join(root, "README.md"), "# r\n");
  mkdirSync(join(root, "src", "util"), { recursive: true });
  writeFileSync(join(root, "src", "util", "dates.ts"), "export {};\n");
  const { read } = tools(root);
  expect((await read({ path: "README.MD" })).output).toBe(
    `file not found: README.MD (looked for ${join(root, "README.MD")}); did you mean README.md (${join(root, "README.md")})?`,
  );
  expect((await read({ path: "src/utils/dates.ts" })).output).toEndWith(`; did you mean src/util/dates.ts (${join(root, "src", "util", "dates.ts")})?`);
});

test("a file whose name is stored decomposed (NFD, as macOS writes it) is found from the composed name a model writes, and edited in place", async () => {
  const root = project.path;
  const stored = "re\u0301sume\u0301.md"; // NFD
  writeFileSync(join(root, stored), "cv\n");
  const { read, edit } = tools(root);
  expect((await read({ path: "résumé.md" })).output).toBe(
    `[résumé.md is not there as written: this is ${join(root, stored)}, whose name is the same in another Unicode form (NFD, decomposed, as macOS writes names); a command must name it so]\n1\tcv`,
  );
  expect((await edit({ path: "résumé.md", old_string: "cv", new_string: "CV" })).output).toStartWith("edited résumé.md: 1 replacement");
  expect(readFileSync(join(root, stored), "utf8")).toBe("CV\n");
});

test.each([
  ["a folder left out", "/p/packages/pkg150/src/mod3/file7.ts", "/p/packages/pkg150/src/mod3/sub/file7.ts"],
  ["the package's name left out", "/p/pkg150/src/mod3/file7.ts", "/p/packages/pkg150/src/mod3/sub/file7.ts"],
  ["only the name given", "/p/file7.ts", "/p/file7/file7.ts"],
  ["the start left out", "/p/src/mod0/sub/file7.ts", "/p/packages/pkg0/src/mod0/sub/file7.ts"],
  ["the start given", "/p/packages/pkg150/lib/file7.ts", "/p/packages/pkg150/src/mod3/sub/file7.ts"],
])("the same name elsewhere is ranked by closeness to the path asked: %s", (_, asked, nearest) => {
  const files = [
    "/p/packages/pkg0/src/mod0/sub/file7.ts",
    "/p/packages/pkg0/src/mod3/sub/file7.ts",
    "/p/packages/pkg150/src/mod3/sub/file7.ts",
    "/p/file7/file7.ts",
  ];
  expect(nearerFirst(asked, files)[0]).toBe(nearest);
});

test("in a monorepo of same-named files, the ones nearest the path asked are offered, and the error says how many more there are", async () => {
  const root = project.path;
  mkdirSync(join(root, ".git"));
  for (let p = 0; p < 10; p++)
    for (let m = 0; m < 3; m++) {
      mkdirSync(join(root, "packages", `pkg${p}`, "src", `mod${m}`, "sub"), { recursive: true });
      writeFileSync(join(root, "packages", `pkg${p}`, "src", `mod${m}`, "sub", "file7.ts"), "export const x = 7;\n");
    }
  const ctx: ToolContext = { cwd: root, signal: new AbortController().signal };
  const asked = "packages/pkg5/src/mod1/file7.ts";
  const hint =
    "did you mean one of: packages/pkg5/src/mod1/sub/file7.ts, packages/pkg5/src/mod0/sub/file7.ts, packages/pkg5/src/mod2/sub/file7.ts (and 27 more named file7.ts: narrow the path)?";
  for (const rg of [await findRg(), null]) {
    const read = await callTool(createReadFileTool({ home: "/nonexistent-home", rg }), { path: asked }, ctx);
    expect(read.output).toBe(`file not found: ${asked} (looked for ${join(root, asked)}); ${hint}`);
    const edit = await callTool(createEditTool({ home: "/nonexistent-home", rg }), { path: asked, old_string: "7", new_string: "8" }, ctx);
    expect(edit.output).toEndWith(`; ${hint}`);
  }
});

describe("the same name elsewhere in a big project", () => {
  let rg: string | undefined;
  beforeAll(async () => {
    rg = await findRg();
  });

  test("is found by ripgrep past the first 20,000 files, nearest first, and ignored files are not offered", async () => {
    if (!rg) throw new Error(NO_RG);
    const root = project.path;
    mkdirSync(join(root, ".git"));
    // a monorepo's packages/ comes first in path order and holds more files than a walk looks at
    mkdirSync(join(root, "packages", "a"), { recursive: true });
    for (let i = 0; i < 20_500; i++) writeFileSync(join(root, "packages", "a", `f${i}.ts`), "");
    for (const dir of ["src/b/deep", "src/a/deep/er", "build"]) {
      mkdirSync(join(root, dir), { recursive: true });
      writeFileSync(join(root, dir, "target.ts"), "export {};\n");
    }
    writeFileSync(join(root, ".gitignore"), "build/\n");
    const ctx: ToolContext = { cwd: root, signal: new AbortController().signal };
    const read = (tool: ReturnType<typeof createReadFileTool>) => callTool(tool, { path: "target.ts" }, ctx);
    expect((await read(createReadFileTool({ home: "/nonexistent-home", rg }))).output).toBe(
      `file not found: target.ts (looked for ${join(root, "target.ts")}); did you mean one of: src/b/deep/target.ts, src/a/deep/er/target.ts?`,
    );
    // without ripgrep, the walk looks at the first files only: the answer says where hey looked
    expect((await read(createReadFileTool({ home: "/nonexistent-home", rg: null }))).output).toBe(
      `file not found: target.ts (looked for ${join(root, "target.ts")})`,
    );
    const edit = await callTool(createEditTool({ home: "/nonexistent-home", rg }), { path: "deep/target.ts", old_string: "a", new_string: "b" }, ctx);
    expect(edit.output).toEndWith("; did you mean one of: src/b/deep/target.ts, src/a/deep/er/target.ts?");
  });
});
