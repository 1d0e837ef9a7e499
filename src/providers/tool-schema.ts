// A tool's input schema as each protocol's API takes it (SPEC §14). MCP servers send valid JSON
// Schema that some APIs still refuse, and a request with one refused tool fails whole: every
// request of the session, until the server is removed. What each API refuses, as users met it:
// - an array with no `items`, anywhere: OpenAI (chat and Responses) answers 400 "array schema
//   missing items" (https://github.com/sigoden/aichat/pull/1049, server-filesystem's
//   read_multiple_files; https://github.com/gumloop/guMCP/pull/136; Codex, on Responses:
//   https://github.com/digitalocean-labs/mcp-digitalocean/issues/265), and Gemini
//   "properties[command].items: missing field" (https://github.com/NousResearch/hermes-agent/pull/71874).
//   It gets `items: {}`: any item, which is what the schema said.
// - anyOf/oneOf/allOf at the top: OpenAI "schema must have type 'object' and not have
//   'oneOf'/'anyOf'/'allOf'/'enum'/'not' at the top level" (https://github.com/nspady/google-calendar-mcp/issues/39),
//   Anthropic "input_schema does not support oneOf, allOf, or anyOf at the top level"
//   (https://github.com/anthropics/claude-code/issues/5878); Gemini's parametersJsonSchema "must
//   describe an object where the properties are the parameters to the function" (FunctionDeclaration
//   reference). The branches are folded into the object: their properties join the top's (a name
//   the top or an earlier branch defines keeps that schema), and a name is required when the top
//   requires it, an allOf branch does, or every anyOf/oneOf branch does. OpenAI's top-level `enum`
//   and `not` go. The server still checks the arguments against its own schema.
// - `$ref`, for Gemini: it answers "reference to undefined schema at properties.target_object.anyOf.1"
//   to refs into the schema's own `$defs` (https://github.com/google-gemini/gemini-cli/issues/13326),
//   "$ref ... was set alongside unsupported fields" to one with siblings
//   (https://github.com/anomalyco/opencode/issues/12295), and loses what `#/properties/x` points to
//   (https://github.com/DEEIX-AI/DEEIX-Chat/issues/546). Each local ref is replaced by what it
//   points to, as deep as MAX_REFS.
// Everything else is sent as the server wrote it. A schema with nothing to change is returned
// itself (hey's own tools, every tool of the reference servers), and the same schema always gives
// the same result, so the request prefix stays byte-stable. Pure.
import type { Protocol } from "../kernel/ir.ts";

type Schema = Record<string, unknown>;

const COMBINATORS = ["allOf", "anyOf", "oneOf"] as const;
/** The protocols that refuse an array schema without `items`. */
const NEEDS_ITEMS: ReadonlySet<Protocol> = new Set<Protocol>(["openai", "responses", "google"]);
/** JSON Schema's keywords whose value is one schema (also what mcp/schema-check.ts looks into). */
export const ONE = [
  "items",
  "additionalProperties",
  "not",
  "contains",
  "if",
  "then",
  "else",
  "propertyNames",
  "additionalItems",
  "unevaluatedItems",
  "unevaluatedProperties",
];
/** Keywords whose value is a list of schemas. */
export const LIST = ["items", "prefixItems", ...COMBINATORS];
/** Keywords whose value maps names to schemas. */
export const MAP = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];
/** Keywords whose value is a schema or a list of them, and those that map names to schemas, for inlineRefs. */
const SUBSCHEMAS = new Set([...ONE, ...LIST]);
const MAPS = new Set(["properties", "patternProperties", "dependentSchemas"]);
/** Refs inside refs inlined before one is sent as `{}`: a recursive schema would never end. */
const MAX_REFS = 8;
/** Schemas nested deeper than this are sent as they are (mcp/schema-check.ts looks no deeper either). */
const MAX_DEPTH = 64;

const done = new Map<Protocol, WeakMap<Schema, Schema>>();

/** `schema` (a tool's input schema, type object) as `protocol` accepts it; `schema` itself when that needs no change. Never throws. */
export function sentSchema(schema: Schema, protocol: Protocol): Schema {
  let seen = done.get(protocol);
  if (!seen) done.set(protocol, (seen = new WeakMap()));
  const known = seen.get(schema);
  if (known) return known;
  const folded = foldTop(protocol === "google" ? inlineRefs(schema) : schema, protocol);
  const out = NEEDS_ITEMS.has(protocol) ? (withItems(folded, 0) as Schema) : folded;
  seen.set(schema, out);
  return out;
}

/** The top-level combinators (and, for OpenAI, `enum` and `not`) folded into the object. */
function foldTop(schema: Schema, protocol: Protocol): Schema {
  const refused: string[] = [...COMBINATORS, ...(protocol === "openai" || protocol === "responses" ? ["enum", "not"] : [])];
  if (!refused.some((k) => schema[k] !== undefined)) return schema;
  const out: Schema = {};
  for (const [k, v] of Object.entries(schema)) if (!refused.includes(k)) out[k] = v;
  const properties: Schema = { ...(isObject(schema.properties) ? schema.properties : {}) };
  const required = new Set(names(schema.required));
  for (const key of COMBINATORS) {
    const branches = (Array.isArray(schema[key]) ? schema[key] : []).map((b) => local(b, schema)).filter(isObject);
    if (branches.length === 0) continue;
    for (const b of branches)
      for (const [name, sub] of Object.entries(isObject(b.properties) ? b.properties : {})) if (!(name in properties)) properties[name] = sub;
    const each = branches.map((b) => names(b.required));
    const now = key === "allOf" ? each.flat() : each[0]!.filter((n) => each.every((r) => r.includes(n)));
    for (const n of now) required.add(n);
  }
  if (isObject(schema.properties) || Object.keys(properties).length > 0) out.properties = properties;
  if (required.size > 0 || schema.required !== undefined) out.required = [...required];
  return out;
}

/** A branch that is a `$ref` to the schema's own `$defs` or `definitions` is that definition. */
function local(branch: unknown, root: Schema): unknown {
  if (!isObject(branch) || typeof branch.$ref !== "string") return branch;
  const m = /^#\/(\$defs|definitions)\/([^/]+)$/.exec(branch.$ref);
  const defs = m ? root[m[1]!] : undefined;
  return isObject(defs) ? (defs[decodeURIComponent(m![2]!).replace(/~1/g, "/").replace(/~0/g, "~")] ?? branch) : branch;
}

/**
 * Gemini with every local `$ref` replaced by what it points to (its siblings — a description, a
 * default — kept over it), and `$defs`/`definitions` dropped once nothing points into them. A ref
 * that points nowhere, into itself, or deeper than MAX_REFS refs becomes `{}` (any value): the
 * server still checks it.
 */
function inlineRefs(schema: Schema): Schema {
  if (!JSON.stringify(schema).includes('"$ref"')) return schema;
  const { $defs: _defs, definitions: _definitions, ...rest } = schema;
  return expand(rest, schema, [], 0) as Schema;
}

function expand(node: unknown, root: Schema, refs: string[], depth: number): unknown {
  if (Array.isArray(node)) return node.map((n) => expand(n, root, refs, depth + 1));
  if (!isObject(node) || depth > MAX_DEPTH) return node;
  if (typeof node.$ref === "string") {
    const { $ref, ...siblings } = node;
    const target = refs.length < MAX_REFS && !refs.includes($ref) ? pointer(root, $ref) : undefined;
    const merged = isObject(target) ? { ...target, ...siblings } : siblings;
    return expand(merged, root, isObject(target) ? [...refs, $ref] : refs, depth + 1);
  }
  const out: Schema = {};
  for (const [k, v] of Object.entries(node))
    out[k] = MAPS.has(k) ? mapValues(v, (s) => expand(s, root, refs, depth + 1)) : SUBSCHEMAS.has(k) ? expand(v, root, refs, depth + 1) : v;
  return out;
}

/** What `ref` (`#/$defs/x`, `#/properties/a/items`) points to in `root`, or undefined. */
function pointer(root: Schema, ref: string): unknown {
  if (!ref.startsWith("#")) return undefined;
  let at: unknown = root;
  for (const part of ref.slice(1).split("/").slice(1)) {
    const key = decodeURIComponent(part).replace(/~1/g, "/").replace(/~0/g, "~");
    at = isObject(at) ? at[key] : Array.isArray(at) ? at[Number(key)] : undefined;
  }
  return ref === "#" ? undefined : at;
}

const mapValues = (v: unknown, f: (s: unknown) => unknown) => (isObject(v) ? Object.fromEntries(Object.entries(v).map(([k, s]) => [k, f(s)])) : v);

/** `node` with `items: {}` on every array schema that has neither `items` nor `prefixItems`. */
function withItems(node: unknown, depth: number): unknown {
  if (!isObject(node) || depth > MAX_DEPTH) return node;
  let out: Schema | undefined;
  const set = (key: string, value: unknown) => {
    if (value !== node[key]) (out ??= { ...node })[key] = value;
  };
  for (const key of ONE) if (isObject(node[key])) set(key, withItems(node[key], depth + 1));
  for (const key of LIST) {
    const list = node[key];
    if (!Array.isArray(list)) continue;
    const next = list.map((s) => withItems(s, depth + 1));
    if (next.some((s, i) => s !== list[i])) set(key, next);
  }
  for (const key of MAP) {
    const map = node[key];
    if (!isObject(map)) continue;
    const next = Object.fromEntries(Object.entries(map).map(([k, s]) => [k, withItems(s, depth + 1)]));
    if (Object.keys(next).some((k) => next[k] !== map[k])) set(key, next);
  }
  const array = node.type === "array" || (Array.isArray(node.type) && node.type.includes("array"));
  if (array && node.items === undefined && node.prefixItems === undefined) (out ??= { ...node }).items = {};
  return out ?? node;
}

const names = (v: unknown): string[] => (Array.isArray(v) ? v.filter((n): n is string => typeof n === "string") : []);
const isObject = (v: unknown): v is Schema => typeof v === "object" && v !== null && !Array.isArray(v);
