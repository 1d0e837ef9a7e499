// Settings as resolveConfig produces them with no config at all and an ad-hoc provider.
import { resolveConfig } from "../../src/config/resolve.ts";
import type { Settings } from "../../src/config/settings.ts";

export function defaultSettingsForTest(): Settings {
  return resolveConfig([], {}, { baseUrl: "http://127.0.0.1:9/v1", model: "test-model" }).settings;
}
