// edit and write_file change a file's content, not what the file is: its other hard links see the
// change, its owner and group stay (a root hey in a container on a bind-mounted project), and a
// file the user may write in a directory they may not is written, as `echo > file` would; when a
// write in place fails, the file keeps its old content.
import { expect, test } from "bun:test";
import { chmodSync, chownSync, linkSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../../src/fs/atomic.ts";
import { createEditTool } from "../../src/tools/edit.ts";
import { createWriteFileTool } from "../../src/tools/write-file.ts";
import { callTool } from "../helpers/call-tool.ts";
import { eachTempDir } from "../helpers/fixtures.ts";

const project = eachTempDir("hey-identity-");
const seen = new Map();
const ctx = () => ({ cwd: project.path, signal: new AbortController().signal });
const edit = (args: Record<string, unknown>) => callTool(createEditTool({ seen }), args, ctx());
const write = (args: Record<string, unknown>) => callTool(createWriteFileTool({ seen }), args, ctx());
const asRoot = process.getuid?.() === 0;
/** As root, the tools run as nobody in a child (setpriv); as anyone else, as themselves. */
const NOBODY = 65534;

test("a file with another hard link: edit and write_file change both names (same inode), no link is split", async () => {
  writeFileSync(join(project.path, "h1.txt"), "hard\n");
  linkSync(join(project.path, "h1.txt"), join(project.path, "h2.txt"));
  expect((await edit({ path: "h1.txt", old_string: "hard", new_string: "HARD" })).output).toStartWith("edited h1.txt: 1 replacement");
  expect(readFileSync(join(project.path, "h2.txt"), "utf8")).toBe("HARD\n");
  expect((await write({ path: "h1.txt", content: "rewritten\n" })).isError).toBeUndefined();
  expect(readFileSync(join(project.path, "h2.txt"), "utf8")).toBe("rewritten\n");
  expect(statSync(join(project.path, "h1.txt")).ino).toBe(statSync(join(project.path, "h2.txt")).ino);
  expect(readdirSync(project.path).sort()).toEqual(["h1.txt", "h2.txt"]);
});

test("a file of another owner keeps its owner, group and mode after edit and write_file (root gives them back; anyone else writes in place)", async () => {
  const file = join(project.path, "o.txt");
  writeFileSync(file, "owned\n");
  chmodSync(file, 0o664);
  const uid = asRoot ? 1000 : process.getuid!();
  const gid = asRoot ? 1000 : process.getgid!();
  chownSync(file, uid, gid);
  await edit({ path: "o.txt", old_string: "owned", new_string: "still owned" });
  await write({ path: "o.txt", content: "still owned\nand more\n" });
  expect(readFileSync(file, "utf8")).toBe("still owned\nand more\n");
  const after = statSync(file);
  expect([after.uid, after.gid, after.mode & 0o777]).toEqual([uid, gid, 0o664]);
  if (!asRoot) return;
  // a user who may write another's file in a shared directory cannot give it back its owner: written in place
  chmodSync(project.path, 0o777);
  chmodSync(file, 0o666);
  chownSync(file, 0, 0);
  const script = `
    const { createEditTool } = await import(${JSON.stringify(join(import.meta.dir, "../../src/tools/edit.ts"))});
    const { callTool } = await import(${JSON.stringify(join(import.meta.dir, "../helpers/call-tool.ts"))});
    const ctx = { cwd: ${JSON.stringify(project.path)}, signal: new AbortController().signal };
    console.log(JSON.stringify(await callTool(createEditTool(), { path: "o.txt", old_string: "and more", new_string: "by nobody" }, ctx)));`;
  const asNobody = ["setpriv", `--reuid=${NOBODY}`, `--regid=${NOBODY}`, "--clear-groups"];
  const run = Bun.spawnSync([...asNobody, process.execPath, "-e", script], { cwd: project.path, env: { ...process.env, HOME: project.path } });
  expect(run.stderr.toString()).toBe("");
  expect(JSON.parse(run.stdout.toString()).output).toStartWith("edited o.txt: 1 replacement");
  expect(readFileSync(file, "utf8")).toBe("still owned\nby nobody\n");
  expect([statSync(file).uid, statSync(file).gid]).toEqual([0, 0]);
});

test("a write in place that fails (the file size limit, as a full disk) leaves the file's old content", async () => {
  mkdirSync(join(project.path, "d"));
  const file = join(project.path, "d", "big.txt");
  writeFileSync(file, "old content\n");
  linkSync(file, join(project.path, "d", "other-name.txt")); // so it is written in place
  const script = `
    const { writeFileAtomic } = await import(${JSON.stringify(join(import.meta.dir, "../../src/fs/atomic.ts"))});
    await writeFileAtomic(${JSON.stringify(file)}, "x".repeat(8192), { unchanged: new TextEncoder().encode("old content\\n") }).then(
      () => console.log("written"), (e) => console.log("failed: " + e.code));`;
  const run = Bun.spawnSync(["sh", "-c", `ulimit -f 4 && exec "$0" -e "$1"`, process.execPath, script], { cwd: project.path });
  expect(run.stdout.toString().trim()).toBe("failed: EFBIG");
  expect(readFileSync(file, "utf8")).toBe("old content\n");
  expect(readdirSync(join(project.path, "d")).sort()).toEqual(["big.txt", "other-name.txt"]);
});

test("a named pipe or other special file is never replaced by a regular file", async () => {
  const fifo = join(project.path, "pipe");
  expect(Bun.spawnSync(["mkfifo", fifo]).exitCode).toBe(0);
  expect(await write({ path: "pipe", content: "hello\n" })).toEqual({
    output: "pipe is not a regular file (a named pipe, device or socket); not changed",
    isError: true,
  });
  await expect(writeFileAtomic(fifo, "hello\n")).rejects.toThrow(`${fifo} is not a regular file`);
  expect(statSync(fifo).isFIFO()).toBe(true);
});
