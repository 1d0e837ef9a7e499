// PowerShell binds a cmdlet's parameters by name, case-insensitively, by any prefix, wherever they
// stand, with an optional `:value`: a deny entry naming a parameter refuses every such spelling,
// while other cmdlets, other parameters and allow lists are read as before.
import { expect, test } from "bun:test";
import { parsePowerShell, powerShellTokens } from "../../src/permission/powershell.ts";
import { compileRules, decide, type PermissionRules } from "../../src/permission/rules.ts";

const run = (command: string, lists: PermissionRules, shell = "powershell") => decide("bash", { command }, compileRules(lists, shell).rules);

test.each<[string, string[], string[]]>([
  [
    "bash: Remove-Item -Recurse *",
    [
      ...["Remove-Item -r x", "Remove-Item x -recurse", "Remove-Item -Rec x", "Remove-Item -RECURSE x", "Remove-Item -Path x -Force -r"],
      // a value after `:` (in the word or the next), whatever it is: `-Recurse:0` does not recurse, and is refused all the same
      ...["Remove-Item -Recurse:1 x", "Remove-Item -Recurse: 1 x", "Remove-Item -Recurse:0 x"],
      // the cmdlet by any of its names
      ...["ri -r x", "rm -r x", "del x -R", "erase -rec x", "Microsoft.PowerShell.Management\\Remove-Item -r x", "Microsoft.PowerShell.Management\\ri -r x"],
      // PowerShell ends a parameter's name at `.`; a word after `--` counts too (over-refusing a file named `-r`)
      ...["Remove-Item -r.x", "Remove-Item x -- -r"],
    ],
    // another parameter, no parameter, not a parameter to PowerShell, another cmdlet
    ["Remove-Item x", "Remove-Item -Force x", "Remove-Item -Path x", "Remove-Item -rx x", "Remove-Item --r x", "Get-ChildItem -Recurse", "Copy-Item -r a b"],
  ],
  [
    "bash: Stop-Process -Force *",
    ["kill -f 12", "spps 12 -fo", "Stop-Process -Name x -FORCE:1"],
    ["Stop-Process 12", "Stop-Process -Id 12 -PassThru", "Get-Process -f"],
  ],
  // the entry may abbreviate too: `-r` is whatever parameter `-r` abbreviates
  ["bash: rm -r *", ["rm -Recurse x", "Remove-Item x -rec"], ["rm x", "rm -Path x"]],
  // `rm -rf *` is also `rm -r *` (rm without -f asks nothing without a terminal), whose `-r` abbreviates `-Recurse`
  ["bash: rm -rf *", ["rm -r x", "rm -Recurse x", "Remove-Item -Recurse -Force x", "ri x -rec"], ["rm x", "Remove-Item -Force x", "Remove-Item -Path x"]],
  // a value: after the name, after `:`, case-insensitively
  [
    "bash: Set-ExecutionPolicy -Scope LocalMachine *",
    ["Set-ExecutionPolicy Bypass -Sc localmachine", "Set-ExecutionPolicy Bypass -Scope:LocalMachine", "Set-ExecutionPolicy -scope: LocalMachine Bypass"],
    ["Set-ExecutionPolicy Bypass -Scope CurrentUser", "Set-ExecutionPolicy Bypass"],
  ],
  // the entry's other words still match in order
  [
    "bash: Remove-Item -Recurse build",
    ["Remove-Item build -r", "Remove-Item -r -Path build", "Remove-Item -Path:build -r", "Remove-Item -r -LiteralPath: build"],
    ["Remove-Item -r src", "Remove-Item build"],
  ],
  // git (like npm) is a program that reads its own options, which hey has a table of: `-d` is not `-D` to git
  ["bash: git branch -D *", ["git branch -D x", "git branch --delete --force x"], ["git branch -d x"]],
  // a method, in any case, both ways: curl's `-X POST` is Invoke-WebRequest's `-Method Post`, and the other way
  // round; `iwr`'s words are its parameters, never curl's clusters (`-Method` is not `-M -e -t -h -o -d`)
  [
    "bash: curl -X POST *",
    [
      "iwr https://example.com -Method Post",
      "iwr https://example.com -Method:post",
      "Invoke-WebRequest -Uri https://example.com -Me pOsT",
      "curl.exe -X post https://example.com",
    ],
    ["iwr https://example.com -Method Get", "iwr https://example.com -Method Head", "iwr https://example.com -OutFile x.html", "iwr https://example.com"],
  ],
  [
    "bash: Invoke-WebRequest -Method Post *",
    [
      "curl.exe -X POST https://example.com",
      "curl.exe -d x https://example.com",
      "iwr https://example.com -Method POST",
      "wget.exe --post-data=x https://example.com",
    ],
    ["Invoke-WebRequest https://example.com -Method Get", "curl.exe https://example.com"],
  ],
  // a URL-scoped entry: Invoke-WebRequest takes its URL by position or as -Uri, before or after the method
  [
    "bash: curl -X POST https://api.example.com/*",
    [
      "iwr https://api.example.com/v1 -Method Post",
      "iwr -Uri https://api.example.com/v1 -Method Post",
      "Invoke-WebRequest -uri:https://api.example.com/v1 -Method Post",
      "iwr -Ur 'https://api.example.com/v*' -Method Post",
      "curl https://api.example.com/v1 -Method Post -UseBasicParsing",
      "iwr -Method Post https://api.example.com/v1 -Body x",
      "curl.exe -X POST https://api.example.com/v1 -H 'a: b'",
    ],
    [
      "iwr https://api.example.com/v1 -Method Get",
      "iwr https://api.example.com/v1",
      "iwr https://other.example.com/v1 -Method Post",
      "iwr -Uri https://other.example.com/v1 -Method Post -OutFile x",
    ],
  ],
  [
    "bash: iwr -Method Delete *",
    ["curl.exe -X delete https://example.com/x", "Invoke-WebRequest https://example.com/x -Method DELETE"],
    ["curl.exe -X GET https://example.com"],
  ],
])("PowerShell, deny %s", (entry, refused, allowed) => {
  const lists = { allow: [], deny: [entry] };
  for (const command of refused) expect([command, run(command, lists).allowed]).toEqual([command, false]);
  for (const command of allowed) expect([command, run(command, lists).allowed]).toEqual([command, true]);
});

// PowerShell's own other names of a parameter (Microsoft's cmdlet reference, about_CommonParameters)
// and a parameter given by position: powershell-parameters.ts
test.each<[string, string[], string[]]>([
  [
    "bash: Remove-Item -LiteralPath build *",
    ["Remove-Item -PSPath build", "Remove-Item -LP build", "ri -lp:BUILD", "del -PSP .\\build\\", "Remove-Item -LiteralPath build"],
    ["Remove-Item -PSPath src", "Remove-Item -LP src -Recurse"],
  ],
  // `Remove-Item build` gives -Path build: position 0, however many parameter words stand before it
  [
    "bash: Remove-Item -Path build *",
    ["Remove-Item build", "rm -r build", "Remove-Item -Force -Recurse build", "ri BUILD", "Remove-Item src build"],
    ["Remove-Item src", "Remove-Item -Path src", "Remove-Item"],
  ],
  ["bash: Copy-Item -Destination C:/Windows *", ["Copy-Item x C:/Windows", "cp -r x c:\\windows\\", "copy x -Dest C:/Windows/"], ["Copy-Item C:/Windows x"]],
  ["bash: Get-ChildItem -Recurse *", ["gci -s", "Get-ChildItem -S x", "dir x -r"], ["gci x", "gci -Name"]],
  ["bash: Stop-Process -Name explorer *", ["kill -ProcessName explorer", "spps -processn explorer"], ["Stop-Process -Name notepad"]],
  [
    "bash: Set-ExecutionPolicy -Scope LocalMachine *",
    ["Set-ExecutionPolicy Bypass LocalMachine"],
    ["Set-ExecutionPolicy Bypass CurrentUser", "Set-ExecutionPolicy LocalMachine"],
  ],
  // common parameters, on any cmdlet, and the entry may give the alias
  [
    "bash: Remove-Item -ErrorAction SilentlyContinue *",
    ["Remove-Item x -ea SilentlyContinue", "ri x -EA:silentlycontinue", "Remove-Item x -ErrorA SilentlyContinue"],
    ["Remove-Item x -ea Stop", "Remove-Item x"],
  ],
  ["bash: Remove-Item -ea SilentlyContinue *", ["Remove-Item x -ErrorAction SilentlyContinue"], ["Remove-Item x -ErrorAction Stop"]],
  ["bash: Remove-Item -Confirm:0 *", ["Remove-Item x -cf:0", "Remove-Item x -Confirm:0"], ["Remove-Item x"]],
  ["bash: mytool -Verbose *", ["mytool -vb", "mytool -Verbose"], ["mytool -x"]],
])("PowerShell's other names of a parameter, deny %s", (entry, refused, allowed) => {
  const lists = { allow: [], deny: [entry] };
  for (const command of refused) expect([command, run(command, lists).allowed]).toEqual([command, false]);
  for (const command of allowed) expect([command, run(command, lists).allowed]).toEqual([command, true]);
});

test("a refusal names the command and the entry", () => {
  expect(run("rm x -rec", { allow: [], deny: ["bash: Remove-Item -Recurse *"] })).toEqual({
    allowed: false,
    reason: "blocked by permission rules: `rm x -rec` matches deny entry `bash: Remove-Item -Recurse *`",
  });
});

test.each([
  ["Remove-Item -Recurse:$true x", "PowerShell syntax `$`"],
  ["Remove-Item -r:$false x", "PowerShell syntax `$`"],
  ["Remove-Item $p x", "PowerShell syntax `$`"],
  ["Remove-Item @args", "PowerShell syntax `@`"],
  ["Remove-Item --% -r x", "PowerShell syntax `%`"],
])("a parameter PowerShell knows only at run time is refused under a deny list: %s", (command, reason) => {
  const d = run(command, { allow: [], deny: ["bash: Remove-Item -Recurse *"] });
  expect(d.allowed).toBe(false);
  if (!d.allowed) expect(d.reason).toContain(`cannot verify \`${command}\`: ${reason}`);
});

test("allow entries still match as written", () => {
  const lists = { allow: ["bash: Remove-Item -Recurse *"], deny: [] };
  expect(run("Remove-Item -Recurse x", lists)).toEqual({ allowed: true });
  expect(run("Remove-Item -r x", lists).allowed).toBe(false);
  expect(run("rm -Recurse x", lists).allowed).toBe(false);
});

test("only PowerShell reads parameters so: under sh `-v` is not `-Verbose`", () => {
  const lists = { allow: [], deny: ["bash: mytool -Verbose *"] };
  expect(run("mytool -v x", lists, "sh")).toEqual({ allowed: true });
  expect(run("mytool -v x", lists).allowed).toBe(false);
});

test.each<[string, string[]]>([
  ["Remove-Item -Path:build -r", ["Remove-Item", "-Path:", "build", "-r"]],
  ["Remove-Item -Path: build", ["Remove-Item", "-Path:", "build"]],
  ["Remove-Item -r.x -Path:'a b'", ["Remove-Item", "-r", ".x", "-Path:", "a b"]],
  ["Remove-Item --r:x -1:x a:b", ["Remove-Item", "--r:x", "-1:x", "a:b"]],
])("PowerShell's tokenizer cuts %s into parameters and values", (command, words) => {
  const parsed = parsePowerShell(command);
  if (!parsed.ok) throw new Error(parsed.reason);
  expect(powerShellTokens(parsed.segments[0]!.words).map((w) => w.text)).toEqual(words);
});
