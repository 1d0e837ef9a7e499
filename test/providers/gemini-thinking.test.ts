// The thinking a Gemini model is sent: the effort table fitted to what Google documents per model,
// and a level or budget the model refuses (in Gemini's words) sent again as the nearest it takes,
// with a notice, for the rest of the run. Before, the table's value went to every model alike and
// its 400 ended every message (-t medium on Gemini 3 Pro, -t max on 2.5 Flash).
import { afterAll, expect, test } from "bun:test";
import type { Effort } from "../../src/kernel/ir.ts";
import { geminiThinking } from "../../src/providers/gemini-thinking.ts";
import { createGoogleProvider } from "../../src/providers/google.ts";
import { drain } from "../helpers/drain.ts";
import { textReply } from "../helpers/protocol-streams.ts";
import { startRefusingServer } from "../helpers/refusing-server.ts";

// ai.google.dev/gemini-api/docs/thinking: 3 Pro LOW/HIGH, 3 Flash all four; 2.5 Pro 128–32768, 2.5 Flash 0–24576, Flash-Lite 0 or 512–24576
const DOCUMENTED: Record<string, Partial<Record<Effort, string | number>>> = {
  "gemini-3-pro-preview": { off: "LOW", minimal: "LOW", medium: "LOW", max: "HIGH" },
  "gemini-3-flash-preview": { off: "MINIMAL", medium: "MEDIUM" },
  "gemini-2.5-flash": { max: 24576, off: 0 },
  "gemini-2.5-flash-lite": { minimal: 1024, off: 0 },
  "gemini-2.5-pro": { max: 32768, off: 128, high: 16384 },
};
const documentedRows = Object.entries(DOCUMENTED).flatMap(([model, sent]) =>
  Object.entries(sent).map(([effort, value]) => [model, effort as Effort, value] as const),
);

test.each(documentedRows)("%s, effort %s → %s", (model, effort, value) => {
  const fitted = geminiThinking(model, effort);
  const sent: unknown = typeof value === "string" ? fitted?.thinkingLevel : fitted?.thinkingBudget;
  expect(sent).toBe(value);
  expect(fitted?.includeThoughts).toBe(value !== 0); // thoughts are asked for whenever the model thinks
});

const gemini = (message: string) => ({ status: 400, error: { error: { code: 400, message, status: "INVALID_ARGUMENT" } } });
type Thinking = { includeThoughts?: boolean; thinkingLevel?: string; thinkingBudget?: number };
type Config = { generationConfig?: { thinkingConfig?: Thinking } };
/** Gemini models hey has no table for, judging as the API does: one takes LOW and HIGH only, one budgets of 0 to 24576 */
const server = startRefusingServer((body, path) => {
  const thinking = (body as Config).generationConfig?.thinkingConfig ?? {};
  if (path.includes("gemini-3.9-pro") && thinking.thinkingLevel && !["LOW", "HIGH"].includes(thinking.thinkingLevel))
    return gemini(`Thinking level ${thinking.thinkingLevel} is not supported for this model. Please retry with other thinking level.`);
  if (path.includes("gemini-2.9-flash") && (thinking.thinkingBudget ?? 0) > 24576)
    return gemini(`The thinking budget ${thinking.thinkingBudget} is invalid. Please choose a value between 0 and 24576.`);
  return textReply("google", "Hi.");
});
afterAll(() => server.stop());

const hi = { system: "", messages: [{ id: "u1", role: "user" as const, content: [{ type: "text" as const, text: "hi" }] }], tools: [] };
const sentThinking = (from: number) => server.bodies.slice(from).map((b) => (b as Config).generationConfig?.thinkingConfig);

test.each([
  [
    "gemini-3.9-pro",
    "medium",
    [
      { includeThoughts: true, thinkingLevel: "MEDIUM" },
      { includeThoughts: true, thinkingLevel: "LOW" },
      { includeThoughts: true, thinkingLevel: "LOW" },
    ],
    "this model does not take thinking level MEDIUM: LOW is sent instead for effort medium (/effort or -t picks another)",
  ],
  [
    "gemini-2.9-flash",
    "max",
    [
      { includeThoughts: true, thinkingBudget: 32000 },
      { includeThoughts: true, thinkingBudget: 24576 },
      { includeThoughts: true, thinkingBudget: 24576 },
    ],
    "this model takes a thinking budget of 0 to 24576 tokens: 24576 is sent instead of 32000 for effort max",
  ],
] as [string, Effort, Thinking[], string][])(
  "%s refusing effort %s in Gemini's words: the nearest it takes goes at once, and from then on; said once",
  async (model, effort, sent, notice) => {
    const provider = await createGoogleProvider({ model, baseUrl: `${server.url}/v1beta`, apiKey: "k", effort });
    const before = server.bodies.length;
    const first = await drain(provider.stream(hi, new AbortController().signal));
    const second = await drain(provider.stream(hi, new AbortController().signal));
    expect(first.error).toBeUndefined();
    expect(second.error).toBeUndefined();
    expect(sentThinking(before)).toEqual(sent);
    expect([...first.events, ...second.events].filter((e) => e.type === "notice")).toEqual([{ type: "notice", message: notice }]);
  },
);

test("a model that refuses every level it is sent: the refusal is shown after each level was tried once", async () => {
  const always = startRefusingServer((body) =>
    gemini(
      `Thinking level ${(body as Config).generationConfig?.thinkingConfig?.thinkingLevel} is not supported for this model. Please retry with other thinking level.`,
    ),
  );
  try {
    const provider = await createGoogleProvider({ model: "gemini-3.9-flash", baseUrl: `${always.url}/v1beta`, apiKey: "k", effort: "medium" });
    const { error } = await drain(provider.stream(hi, new AbortController().signal));
    expect(error).toMatchObject({ kind: "bad_request" });
    expect((error as Error).message).toEndWith(
      "Thinking level MINIMAL is not supported for this model. Please retry with other thinking level. — /effort (or -t) sets another effort",
    );
    expect(always.bodies.map((b) => (b as Config).generationConfig?.thinkingConfig?.thinkingLevel)).toEqual(["MEDIUM", "LOW", "HIGH", "MINIMAL"]);
  } finally {
    always.stop();
  }
});
