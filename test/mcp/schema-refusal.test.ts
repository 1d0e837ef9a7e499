// A model API's 400 over one tool's schema names it by its place in the request (or its name): hey
// finds the tool, sends the request again without it when it is an MCP server's (left out for the
// session, said with the exclude_tools line for its server), and names it when it is hey's own.
import { expect, test } from "bun:test";
import { ProviderError, type ModelRequest, type Provider, type StreamEvent } from "../../src/kernel/provider.ts";
import { refusalWords, refusedTools } from "../../src/mcp/schema-refusal.ts";
import { createToolCap } from "../../src/mcp/tool-cap.ts";

const names = ["bash", "read_file", "edit", "weird_ok", "nullable_array", "other_tool"];
const tools = names.map((name) => ({ name }));
const GEMINI =
  "The GenerateContentRequest proto is invalid:\n  * GenerateContentRequest.tools[0].function_declarations[4].parameters.properties[languages].items: field predicate failed: $type == Type.ARRAY";

test.each([
  ["Gemini, by its place among the function declarations", GEMINI, ["nullable_array"]],
  ["OpenAI, by its place", "Invalid schema for tools[4].function.parameters: array schema missing items.", ["nullable_array"]],
  [
    "OpenAI, by its name",
    "Invalid schema for function 'nullable_array': In context=('properties', 'languages'), array schema missing items.",
    ["nullable_array"],
  ],
  ["Anthropic, by its place", "tools.4.custom.input_schema: JSON schema is invalid. It must match JSON Schema draft 2020-12", ["nullable_array"]],
  [
    "two at once (Gemini lists each)",
    `${GEMINI}\n  * GenerateContentRequest.tools[0].function_declarations[5].parameters: bad`,
    ["nullable_array", "other_tool"],
  ],
  ["none: a 400 about something else", "Invalid value for 'temperature'", []],
  ["none: a place past the request's tools", "tools[40].function.parameters: bad", []],
] as const)("%s", (_, message, want) => {
  expect(refusedTools(message, tools)).toEqual([...want]);
});

test("the API's words are the line that names the tool, shortened", () => {
  expect(refusalWords(GEMINI)).toBe(
    "GenerateContentRequest.tools[0].function_declarations[4].parameters.properties[languages].items: field predicate failed: $type == Type.ARRAY",
  );
});

const origins: Record<string, { server: string; name: string }> = {
  weird_ok: { server: "weird", name: "ok" },
  nullable_array: { server: "weird", name: "nullable.array" },
  other_tool: { server: "other", name: "other_tool" },
};
const request: ModelRequest = { system: "", messages: [], tools: names.map((name) => ({ name, description: "", parameters: {} })) };
const signal = new AbortController().signal;

/** A provider that refuses any request carrying `bad` as Gemini does, and answers the rest. */
function refusing(bad: readonly string[], sent: string[][]): Provider {
  return {
    protocol: "google",
    model: "g",
    stream(req) {
      sent.push(req.tools.map((t) => t.name));
      const i = req.tools.findIndex((t) => bad.includes(t.name));
      return (async function* (): AsyncGenerator<StreamEvent> {
        if (i >= 0)
          throw new ProviderError(
            "bad_request",
            `request rejected (400): * GenerateContentRequest.tools[0].function_declarations[${i}].parameters: bad items`,
            { status: 400 },
          );
        yield { type: "text", delta: "fine" } as StreamEvent;
      })();
    },
  };
}

test("a refusal naming an MCP tool: sent again at once without it, said once with its server's exclude_tools line; later requests leave it out, a call to it reads why", async () => {
  const sent: string[][] = [];
  const cap = createToolCap({ originOf: (n) => origins[n] });
  const p = cap.wrap(refusing(["nullable_array"], sent), "https://generativelanguage.googleapis.com/v1beta");
  const events: StreamEvent[] = [];
  for (let i = 0; i < 2; i++) for await (const e of p.stream(request, signal)) events.push(e);
  expect(sent.map((s) => s.includes("nullable_array"))).toEqual([true, false, false]); // refused once, then never sent
  const notices = events.filter((e) => e.type === "notice");
  expect(notices).toEqual([
    {
      type: "notice",
      message:
        "the model's API refused the request over the input schema of MCP server weird's tool nullable.array (offered as nullable_array) (GenerateContentRequest.tools[0].function_declarations[4].parameters: bad items); " +
        'sent again without it, and it is left out for this session. To leave it out for good: exclude_tools = ["nullable.array"] in [mcp.weird]',
    },
  ]);
  expect(events.filter((e) => e.type === "text")).toHaveLength(2);
  const call = await cap.guard({ name: "nullable_array", description: "", parameters: {}, run: async () => ({ output: "ran" }) }).run({}, { signal, cwd: "/" });
  expect(call.isError).toBe(true);
  expect(call.output).toStartWith("nullable_array is not offered: the model's API refused its input schema (");
});

test("a refusal naming hey's own tool is not worked around: the error names it", async () => {
  const p = createToolCap({ originOf: (n) => origins[n] }).wrap(refusing(["edit"], []), "https://generativelanguage.googleapis.com/v1beta");
  const e = await (async () => {
    for await (const _ of p.stream(request, signal));
  })().catch((x: unknown) => x);
  expect(e).toBeInstanceOf(ProviderError);
  expect((e as ProviderError).message).toEndWith("(hey: that is hey's own edit)");
  expect((e as ProviderError).status).toBe(400);
});
