// The start directory made again, and changed again in the instant between hey's look at it and its
// chdir into it (src/fs/work-dir.ts, x149): a link put there then took hey's own directory where it
// points, and every later look said the project had moved there, even once a real directory stood
// at the path; a directory removed then was called one hey has no access to. process.chdir is
// wrapped to make the change just before the real one.
import { afterEach, expect, spyOn, test } from "bun:test";
import { mkdirSync, readdirSync, realpathSync, renameSync, rmdirSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { movedFrom, rememberWorkDir } from "../../src/fs/work-dir.ts";
import { createWriteFileTool } from "../../src/tools/write-file.ts";
import { tempDir } from "../helpers/e2e.ts";

const startDir = process.cwd();
const realChdir = process.chdir.bind(process);
const made: ReturnType<typeof tempDir>[] = [];
afterEach(() => {
  process.chdir(startDir);
  for (const d of made.splice(0)) d.remove();
});

/** A fresh directory hey "started in" (remembered as here.ts does), deleted and made again at its path. */
function startedThenMadeAgain(): { base: string; dir: string } {
  const d = tempDir("hey-start-race-");
  made.push(d);
  const base = realpathSync(d.path);
  const dir = join(base, "app");
  mkdirSync(dir);
  process.chdir(dir);
  rememberWorkDir(dir);
  rmdirSync(dir);
  mkdirSync(dir);
  return { base, dir };
}

/** process.chdir doing `change` first, the first time it is called only. */
function changedOnEntry(change: () => void) {
  return spyOn(process, "chdir").mockImplementationOnce((to: string) => {
    change();
    realChdir(to);
  });
}

const adopted = (dir: string) => `${dir} was deleted and made again while hey ran (a checkout, a stash, a scaffolder): hey works in the new one`;

test("a link put at the path as hey enters it: refused naming where it points, later looks say so too, and a directory made there then is taken", async () => {
  const { base, dir } = startedThenMadeAgain();
  const elsewhere = join(base, "elsewhere");
  mkdirSync(elsewhere);
  const chdir = changedOnEntry(() => {
    rmdirSync(dir);
    symlinkSync(elsewhere, dir);
  });
  const line = `the project was replaced: ${dir} is now a link to ${elsewhere} — hey does not follow it; restart hey in the directory you mean`;
  const told: string[] = [];
  try {
    expect(movedFrom(dir, (l) => told.push(l))).toBe(line); // old code: "… is now a link — hey does not follow it; …", no target
  } finally {
    chdir.mockRestore();
  }
  // old code: "the project moved: …/app is not the directory hey started in (that one is now …/elsewhere?) — …"
  expect(movedFrom(dir, (l) => told.push(l))).toBe(line);
  const write = await createWriteFileTool().run({ path: "made.txt", content: "hi\n" }, { signal: new AbortController().signal, cwd: dir });
  expect(write.output).toContain(line);
  expect(readdirSync(elsewhere)).toEqual([]);
  expect(told).toEqual([]);
  unlinkSync(dir);
  mkdirSync(dir); // the user puts a real directory back
  expect(movedFrom(dir, (l) => told.push(l))).toBeUndefined(); // old code: "the project moved: … (that one is now …/elsewhere?)" for good
  expect(told).toEqual([adopted(dir)]);
  expect(process.cwd()).toBe(dir);
});

// ext4 gives a directory made after the race the inode the first one freed: the same device and inode
// as the one hey started in, so the look found nothing changed while hey's own directory stayed at the
// link's target. Here the first one itself is put back (this process's directory is elsewhere, deleted).
test("after the race, a directory at the path with the first one's very inode: hey enters it, not staying where the link pointed", () => {
  const d = tempDir("hey-start-race-");
  made.push(d);
  const base = realpathSync(d.path);
  const [dir, hold, gone, elsewhere] = ["app", "hold", "gone", "elsewhere"].map((name) => join(base, name)) as [string, string, string, string];
  for (const path of [dir, gone, elsewhere]) mkdirSync(path);
  rememberWorkDir(dir);
  process.chdir(gone);
  rmdirSync(gone); // hey's own directory: deleted
  renameSync(dir, hold);
  mkdirSync(dir);
  const chdir = changedOnEntry(() => {
    rmdirSync(dir);
    symlinkSync(elsewhere, dir);
  });
  try {
    expect(movedFrom(dir)).toStartWith(`the project was replaced: ${dir} is now a link to ${elsewhere} — `);
  } finally {
    chdir.mockRestore();
  }
  unlinkSync(dir);
  renameSync(hold, dir);
  const told: string[] = [];
  expect(movedFrom(dir, (l) => told.push(l))).toBeUndefined();
  expect(told).toEqual([adopted(dir)]); // old code: nothing, and hey's own directory left at …/elsewhere
  expect(process.cwd()).toBe(dir);
});

test("the directory removed as hey enters it: no access advice, the line says what is there now", () => {
  const { dir } = startedThenMadeAgain();
  const chdir = changedOnEntry(() => rmdirSync(dir));
  try {
    // old code: "the project was made again at …, but hey cannot enter it (ENOENT) — give your user access to it …"
    expect(movedFrom(dir)).toBe(
      `the project is gone: ${dir} was deleted while hey ran — restore it (a checkout back) or restart hey in a directory that exists`,
    );
  } finally {
    chdir.mockRestore();
  }
});

test("a file put at the path as hey enters it (ENOTDIR): no access advice either", () => {
  const { dir } = startedThenMadeAgain();
  const chdir = changedOnEntry(() => {
    rmdirSync(dir);
    writeFileSync(dir, "");
  });
  try {
    expect(movedFrom(dir)).not.toContain("access"); // old code: "… cannot enter it (ENOTDIR) — give your user access to it …"
  } finally {
    chdir.mockRestore();
  }
  expect(movedFrom(dir)).toBe(`the project is gone: ${dir} was deleted while hey ran — restore it (a checkout back) or restart hey in a directory that exists`);
});

test("removed and made again as hey enters it (a scaffolder's `rm -rf app && mkdir app`): hey looks again and takes the new one", () => {
  const { dir } = startedThenMadeAgain();
  const chdir = spyOn(process, "chdir").mockImplementationOnce((to: string) => {
    rmdirSync(dir);
    try {
      realChdir(to);
    } finally {
      mkdirSync(dir);
    }
  });
  const told: string[] = [];
  try {
    expect(movedFrom(dir, (l) => told.push(l))).toBeUndefined(); // old code: "… cannot enter it (ENOENT) — give your user access to it …"
  } finally {
    chdir.mockRestore();
  }
  expect(told).toEqual([adopted(dir)]);
  expect(process.cwd()).toBe(dir);
});
