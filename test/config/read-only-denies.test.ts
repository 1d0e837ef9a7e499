// Each path entry judges its own tool: a deny list with "read_file: ~/.ssh/**" alone still lets grep
// search those files and hand the model the lines it finds. hey says so at start-up (once until it
// changes) and in `hey doctor`, with the entry to add, rather than leave the user believing the files
// are shut off.
import TOML from "@iarna/toml";
import { expect, test } from "bun:test";
import { resolveConfig } from "../../src/config/resolve.ts";
import { readOnlyDenies } from "../../src/permission/file-paths.ts";

const PROVIDER = '[provider.m]\nbase_url = "http://127.0.0.1:9/v1"\nmodels = ["m1"]\n';

test.each([
  [["read_file: ~/.ssh/**"], ["read_file: ~/.ssh/**"]],
  [["read_file: ~/.ssh/**", "grep: ~/.ssh/**"], []],
  [["read_file: ~/.ssh/**", "grep"], []],
  [["read_file: secrets/**", "grep: ~/.ssh/**", "read_file: ~/.ssh/**"], ["read_file: secrets/**"]],
  [["read_file", "bash: cat *", "edit: x"], []],
])("deny %p: read_file only for %p", (deny, want) => {
  expect(readOnlyDenies(deny).map((f) => f.entry)).toEqual(want);
});

test("a user's read_file deny without its grep entry is warned about, with the line and the entry to add", () => {
  const text = `${PROVIDER}[permission]\ndeny = ["read_file: ~/.ssh/**", "read_file: **/.env", "grep: **/.env"]\n`;
  const { settings } = resolveConfig([{ source: "/u/config.toml", data: TOML.parse(text), text }], {}, {});
  expect(settings.permission.readOnly).toEqual([
    '/u/config.toml:5: [permission] deny "read_file: ~/.ssh/**" keeps those files from read_file only: grep still searches them and shows the model the lines it finds; add "grep: ~/.ssh/**" too (a grep of a folder that may hold them is then refused)',
  ]);
});
