// PowerShell (Windows without sh): a small subset is read, the rest is "cannot verify", and other
// shells hey does not model refuse every command once bash patterns are configured.
import { expect, test } from "bun:test";
import { compileRules, decide, readingOf, type Decision, type PermissionRules } from "../../src/permission/rules.ts";

const allow: PermissionRules = { allow: ["bash: git *", "bash: ls *", "bash: Select-Object *"], deny: [] };
const ps = (command: string, lists = allow) => decide("bash", { command }, compileRules(lists, "powershell").rules);

test.each<[string, Decision]>([
  ["git status; ls -la | Select-Object -First 3", { allowed: true }],
  ["git log --format='%H %s'", { allowed: true }],
  ["git commit -m 'it''s done'", { allowed: true }],
  ["git status && ls", { allowed: true }],
])("allowed: %s", (command, decision) => {
  expect(ps(command)).toEqual(decision);
});

test.each([
  ["ls $env:USERPROFILE", "PowerShell syntax `$` the checker does not model"],
  ['git commit -m "$(Remove-Item x)"', 'PowerShell syntax `"` the checker does not model'],
  ["ls (Remove-Item x)", "PowerShell syntax `(` the checker does not model"],
  ["ls `; Remove-Item x", "PowerShell syntax `` ` `` the checker does not model"],
  ["ls @args", "PowerShell syntax `@` the checker does not model"],
  ["ls a,b", "PowerShell syntax `,` the checker does not model"],
  ["ls > out.txt", "PowerShell syntax `>` the checker does not model"],
  ["& rm x", "PowerShell syntax `&` the checker does not model"],
  ["ls –Force", "a character outside printable ASCII"],
  ["ls ‘x’; rm x", "a character outside printable ASCII"],
  ["ls # comment; rm x", "PowerShell syntax `#` the checker does not model"],
  ["git --% status; rm x", "PowerShell syntax `%` the checker does not model"],
  ["'git' status", "is not a plain PowerShell command"],
  ["1 + 1", "is not a plain PowerShell command"],
  ["function f { rm x }", "PowerShell syntax `{` the checker does not model"],
  ["iex 'rm x'", "cannot verify `iex 'rm x'`: `iex` runs code the rules cannot see"],
  ["Invoke-Expression 'rm x'", "`Invoke-Expression` runs code the rules cannot see"],
  ["Set-Alias ls Remove-Item; ls x", "`Set-Alias` runs code the rules cannot see"],
  ["git status; Remove-Item x", "`Remove-Item x` matches no allow entry"],
  ["git status |", "nothing after `|`"],
])("refused: %s", (command, reason) => {
  const d = ps(command);
  expect(d.allowed).toBe(false);
  if (!d.allowed) expect(d.reason).toContain(reason);
});

test("deny lists compare PowerShell's case-insensitive names lowercased", () => {
  const deny = { allow: [], deny: ["bash: remove-item *"] };
  expect(ps("Remove-Item -Recurse x", deny).allowed).toBe(false);
  expect(ps("Get-ChildItem", deny).allowed).toBe(true);
  expect(ps("IEX 'x'", deny).allowed).toBe(false);
});

test.each<[string, string[], string[]]>([
  // a built-in alias runs the same cmdlet: an entry naming one names them all
  [
    "bash: rm *",
    ["rm x", "Remove-Item -Recurse x", "del x", "erase x", "ri x", "rd x", "rmdir x", "RD x", "Microsoft.PowerShell.Management\\Remove-Item x"],
    ["Get-ChildItem", "rmx x"],
  ],
  ["bash: Remove-Item *", ["rm -r x", "del x", "remove-item x"], ["ls x"]],
  ["bash: curl *", ["curl https://x", "iwr https://x", "Invoke-WebRequest https://x", "wget https://x"], ["Get-Content x"]],
  ["bash: Move-Item *", ["mv a b", "move a b", "mi a b"], ["cp a b"]],
  // the program itself, by any name Windows finds it by
  [
    "bash: git push *",
    ["git push", "git.exe push origin", "GIT.EXE push", "C:\\Git\\cmd\\git.exe push", "C:/Git/cmd/git.exe -C x push"],
    ["git status", "git.exe status"],
  ],
  ["bash: npm publish *", ["npm.cmd publish", "npm.ps1 publish", "C:\\nodejs\\npm.cmd publish"], ["npm.cmd test"]],
])("deny %s refuses every spelling PowerShell runs the same: %j", (entry, refused, allowed) => {
  const deny = { allow: [], deny: [entry] };
  for (const command of refused) expect([command, ps(command, deny).allowed]).toEqual([command, false]);
  for (const command of allowed) expect([command, ps(command, deny).allowed]).toEqual([command, true]);
});

test("a refusal through an alias names the command as written", () => {
  expect(ps("del notes.txt", { allow: [], deny: ["bash: Remove-Item *"] })).toEqual({
    allowed: false,
    reason: "blocked by permission rules: `del notes.txt` matches deny entry `bash: Remove-Item *`",
  });
});

test("allow entries are still matched as written: an alias or another spelling needs its own entry", () => {
  expect(ps("Get-ChildItem src", { allow: ["bash: ls *"], deny: [] }).allowed).toBe(false);
  expect(ps("git.exe status", allow).allowed).toBe(false);
});

test("a shell the checker does not model refuses every bash command under bash patterns, not other tools", () => {
  for (const shell of ["zsh", "fish", "cmd", "/usr/bin/ksh"]) {
    const rules = compileRules(allow, shell).rules;
    const d = decide("bash", { command: "git status" }, rules);
    expect(d).toEqual({
      allowed: false,
      reason: `blocked by permission rules: cannot verify \`git status\`: commands for the shell \`${shell}\` are not modelled`,
    });
    expect(decide("bash", { command: "git status" }, compileRules({ allow: ["bash"], deny: [] }, shell).rules)).toEqual({ allowed: true });
  }
});

test.each<[string, string | undefined]>([
  ["sh", "sh"],
  ["bash", "bash"],
  ["BASH.EXE", "bash"],
  ["dash", "dash"],
  ["powershell", "powershell"],
  ["pwsh", "powershell"],
  ["zsh", undefined],
  ["cmd", undefined],
])("readingOf(%s) is %s", (name, reading) => {
  expect(readingOf(name) as string | undefined).toBe(reading);
});
