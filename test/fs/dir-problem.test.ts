// What hey says when one of its own directories or files cannot be used (fs/dir-problem.ts): the
// path at fault and what to do, not the system call's words.
import { afterEach, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brokenLink, diskProblem, dirProblem, fileProblem, unusableDir } from "../../src/fs/dir-problem.ts";

const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const err = (code: string) => Object.assign(new Error(`${code}: something, write`), { code });

test("a file where a directory of the path should be is named, whichever call failed", () => {
  const root = mkdtempSync(join(tmpdir(), "hey-dirproblem-"));
  temps.push(root);
  mkdirSync(join(root, "state"));
  writeFileSync(join(root, "state", "hey"), "");
  const sessions = join(root, "state", "hey", "sessions");
  for (const code of ["ENOTDIR", "EEXIST"])
    expect(dirProblem(sessions, err(code))).toBe(
      `${join(root, "state", "hey")} is a file, not a directory, so hey cannot keep ${sessions}; move the file away (hey makes the directory again)`,
    );
});

test("permission denied: a directory that exists is named; one that does not is blamed on the directory above it it cannot be made in", () => {
  const root = mkdtempSync(join(tmpdir(), "hey-dirproblem-"));
  temps.push(root);
  mkdirSync(join(root, "hey", "sessions"), { recursive: true });
  const sessions = join(root, "hey", "sessions");
  expect(dirProblem(sessions, err("EACCES"))).toStartWith(
    `${sessions} cannot be used: permission denied; give your user access to it (chmod u+rwx ${sessions}`,
  );
  const missing = join(root, "hey", "logs", "today");
  expect(dirProblem(missing, err("EACCES"))).toBe(
    `${missing} cannot be made: this user may not write ${join(root, "hey")} (EACCES); chmod u+w ${join(root, "hey")}, or set XDG_STATE_HOME (or HOME) to a directory this user may write`,
  );
});

test("permission denied in a directory that is not the user's to change (`/`, a read-only home of another user's): the variable to set, never chmod", () => {
  const other = (process.getuid?.() ?? 0) + 4242; // a user who owns none of these
  expect(dirProblem("/nonexistent/.local/state/hey/sessions", err("EACCES"), "XDG_STATE_HOME", other)).toBe(
    "/nonexistent/.local/state/hey/sessions cannot be made: this user may not write / (EACCES); set XDG_STATE_HOME (or HOME) to a directory this user may write",
  );
  const root = mkdtempSync(join(tmpdir(), "hey-dirproblem-"));
  temps.push(root);
  expect(dirProblem(join(root, ".config", "hey"), err("EACCES"), "XDG_CONFIG_HOME", other)).toBe(
    `${join(root, ".config", "hey")} cannot be made: this user may not write ${root} (EACCES); set XDG_CONFIG_HOME (or HOME) to a directory this user may write`,
  );
  expect(dirProblem(root, err("EPERM"), "XDG_STATE_HOME", other)).toBe(
    `${root} cannot be used: permission denied; set XDG_STATE_HOME (or HOME) to a directory this user may write`,
  );
});

test("a file of hey's that cannot be written: its directory's problem when that cannot be made, the disk's, else the file's own permissions", () => {
  const root = mkdtempSync(join(tmpdir(), "hey-dirproblem-"));
  temps.push(root);
  writeFileSync(join(root, "state"), "");
  const file = join(root, "state", "hey", "approvals.json");
  expect(fileProblem(file, err("ENOTDIR"), "XDG_STATE_HOME")).toBe(
    `${join(root, "state")} is a file, not a directory, so hey cannot keep ${join(root, "state", "hey")}; move the file away (hey makes the directory again)`,
  );
  expect(fileProblem(join(root, "trust.json"), err("EACCES"), "XDG_CONFIG_HOME")).toStartWith("this user may not write it (EACCES"); // its directory is writable
  expect(fileProblem(file, err("ENOSPC"), "XDG_STATE_HOME")).toStartWith("its disk is full");
});

test("a write refused by the disk, a quota, a size limit or the file's permissions says which, and what to do", () => {
  expect(diskProblem(err("ENOSPC"))).toBe("its disk is full (ENOSPC); free some space — what was saved before stays");
  expect(diskProblem(err("EDQUOT"))).toStartWith("your disk quota is used up (EDQUOT)");
  expect(diskProblem(err("EFBIG"))).toBe("the file would be larger than this process may write (EFBIG: see `ulimit -f`)");
  expect(diskProblem(err("EACCES"), "/s/a.jsonl")).toBe(
    "this user may not write it (EACCES: read-only, or made by another user — under sudo?); see ls -l /s/a.jsonl",
  );
  expect(diskProblem(err("EACCES"))).toBeUndefined(); // a directory's: dirProblem says it
  expect(diskProblem(err("EIO"))).toBeUndefined();
});

test("a link to nothing on the way (a disk not mounted) is named with its target, whichever call failed; a plain missing directory is not a problem of that kind", () => {
  const root = mkdtempSync(join(tmpdir(), "hey-dirproblem-"));
  temps.push(root);
  mkdirSync(join(root, "state", "hey"), { recursive: true });
  symlinkSync(join(root, "usb", "sessions"), join(root, "state", "hey", "sessions"));
  const sessions = join(root, "state", "hey", "sessions");
  for (const code of ["ENOENT", "EEXIST"])
    expect(dirProblem(sessions, err(code))).toBe(
      `${sessions} is a symbolic link to ${join(root, "usb", "sessions")}, which does not exist (a disk not mounted, or a folder moved?); make ${join(root, "usb", "sessions")} or remove the link`,
    );
  expect(dirProblem(join(sessions, "x"), err("ENOENT"))).toStartWith(`${sessions} is a symbolic link to`);
  expect(brokenLink(join(root, "state", "logs"))).toBeUndefined();
});

test("a directory looked at before use (the REPL's start): none when it can be made, the file in its way when not", () => {
  const root = mkdtempSync(join(tmpdir(), "hey-dirproblem-"));
  temps.push(root);
  expect(unusableDir(join(root, "state", "hey"), "XDG_STATE_HOME")).toBeUndefined();
  writeFileSync(join(root, "file"), "");
  expect(unusableDir(join(root, "file", "hey"), "XDG_STATE_HOME")).toBe(
    `${join(root, "file")} is a file, not a directory, so hey cannot keep ${join(root, "file", "hey")}; move the file away (hey makes the directory again)`,
  );
});
