// A 404 for the model: whether the words say the model is missing, and the message that then
// names the endpoint's models (the nearest first) and, for a model hey chose itself, that it did
// and how to choose another.
import { describe, expect, test } from "bun:test";
import TOML from "@iarna/toml";
import { byNearness, isMissingModel, missingModelMessage, saysServed } from "../../src/config/missing-model.ts";
import { resolveConfig } from "../../src/config/resolve.ts";
import type { ConfigFlags } from "../../src/config/settings.ts";

type Env = Record<string, string | undefined>;
const resolve = (toml: string, env: Env = {}, flags: ConfigFlags = {}) =>
  resolveConfig(toml ? [{ source: "/l0.toml", data: TOML.parse(toml) as Record<string, unknown>, text: toml }] : [], env, flags).settings;

const GEMINI =
  "request rejected (404): models/gemini-3.5-flash is not found for API version v1beta, or is not supported for generateContent. Call ListModels to see the list of available models and their supported methods. — check the model name and base URL https://generativelanguage.googleapis.com/v1beta";
const OPENAI =
  "request rejected (404): The model `gpt-5.5` does not exist or you do not have access to it. — check the model name and base URL https://api.openai.com/v1";
const ANTHROPIC = "request rejected (404): model: claude-sonnet-4-5 — check the model name and base URL https://api.anthropic.com/v1";

describe("a 404 that says the model is missing", () => {
  test.each([
    ["Gemini's", GEMINI, true],
    ["OpenAI's", OPENAI, true],
    ["Anthropic's not_found_error", ANTHROPIC, true],
    ["a router's page (a path, not a model)", "request rejected (404): 404 page not found — check the model name and base URL http://x/v1", false],
    ["a 400 naming a model", "request rejected (400): model is required", false],
  ])("%s → %p", (_name, message, expected) => {
    expect(isMissingModel(message)).toBe(expected);
  });
});

describe("hey's own default model", () => {
  test("is said to be hey's default for the key found, with the endpoint's models nearest first and how to choose", () => {
    const settings = resolve("", { GEMINI_API_KEY: "k" });
    expect(settings.defaultModel).toBe(true);
    const listed = ["gemma-3-27b-it", "gemini-3.1-pro-preview", "gemini-3.8-flash", "text-embedding-004"];
    expect(missingModelMessage(GEMINI, settings, { listed }, "/h/.config/hey/config.toml")).toBe(
      "request rejected (404): models/gemini-3.5-flash is not found for API version v1beta, or is not supported for generateContent. Call ListModels to see the list of available models and their supported methods. — " +
        "gemini-3.5-flash is hey's default model for GEMINI_API_KEY, and https://generativelanguage.googleapis.com/v1beta does not serve it: " +
        "it lists gemini-3.8-flash, gemini-3.1-pro-preview, gemma-3-27b-it, text-embedding-004; " +
        'choose one with -m google/gemini-3.8-flash (HEY_MODEL=google/gemini-3.8-flash, or [default] model = "google/gemini-3.8-flash" in /h/.config/hey/config.toml, keeps it)',
    );
  });

  test("OpenAI's 'does not exist or you do not have access' for a model the list names: refused, not missing", () => {
    const settings = resolve("", { OPENAI_API_KEY: "k" });
    const text = missingModelMessage(OPENAI, settings, { listed: ["gpt-5.4", "gpt-5.5", "gpt-5.4-mini"] });
    expect(text).toContain("gpt-5.5 is hey's default model for OPENAI_API_KEY, and https://api.openai.com/v1 refused it although its list names it");
    expect(text).toContain("it also lists gpt-5.4, gpt-5.4-mini; choose one with -m openai/gpt-5.4");
  });

  test("a list that could not be read is said, and the way to choose still given", () => {
    const settings = resolve("", { ANTHROPIC_API_KEY: "k" });
    const text = missingModelMessage(ANTHROPIC, settings, { why: "the endpoint answered 500" });
    expect(text).toEndWith(
      "claude-sonnet-4-5 is hey's default model for ANTHROPIC_API_KEY, and https://api.anthropic.com/v1 does not serve it: its model list could not be read (the endpoint answered 500); " +
        'choose one with -m anthropic/MODEL (HEY_MODEL=anthropic/MODEL, or [default] model = "anthropic/MODEL" in ~/.config/hey/config.toml, keeps it)',
    );
  });

  test.each([
    ["-m", {}, { model: "gemini-3.5-flash" }, ""],
    ["HEY_MODEL", { HEY_MODEL: "gemini-3.5-flash" }, {}, ""],
    ["[default] model", {}, {}, '[default]\nmodel = "google/gemini-3.5-flash"\n'],
    ["a models list", {}, {}, '[provider.google]\nmodels = ["gemini-3.5-flash"]\n'],
  ])("a model named by %s is not hey's default: the message lists, and names no default", (_by, env: Env, flags: ConfigFlags, toml) => {
    const settings = resolve(toml, { GEMINI_API_KEY: "k", ...env }, flags);
    expect(settings.defaultModel).toBeUndefined();
    const text = missingModelMessage(GEMINI, settings, { listed: ["gemini-3.8-flash", "gemma-3-27b-it"] });
    expect(text).toEndWith(
      "— https://generativelanguage.googleapis.com/v1beta does not serve gemini-3.5-flash: it lists gemini-3.8-flash, gemma-3-27b-it; nearest: gemini-3.8-flash (-m google/gemini-3.8-flash)",
    );
  });

  test("ANTHROPIC_MODEL's model is the variable's, not hey's", () => {
    expect(resolve("", { ANTHROPIC_API_KEY: "k", ANTHROPIC_MODEL: "gw-sonnet" }).defaultModel).toBeUndefined();
  });
});

test("nearness: shared words first (a release word counts for nothing), then fewer edits", () => {
  expect(byNearness("gemini-3-flash-preview", ["gemini-3.1-pro-preview", "gemini-2.5-flash", "gemini-3.5-flash"])).toEqual([
    "gemini-3.5-flash",
    "gemini-3.1-pro-preview",
    "gemini-2.5-flash",
  ]);
  expect(byNearness("gpt-5.5", ["o3", "gpt-4.1", "gpt-5.4"])[0]).toBe("gpt-5.4");
});

test("a message it wrote is known by its words (the setup hint then points at no list again); the endpoint's own is not", () => {
  const settings = resolve("", { GEMINI_API_KEY: "k" });
  expect(saysServed(missingModelMessage(GEMINI, settings, { listed: ["gemini-3.8-flash"] }))).toBe(true);
  expect(saysServed(missingModelMessage(OPENAI, resolve("", { OPENAI_API_KEY: "k" }), { listed: ["gpt-5.5"] }))).toBe(true);
  expect(saysServed(missingModelMessage(ANTHROPIC, resolve("", { ANTHROPIC_API_KEY: "k" }, { model: "claude-x" }), {}))).toBe(true);
  expect(saysServed(GEMINI)).toBe(false);
});
