// Typed tools for embedders (README "Embed"): a tool whose parameters are a zod object schema. The
// model is offered that schema as JSON Schema (zod 4's `z.toJSONSchema`, input shape: what the
// model writes, defaults optional); each call's arguments are parsed with it before `run` sees
// them, so `run` gets them typed, defaults filled in, and a call the schema refuses comes back to
// the model as that tool's error naming the field, without running. Pure: no I/O.
import { z } from "zod";
import type { Tool, ToolContext, ToolResult } from "./kernel/tool.ts";
import { toolNameProblem } from "./kernel/tool-names.ts";

/** What `defineTool` is given: a Tool whose `parameters` are a zod object schema and whose `run` gets what it parses to. */
export interface TypedToolDefinition<S extends z.ZodObject> {
  name: string;
  description: string;
  parameters: S;
  /** a string is the result's text; a ToolResult may also say it failed (`isError`) or carry images */
  run(args: z.output<S>, ctx: ToolContext): Promise<ToolResult | string> | ToolResult | string;
}

/**
 * A Tool from a zod schema: see TypedToolDefinition. Throws (naming the tool) when its name is one no model API
 * accepts (1 to 64 of [a-zA-Z0-9_-]) or the schema has no JSON Schema form (a transform, a custom check).
 */
export function defineTool<S extends z.ZodObject>(definition: TypedToolDefinition<S>): Tool {
  const badName = toolNameProblem(definition.name);
  if (badName) throw new Error(`defineTool: ${badName}`);
  let schema: Record<string, unknown>;
  try {
    const { $schema: _, ...rest } = z.toJSONSchema(definition.parameters, { io: "input", override: withoutSafeBounds }) as Record<string, unknown>; // the draft's URL is tokens the model does not need
    schema = rest;
  } catch (e) {
    throw new Error(`defineTool ${definition.name}: its parameters have no JSON Schema form: ${e instanceof Error ? e.message : String(e)}`);
  }
  return {
    name: definition.name,
    description: definition.description,
    parameters: schema,
    async run(args, ctx) {
      const parsed = definition.parameters.safeParse(args);
      if (!parsed.success) return { output: refusal(definition.name, parsed.error.issues), isError: true };
      const result = await definition.run(parsed.data, ctx);
      return typeof result === "string" ? { output: result } : result;
    },
  };
}

/** `.int()`'s bounds (±2^53−1) say nothing to the model and cost ~20 tokens a field on every request: left out. */
function withoutSafeBounds({ jsonSchema }: { jsonSchema: { minimum?: number; maximum?: number } }): void {
  if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
  if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
}

/** What the model reads when its arguments do not parse: one line per problem, each naming its field (`lookup: \`limit\` Too big: …`). */
export function refusal(tool: string, issues: readonly z.core.$ZodIssue[]): string {
  return issues.map((i) => `${tool}: ${i.path.length ? `\`${i.path.map(String).join(".")}\` ` : ""}${i.message}`).join("\n");
}
