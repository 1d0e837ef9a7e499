// Which kernel files the file tools never read: a process's environment, however it is named once
// links are resolved; its neighbours in /proc are read as any file is.
import { expect, test } from "bun:test";
import { isProcessEnvironment, unsearchedKernelPath } from "../../src/fs/special-files.ts";

test.each([
  ["/proc/1234/environ", true],
  ["/proc/self/environ", true],
  ["/proc/thread-self/environ", true],
  ["/proc/1234/task/1235/environ", true],
  ["/proc/1234/status", false],
  ["/proc/cpuinfo", false],
  ["/home/me/proc/1234/environ", false],
  ["/proc/1234/environ.txt", false],
])("%s → %p", (path, refused) => {
  expect(isProcessEnvironment(path)).toBe(refused);
});

test.each([
  ["/proc/1234/environ", false, "a process's environment"],
  ["/proc", true, "a directory of /proc"],
  ["/proc/1234", true, "a directory of /proc"],
  ["/proc/1234/status", false, undefined],
  ["/procfs-notes", true, undefined],
  ["/home/me/proc", true, undefined],
])("grep of %s (a directory: %p): %p", (path, isDirectory, refusal) => {
  const said = unsearchedKernelPath(path, isDirectory);
  if (refusal === undefined) expect(said).toBeUndefined();
  else expect(said).toStartWith(refusal);
});
