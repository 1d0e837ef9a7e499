// Each path entry judges its own tool: a deny list with "read_file: ~/.ssh/**" alone still lets grep
// search those files and hand the model the lines it finds. hey says so at start-up (once until it
// changes) and in `hey doctor`, with the entry to add, rather than leave the user believing the files
// are shut off.
import TOML from "@iarna/toml";
import { expect, test } from "bun:test";
import { resolveConfig } from "../../src/config/resolve.ts";
import { readOnlyDenies } from "../../src/permission/file-paths.ts";

const PROVIDER = '[provider.m]\nbase_url = "http://127.0.0.1:9/v1"\nmodels = ["m1"]\n';

const at = (deny: string[]) =>
  readOnlyDenies(
    deny.map((entry) => ({ entry, anchored: entry, file: "c:1" })),
    deny,
  ).map((l) => /deny "([^"]*)"/.exec(l)![1]);

test.each([
  [["read_file: ~/.ssh/**"], ["read_file: ~/.ssh/**"]],
  [["read_file: ~/.ssh/**", "grep: ~/.ssh/**", "edit: ~/.ssh/**"], []],
  [["read_file: ~/.ssh/**", "grep", "edit"], []],
  [["read_file: secrets/**", "grep: ~/.ssh/**", "edit: ~/.ssh/**", "read_file: ~/.ssh/**"], ["read_file: secrets/**"]],
  [["read_file", "bash: cat *", "edit: x"], []],
  // x93 #7: edit shows lines of the file it edits; a folder's pattern covers what is below it
  [["read_file: .env", "grep: .env"], ["read_file: .env"]],
  [["read_file: ~/.ssh/**", "grep: ~/.ssh", "edit: ~/.ssh"], []],
  [["read_file: ~/.ssh/id_*", "grep: ~/.ssh/**", "edit: ~"], []],
  [["read_file: ~/.ssh/**", "grep: ~/.ssh/id_*", "edit"], ["read_file: ~/.ssh/**"]],
])("deny %p: read_file only for %p", (deny, want) => {
  expect(at(deny)).toEqual(want);
});

test("a user's read_file deny without its grep and edit entries is warned about, with the line and the entries to add", () => {
  const text = `${PROVIDER}[permission]\ndeny = ["read_file: ~/.ssh/**", "read_file: **/.env", "grep: **/.env", "edit: **/.env"]\n`;
  const { settings } = resolveConfig([{ source: "/u/config.toml", data: TOML.parse(text), text }], {}, {});
  expect(settings.permission.entryNotes).toEqual([
    '/u/config.toml:5: [permission] deny "read_file: ~/.ssh/**" keeps those files from read_file only: grep still searches them and shows the model the lines it finds, and edit shows the model lines of a file it edits; add "grep: ~/.ssh/**", "edit: ~/.ssh/**" too (a grep of a folder that may hold them is then refused)',
  ]);
});

test("the grep and edit entries may be in another file: the lists in force are what count", () => {
  const user = `${PROVIDER}[permission]\ndeny = ["grep: /p/app/**/.env", "edit"]\n`;
  const project = '[permission]\ndeny = ["read_file: **/.env"]\n';
  const layers = [
    { source: "/u/config.toml", data: TOML.parse(user), text: user },
    { source: "/p/app/.hey/config.toml", data: TOML.parse(project), text: project, project: true },
  ];
  expect(resolveConfig(layers, {}, {}).settings.permission.entryNotes).toBeUndefined();
  const secrets = '[permission]\ndeny = ["read_file: secrets/**"]\n';
  const alone = [layers[0]!, { ...layers[1]!, data: TOML.parse(secrets), text: secrets }];
  expect(resolveConfig(alone, {}, {}).settings.permission.entryNotes).toEqual([
    '/p/app/.hey/config.toml:2: [permission] deny "read_file: secrets/**" keeps those files from read_file only: grep still searches them and shows the model the lines it finds; add "grep: secrets/**" too (a grep of a folder that may hold them is then refused)',
  ]);
});
