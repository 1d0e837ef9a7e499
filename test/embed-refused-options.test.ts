// Options no endpoint or vendor would take, refused where the program gives them (src/lib.ts),
// each error naming the option, the value and what is accepted, instead of failing later or cryptically.
import { expect, test } from "bun:test";
import { z } from "zod";
import { createAgent, createProvider, defineTool, type Tool } from "../src/lib.ts";

test("createProvider refuses a protocol hey has no adapter for as the CLI does, with its suggestion, not a TypeError", async () => {
  // before: "undefined is not an object (evaluating 'provider.protocol')"
  await expect(createProvider({ protocol: "claude" as never, baseUrl: "http://127.0.0.1:9/v1", model: "m" })).rejects.toThrow(
    `createProvider's protocol must be one of openai, responses, anthropic, google, got "claude"; did you mean anthropic?`,
  );
});

test.each(["not a url", "ftp://127.0.0.1/v1", ""])("createProvider refuses the baseUrl %p at once, not at the first send", async (baseUrl) => {
  await expect(createProvider({ protocol: "openai", baseUrl, model: "m" })).rejects.toThrow(
    `createProvider's baseUrl must be an http:// or https:// URL, got ${JSON.stringify(baseUrl)}`,
  );
});

const plainTool = (name: string): Tool => ({ name, description: "d", parameters: { type: "object", properties: {} }, run: async () => ({ output: "" }) });

test.each([
  ["has space", `"has space"`],
  ["x".repeat(100), `"${"x".repeat(100)}"`],
  ["", `""`],
  ["dotted.name", `"dotted.name"`],
])("createAgent refuses a tool named %p, which OpenAI and Anthropic refuse in every request, naming the tool and the rule", async (name, shown) => {
  const provider = await createProvider({ protocol: "openai", baseUrl: "http://127.0.0.1:9/v1", model: "m" });
  expect(() => createAgent({ provider, tools: [plainTool("fine_name-2"), plainTool(name)] })).toThrow(
    `createAgent: tools[1] has a name no model API accepts: a tool's name must be 1 to 64 letters, digits, _ or - (what model APIs accept), got ${shown}`,
  );
  expect(() => defineTool({ name, description: "d", parameters: z.object({}), run: () => "" })).toThrow(
    `defineTool: a tool's name must be 1 to 64 letters, digits, _ or - (what model APIs accept), got ${shown}`,
  );
});

test("a 64-character name of letters, digits, _ and - is taken", async () => {
  const provider = await createProvider({ protocol: "openai", baseUrl: "http://127.0.0.1:9/v1", model: "m" });
  const name = `a-${"b_9".repeat(20)}xy`;
  expect(name).toHaveLength(64);
  expect(() => createAgent({ provider, tools: [defineTool({ name, description: "d", parameters: z.object({}), run: () => "" })] })).not.toThrow();
});
