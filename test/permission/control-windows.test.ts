// Issue 24 on Windows, where Git Bash runs the commands: hey's control files are Windows paths
// (C:\Users\ann\.config\hey\config.toml), and a redirection may name one as `~/…`, `C:/…`, `C:\…`
// (quoted), MSYS's `/c/…`, relative to the project, after a `cd`, or in another case. Compared as
// POSIX paths none of these met the list, so a restricted agent could rewrite its own rules.
import { expect, test } from "bun:test";
import { compileRules, decide } from "../../src/permission/rules.ts";

const control = {
  paths: ["C:\\Users\\ann\\.config\\hey\\config.toml", "C:\\work\\app\\.hey\\config.toml"],
  home: "C:\\Users\\ann",
  cwd: "C:\\work\\app", // a Windows start directory: Windows paths
};
const check = (command: string) => decide("bash", { command }, compileRules({ allow: [], deny: ["bash: git push *"] }, "sh", control).rules);

test.each([
  "echo x > ~/.config/hey/config.toml",
  "echo x > C:/Users/ann/.config/hey/config.toml",
  "echo x > 'C:\\Users\\ann\\.config\\hey\\config.toml'",
  "echo x >> /c/Users/ann/.config/hey/config.toml",
  "echo x > /cygdrive/c/Users/ann/.config/hey/config.toml",
  "echo x > /mnt/c/Users/ann/.config/hey/config.toml",
  "echo x > c:/users/ANN/.CONFIG/hey/config.toml",
  "echo x > .hey/config.toml",
  "echo x > ./.hey/../.hey/Config.Toml",
  "cd .hey && echo x > config.toml",
  "cd ~ && echo x > .config/hey/config.toml",
  "cd /c/Users/ann/.config && echo x > hey/config.toml",
  "echo x > C:config.toml",
])("refused: %s", (command) => {
  const d = check(command);
  expect(d.allowed).toBe(false);
  if (!d.allowed) expect(d.reason).toContain("could write hey's own configuration or trust file");
});

test.each([
  "echo x > out.txt",
  "echo x > C:/Users/ann/notes.txt",
  "echo x > /tmp/config.toml",
  "echo x > /d/work/app/.hey/config.toml",
  "cd sub && echo x > config.toml",
])("allowed: %s", (command) => {
  expect(check(command)).toEqual({ allowed: true });
});

test("on POSIX a backslash is part of a name and case counts, as before", () => {
  const posix = { paths: ["/home/ann/.config/hey/config.toml"], home: "/home/ann", cwd: "/work/app" };
  const run = (command: string) => decide("bash", { command }, compileRules({ allow: [], deny: ["bash: git push *"] }, "sh", posix).rules).allowed;
  expect(run("echo x > ~/.config/hey/config.toml")).toBe(false);
  expect(run("echo x > /home/ann/.config/hey/Config.toml")).toBe(true);
  expect(run("echo x > /c/home/ann/.config/hey/config.toml")).toBe(true);
});
