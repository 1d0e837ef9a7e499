// Which input schemas a model's API would refuse (a request carrying one fails whole): the
// keywords whose values have a fixed shape, wherever they are nested.
import { expect, test } from "bun:test";
import { schemaProblem } from "../../src/mcp/schema-check.ts";

const obj = (properties: Record<string, unknown>, more: Record<string, unknown> = {}) => ({ type: "object", properties, ...more });

test("what is wrong, and where", () => {
  const rows: [unknown, string | undefined][] = [
    [obj({ path: { type: "string" }, n: { type: ["integer", "null"] } }, { required: ["path"] }), undefined],
    [obj({ any: true, none: {} }, { additionalProperties: false }), undefined],
    [obj({ xs: { type: "array", items: { anyOf: [{ type: "string" }, { $ref: "#/$defs/x" }] } } }, { $defs: { x: { type: "object" } } }), undefined],
    ["object", "it is not a JSON Schema object"],
    [{ type: "array", items: {} }, 'its type is "array", not "object"'],
    [obj({ n: { type: "integr" } }), 'properties.n.type: "integr" is no JSON Schema type'],
    [obj({ n: { type: [] } }), "properties.n.type: [] is no JSON Schema type"],
    [obj({}, { required: "path" }), 'required is "path", not a list of names'],
    [obj({ tags: { type: "array", items: { type: "str" } } }), 'properties.tags.items.type: "str" is no JSON Schema type'],
    [obj({ v: { oneOf: [{ type: "string" }, "number"] } }), 'properties.v.oneOf[1] is "number", not a schema'],
    [obj({ v: { enum: "a" } }), "properties.v.enum is not a list"],
    [obj([] as never), "properties is not an object"],
    [obj({}, { $defs: { x: { properties: { y: { type: "text" } } } } }), '$defs.x.properties.y.type: "text" is no JSON Schema type'],
  ];
  for (const [schema, problem] of rows) expect([schema, schemaProblem(schema)]).toEqual([schema, problem]);
});
