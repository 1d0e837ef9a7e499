// /proc and /sys are left out of every walk wherever they lie below its root: the built-in walk
// and ripgrep alike, however the root is named (through a link, with `..`) and wherever ripgrep
// runs from. A test tree stands in for the kernel's mounts (a mount table naming two of its
// directories proc and sysfs); grep-kernel-dirs.test.ts searches the real `/`.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { Mount } from "../../src/fs/mounts.ts";
import { kernelDirsIn, rgKeepOut, rgKeptOut } from "../../src/tools/kernel-dirs.ts";
import { listFiles } from "../../src/tools/project-files.ts";
import { ALWAYS_SKIP } from "../../src/tools/walk.ts";
import { findRg, NO_RG } from "../helpers/find-rg.ts";

let base: string;
let root: string;
let mounts: Mount[];
const rg = await findRg();

beforeAll(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "hey-kernel-dirs-")));
  root = join(base, "a[b]*"); // glob characters in the root's name are no glob
  for (const file of ["src/app.ts", "proc/1/environ", "chroot/sys/kernel/notes", "chroot/etc/hosts", "procfs/notes"]) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), "x\n");
  }
  symlinkSync(root, join(base, "link"));
  mkdirSync(join(base, "elsewhere"));
  mounts = [
    { point: join(root, "proc"), type: "proc" },
    { point: join(root, "chroot/sys"), type: "sysfs" },
  ];
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

const LISTED = ["chroot/etc/hosts", "procfs/notes", "src/app.ts"];

/** What `rg --files` lists of `paths` run in `cwd` with rgKeptOut's arguments, relative to the tree. */
async function listed(given: string, paths: string[], cwd: string): Promise<string[]> {
  if (!rg) throw new Error(NO_RG);
  const kept = await rgKeptOut(given, root, paths, cwd, mounts);
  const run = Bun.spawnSync([rg, "--no-config", "--files", ...kept.args, "--", ...kept.paths], { cwd, stdout: "pipe", stderr: "pipe" });
  const lines = run.stdout.toString().split("\n").filter(Boolean);
  return lines.map((l) => l.replace(/^.*?a\[b\]\*\//, "").replace(/^.*\/link\//, "")).sort();
}

test.each([
  ["from a directory elsewhere", () => [root, "elsewhere"]],
  ["from the root itself", () => [root, "a[b]*"]],
  ["from above the root", () => [root, "."]],
  ["through a link to the root", () => [join(base, "link"), "elsewhere"]],
  ["with `..` in the root's name", () => [join(root, "src", ".."), "elsewhere"]],
])("ripgrep leaves the kernel's directories out, %s", async (_how, args) => {
  const [given, cwd] = args();
  expect(await listed(given!, [given!], join(base, cwd!))).toEqual(LISTED);
});

test("a path a glob sends ripgrep to inside one is not searched: the root is, without them", async () => {
  expect(await listed(root, [join(root, "proc"), join(root, "chroot/sys/")], join(base, "elsewhere"))).toEqual(LISTED);
});

test("the built-in walk's directories are named as it names them", async () => {
  expect(await kernelDirsIn(join(root, "src", ".."), root, mounts)).toEqual([join(root, "chroot/sys"), join(root, "proc")]);
  expect(await kernelDirsIn(join(root, "src"), join(root, "src"), mounts)).toEqual([]);
});

test("the globs: anchored to the whole path, and to the part below the working directory where it lies there", () => {
  expect(rgKeepOut(["/proc"], ["/home/ana"])).toEqual(["--glob", "!//proc"]);
  expect(rgKeepOut(["/proc"], ["/", "/"])).toEqual(["--glob", "!//proc", "--glob", "!/proc"]);
  expect(rgKeepOut(["/w/x{1}/sys"], ["/w"])).toEqual(["--glob", "!//w/x\\{1\\}/sys", "--glob", "!/x\\{1\\}/sys"]);
});

test("the project's file list (for @ and a missing file) of a project at / holds no /proc or /sys file", async () => {
  if (!rg) throw new Error(NO_RG);
  const names: string[] = [];
  expect(await listFiles(rg, "/", ALWAYS_SKIP, 60_000, (path) => void names.push(Buffer.from(path).toString()))).toBe(true);
  expect(names).toContain("etc/passwd");
  expect(names.filter((n) => /^(proc|sys)\//.test(n))).toEqual([]);
});
