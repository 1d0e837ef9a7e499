// tools/list as hey reads it (SPEC §14): a tool its server describes badly costs that tool, not
// the server. The SDK checks the whole list against its types and compiles every output schema,
// so one input schema without `"type": "object"` (a common slip) or one output schema that does
// not compile failed the list: the server "failed" with the SDK's validation errors as JSON, and
// every one of its tools was lost. Here each tool is read alone: an input schema with no type is
// read as the object schema it describes; an output schema that does not compile is dropped (that
// tool's results go unchecked); whether an input schema is one a model takes is checked when the
// tools are offered (schema-check.ts, offer.ts). Pure: the client is given.

/** A tool of the list as the SDK's client reads it on. */
export interface ListedTool {
  name: string;
  description?: string;
  inputSchema: { type: "object"; [key: string]: unknown };
  outputSchema?: { type: "object"; [key: string]: unknown };
  [key: string]: unknown;
}

/**
 * The SDK client's output checks: it compiles each listed tool's output schema (and throws on one
 * that does not compile) to check the tool's results against it. A private method of the SDK's
 * Client (1.32), called as its own listTools calls it; without it, results go unchecked.
 */
interface OutputChecks {
  cacheToolMetadata?(tools: ListedTool[]): void;
}

/** One page of tools/list from its raw result: each tool read alone, the SDK `client`'s output checks set for those that compile. */
export function toolPage(result: unknown, client: object): { tools: ListedTool[]; nextCursor?: string } {
  const r = isObject(result) ? result : {};
  const tools = (Array.isArray(r.tools) ? r.tools : []).flatMap((t): ListedTool[] => {
    if (!isObject(t) || typeof t.name !== "string") return []; // nothing to offer or call it by
    const input = isObject(t.inputSchema) && t.inputSchema.type === undefined ? { type: "object", ...t.inputSchema } : t.inputSchema;
    const { outputSchema, ...rest } = t;
    return [
      {
        ...rest,
        name: t.name,
        inputSchema: input as ListedTool["inputSchema"],
        ...(isObject(outputSchema) ? { outputSchema: outputSchema as ListedTool["outputSchema"] } : {}),
      },
    ];
  });
  checkOutputs(tools, client as OutputChecks);
  return { tools, ...(typeof r.nextCursor === "string" ? { nextCursor: r.nextCursor } : {}) };
}

/** Sets the client's output checks; a tool whose output schema does not compile loses it (and its check). */
function checkOutputs(tools: ListedTool[], client: OutputChecks): void {
  const compile = client.cacheToolMetadata?.bind(client);
  if (!compile) return;
  try {
    return compile(tools);
  } catch {} // one of them does not compile: find it
  for (const t of tools) {
    if (!t.outputSchema) continue;
    try {
      compile([t]);
    } catch {
      delete t.outputSchema;
    }
  }
  compile(tools);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
