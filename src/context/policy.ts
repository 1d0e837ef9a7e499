// The context policy of the settings (SPEC §10): the `[compaction]` table, the budget and the
// window the configuration states for the model in use — made in one place, for the agent and for
// `/usage`. Pure.
import { configuredWindow, type Settings } from "../config/settings.ts";
import type { ContextPolicy } from "./view.ts";

export function contextPolicy(settings: Pick<Settings, "agent" | "compaction" | "provider" | "model">): ContextPolicy {
  const window = configuredWindow(settings);
  return { ...settings.compaction, budgetTokens: settings.agent.budgetTokens, ...(window !== undefined ? { window } : {}) };
}
