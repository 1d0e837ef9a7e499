// x100 #3: a file or folder a deny entry keeps from grep was named in the result when grep could
// not read it ("[not searched, could not be read: .env (permission denied)]"), or when it was
// .gitignored and nothing matched ("the directories left out may hold it: secrets/"). What the
// rules keep from grep is counted among what was left out, never named: files and folders apart.
import { afterAll, expect, test } from "bun:test";
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { permissionCheck } from "../../src/embed-permission.ts";
import { createGrepTool } from "../../src/tools/grep.ts";
import { grepWith } from "../helpers/grep-with.ts";
import { findRg, NO_RG } from "../helpers/find-rg.ts";
import { testNeeding } from "../helpers/tools.ts";

const dir = realpathSync(mkdtempSync(join(tmpdir(), "hey-grep-denied-unreadable-")));
afterAll(() => {
  for (const path of [".env", "secretdir"]) chmodSync(join(dir, "tree", path), 0o755);
  rmSync(dir, { recursive: true, force: true });
});

// Root reads everything, so as root the search runs as nobody (setpriv).
const asUser = process.getuid?.() === 0 ? ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : [];
testNeeding(asUser.slice(0, 1))("a denied file or folder grep cannot read is counted, not named, by ripgrep and the built-in walker alike", async () => {
  const rg = await findRg();
  if (!rg) throw new Error(NO_RG);
  const tree = join(dir, "tree");
  for (const [path, text] of Object.entries({
    "sub/notes.txt": "TOKEN=x\n",
    ".env": "TOKEN=secret\n",
    "secretdir/key.txt": "TOKEN=secret\n",
    "locked/a.txt": "x\n",
  })) {
    mkdirSync(join(tree, path, ".."), { recursive: true });
    writeFileSync(join(tree, path), text);
  }
  for (const path of ["", "sub", "secretdir", "locked"]) chmodSync(join(tree, path), 0o755);
  chmodSync(dir, 0o755);
  for (const path of [".env", "secretdir", "locked"]) chmodSync(join(tree, path), 0o000); // not 700: a user who is not root runs as the owner
  const script = `
    const { createGrepTool } = await import(${JSON.stringify(join(import.meta.dir, "../../src/tools/grep.ts"))});
    const { permissionCheck } = await import(${JSON.stringify(join(import.meta.dir, "../../src/embed-permission.ts"))});
    const { grepWith } = await import(${JSON.stringify(join(import.meta.dir, "../helpers/grep-with.ts"))});
    const check = permissionCheck({ deny: ["grep: **/.env", "grep: **/secretdir"] }).within(${JSON.stringify(tree)});
    const out = [];
    for (const rg of [null, ${JSON.stringify(rg)}]) out.push(await grepWith(createGrepTool({ rg }), check, ${JSON.stringify(tree)}, { pattern: "TOKEN" }));
    console.log(JSON.stringify(out));`;
  const run = Bun.spawnSync([...asUser, process.execPath, "-e", script], { cwd: tree, env: { ...process.env, HOME: tree } });
  expect(run.stderr.toString()).toBe("");
  const [walk, ripgrep] = JSON.parse(run.stdout.toString()) as string[];
  for (const text of [walk!, ripgrep!]) {
    expect(text).toContain("sub/notes.txt:1: TOKEN=x");
    expect(text).not.toContain(".env");
    expect(text).not.toContain("secretdir");
    expect(text).toContain("[not searched, could not be read: locked (permission denied)]"); // a folder no entry names still is
    expect(text).toContain("[1 file and 1 folder not searched: the permission rules keep them from grep]"); // .env, secretdir
  }
});

test("a denied folder that is also ignored is not named as one that may hold what was not found", async () => {
  const tree = join(dir, "ignored");
  mkdirSync(join(tree, "secrets"), { recursive: true });
  mkdirSync(join(tree, "build"), { recursive: true });
  mkdirSync(join(tree, ".git"), { recursive: true });
  writeFileSync(join(tree, ".gitignore"), "secrets/\nbuild/\n");
  writeFileSync(join(tree, "secrets/key.txt"), "x\n");
  writeFileSync(join(tree, "build/out.js"), "x\n");
  writeFileSync(join(tree, "a.txt"), "x\n");
  const check = permissionCheck({ deny: ["grep: **/secrets"] }).within(tree);
  for (const rg of [null, await findRg()]) {
    const output = await grepWith(createGrepTool({ rg }), check, tree, { pattern: "nothing-holds-this" });
    expect(output).toContain("build/");
    expect(output).not.toContain("secrets");
    expect(output).toContain("[1 folder not searched: the permission rules keep it from grep]"); // x101 #6: counted, as said
  }
});
