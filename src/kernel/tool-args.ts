// Tool arguments checked against the tool's own JSON Schema, once, in the pipeline (STYLE "One
// pipeline"): every tool, built-in or MCP, gets required keys and top-level types checked for free,
// and its `run` sees the types its schema promises. Pure.

/** The part of JSON Schema checked here: `required` and each top-level property's `type`. */
type Schema = { properties?: Record<string, { type?: unknown } | undefined>; required?: unknown };

const PHRASE: Record<string, string> = {
  string: "a string",
  integer: "an integer",
  number: "a number",
  boolean: "true or false",
  array: "an array",
  object: "an object",
  null: "null",
};

/**
 * `args` checked against `schema`: an absent or null optional key is dropped; a boolean or number
 * the model sent as a string ("true", "12" — models do) is converted when the schema says so.
 * Returns the arguments to run with, or an error naming the tool, the key, what it must be and
 * what was sent. Unknown keys pass untouched (the tool decides); a schema this does not
 * understand checks nothing. Never throws.
 */
export function checkArguments(
  tool: string,
  args: Record<string, unknown>,
  schema: Record<string, unknown>,
): { args: Record<string, unknown> } | { error: string } {
  const { properties = {}, required } = schema as Schema;
  const needed = new Set(Array.isArray(required) ? required.filter((k): k is string => typeof k === "string") : []);
  const out: Record<string, unknown> = { ...args };
  for (const [key, value] of Object.entries(args)) if (value === null && !needed.has(key) && !accepts(properties[key]?.type, null)) delete out[key];
  for (const key of needed) {
    if (out[key] !== undefined) continue;
    const type = properties[key]?.type;
    return { error: `${tool}: \`${key}\` ${typeof type === "string" && PHRASE[type] ? `must be ${PHRASE[type]}` : "is required"}, got nothing` };
  }
  for (const [key, spec] of Object.entries(properties)) {
    if (!(key in out) || spec?.type === undefined) continue;
    const value = coerce(spec.type, out[key]);
    if (!accepts(spec.type, value)) return { error: `${tool}: \`${key}\` must be ${expected(spec.type)}, got ${show(out[key])}` };
    out[key] = value;
  }
  return { args: out };
}

function types(type: unknown): string[] {
  return (Array.isArray(type) ? type : [type]).filter((t): t is string => typeof t === "string");
}

function accepts(type: unknown, v: unknown): boolean {
  const list = types(type);
  if (list.length === 0) return true;
  return list.some((t) => {
    switch (t) {
      case "string":
        return typeof v === "string";
      case "integer":
        return typeof v === "number" && Number.isInteger(v);
      case "number":
        return typeof v === "number" && Number.isFinite(v);
      case "boolean":
        return typeof v === "boolean";
      case "array":
        return Array.isArray(v);
      case "object":
        return typeof v === "object" && v !== null && !Array.isArray(v);
      case "null":
        return v === null;
      default:
        return true; // a type this checker does not know: the tool decides
    }
  });
}

/** "true"/"false" for a boolean, a numeric string for a number, when the value is not already acceptable. */
function coerce(type: unknown, v: unknown): unknown {
  if (typeof v !== "string" || accepts(type, v)) return v;
  const list = types(type);
  if (list.includes("boolean") && (v === "true" || v === "false")) return v === "true";
  if ((list.includes("integer") || list.includes("number")) && /^\s*-?\d+(\.\d+)?\s*$/.test(v)) return Number(v);
  return v;
}

function expected(type: unknown): string {
  return types(type)
    .map((t) => PHRASE[t] ?? t)
    .join(" or ");
}

/** A value as an error shows it: strings quoted, long ones cut. */
function show(v: unknown): string {
  const text = JSON.stringify(v) ?? String(v);
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}
