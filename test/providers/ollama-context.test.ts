// What hey reads of a local Ollama's context (providers/ollama-context.ts): what a GET /api/ps body says (shapes from https://github.com/ollama/ollama/blob/main/docs/api.md,
// "List Running Models", with `context_length` as api/types.go ProcessModelResponse has it since
// ollama 0.9.7), and when the user is told.
import { expect, test } from "bun:test";
import { cappedContext, cutContext, loadedContext, modelfileContext } from "../../src/providers/ollama-context.ts";
import { AGENT_MIN_CONTEXT, cutNotice, smallContextNotice } from "../../src/providers/served-context.ts";

const ps = (entries: Record<string, unknown>[]) => ({ models: entries });
test.each([
  ["qwen3", ps([{ name: "qwen3:latest", model: "qwen3:latest", size_vram: 1, context_length: 4096 }]), 4096],
  [
    "qwen3:14b",
    ps([
      { name: "llama3.2:latest", context_length: 131072 },
      { name: "qwen3:14b", model: "qwen3:14b", context_length: 8192 },
    ]),
    8192,
  ],
  ["qwen3:14b", ps([{ name: "qwen3:latest", context_length: 4096 }]), undefined], // another tag is another model
  ["qwen3", ps([{ name: "qwen3:latest", model: "qwen3:latest" }]), undefined], // an Ollama older than 0.9.7
  ["qwen3", ps([]), undefined], // not loaded (unloaded since, or another server)
  ["qwen3", { error: "not found" }, undefined],
  ["qwen3", null, undefined],
  ["qwen3", ps([{ name: "qwen3:latest", context_length: "4096" }]), undefined],
])("loadedContext for %p", (model, body, context) => {
  expect(loadedContext(body, model)).toBe(context);
});

test("the user is told of a context below what an agent needs, with how to raise it, and of no other", () => {
  const line = smallContextNotice(4096, "qwen3", "ollama")!;
  expect(line).toContain("Ollama runs qwen3 with a context of 4,096 tokens");
  expect(line).toContain("OLLAMA_CONTEXT_LENGTH=32768 ollama serve");
  expect(line).toContain("context_window in [provider.ollama]");
  expect(line).not.toContain("\n");
  expect(smallContextNotice(AGENT_MIN_CONTEXT, "qwen3", "ollama")).toBeUndefined();
  expect(smallContextNotice(32768, "qwen3", "ollama")).toBeUndefined();
});

// [characters sent, prompt tokens reported] per answer, or [characters sent, of them those Ollama never drops, tokens reported];
// the first answer's ratio (1 token per 4 characters here) is the uncut one
const answers = (...rows: ([number, number] | [number, number, number])[]) =>
  rows.map((r) => (r.length === 2 ? { chars: r[0], kept: Math.min(r[0], 4000), input: r[1] } : { chars: r[0], kept: r[1], input: r[2] }));
test.each([
  ["prompt tokens that stop at ~4,000 while what is sent grows: cut to the larger", answers([4500, 1125], [16000, 4000], [20000, 3700], [24000, 3980]), 3980],
  ["every prompt read whole", answers([4500, 1125], [8000, 2000], [12000, 3000], [16000, 4000]), undefined],
  ["one cut answer is not enough", answers([4500, 1125], [8000, 2000], [12000, 3000], [20000, 4000]), undefined],
  ["a flat count below any real context (a gateway's made-up number)", answers([4500, 10], [16000, 10], [24000, 10]), undefined],
  ["a conversation that shrank (a summary) while reading it all", answers([4500, 1125], [16000, 4000], [6000, 1500], [6400, 1600]), undefined],
  ["too few answers", answers([4500, 1125], [16000, 4000]), undefined],
  // ollama/ollama#17427: a 65,536-token context reads 32,770 of a prompt whose last message alone is longer
  ["the last message alone overflows a 65,536 context: half of it read, the whole found", answers([4500, 1125], [300_000, 290_000, 32_770]), 65_536],
  [
    "two such answers in a row: still the whole, not the half a cap on the count would find",
    answers([4500, 1125], [300_000, 290_000, 32_770], [310_000, 300_000, 32_770]),
    65_536,
  ],
  ["…and of a 32,768 context", answers([4500, 1125], [8000, 2000], [150_000, 140_000, 16_387]), 32_770],
  ["a large last message read whole is no cut", answers([4500, 1125], [60_000, 50_000, 15_000]), undefined],
])("cappedContext: %s", (_, samples, context) => {
  expect(cappedContext(samples)).toBe(context);
});

test("a context seen only in the usage is said to be about that size", () => {
  expect(smallContextNotice(4061, "qwen3", "ollama", "ollama", true)).toContain("with a context of about 4,061 tokens");
});

// POST /api/show as docs/api.md ("Show Model Information") shows it: `parameters` one "name value" a line
const show = (parameters: string, trained = 40960) => ({
  parameters,
  model_info: { "general.architecture": "qwen3", "qwen3.context_length": trained },
});
test.each([
  ["a Modelfile's num_ctx", show('num_ctx                        8192\nstop                           "<|im_start|>"'), 8192],
  ["no num_ctx: the server's default, which no API says before the model is loaded", show("temperature                    0.6"), undefined],
  ["more than the model was trained for: Ollama lowers it to that", show("num_ctx 131072", 40960), 40960],
  ["not that shape", { error: "model 'qwen3' not found" }, undefined],
] as const)("modelfileContext: %s", (_, body, context) => {
  expect(modelfileContext(body)).toBe(context);
});

test.each([
  // 54 KB sent, 4,096 read: the whole of a round context (the runner keeps numKeep and the end)
  ["a round count far under what was sent", 54_000, 4096, undefined, 4096],
  ["half a round context and a few (the runner's cut of a prompt whose last message overflows)", 54_000, 2050, undefined, 4096],
  ["the context /api/ps said, read while far more was sent (messages dropped)", 60_000, 3700, 4096, 4096],
  ["a round count that is what was sent (1 token a 4 characters)", 16_384, 4096, undefined, undefined],
  ["a count under what was sent, but not round: no context seen", 54_000, 3977, undefined, undefined],
  ["sent no more than the context /api/ps said holds", 16_000, 3900, 4096, undefined],
  ["below any context (a gateway's made-up count)", 54_000, 512, undefined, undefined],
] as const)("cutContext: %s", (_, chars, input, served, context) => {
  expect(cutContext(chars, input, served)).toBe(context);
});

test("a cut is said with what was sent and how to raise the context", () => {
  const cut = cutNotice(4096, 54_000, "qwen3", "ollama");
  expect(cut).toContain("Ollama cut hey's request to the 4,096 tokens it runs qwen3 with (hey sent 53 KB)");
  expect(cut).toContain("OLLAMA_CONTEXT_LENGTH=32768 ollama serve");
  expect(cut).not.toContain("\n");
  // context_window set as the user took it for num_ctx: the cut names it, and what sets the server's
  const set = cutNotice(4096, 54_000, "qwen3", "ollama", 32768);
  expect(set).toContain(
    "Raise it: OLLAMA_CONTEXT_LENGTH=32768 ollama serve (or the Ollama app's context slider), or PARAMETER num_ctx 32768 in the model's Modelfile",
  );
  expect(set).toContain("(context_window = 32768 in [provider.ollama] tells hey the window, it does not change the server's)");
  expect(set).not.toContain("set context_window");
});
