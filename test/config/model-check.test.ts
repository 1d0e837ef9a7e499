// `/model NAME` is checked before the switch (config/model-check.ts): known from the provider's
// models or the endpoint's list, else refused with what is there and the nearest name.
import { expect, test } from "bun:test";
import { checkModel, nearMiss, unknownModel } from "../../src/config/model-check.ts";
import { ConfigError } from "../../src/config/settings.ts";

const ollama = { name: "ollama", models: ["qwen3:8b"] };

test("a configured model, or one the endpoint lists, is accepted", () => {
  expect(unknownModel("qwen3:8b", ollama, undefined)).toBeUndefined();
  expect(unknownModel("llama3.2", ollama, ["llama3.2", "qwen3:8b"])).toBeUndefined();
});

test("Ollama's name without a tag is its :latest, which its list names: one model, however it is written", () => {
  const listed = ["qwen3:latest", "llama3.2:latest"]; // GET /v1/models of an Ollama that pulled qwen3 and llama3.2
  expect(unknownModel("llama3.2", ollama, listed)).toBeUndefined();
  expect(unknownModel("qwen3", { name: "ollama", models: ["qwen3"] }, listed)).toBeUndefined();
  expect(unknownModel("qwen3:latest", { name: "ollama", models: [] }, ["qwen3"])).toBeUndefined();
  expect(unknownModel("llama3.2:1b", ollama, listed)).toContain('has no model "llama3.2:1b"'); // another tag is another model
  expect(nearMiss("llama3.2", listed)).toBeUndefined();
});

test("a name in neither is refused, saying what there is and the nearest name", () => {
  expect(unknownModel("qwen3:8", ollama, ["llama3.2", "qwen3:8b"])).toBe(
    'provider ollama has no model "qwen3:8": its models are qwen3:8b; the endpoint lists llama3.2, qwen3:8b; did you mean qwen3:8b? (a model missing from both can be added to the provider\'s models = [...])',
  );
  expect(unknownModel("nosuch", ollama, undefined)).toContain("its models are qwen3:8b; the endpoint has no model list (");
  expect(unknownModel("nosuch", ollama, undefined)).not.toContain("did you mean");
});

test("a long list is named in part, with its size", () => {
  const listed = Array.from({ length: 20 }, (_, i) => `m${i}`);
  expect(unknownModel("zzz", { name: "p", models: [] }, listed)).toContain(
    "it lists no models; the endpoint lists m0, m1, m2, m3, m4, m5, m6, m7, … (20 in all)",
  );
});

const LISTED = ["claude-sonnet-4-5", "claude-opus-4-5", "gpt-5.5", "qwen3:8b", "gpt-4"];
test.each([
  ["claude-sonnet-4.5", "claude-sonnet-4-5"],
  ["Claude-Opus-4-5", "claude-opus-4-5"],
  ["claude-sonet-4-5", "claude-sonnet-4-5"],
  ["qwen3-8b", "qwen3:8b"],
  ["gpt5.5", "gpt-5.5"],
  ["claude-opus-4-5", undefined], // listed
  ["claude-opus-4-1", undefined], // another version
  ["gpt-5", undefined], // another model, two edits away
  ["claude-haiku-4-5", undefined], // far
  ["claude", undefined], // a prefix is no misspelling
  ["gpt-4o", undefined], // nor a listed name with more after it: a model of its own
  ["gpt-4.1", undefined],
])("nearMiss(%p) is %p", (model, near) => {
  expect(nearMiss(model, LISTED)).toBe(near);
});

test("a list that could not be read refuses nothing: the switch goes ahead with a one-line warning saying why", () => {
  const warning = checkModel("anything", { name: "html", models: [] }, undefined, "JSON Parse error: Unrecognized token '<'");
  expect(warning).toBe("warning: html/anything is not checked: the endpoint's model list could not be read (JSON Parse error: Unrecognized token '<')");
  expect(warning).not.toContain("\n");
});

test("a model known or listed switches with no warning; one in neither is refused (ConfigError)", () => {
  expect(checkModel("qwen3:8b", ollama, undefined)).toBeUndefined();
  expect(checkModel("llama3.2", ollama, ["llama3.2"])).toBeUndefined();
  expect(() => checkModel("nosuch", ollama, undefined)).toThrow(ConfigError);
});

// OPENAI_BASE_URL moved openai to a gateway: gpt-5.5, the built-in model, says nothing of what it serves
const gateway = { name: "openai", models: ["gpt-5.5"], preset: true, urlVar: "OPENAI_BASE_URL", apiKeyVar: "OPENAI_API_KEY" };

test("a gateway with no model list: any name switches, said as unchecked, not refused for want of gpt-5.5", () => {
  expect(checkModel("gpt-4.1", gateway, undefined)).toBe(
    "warning: openai/gpt-4.1 is not checked: OPENAI_BASE_URL points openai at an endpoint with no model list",
  );
  expect(checkModel("gpt-5", gateway, undefined)).toContain("is not checked");
});

test("a gateway that lists its models is checked against that list only, with no built-in model offered", () => {
  expect(checkModel("llama-3.3-70b", gateway, ["llama-3.3-70b"])).toBeUndefined();
  expect(unknownModel("gpt-5", gateway, ["llama-3.3-70b"])).toBe(
    'provider openai has no model "gpt-5": OPENAI_BASE_URL points it at another endpoint; the endpoint lists llama-3.3-70b (a model missing from both can be added to the provider\'s models = [...])',
  );
});
