// Tool arguments checked against the tool's own schema (kernel/tool-args.ts): what passes, what is
// converted, and the error each mistake gets — the same for built-in and MCP tools.
import { expect, test } from "bun:test";
import { checkArguments, type InDirectory } from "../../src/kernel/tool-args.ts";

/** A tool's stand-in for its shell's syntax (the bash tool's is tools/shell.ts's inDirectory). */
const inDirectory: InDirectory = (command, dir) => (dir.includes("$") ? { error: "cannot go there" } : { command: `in(${dir}) ${command}` });

const schema = {
  type: "object",
  properties: {
    path: { type: "string" },
    limit: { type: "integer" },
    ratio: { type: "number" },
    all: { type: "boolean" },
    tags: { type: "array" },
    opts: { type: "object" },
    either: { type: ["string", "null"] },
    free: {},
  },
  required: ["path"],
};

test.each([
  { name: "the minimum", args: { path: "a" }, want: { path: "a" } },
  {
    name: "every type right",
    args: { path: "a", limit: 3, ratio: 0.5, all: true, tags: [], opts: {}, either: null, free: 1 },
    want: { path: "a", limit: 3, ratio: 0.5, all: true, tags: [], opts: {}, either: null, free: 1 },
  },
  {
    name: "numbers and booleans sent as strings",
    args: { path: "a", limit: "12", ratio: " 1.5 ", all: "false" },
    want: { path: "a", limit: 12, ratio: 1.5, all: false },
  },
  { name: "null for an optional key is dropped", args: { path: "a", limit: null, all: null }, want: { path: "a" } },
  { name: "unknown keys pass untouched", args: { path: "a", extra: [1] }, want: { path: "a", extra: [1] } },
])("accepted: $name", ({ args, want }) => {
  expect(checkArguments("t", args, schema)).toEqual({ args: want });
});

test.each([
  { name: "a required key missing", args: {}, error: "t: `path` must be a string, got nothing" },
  { name: "a required key null", args: { path: null }, error: "t: `path` must be a string, got null" },
  { name: "a string that is a number", args: { path: 7 }, error: "t: `path` must be a string, got 7" },
  { name: "a fraction for an integer", args: { path: "a", limit: 2.5 }, error: "t: `limit` must be an integer, got 2.5" },
  { name: "words for an integer", args: { path: "a", limit: "ten" }, error: 't: `limit` must be an integer, got "ten"' },
  { name: "yes for a boolean", args: { path: "a", all: "yes" }, error: 't: `all` must be true or false, got "yes"' },
  { name: "an object for an array", args: { path: "a", tags: {} }, error: "t: `tags` must be an array, got {}" },
  { name: "an array for an object", args: { path: "a", opts: [] }, error: "t: `opts` must be an object, got []" },
  { name: "a union", args: { path: "a", either: 1 }, error: "t: `either` must be a string or null, got 1" },
  { name: "a long value is cut", args: { path: "x".repeat(100).length }, error: "t: `path` must be a string, got 100" },
])("refused: $name → $error", ({ args, error }) => {
  expect(checkArguments("t", args as Record<string, unknown>, schema)).toEqual({ error });
});

test("a schema without properties or required checks nothing", () => {
  expect(checkArguments("t", { a: 1 }, {})).toEqual({ args: { a: 1 } });
  expect(checkArguments("t", { a: 1 }, { required: "a" })).toEqual({ args: { a: 1 } });
});

test("a required key with no declared type is named as required", () => {
  expect(checkArguments("t", {}, { required: ["q"] })).toEqual({ error: "t: `q` is required, got nothing" });
});

// hey's own tools (strict): an argument they do not take is an error naming it, unless it is
// another agent's name for one of theirs; the schema sent to the model is not changed for that
const schemaOf = (types: Record<string, string>, required: string[]) => ({
  type: "object",
  properties: Object.fromEntries(Object.entries(types).map(([k, type]) => [k, { type }])),
  required,
});
const grepSchema = schemaOf({ pattern: "string", path: "string", glob: "string", ignore_case: "boolean", context: "integer", max_results: "integer" }, [
  "pattern",
]);
const bashSchema = schemaOf({ command: "string", timeout_ms: "integer" }, ["command"]);
const readSchema = schemaOf({ path: "string", offset: "integer", limit: "integer" }, ["path"]);

test.each([
  ["opencode's include", "grep", grepSchema, { pattern: "x", include: "*.yml" }, { pattern: "x", glob: "*.yml" }],
  [
    "ripgrep's -i and -C, Claude Code's head_limit",
    "grep",
    grepSchema,
    { pattern: "x", "-i": true, "-C": "2", head_limit: 5 },
    { pattern: "x", ignore_case: true, context: 2, max_results: 5 },
  ],
  ["Claude Code's file_path", "read_file", readSchema, { file_path: "a.ts", limit: 5 }, { path: "a.ts", limit: 5 }],
  ["opencode's filePath", "read_file", readSchema, { filePath: "a.ts" }, { path: "a.ts" }],
  ["a bash description", "read_file", readSchema, { path: "a.ts", description: "read it" }, { path: "a.ts" }],
  // the directory becomes part of the command, as the tool's shell writes it: what the permission check judges is what the shell runs
  ["Codex's workdir", "bash", bashSchema, { command: "npm test", workdir: "web" }, { command: "in(web) npm test" }],
  ["a cwd with spaces", "bash", bashSchema, { command: "ls", cwd: "my app/src", timeout: 5000 }, { command: "in(my app/src) ls", timeout_ms: 5000 }],
  ["an empty workdir", "bash", bashSchema, { command: "ls", workdir: "" }, { command: "ls" }],
  // what other agents' shell tools take, from models trained on them
  ["Gemini CLI's directory", "bash", bashSchema, { command: "ls", directory: "web" }, { command: "in(web) ls" }],
  ["Codex's argv command", "bash", bashSchema, { command: ["bash", "-lc", "rm a.txt && echo 'x'"] }, { command: "bash -lc 'rm a.txt && echo '\\''x'\\'''" }],
  ["Cursor's explanation and is_background false", "bash", bashSchema, { command: "ls", explanation: "list", is_background: false }, { command: "ls" }],
  ["Cline's requires_approval", "bash", bashSchema, { command: "rm a", requires_approval: false }, { command: "rm a" }],
])("strict, taken: %s", (_name, tool, schema, args, want) => {
  expect(checkArguments(tool, args, schema, true, inDirectory)).toEqual({ args: want });
});

test("Cursor's is_background true is refused saying how to leave a command running; an argv with a number stays an error", () => {
  expect(checkArguments("bash", { command: "npm run dev", is_background: true }, bashSchema, true, inDirectory)).toEqual({
    error: "bash: `is_background` is not taken: end the command with & to leave it running (what it prints later goes to a job log the result names)",
  });
  expect(checkArguments("bash", { command: ["ls", 3] }, bashSchema, true, inDirectory)).toEqual({ error: 'bash: `command` must be a string, got ["ls",3]' });
});

test("a workdir for a tool that cannot run its command elsewhere is an unknown argument", () => {
  expect(checkArguments("bash", { command: "ls", workdir: "web" }, bashSchema, true)).toEqual({
    error: "bash: unknown argument `workdir`; bash takes command, timeout_ms",
  });
});

test.each([
  [
    "Claude Code's output_mode",
    "grep",
    grepSchema,
    { pattern: "x", output_mode: "files_with_matches" },
    "grep: unknown argument `output_mode`; grep takes pattern, path, glob, ignore_case, context, max_results",
  ],
  [
    "-A is context after only",
    "grep",
    grepSchema,
    { pattern: "x", "-A": 3 },
    "grep: unknown argument `-A` (did you mean context?); grep takes pattern, path, glob, ignore_case, context, max_results",
  ],
  [
    "an alias given beside the name",
    "grep",
    grepSchema,
    { pattern: "x", glob: "*.ts", include: "*.yml" },
    "grep: unknown argument `include` (did you mean glob?); grep takes pattern, path, glob, ignore_case, context, max_results",
  ],
  ["a typo", "read_file", readSchema, { path: "a", ofset: 3 }, "read_file: unknown argument `ofset`; read_file takes path, offset, limit"],
  ["a workdir the tool refuses", "bash", bashSchema, { command: "ls", cwd: "$(x)" }, 'bash: `cwd` "$(x)" cannot go there'],
])("strict, refused: %s", (_name, tool, schema, args, error) => {
  expect(checkArguments(tool, args, schema, true, inDirectory)).toEqual({ error });
});

test("not strict (an MCP server's tool): other names pass untouched", () => {
  expect(checkArguments("t", { path: "a", include: "*.yml" }, schema)).toEqual({ args: { path: "a", include: "*.yml" } });
});
