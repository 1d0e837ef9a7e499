// Which files grep searches in a monorepo: a glob's `!` negation, a path glob read from the
// searched path, a pnpm dependency tree searched when `path` is inside node_modules, and the
// folders named when nothing matched, each package's own node_modules too.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { ToolContext } from "../../src/kernel/tool.ts";
import { callTool } from "../helpers/call-tool.ts";
import { bothGreps } from "../helpers/find-rg.ts";

let root: string;
let ctx: ToolContext;
const tools = await bothGreps();

const TREE: Record<string, string> = {
  ".gitignore": "node_modules\ngen/\n",
  "packages/web/src/app.ts": "export const add = 1;\n",
  "packages/web/src/app.test.ts": "test(add)\n",
  "packages/web/src/gen/api.ts": "add (generated, ignored)\n",
  "packages/web/lib/util.ts": "add in lib\n",
  "packages/api/src/server.ts": "add on the server\n",
  "node_modules/.pnpm/zod@3.0.0/node_modules/zod/index.js": "export function safeParse() {}\n",
  "node_modules/.pnpm/zod@3.0.0/node_modules/zod/package.json": '{"name":"zod"}\n',
  "packages/web/node_modules/left-pad/index.js": "module.exports = function leftPad() {}\n",
  "packages/api/node_modules/left-pad/index.js": "module.exports = function leftPad() {}\n",
};

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "hey-grep-scope-"));
  mkdirSync(join(root, ".git"));
  for (const [path, text] of Object.entries(TREE)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  symlinkSync(".pnpm/zod@3.0.0/node_modules/zod", join(root, "node_modules/zod"));
  ctx = { cwd: root, signal: new AbortController().signal };
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const files = (output: string) => [...new Set(output.split("\n").flatMap((l) => /^(.+?):\d+: /.exec(l)?.[1] ?? []))];

describe.each(tools)("grep (%s)", (_name, tool) => {
  const grep = (args: Record<string, unknown>) => callTool(tool, args, ctx);

  test.each([
    ["a glob starting with ! leaves those files out", { glob: "!**/*.test.ts", path: "packages/web" }, ["packages/web/lib/util.ts", "packages/web/src/app.ts"]],
    ["a file-name glob with !, from the root", { glob: "!*.test.ts" }, ["packages/api/src/server.ts", "packages/web/lib/util.ts", "packages/web/src/app.ts"]],
    ["a negated directory leaves out what is under it", { glob: "!packages/web/src" }, ["packages/api/src/server.ts", "packages/web/lib/util.ts"]],
    [
      "a glob with a slash is read from the searched path",
      { glob: "src/**/*.ts", path: "packages/web" },
      ["packages/web/src/app.test.ts", "packages/web/src/app.ts"],
    ],
    [
      "or from the project root; .gitignore still counts",
      { glob: "packages/*/src/**/*.ts" },
      ["packages/api/src/server.ts", "packages/web/src/app.test.ts", "packages/web/src/app.ts"],
    ],
    ["**/NAME is NAME at any depth", { glob: "**/*.test.ts" }, ["packages/web/src/app.test.ts"]],
  ])("%s", async (_what, args, want) => {
    expect(files((await grep({ pattern: "add", ...args })).output)).toEqual(want);
  });

  test("a path inside node_modules searches the node_modules below it: a pnpm store", async () => {
    const want = ["node_modules/.pnpm/zod@3.0.0/node_modules/zod/index.js"];
    for (const path of ["node_modules", "node_modules/.pnpm", "node_modules/.pnpm/zod@3.0.0"])
      expect(files((await grep({ pattern: "safeParse", path })).output)).toEqual(want);
    expect((await grep({ pattern: "safeParse", path: "node_modules/zod" })).output).toBe("node_modules/zod/index.js:1: export function safeParse() {}");
    // the project's own files only, and the answer says where else to look
    expect((await grep({ pattern: "safeParse" })).output).toBe(
      'no matches for "safeParse" in .\n[ignored, not searched: node_modules/, packages/*/node_modules/ (2 folders, as packages/api/node_modules/), packages/web/src/gen/; name one as path to search it]',
    );
  });

  test("a search that finds nothing names each package's own node_modules, and the folders ignored deeper down, not only the top ones", async () => {
    expect((await grep({ pattern: "leftPad" })).output).toBe(
      'no matches for "leftPad" in .\n[ignored, not searched: node_modules/, packages/*/node_modules/ (2 folders, as packages/api/node_modules/), packages/web/src/gen/; name one as path to search it]',
    );
    // the folder named for the group is one grep's path takes (it takes no glob)
    expect((await grep({ pattern: "leftPad", path: "packages/api/node_modules/" })).output).toContain("packages/api/node_modules/left-pad/index.js:1:");
    expect((await grep({ pattern: "leftPad", path: "packages/web" })).output).toBe(
      'no matches for "leftPad" in packages/web\n[ignored, not searched: packages/web/node_modules/, packages/web/src/gen/; name one as path to search it]',
    );
    // named as path, one is searched
    expect(files((await grep({ pattern: "leftPad", path: "packages/api/node_modules" })).output)).toEqual(["packages/api/node_modules/left-pad/index.js"]);
  });

  test("a project that itself lives in a node_modules (a package developed where it is installed) is searched as any project: its .gitignore counts", async () => {
    const inside = join(root, "node_modules", "@me", "tool");
    for (const [path, text] of Object.entries({ ".gitignore": "dist/\n", "src/a.ts": "needle\n", "dist/a.js": "needle\n" })) {
      mkdirSync(dirname(join(inside, path)), { recursive: true });
      writeFileSync(join(inside, path), text);
    }
    mkdirSync(join(inside, ".git"), { recursive: true });
    const there = { cwd: inside, signal: new AbortController().signal };
    expect(files((await callTool(tool, { pattern: "needle" }, there)).output)).toEqual(["src/a.ts"]);
  });
});
