// What a 404 for the model says beyond the endpoint's words: the models the endpoint lists, the
// nearest first, and — when hey chose the model itself (a preset's default for the key it found,
// which the vendor may since have retired) — that it was hey's choice, and how to make one's own.
// "check the model name" points at nothing a user who never named a model wrote. Pure: the caller
// asks the endpoint (endpoint.ts listingModels).
import { editDistance } from "../kernel/spelling.ts";
import { CHECK_NAME } from "../providers/common.ts";
import type { ProviderSettings } from "./settings.ts";

/** How many of the endpoint's models the message names. */
const NAMED = 8;

/** Whether `message` is a 404 whose words say the model is missing (Gemini's "models/… is not found", OpenAI's "The model `…` does not exist", Anthropic's "model: …"), not a path. */
export function isMissingModel(message: string): boolean {
  const at = message.indexOf(CHECK_NAME);
  return /\(404\)/.test(message) && at > 0 && /\bmodel/i.test(message.slice(0, at));
}

/** The words of a message missingModelMessage wrote: it has said what the endpoint serves, and a hint need not point at the list. */
const SERVED = / — (?:\S+ is hey's default model for .*, and )?\S+ (?:does not serve \S+|refused it although its list names it)/;

/** Whether `message` already says what the endpoint serves (missingModelMessage's). */
export const saysServed = (message: string): boolean => SERVED.test(message);

/** What the endpoint said of its models: `listed`, undefined when it has no list; `why` the list could not be read. */
export interface Served {
  listed?: readonly string[];
  why?: string;
}

/**
 * The message of a missing-model 404 (isMissingModel) with hey's advice in place of CHECK_NAME's:
 * the endpoint's models, nearest to `model` first, and how to choose one. `defaultModel`: hey chose
 * `model` itself; `userFile`: the user config file, where `[default] model` goes.
 */
export function missingModelMessage(
  message: string,
  settings: { provider: ProviderSettings; model: string; defaultModel?: boolean },
  served: Served,
  userFile = "~/.config/hey/config.toml",
): string {
  const { provider, model } = settings;
  const said = message.slice(0, message.indexOf(CHECK_NAME));
  const base = provider.baseUrl;
  // listed yet refused: OpenAI's "does not exist or you do not have access to it", for a project without access
  const refused = served.listed?.includes(model) ? `${base} refused it although its list names it` : undefined;
  const ranked = served.listed
    ? byNearness(
        model,
        served.listed.filter((m) => m !== model),
      )
    : [];
  const near = ranked[0];
  const list =
    served.why !== undefined
      ? `its model list could not be read (${served.why})`
      : served.listed === undefined
        ? "it has no model list"
        : served.listed.length === 0
          ? "it lists no models"
          : `it ${refused ? "also " : ""}lists ${ranked.slice(0, NAMED).join(", ")}${ranked.length > NAMED ? `, … (${ranked.length} in all)` : ""}`;
  const pick = `${provider.name}/${near ?? "MODEL"}`;
  if (settings.defaultModel) {
    const whose = provider.apiKeyVar && !provider.apiKeyVar.startsWith("--") ? provider.apiKeyVar : `provider ${provider.name}`;
    return (
      `${said} — ${model} is hey's default model for ${whose}, and ${refused ?? `${base} does not serve it`}: ${list}; ` +
      `choose one with -m ${pick} (HEY_MODEL=${pick}, or [default] model = "${pick}" in ${userFile}, keeps it)`
    );
  }
  return `${said} — ${refused ?? `${base} does not serve ${model}`}: ${list}${near ? `; nearest: ${near} (-m ${pick})` : ""}`;
}

/** The words of a model id: `gemini-3.5-flash` → gemini, 3, 5, flash. */
const wordsOf = (id: string) =>
  id
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);

/** Words that say which release of a model, not which model: a preview, a date stamp. */
const RELEASE = /^(preview|latest|exp|experimental|\d{4,})$/;

/**
 * `listed` with the models most like `model` first: those sharing more of its words (a release word
 * counts for nothing: `gemini-3-flash-preview` is nearer `gemini-3.5-flash` than
 * `gemini-3.1-pro-preview`), then the fewer edits; the list's own order breaks ties.
 */
export function byNearness(model: string, listed: readonly string[]): string[] {
  const own = new Set(wordsOf(model).filter((w) => !RELEASE.test(w)));
  const shared = (id: string) => new Set(wordsOf(id).filter((w) => own.has(w))).size;
  const scored = listed.map((id, i) => ({ id, i, shared: shared(id), edits: editDistance(model, id) }));
  scored.sort((a, b) => b.shared - a.shared || a.edits - b.edits || a.i - b.i);
  return scored.map((s) => s.id);
}
