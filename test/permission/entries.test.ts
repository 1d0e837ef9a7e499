// A `[permission]` entry is a tool glob, "bash: PATTERN" or a file tool's "read_file: GLOB"; anything else is a configuration error
// naming the entry and, for other agents' spellings, hey's.
import { expect, test } from "bun:test";
import { compileRules } from "../../src/permission/rules.ts";

const errorOf = (entry: string, list: "allow" | "deny" = "allow") =>
  compileRules(list === "allow" ? { allow: [entry], deny: [] } : { allow: [], deny: [entry] }).errors;

test.each([
  ["Bash", 'names no tool (tool names are lowercase); write "bash"'],
  ["Write", 'names no tool (tool names are lowercase); write "write_file"'],
  ["Read", 'names no tool (tool names are lowercase); write "read_file"'],
  ["MultiEdit", 'names no tool (tool names are lowercase); write "edit"'],
  ["WebFetch", "names no tool (tool names are lowercase: bash, read_file, write_file, edit, grep, compress or an MCP tool's name)"],
  ["Bash(git:*)", 'is another agent\'s syntax; write "bash: git *"'],
  ["Bash(npm run test:*)", 'is another agent\'s syntax; write "bash: npm run test *"'],
  ["run_shell_command(git status)", 'is another agent\'s syntax; write "bash: git status"'],
  ["Read(./.env)", 'is another agent\'s syntax; write "read_file: ./.env"'],
  ["Read()", 'is another agent\'s syntax; write "read_file"'],
  ["WebFetch(domain:example.com)", 'is another agent\'s syntax; write a tool name or "bash: PATTERN"'],
  // another agent's name with a path: hey's name for that tool, never one hey would then refuse (deny) or take for an MCP tool's (allow)
  ["edit_file: src/**", 'gives `edit_file` a pattern; hey\'s name for the tool is edit: write "edit: src/**"'],
  ["write: src/**", 'gives `write` a pattern; hey\'s name for the tool is write_file: write "write_file: src/**"'],
  ["apply_patch: src/**", 'gives `apply_patch` a pattern; hey\'s name for the tool is edit: write "edit: src/**"'],
  ["Edit: src/**", 'gives `Edit` a pattern; hey\'s name for the tool is edit: write "edit: src/**"'],
  ["shell: npm test *", 'gives `shell` a pattern, which only bash takes ("bash: PATTERN"); write "bash: npm test *"'],
  [
    "github_search: repo/*",
    'gives `github_search` a pattern, which only bash and the file tools take ("bash: PATTERN", "read_file: GLOB"); write "github_search" for the whole tool',
  ],
  [
    "compress: x",
    'gives `compress` a pattern, which only bash and the file tools take ("bash: PATTERN", "read_file: GLOB"); write "compress" for the whole tool',
  ],
  ["read_file:", 'has an empty pattern; "read_file" alone covers every path'],
  ["grep: ~bob/src/**", "names another user's home (~bob), which is not supported; give the full path"],
  ["Bash: git *", 'names no tool (tool names are lowercase); write "bash: git *"'],
  ["bash git *", 'misses the colon; write "bash: git *"'],
  ["read file", 'is neither a tool name nor "bash: PATTERN"'],
  ["", "is empty"],
  ["bash:", 'has an empty pattern; "bash" alone covers every command'],
  ["bash: ls &&", "cannot be parsed: nothing after `&&`"],
  ["bash: git status; rm x", "is not one simple command; write one entry per command"],
  ["bash: echo 'x", "cannot be parsed: unbalanced quote"],
  ["bash: echo ${!x}", "can never match: bash expands `${!…}` indirectly, evaluating a name it finds at run time"],
])("%j is an error: %s", (entry, message) => {
  expect(errorOf(entry)).toEqual([`[permission] allow: ${JSON.stringify(entry)} ${message}`]);
});

test("deny entries are checked the same way and named as such", () => {
  expect(errorOf("Bash(rm:*)", "deny")).toEqual(['[permission] deny: "Bash(rm:*)" is another agent\'s syntax; write "bash: rm *"']);
});

test("the name a path-scoped entry's message suggests is a rule in either list", () => {
  for (const entry of ["edit_file: src/**", "write: src/**", "apply_patch: *.ts"])
    for (const list of ["allow", "deny"] as const) {
      const meant = /write "([^"]+)"$/.exec(errorOf(entry, list)[0]!)![1]!;
      expect({ entry, list, errors: errorOf(meant, list) }).toEqual({ entry, list, errors: [] });
      const rules = compileRules({ allow: list === "allow" ? [meant] : [], deny: list === "deny" ? [meant] : [] }).rules[list]!;
      expect(rules.files.map((f) => f.entry)).toEqual([meant]);
    }
});

test.each([
  "bash",
  "read_file",
  "write_file",
  "edit",
  "grep",
  "compress",
  "*",
  "github_*",
  "fs_read-file",
  "mcp__github__create_issue",
  "bash: git *",
  "bash:git status",
  "bash: make * > build.log",
  "bash: FOO=1 make *",
  "bash: ${TOOLS}/bin/*",
  "write_file:*.env",
  "read_file: src/**",
  "edit: ~/notes/*.md",
  "grep: /etc/**",
])("%j is a rule", (entry) => {
  expect(errorOf(entry)).toEqual([]);
  expect(errorOf(entry, "deny")).toEqual([]);
});
