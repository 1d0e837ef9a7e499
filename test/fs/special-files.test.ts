// Which kernel files the file tools never read: a process's environment, however it is named once
// links are resolved; its neighbours in /proc are read as any file is.
import { expect, test } from "bun:test";
import { isProcessEnvironment } from "../../src/fs/special-files.ts";

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
