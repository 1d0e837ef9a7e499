// Each tool's input schema as a protocol's request builder puts it in the request body.
import type { Protocol, ToolSpec } from "../../src/kernel/ir.ts";
import type { ModelRequest } from "../../src/kernel/provider.ts";
import { toRequest as anthropic } from "../../src/providers/anthropic.ts";
import { toRequest as google } from "../../src/providers/google.ts";
import { toRequest as openai } from "../../src/providers/openai.ts";
import { toRequest as responses } from "../../src/providers/responses.ts";

export const PROTOCOLS_ALL: Protocol[] = ["openai", "responses", "anthropic", "google"];

/** The schemas of `tools`, in order, from the body `protocol`'s adapter builds for a one-line request. */
export function sentSchemas(protocol: Protocol, tools: ToolSpec[]): unknown[] {
  const req: ModelRequest = { system: "s", messages: [{ id: "u", role: "user", content: [{ type: "text", text: "hi" }] }], tools };
  if (protocol === "openai") return openai(req, { model: "m" }).tools!.map((t) => (t as { function: { parameters: unknown } }).function.parameters);
  if (protocol === "responses") return responses(req, { model: "m" }).tools!.map((t) => (t as { parameters: unknown }).parameters);
  if (protocol === "anthropic") return anthropic(req, { model: "m" }).tools!.map((t) => (t as { input_schema: unknown }).input_schema);
  const declarations = google(req, { model: "gemini-3-pro-preview" }).config!.tools!.flatMap(
    (t) => (t as { functionDeclarations: { parametersJsonSchema: unknown }[] }).functionDeclarations,
  );
  return declarations.map((d) => d.parametersJsonSchema);
}
