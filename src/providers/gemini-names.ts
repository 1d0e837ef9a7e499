// Gemini's function names must start with a letter or an underscore (FunctionDeclaration.name in
// Google's API reference), where other vendors take any of [a-zA-Z0-9_-]: one MCP tool named
// `3d_render` made every request of the session fail with HTTP 400. Such a name goes out with an
// underscore in front, and the calls that come back are read under the tool's own name again: the
// rename lives on the wire only, so permission entries, sessions and other providers keep the
// name the tool has. Pure.

/** A first character Gemini takes. */
const FIRST = /^[A-Za-z_]/;
/** Gemini's longest function name. */
const MAX_CHARS = 64;

/** The name Gemini is sent for the tool `name`. */
export const geminiName = (name: string): string => (FIRST.test(name) ? name : `_${name}`.slice(0, MAX_CHARS));

/** The tool a name Gemini called is: one of `names` sent under it, or the name itself. */
export const fromGeminiName = (wire: string, names: readonly string[]): string =>
  names.includes(wire) ? wire : (names.find((n) => geminiName(n) === wire) ?? wire);
