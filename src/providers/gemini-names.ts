// Gemini's function names must start with a letter or an underscore (FunctionDeclaration.name in
// Google's API reference), where other vendors take any of [a-zA-Z0-9_-]: one MCP tool named
// `3d_render` made every request of the session fail with HTTP 400. Such a name goes out with an
// underscore in front — or, where another tool already has that name (`_3d_render` beside
// `3d_render`), with `_2_`, `_3_`… — and the calls that come back are read under the tool's own
// name again: the rename lives on the wire only, so permission entries, sessions and other
// providers keep the name the tool has. Pure.

/** A first character Gemini takes. */
const FIRST = /^[A-Za-z_]/;
/** Gemini's longest function name. */
const MAX_CHARS = 64;

/** The names of one request's tools on Gemini's wire, both ways. */
export interface GeminiNames {
  /** The name Gemini is sent for the tool `name` (a tool not in the request: the plain rename). */
  toWire(name: string): string;
  /** The tool a name Gemini called is: the one sent under it, or the name itself. */
  fromWire(wire: string): string;
}

/** Wire names for `tools`, each distinct from every other tool's name and wire name. */
export function geminiNames(tools: readonly string[]): GeminiNames {
  const wireOf = new Map<string, string>();
  const taken = new Set(tools.filter((n) => FIRST.test(n)));
  for (const name of tools) {
    if (FIRST.test(name)) wireOf.set(name, name);
    else {
      let wire = plainRename(name);
      for (let n = 2; taken.has(wire); n++) wire = `_${n}_${name}`.slice(0, MAX_CHARS);
      taken.add(wire);
      wireOf.set(name, wire);
    }
  }
  const toolOf = new Map([...wireOf].map(([name, wire]) => [wire, name]));
  return {
    toWire: (name) => wireOf.get(name) ?? (FIRST.test(name) ? name : plainRename(name)),
    fromWire: (wire) => toolOf.get(wire) ?? wire,
  };
}

const plainRename = (name: string): string => `_${name}`.slice(0, MAX_CHARS);
