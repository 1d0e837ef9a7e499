// An MCP server whose schemas are valid JSON Schema but not what OpenAI's API takes (an array
// without items, a top-level oneOf): the mock model below answers as that API did — it refuses the
// request, naming the schema — so before, every request of the session failed there. Through the
// compiled binary the tools now reach the model in a shape it takes, and a call of them works.
import { expect, setDefaultTimeout, test } from "bun:test";
import { ensureBinary, runHey } from "../helpers/e2e.ts";
import { BUN, FAKE_SERVER } from "../helpers/mcp.ts";
import { resultText, type ChatRequest } from "../helpers/model-server.ts";
import { eachModelServers, eachTempDir, writeUserConfig } from "../helpers/fixtures.ts";

setDefaultTimeout(120_000);

const home = eachTempDir("hey-vendor-schemas-");
const model = eachModelServers();

type Schema = Record<string, unknown>;
/** What OpenAI's API said of a tool's parameters (invalid_function_parameters), or undefined when it takes them. */
function openaiRefusal(name: string, p: Schema): string | undefined {
  const top = ["oneOf", "anyOf", "allOf", "enum", "not"].find((k) => p[k] !== undefined);
  if (top) return `Invalid schema for function '${name}': schema must have type 'object' and not have 'oneOf'/'anyOf'/'allOf'/'enum'/'not' at the top level.`;
  const missing = (s: unknown): boolean =>
    typeof s === "object" && s !== null && (((s as Schema).type === "array" && (s as Schema).items === undefined) || Object.values(s).some(missing));
  return missing(p) ? `Invalid schema for function '${name}': array schema missing items.` : undefined;
}

test("an array without items and a top-level oneOf reach an OpenAI-compatible model, and their tools run", async () => {
  await ensureBinary();
  const m = model((req: ChatRequest) => {
    const tools = (req.tools ?? []) as { function: { name: string; parameters: Schema } }[];
    const refused = tools.map((t) => openaiRefusal(t.function.name, t.function.parameters)).find(Boolean);
    if (refused) return { text: `400 ${refused}` };
    const last = req.messages.at(-1);
    if (last?.role === "tool") return { text: `got ${resultText(last)}` };
    return { calls: [["tag", { text: "hi", tags: ["a"] }]] };
  });
  writeUserConfig(
    home.path,
    `[default]\nprovider = "mock"\nmodel = "m"\n\n[provider.mock]\nbase_url = "${m.baseUrl}"\nmodels = ["m"]\n\n[mcp.shapes]\ncommand = ${JSON.stringify(BUN)}\nargs = ${JSON.stringify([FAKE_SERVER, "vendor-shapes"])}\n`,
  );
  const r = await runHey(["-p", "hello"], { env: { HOME: home.path }, cwd: home.path, timeoutMs: 60_000 });
  expect(r.stdout).toBe("got fake: hi\n");
  expect(r.code).toBe(0);
  const sent = Object.fromEntries(
    ((m.requests[0]!.tools ?? []) as { function: { name: string; parameters: Schema } }[]).map((t) => [t.function.name, t.function.parameters]),
  );
  expect(Object.keys(sent)).toEqual(expect.arrayContaining(["tag", "pick", "lookup"]));
  expect(sent.tag).toEqual({ type: "object", properties: { text: { type: "string" }, tags: { type: "array", items: {} } } });
  expect(sent.pick).toEqual({ type: "object", properties: { id: { type: "string" }, text: { type: "string" } } });
  // OpenAI takes $ref: sent as the server wrote it
  expect(sent.lookup).toEqual({ type: "object", properties: { text: { $ref: "#/$defs/word" } }, $defs: { word: { type: "string" } } });
});
