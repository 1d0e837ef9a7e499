// Where file names ignore case (Windows always, macOS by default), a deny entry's words ignore it
// too: `rm -rf BUILD` removes the directory `bash: rm -rf build` names. Linux compares them exactly.
// Options keep their case everywhere (`git branch -d` is not `-D`).
import { expect, test } from "bun:test";
import { CASELESS_FILES, compileRules, decide } from "../../src/permission/rules.ts";

const allowed = (entry: string, command: string, shell: string, caseless: boolean) =>
  decide("bash", { command }, compileRules({ allow: [], deny: [`bash: ${entry}`] }, shell, undefined, caseless).rules).allowed;

test.each<[string, string, string]>([
  ["rm -rf build", "rm -rf BUILD", "sh"],
  ["rm -rf build", "rm -rf ./Build/", "bash"],
  ["rm -rf build*", "rm -rf BUILD-old", "sh"],
  ["rm -rf Build", "rm -rf build", "sh"],
  ["Remove-Item -Recurse build", "Remove-Item BUILD -r", "powershell"],
  ["Remove-Item -Recurse build", "Remove-Item .\\Build\\ -Recurse", "powershell"],
])("on a case-insensitive file system deny %j refuses %j (%s); on Linux it runs", (entry, command, shell) => {
  expect(allowed(entry, command, shell, true)).toBe(false);
  expect(allowed(entry, command, shell, false)).toBe(true);
});

test("options keep their case on any file system", () => {
  expect(allowed("git branch -D *", "git branch -d x", "sh", true)).toBe(true);
  expect(allowed("git branch -D *", "git branch -D x", "sh", true)).toBe(false);
  expect(allowed("rm -rf build", "rm -rf src", "sh", true)).toBe(true);
});

test("the platform decides: Windows and macOS ignore case, Linux does not", () => {
  expect(CASELESS_FILES).toBe(process.platform === "win32" || process.platform === "darwin");
  const rules = compileRules({ allow: [], deny: ["bash: rm -rf build"] }).rules;
  expect(decide("bash", { command: "rm -rf BUILD" }, rules).allowed).toBe(!CASELESS_FILES);
});
