// hey doctor --write edits one table of the user's file as text: everything else stays as written.
import { describe, expect, test } from "bun:test";
import { setProviderKeys, TomlEditError } from "../../src/doctor/toml-edit.ts";

describe("setProviderKeys", () => {
  test("replaces existing keys in place and adds new ones at the table's end, before the blank line", () => {
    const text = '# top\n[provider.lab]  # mine\nbase_url = "u"\n  system_role = "developer" # old\n\n[provider.other]\nsystem_role = "developer"\n';
    expect(setProviderKeys(text, "lab", { system_role: "system", parallel_tool_calls: false })).toBe(
      '# top\n[provider.lab]  # mine\nbase_url = "u"\n  system_role = "system"\nparallel_tool_calls = false\n\n[provider.other]\nsystem_role = "developer"\n',
    );
  });

  test("the last table of a file, a quoted name, CRLF line ends", () => {
    expect(setProviderKeys('[provider."my.lab"]\r\nbase_url = "u"\r\n', "my.lab", { reasoning_replay: true })).toBe(
      '[provider."my.lab"]\r\nbase_url = "u"\r\nreasoning_replay = true\r\n',
    );
  });

  test("a multi-line array stays whole: new keys go after it", () => {
    const text = '[provider.lab]\nmodels = [\n  "a",\n  "b",\n]\n';
    expect(setProviderKeys(text, "lab", { max_tokens_field: "max_tokens" })).toBe(
      '[provider.lab]\nmodels = [\n  "a",\n  "b",\n]\nmax_tokens_field = "max_tokens"\n',
    );
  });

  test("no table header (dotted keys, another provider): TomlEditError", () => {
    expect(() => setProviderKeys('provider.lab.base_url = "u"\n', "lab", { reasoning_replay: true })).toThrow(TomlEditError);
    expect(() => setProviderKeys('[provider.labs]\nbase_url = "u"\n', "lab", { reasoning_replay: true })).toThrow("there is no [provider.lab] table header");
  });
});
