// Whether an MCP tool's input schema is one a model's API takes (SPEC §14). The APIs check every
// tool's schema against JSON Schema and refuse the whole request over one bad tool — a property
// of type "integr", `required: "path"` — so one server's slip would fail every request, every
// turn, until the server was removed. Such a tool is left out instead, and said (offer.ts). The
// check covers the keywords whose values have a fixed shape, not the whole meta-schema. Pure.
import { LIST, MAP, ONE } from "../providers/tool-schema.ts";

const TYPES = new Set(["string", "number", "integer", "boolean", "object", "array", "null"]);
/** Schemas nested deeper than this are not looked into (no model's tool needs it). */
const MAX_DEPTH = 64;

/** What is wrong with `schema` as a tool's input schema (`at` says where), or undefined when nothing is. */
export function schemaProblem(schema: unknown): string | undefined {
  if (!isObject(schema)) return "it is not a JSON Schema object";
  // no type at all is read as an object schema (tool-list.ts gives it one as it reads the list)
  if (schema.type !== undefined && schema.type !== "object") return `its type is ${JSON.stringify(schema.type)}, not "object"`;
  return problemAt(schema, "", 0);
}

function problemAt(schema: unknown, at: string, depth: number): string | undefined {
  if (typeof schema === "boolean" || depth > MAX_DEPTH) return undefined;
  if (!isObject(schema)) return `${where(at)} is ${JSON.stringify(schema)}, not a schema`;
  const type = schema.type;
  if (type !== undefined && !(Array.isArray(type) ? type.length > 0 && type.every(isType) : isType(type)))
    return `${where(`${at}.type`)}: ${JSON.stringify(type)} is no JSON Schema type`;
  const required = schema.required;
  if (required !== undefined && !(Array.isArray(required) && required.every((r) => typeof r === "string")))
    return `${where(`${at}.required`)} is ${JSON.stringify(required)}, not a list of names`;
  if (schema.enum !== undefined && !Array.isArray(schema.enum)) return `${where(`${at}.enum`)} is not a list`;
  for (const key of MAP) {
    const value = schema[key];
    if (value === undefined) continue;
    if (!isObject(value)) return `${where(`${at}.${key}`)} is not an object`;
    for (const [name, sub] of Object.entries(value)) {
      const problem = problemAt(sub, `${at}.${key}.${name}`, depth + 1);
      if (problem) return problem;
    }
  }
  for (const key of LIST) {
    const value = schema[key];
    if (!Array.isArray(value)) continue;
    for (const [i, sub] of value.entries()) {
      const problem = problemAt(sub, `${at}.${key}[${i}]`, depth + 1);
      if (problem) return problem;
    }
  }
  for (const key of ONE) {
    const value = schema[key];
    if (value === undefined || Array.isArray(value)) continue;
    const problem = problemAt(value, `${at}.${key}`, depth + 1);
    if (problem) return problem;
  }
  return undefined;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isType = (v: unknown) => typeof v === "string" && TYPES.has(v);
const where = (at: string) => at.replace(/^\./, "") || "the schema";
