// Tab completion in the REPL (SPEC §17): slash commands, skill names after /skill:, model names.
import { expect, test } from "bun:test";
import type { Agent } from "../../src/agent.ts";
import { completions } from "../../src/ui/commands.ts";
import { defaultSettingsForTest } from "../helpers/settings.ts";

const agent = { settings: defaultSettingsForTest() } as unknown as Agent;
const skills = ["deploy", "docs-style", "release-notes"];

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
  expect(completions(line, agent, "/nonexistent", skills)).toEqual(want);
});
