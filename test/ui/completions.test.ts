// Tab completion in the REPL (SPEC §17): slash commands, skill names after /skill:, model names.
import { expect, test } from "bun:test";
import { completions } from "../../src/ui/commands.ts";
import { defaultSettingsForTest } from "../helpers/settings.ts";

const from = { cwd: "/nonexistent", providers: defaultSettingsForTest().providers, skills: ["deploy", "docs-style", "release-notes"], remoteServers: [] };

test.each([
  ["/re", ["/reload", "/resume"]],
  ["/sk", ["/skill:"]],
  ["/skill:", ["/skill:deploy", "/skill:docs-style", "/skill:release-notes"]],
  ["/skill:d", ["/skill:deploy", "/skill:docs-style"]],
  ["/skill:x", []],
  ["/model cli/te", ["cli/test-model"]],
  ["/model test-m", ["test-model"]], // the model alone, as -m takes it
  ["/model x", []],
  ["/model ", ["cli/test-model", "ollama/qwen3"]], // each model once, not again without its provider
  ["say /skill:d", []],
])("completions(%p)", (line, want) => {
  expect(completions(line, from)).toEqual(want);
});
