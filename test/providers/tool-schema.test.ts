// MCP tool schemas that are valid JSON Schema but that one vendor's API refuses (and with it the
// whole request, every turn): each protocol's request builder sends them in a shape its API takes,
// changing nothing else. Each row is a schema users met, with where they met it.
import { expect, test } from "bun:test";
import type { Protocol, ToolSpec } from "../../src/kernel/ir.ts";
import { sentSchema } from "../../src/providers/tool-schema.ts";
import { PROTOCOLS_ALL as ALL, sentSchemas as sent } from "../helpers/sent-schemas.ts";

type Schema = Record<string, unknown>;

const spec = (parameters: Schema): ToolSpec => ({ name: "t", description: "d", parameters });

const OPENAI: Protocol[] = ["openai", "responses"];
const ITEMS: Protocol[] = ["openai", "responses", "google"];

const rows: { what: string; schema: Schema; protocols: Protocol[]; want: Schema; google?: Schema }[] = [
  {
    // "Invalid schema for function 'filesystem_read_multiple_files': In context=('properties', 'paths'), array schema
    // missing items." (https://github.com/sigoden/aichat/pull/1049); Gemini: "properties[command].items: missing field"
    // (https://github.com/NousResearch/hermes-agent/pull/71874)
    what: "an array without items gets items: {}",
    schema: { type: "object", properties: { paths: { type: "array", description: "files" } }, required: ["paths"] },
    protocols: ITEMS,
    want: { type: "object", properties: { paths: { type: "array", description: "files", items: {} } }, required: ["paths"] },
  },
  {
    // "In context=('properties', 'values', 'items'), array schema missing items." (https://github.com/gumloop/guMCP/pull/136)
    what: "an array of arrays: the inner one too",
    schema: { type: "object", properties: { values: { type: "array", items: { type: "array" } } } },
    protocols: ITEMS,
    want: { type: "object", properties: { values: { type: "array", items: { type: "array", items: {} } } } },
  },
  {
    // "In context=('properties', 'arguments', 'items', 'type', '0'), array schema missing items."
    // (https://github.com/tidewave-ai/tidewave_phoenix/pull/224)
    what: "an array in a type list, under anyOf and $defs",
    schema: {
      type: "object",
      properties: { args: { anyOf: [{ type: ["array", "null"] }, { $ref: "#/$defs/list" }] } },
      $defs: { list: { type: "array" } },
    },
    protocols: ITEMS,
    want: {
      type: "object",
      properties: { args: { anyOf: [{ type: ["array", "null"], items: {} }, { $ref: "#/$defs/list" }] } },
      $defs: { list: { type: "array", items: {} } },
    },
    google: {
      type: "object",
      properties: {
        args: {
          anyOf: [
            { type: ["array", "null"], items: {} },
            { type: "array", items: {} },
          ],
        },
      },
    },
  },
  {
    // OpenAI: "Invalid schema for function 'update-event': schema must have type 'object' and not have
    // 'oneOf'/'anyOf'/'allOf'/'enum'/'not' at the top level." (https://github.com/nspady/google-calendar-mcp/issues/39);
    // Anthropic: "tools.61.custom.input_schema: input_schema does not support oneOf, allOf, or anyOf at the top level"
    // (https://github.com/anthropics/claude-code/issues/5878)
    what: "a top-level oneOf: its branches' properties join the object; required only what every branch requires",
    schema: {
      type: "object",
      properties: { calendarId: { type: "string" } },
      required: ["calendarId"],
      oneOf: [
        { properties: { eventId: { type: "string" }, summary: { type: "string" } }, required: ["eventId", "summary"] },
        { properties: { query: { type: "string" }, summary: { type: "string", description: "other" } }, required: ["query", "summary"] },
      ],
    },
    protocols: ALL,
    want: {
      type: "object",
      properties: { calendarId: { type: "string" }, eventId: { type: "string" }, summary: { type: "string" }, query: { type: "string" } },
      required: ["calendarId", "summary"],
    },
  },
  {
    what: "a top-level allOf of a $defs object and more: all of it, all required",
    schema: {
      type: "object",
      allOf: [{ $ref: "#/$defs/Base" }, { properties: { force: { type: "boolean" } }, required: ["force"] }],
      $defs: { Base: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } },
    },
    protocols: ALL,
    want: {
      type: "object",
      $defs: { Base: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } },
      properties: { path: { type: "string" }, force: { type: "boolean" } },
      required: ["path", "force"],
    },
    google: { type: "object", properties: { path: { type: "string" }, force: { type: "boolean" } }, required: ["path", "force"] },
  },
  {
    // the "one of these is required" idiom: nothing to add, the anyOf goes
    what: "a top-level anyOf of required lists",
    schema: { type: "object", properties: { id: { type: "string" }, name: { type: "string" } }, anyOf: [{ required: ["id"] }, { required: ["name"] }] },
    protocols: ALL,
    want: { type: "object", properties: { id: { type: "string" }, name: { type: "string" } } },
  },
  {
    // Gemini: "reference to undefined schema at properties.target_object.anyOf.1" (Snowflake MCP's create_object,
    // https://github.com/google-gemini/gemini-cli/issues/13326)
    what: "a ref into $defs is replaced by its definition, and $defs goes",
    schema: {
      type: "object",
      properties: { target_object: { anyOf: [{ $ref: "#/$defs/Table" }, { type: "null" }], default: null } },
      $defs: { Table: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } },
    },
    protocols: ["google"],
    want: {
      type: "object",
      properties: {
        target_object: { anyOf: [{ type: "object", properties: { name: { type: "string" } }, required: ["name"] }, { type: "null" }], default: null },
      },
    },
  },
  {
    // Gemini: "$ref 'QuestionOption' was set alongside unsupported fields. If a schema node has $ref set, then only
    // description and default can be set alongside it" (https://github.com/anomalyco/opencode/issues/12295)
    what: "a ref with siblings: the definition, the siblings over it",
    schema: {
      type: "object",
      properties: { options: { type: "array", items: { $ref: "#/definitions/QuestionOption", title: "Option", description: "one choice" } } },
      definitions: { QuestionOption: { type: "object", title: "QuestionOption", properties: { label: { type: "string" } } } },
    },
    protocols: ["google"],
    want: {
      type: "object",
      properties: {
        options: { type: "array", items: { type: "object", title: "Option", properties: { label: { type: "string" } }, description: "one choice" } },
      },
    },
  },
  {
    // Gemini 400 "items: missing field" once `#/properties/headers` was lost (https://github.com/DEEIX-AI/DEEIX-Chat/issues/546)
    what: "a ref to another property (zod-to-json-schema's reuse)",
    schema: { type: "object", properties: { headers: { type: "object" }, actions: { type: "array", items: { $ref: "#/properties/headers" } } } },
    protocols: ["google"],
    want: { type: "object", properties: { headers: { type: "object" }, actions: { type: "array", items: { type: "object" } } } },
  },
  {
    what: "a recursive ref stops where it would repeat, and a ref to nowhere, as any value",
    schema: {
      type: "object",
      properties: { tree: { $ref: "#/$defs/Node" }, other: { $ref: "#/$defs/Missing", description: "gone" } },
      $defs: { Node: { type: "object", properties: { children: { type: "array", items: { $ref: "#/$defs/Node" } } } } },
    },
    protocols: ["google"],
    want: {
      type: "object",
      properties: { tree: { type: "object", properties: { children: { type: "array", items: {} } } }, other: { description: "gone" } },
    },
  },
  {
    what: "OpenAI's top-level not and enum go (the error names them); the others keep them",
    schema: { type: "object", properties: { a: { type: "string" } }, not: { required: ["a", "b"] } },
    protocols: OPENAI,
    want: { type: "object", properties: { a: { type: "string" } } },
  },
];

test.each(rows.flatMap((r) => r.protocols.map((protocol) => ({ ...r, protocol }))))("$protocol: $what", ({ schema, protocol, want, google }) => {
  expect(sent(protocol, [spec(schema)])).toEqual([protocol === "google" ? (google ?? want) : want]);
});

test.each(rows.flatMap((r) => ALL.filter((p) => !r.protocols.includes(p)).map((protocol) => ({ ...r, protocol }))))(
  "$protocol takes it as it is: $what",
  ({ schema, protocol }) => {
    expect(sent(protocol, [spec(schema)])).toEqual([schema]);
  },
);

test("nested combinators, enum and not are the server's business, and are sent as written", () => {
  const schema = {
    type: "object",
    properties: { v: { anyOf: [{ type: "string", enum: ["a"] }, { not: { type: "null" } }] }, w: { allOf: [{ type: "integer" }] } },
  };
  for (const protocol of ALL) expect(sent(protocol, [spec(schema)])).toEqual([schema]);
});

test("a schema with nothing to change is the very object given; the same schema always gives the same bytes", () => {
  const fine = { type: "object", properties: { tags: { type: "array", items: { type: "string" } } }, required: ["tags"] };
  for (const protocol of ALL) expect(sentSchema(fine, protocol)).toBe(fine);
  const bad = () => ({ type: "object", properties: { tags: { type: "array" } }, anyOf: [{ required: ["tags"] }] });
  const one = bad();
  expect(sentSchema(one, "openai")).toBe(sentSchema(one, "openai"));
  expect(JSON.stringify(sentSchema(bad(), "openai"))).toBe(JSON.stringify(sentSchema(bad(), "openai")));
  expect(one).toEqual(bad()); // the server's own schema (which hey checks arguments against) is untouched
});
