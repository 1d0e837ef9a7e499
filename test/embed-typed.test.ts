// Typed tools for embedders (src/define-tool.ts through src/lib.ts): a zod schema is what the model
// is offered, a call it refuses is the model's tool error naming the field, and run gets the parsed,
// defaulted arguments. Checked on the requests a loopback model receives.
import { expect, test } from "bun:test";
import { z } from "zod";
import { createAgent, createProvider, defineTool, type Tool } from "../src/lib.ts";
import { startModelServer, textOf, type ChatRequest } from "./helpers/model-server.ts";

const lookup = (seen: unknown[]) =>
  defineTool({
    name: "lookup",
    description: "Looks a word up.",
    parameters: z.object({ word: z.string().min(2).describe("the word"), limit: z.number().int().max(10).default(3) }),
    run: (args) => {
      seen.push(args);
      return `${args.word.toUpperCase()} x${args.limit}`; // typed: no cast
    },
  });

test("defineTool: the model sees the schema as JSON Schema; bad arguments come back naming the field, good ones run typed and defaulted", async () => {
  const seen: unknown[] = [];
  const calls: [string, unknown][][] = [[["lookup", { word: "cat", limit: 50 }]], [["lookup", { word: "x" }]], [["lookup", { word: "cat" }]]];
  const model = startModelServer((req: ChatRequest) => {
    const results = req.messages.filter((m) => m.role === "tool").length;
    return calls[results] ? { calls: calls[results] } : { text: "done" };
  });
  try {
    const provider = await createProvider({ protocol: "openai", baseUrl: model.baseUrl, model: "m" });
    const agent = createAgent({ provider, tools: [lookup(seen)], settings: { context: { compressTool: false } } });
    const result = await agent.send("look up cat", new AbortController().signal);
    expect(result.stop).toBe("end");
    const offered = (model.requests[0]!.tools as unknown as { function: { name: string; parameters: unknown } }[])[0]!.function;
    expect(offered.parameters).toEqual({
      type: "object",
      properties: {
        word: { type: "string", minLength: 2, description: "the word" },
        limit: { type: "integer", maximum: 10, default: 3 }, // no ±2^53−1 bounds: tokens that say nothing
      },
      required: ["word"],
    });
    const results = model.requests
      .at(-1)!
      .messages.filter((m) => m.role === "tool")
      .map(textOf);
    expect(results[0]).toStartWith("lookup: `limit` Too big: expected number to be <=10");
    expect(results[1]).toStartWith("lookup: `word` Too small: expected string to have >=2 characters");
    expect(results[2]).toStartWith("CAT x3");
    expect(seen).toEqual([{ word: "cat", limit: 3 }]); // run only for the call the schema accepts
  } finally {
    model.stop();
  }
});

test("defineTool: a schema with no JSON Schema form is refused when the tool is made, naming it", () => {
  expect(() => defineTool({ name: "odd", description: "", parameters: z.object({ when: z.date() }), run: () => "" })).toThrow(
    "defineTool odd: its parameters have no JSON Schema form",
  );
});

test("a plain tool still gets its arguments as the model sent them", async () => {
  const seen: unknown[] = [];
  const plain: Tool = { name: "plain", description: "", parameters: { type: "object" }, run: async (args) => (seen.push(args), { output: "ok" }) };
  const model = startModelServer((req) => (req.messages.some((m) => m.role === "tool") ? { text: "done" } : { calls: [["plain", { any: 1 }]] }));
  try {
    const provider = await createProvider({ protocol: "openai", baseUrl: model.baseUrl, model: "m" });
    await createAgent({ provider, tools: [plain] }).send("go", new AbortController().signal);
    expect(seen).toEqual([{ any: 1 }]);
  } finally {
    model.stop();
  }
});
