// The effort table (SPEC §5.5): every level × every protocol.
import { describe, expect, test } from "bun:test";
import { EFFORTS } from "../../src/kernel/ir.ts";
import type { Effort } from "../../src/kernel/ir.ts";
import { anthropicEffort, EFFORT_TABLE, geminiEffort, geminiGeneration, learnEffort, openaiEffort } from "../../src/providers/effort.ts";
import { errorWords } from "../../src/providers/error-words.ts";
import { adaptToRefusal } from "../../src/providers/openai-adapt.ts";
import { adaptToResponsesRefusal } from "../../src/providers/responses-adapt.ts";
import type { GeminiThinking } from "../../src/providers/effort.ts";

test.each([
  ["off", "none"],
  ["minimal", "minimal"],
  ["low", "low"],
  ["medium", "medium"],
  ["high", "high"],
  ["xhigh", "xhigh"],
  ["max", "max"],
] as const)("openai %s → %s", (effort, wire) => expect(openaiEffort(effort)).toBe(wire));

test.each([
  ["off", { thinking: { type: "disabled" }, max_tokens: 32000 }],
  ["minimal", { thinking: { type: "adaptive" }, output_config: { effort: "low" }, max_tokens: 32000 }],
  ["low", { thinking: { type: "adaptive" }, output_config: { effort: "low" }, max_tokens: 32000 }],
  ["medium", { thinking: { type: "adaptive" }, output_config: { effort: "medium" }, max_tokens: 32000 }],
  ["high", { thinking: { type: "adaptive" }, output_config: { effort: "high" }, max_tokens: 32000 }],
  ["xhigh", { thinking: { type: "adaptive" }, output_config: { effort: "xhigh" }, max_tokens: 32000 }],
  ["max", { thinking: { type: "adaptive" }, output_config: { effort: "max" }, max_tokens: 32000 }],
] as const)("anthropic adaptive %s → %j", (effort, params) => expect(anthropicEffort(effort, { legacyThinking: false })).toEqual(params));

test.each([
  ["off", { thinking: { type: "disabled" }, max_tokens: 8000 }],
  ["minimal", { thinking: { type: "enabled", budget_tokens: 1024 }, max_tokens: 8000 }],
  ["low", { thinking: { type: "enabled", budget_tokens: 2048 }, max_tokens: 8000 }],
  ["medium", { thinking: { type: "enabled", budget_tokens: 8192 }, max_tokens: 12288 }],
  ["high", { thinking: { type: "enabled", budget_tokens: 16384 }, max_tokens: 20480 }],
  ["xhigh", { thinking: { type: "enabled", budget_tokens: 24576 }, max_tokens: 28672 }],
  ["max", { thinking: { type: "enabled", budget_tokens: 32000 }, max_tokens: 36096 }],
] as const)("anthropic legacy %s with max_tokens 8000 raises max_tokens above the budget: %j", (effort, params) => {
  expect(anthropicEffort(effort, { legacyThinking: true, maxTokens: 8000 })).toEqual(params);
});

test("anthropic without an effort sends only max_tokens (the model's default thinking)", () => {
  expect(anthropicEffort(undefined, { legacyThinking: false, maxTokens: 1000 })).toEqual({ max_tokens: 1000 });
});

const GEMINI: [string, Effort | undefined, GeminiThinking][] = [
  ["gemini-3-pro-preview", "off", { includeThoughts: true, thinkingLevel: "MINIMAL" }],
  ["gemini-3-pro-preview", "minimal", { includeThoughts: true, thinkingLevel: "MINIMAL" }],
  ["gemini-3-flash-preview", "low", { includeThoughts: true, thinkingLevel: "LOW" }],
  ["gemini-3-flash-preview", "medium", { includeThoughts: true, thinkingLevel: "MEDIUM" }],
  ["gemini-3-pro-preview", "high", { includeThoughts: true, thinkingLevel: "HIGH" }],
  ["gemini-3-pro-preview", "xhigh", { includeThoughts: true, thinkingLevel: "HIGH" }],
  ["models/gemini-3.1-pro", "max", { includeThoughts: true, thinkingLevel: "HIGH" }],
  ["gemini-2.5-flash", "off", { includeThoughts: false, thinkingBudget: 0 }],
  ["gemini-2.5-pro", "off", { includeThoughts: true, thinkingBudget: 128 }],
  ["gemini-2.5-flash", "minimal", { includeThoughts: true, thinkingBudget: 1024 }],
  ["gemini-2.5-flash", "low", { includeThoughts: true, thinkingBudget: 2048 }],
  ["gemini-2.5-pro", "medium", { includeThoughts: true, thinkingBudget: 8192 }],
  ["gemini-2.5-pro", "high", { includeThoughts: true, thinkingBudget: 16384 }],
  ["gemini-2.5-pro", "xhigh", { includeThoughts: true, thinkingBudget: 24576 }],
  ["gemini-2.5-pro", "max", { includeThoughts: true, thinkingBudget: 32000 }],
  ["gemma-3-27b-it", "high", { includeThoughts: true, thinkingBudget: 16384 }],
  ["gemini-3-pro-preview", undefined, { includeThoughts: true }],
  ["gemini-2.5-flash", undefined, { includeThoughts: true }],
  ["gemini-2.0-flash", undefined, {}],
  // a model before 2.5 cannot think: an effort chosen for another model (/model, -c -m) is not sent (a budget is a 400)
  ["gemini-2.0-flash", "high", {}],
  ["gemini-1.5-pro", "off", {}],
];
test.each(
  GEMINI.map(([model, effort, params]) => ({ model, effort, params, title: `gemini ${model} at ${effort ?? "no effort"} → ${JSON.stringify(params)}` })),
)("$title", ({ model, effort, params }) => expect(geminiEffort(model, effort)).toEqual(params));

test.each([
  ["gemini-3-pro-preview", 3],
  ["gemini-2.5-flash", 2.5],
  ["models/gemini-10-ultra", 10],
  ["gemma-3", 0],
] as const)("geminiGeneration(%s) = %d", (m, n) => expect(geminiGeneration(m)).toBe(n));

test("the table covers every level", () => expect(Object.keys(EFFORT_TABLE).sort()).toEqual([...EFFORTS].sort()));

describe("a refused reasoning effort learns the model's nearest", () => {
  // The wording reported in Kilo-Org/cloud#3807 (chat completions); Responses names 'reasoning.effort'.
  const refusal = (level: string, supported: string) =>
    `Unsupported value: 'reasoning_effort' does not support '${level}' with this model. Supported values are: ${supported}.`;
  test.each([
    ["none", "'minimal', 'low', 'medium', and 'high'", { none: "minimal" }],
    ["none", "'low', 'medium', and 'high'", { none: "low" }],
    ["max", "'minimal', 'low', 'medium', and 'high'", { max: "high" }],
    ["xhigh", "'low' and 'high'", { xhigh: "high" }],
    ["minimal", "'none', 'low', 'medium', 'high' and 'xhigh'", { minimal: "none" }],
  ])("%s refused, supported %s → %j", (level, supported, learned) => {
    const map: Record<string, string> = {};
    expect(learnEffort(map, refusal(level, supported))).toEqual({ refused: level, nearest: Object.values(learned)[0]! });
    expect(map).toEqual(learned);
  });

  test("Responses' wording too; a level that went to the refused one follows; nothing new or no such refusal learns nothing", () => {
    const map: Record<string, string> = { max: "xhigh" };
    expect(
      learnEffort(map, "Unsupported value: 'reasoning.effort' does not support 'xhigh' with this model. Supported values are: 'low', 'medium', and 'high'."),
    ).toEqual({ refused: "xhigh", nearest: "high" });
    expect(map).toEqual({ max: "high", xhigh: "high" });
    expect(learnEffort(map, "Unsupported value: 'reasoning.effort' does not support 'xhigh' with this model. Supported values are: 'low'.")).toBeUndefined();
    expect(learnEffort(map, "Unsupported parameter: 'temperature' is not supported with this model.")).toBeUndefined();
  });

  test.each([
    // GitHub Copilot's gateway (microsoft/vscode#312711)
    ['output_config.effort "xhigh" is not supported by model claude-opus-4.7; supported values: [medium]', { xhigh: "medium" }],
    ['reasoning_effort "max" is not supported by model gpt-5-mini; supported values: [low medium high]', { max: "high" }],
    // Anthropic (anthropics/claude-code#81084)
    [
      "output_config.effort 'xhigh' is not supported when thinking is disabled on this model. Use effort 'high' or below, or enable thinking.",
      { xhigh: "high" },
    ],
    // SGLang's pydantic literal_error (router-for-me/CLIProxyAPI#1572)
    [
      `1 validation error:\n  {'type': 'literal_error', 'loc': ('body', 'reasoning_effort'), 'msg': "Input should be 'low', 'medium' or 'high'", 'input': 'xhigh', 'ctx': {'expected': "'low', 'medium' or 'high'"}}`,
      { xhigh: "high" },
    ],
    // Volcano Engine's Anthropic-compatible endpoint (farion1231/cc-switch#2851): a tie goes to the lower level
    [
      "The parameter `output_config.effort` specified in the request are not valid: expected `low`, `medium`, `high` or `max`, but got `xhigh` instead.",
      { xhigh: "high" },
    ],
  ])("other wordings: %s → %j", (message, learned) => {
    const map: Record<string, string> = {};
    expect(learnEffort(map, message)).toBeDefined();
    expect(map).toEqual(learned);
  });

  // -t max sent to a model that takes less, the body's words as error-words.ts reads them (OpenAI's `param` before its words)
  test.each([
    [{ message: "Invalid value: 'max'. Supported values are: 'low', 'medium', and 'high'.", param: "reasoning_effort", code: "invalid_value" }, "high"],
    [{ message: "Invalid value: 'max'. Supported values are: 'low', 'medium', and 'high'.", param: "reasoning.effort", code: "invalid_value" }, "high"],
    [{ message: 'level "max" not supported, valid levels: low, medium, high, xhigh', param: "reasoning_effort" }, "xhigh"],
    [{ message: "Validation error for `reasoning_effort`: expected one of 'low' | 'medium' | 'high', received 'max'" }, "high"],
  ])("-t max refused in the words %j → %s, and the chat and Responses adapters send it (before: no effort at all, or exit 1)", (error, nearest) => {
    const said = `request rejected (400): ${errorWords({ error })}`;
    const map: Record<string, string> = {};
    expect(learnEffort(map, said)).toEqual({ refused: "max", nearest });
    const chat = { effortFor: {} as Record<string, string> };
    expect(adaptToRefusal(chat, said)).toBe(`this model does not take effort max: ${nearest} is sent instead`);
    expect(chat.effortFor).toEqual({ max: nearest });
    const responses = { effortFor: {} as Record<string, string> };
    expect(adaptToResponsesRefusal(responses, said)).toBe(`this model does not take effort max: ${nearest} is sent instead`);
  });

  test("a refusal of the effort parameter itself, with no level to go to, learns nothing", () => {
    expect(learnEffort({}, "This model does not support the effort parameter.")).toBeUndefined();
  });
});

test.each([
  ["max", 32000, { thinking: { type: "enabled", budget_tokens: 27904 }, max_tokens: 32000 }],
  ["xhigh", 32000, { thinking: { type: "enabled", budget_tokens: 24576 }, max_tokens: 32000 }],
  ["max", 8192, { thinking: { type: "enabled", budget_tokens: 4096 }, max_tokens: 8192 }],
  ["high", 2048, { thinking: { type: "enabled", budget_tokens: 1024 }, max_tokens: 2048 }],
  ["high", 1500, { thinking: { type: "disabled" }, max_tokens: 1500 }],
] as const)("anthropic legacy %s under a stated output limit of %d: the budget fits under it with room for the answer: %j", (effort, limit, params) => {
  expect(anthropicEffort(effort, { legacyThinking: true, limit })).toEqual(params);
});

test("anthropic adaptive under a stated output limit: max_tokens comes down to it", () => {
  expect(anthropicEffort("high", { legacyThinking: false, limit: 8192 })).toMatchObject({ max_tokens: 8192 });
});
