// Vertex AI's streamed tool-call arguments (vertex-parallel-calls-partial-args.sse under
// test/fixtures/wire/gemini/): each fragment sets one value at a JSON path, and a string value
// continues the string already there. Pure; the shape is the SDK's PartialArg, written out here
// so only providers/google.ts loads the SDK's types.

/** One fragment: `{jsonPath: "$.a.b[0]", stringValue | numberValue | boolValue | nullValue}`. */
export interface PartialArgument {
  jsonPath?: string;
  stringValue?: string;
  numberValue?: number;
  boolValue?: boolean;
  nullValue?: unknown;
}

/** The keys of `$.a[0]['b c']["d"]`: names as strings, indexes as numbers. */
export function pathKeys(jsonPath: string): (string | number)[] {
  return [...jsonPath.matchAll(/\.([^.[\]]+)|\[(\d+)\]|\['([^']*)'\]|\["([^"]*)"\]/g)].map((m) =>
    m[2] !== undefined ? Number(m[2]) : (m[1] ?? m[3] ?? m[4])!,
  );
}

/**
 * Applies one fragment to `args`, making the objects and arrays on its path; a string value is
 * appended to the string already at the path. A fragment without a path (or with `$` alone) is
 * ignored: the arguments are always an object.
 */
export function applyPartialArg(args: Record<string, unknown>, arg: PartialArgument): void {
  const keys = pathKeys(arg.jsonPath ?? "");
  const last = keys.pop();
  if (last === undefined) return;
  let node: Record<string | number, unknown> = args;
  for (const [i, key] of keys.entries()) {
    const next = node[key];
    if (typeof next !== "object" || next === null) node[key] = typeof (keys[i + 1] ?? last) === "number" ? [] : {};
    node = node[key] as Record<string | number, unknown>;
  }
  if (arg.stringValue !== undefined) node[last] = (typeof node[last] === "string" ? node[last] : "") + arg.stringValue;
  else if (arg.numberValue !== undefined) node[last] = arg.numberValue;
  else if (arg.boolValue !== undefined) node[last] = arg.boolValue;
  else if (arg.nullValue !== undefined) node[last] = null;
}
