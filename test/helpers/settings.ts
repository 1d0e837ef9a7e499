// Settings as resolveConfig produces them with no config at all and an ad-hoc provider.
import { resolveTable, SECTIONS } from "../../src/config/keys.ts";
import { resolveConfig } from "../../src/config/resolve.ts";
import type { Settings } from "../../src/config/settings.ts";
import type { ContextPolicy } from "../../src/context/view.ts";

export function defaultSettingsForTest(): Settings {
  return resolveConfig([], {}, { baseUrl: "http://127.0.0.1:9/v1", model: "test-model" }).settings;
}

/** A context policy with the key table's `[compaction]` defaults and a 100k budget, changed by `overrides`. */
export function testPolicy(overrides: Partial<ContextPolicy> = {}): ContextPolicy {
  return { ...resolveTable(SECTIONS.compaction, undefined), budgetTokens: 100_000, ...overrides };
}
