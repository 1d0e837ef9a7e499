// A tool call's arguments read the way a careful reader of a model's text would: strict JSON
// first, then the slips open-weight models make that have only one meaning, repaired — a code fence
// around the object, the object JSON-encoded twice, trailing commas, Python's True/False/None and
// single-quoted strings, keys without quotes, a raw line break or an escape JSON lacks (`\'`, `\d`) inside a string, the
// same object sent twice, a stray `}` or `]` after the whole object (`{"path":"a.txt"}}`, a Qwen habit:
// langchain-qwq#30), an empty `{}` before or after it (a server's first argument delta). What has two meanings (two different objects, a word that is no literal,
// an unclosed object: a call the output limit cut off) is not guessed at: the error says why and
// where. Pure; never throws.

export type ReadArguments = { args: Record<string, unknown>; repaired: boolean } | { error: string };

/** How much of the text around a problem the error quotes. */
const NEAR_CHARS = 24;

/** `text` as a call's arguments: "" is `{}`; `repaired` when it was not strict JSON of an object. */
export function readArguments(text: string): ReadArguments {
  const trimmed = text.trim();
  if (trimmed === "") return { args: {}, repaired: false };
  let strict: string;
  try {
    return asObject(JSON.parse(trimmed), false);
  } catch (e) {
    strict = e instanceof Error ? e.message : String(e);
  }
  const body = trimmed.replace(FENCE, "$1").trim();
  const read = lenientValues(body);
  if ("error" in read) return { error: `not JSON (${strict}): ${read.error}` };
  // `{}{"path":…}`: an empty object beside the real one adds nothing to it
  const filled = read.values.filter((v) => v !== "{}");
  const [first, ...rest] = filled.length > 0 ? filled : read.values;
  if (first === undefined) return { error: "no JSON object in them" };
  if (rest.some((v) => v !== first)) return { error: `${rest.length + 1} different JSON values one after another, not one object` };
  return asObject(JSON.parse(first), true);
}

/** What readCallArguments read of each call, with the text it read: a history's calls are read again for every request. */
const readOf = new WeakMap<object, { text: string; read: ReadArguments }>();

/**
 * readArguments of `call.arguments`, read once per call object (a repaired 300 KB write_file took
 * ~280 ms to read again for every request). The result is shared: do not change it.
 */
export function readCallArguments(call: { arguments: string }): ReadArguments {
  const known = readOf.get(call);
  if (known && known.text === call.arguments) return known.read;
  const read = readArguments(call.arguments);
  readOf.set(call, { text: call.arguments, read });
  return read;
}

/** ```json … ``` (or a bare ```) around the whole text. */
const FENCE = /^```[A-Za-z0-9_-]*[ \t]*\r?\n?([\s\S]*?)\r?\n?```$/;

/** `v` when it is an object, or a string holding one (encoded twice); else why not. */
function asObject(v: unknown, repaired: boolean): ReadArguments {
  if (typeof v === "string") {
    try {
      const inner: unknown = JSON.parse(v);
      if (isObject(inner)) return { args: inner, repaired: true };
    } catch {}
    return { error: `expected a JSON object, got a string` };
  }
  if (isObject(v)) return { args: v, repaired };
  return { error: `expected a JSON object, got ${v === null ? "null" : Array.isArray(v) ? "an array" : `a ${typeof v}`}` };
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** Escapes JSON has: anything else after a backslash in a string is taken literally. */
const JSON_ESCAPES = new Set(['"', "\\", "/", "b", "f", "n", "r", "t", "u"]);
/** A number or a bare word, where the reading stands (sticky: no copy of the rest of the text per word). */
const WORD = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|[A-Za-z_]\w*/y;
const COLON = /\s*:/y;
/** Only closing brackets and whitespace, from where the reading stands to the end. */
const CLOSERS_TO_END = /[\s}\]]*$/y;
const WORDS: Record<string, string> = { true: "true", false: "false", null: "null", True: "true", False: "false", None: "null" };

/**
 * The top-level JSON values `text` holds, each as strict JSON text, read leniently (the slips
 * above); or where it stops making sense. Only whitespace may part two values; closing brackets
 * with nothing but whitespace after them end the reading after a whole value.
 */
function lenientValues(text: string): { values: string[] } | { error: string } {
  const values: string[] = [];
  let out = "";
  const open: string[] = [];
  let i = 0;
  const fail = (why: string) => {
    const near = text.slice(Math.max(0, i - NEAR_CHARS), i + NEAR_CHARS).replace(/\s+/g, " ");
    return { error: `${why} at character ${i + 1} (near ${JSON.stringify(near)})` };
  };
  while (i < text.length) {
    const ch = text[i]!;
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    if (ch === '"' || ch === "'") {
      const s = readString(text, i);
      if (s === undefined) return fail("a string that does not end");
      if ("bad" in s) return fail(s.bad);
      out += JSON.stringify(s.value);
      i = s.end;
    } else if (ch === "{" || ch === "[") {
      open.push(ch === "{" ? "}" : "]");
      out += ch;
      i++;
    } else if (ch === "}" || ch === "]") {
      CLOSERS_TO_END.lastIndex = i;
      // a bracket too many after a whole value (the model closed it twice): the value is whole, it means nothing more
      if (open.length === 0 && values.length > 0 && CLOSERS_TO_END.test(text)) break;
      if (open.pop() !== ch) return fail(`an unmatched ${ch}`);
      out = out.replace(/,$/, "") + ch; // a trailing comma
      i++;
    } else if (ch === "," || ch === ":") {
      if (open.length === 0) return fail(`a ${ch} outside any object`);
      out += ch;
      i++;
    } else {
      WORD.lastIndex = i;
      const word = WORD.exec(text)?.[0];
      if (word === undefined) return fail(`an unexpected ${JSON.stringify(ch)}`);
      COLON.lastIndex = i + word.length;
      const key = /^[A-Za-z_]/.test(word) && COLON.test(text); // `{path: "a"}`: a key without quotes
      const literal = key ? JSON.stringify(word) : /^[A-Za-z_]/.test(word) ? WORDS[word] : word;
      if (literal === undefined) return fail(`the word ${JSON.stringify(word)}, which is no JSON value`);
      out += ` ${literal}`; // apart from a word before it: `1 2` must not read as 12
      i += word.length;
    }
    if (open.length === 0 && out !== "") {
      values.push(out);
      out = "";
    }
  }
  if (open.length > 0) return fail(`an object or array that does not end (${open.length} still open)`);
  // what the lenient reading produced must be JSON itself: a missing comma or colon is not repaired
  for (const v of values) {
    try {
      JSON.parse(v);
    } catch {
      return { error: "a comma or colon is missing or out of place" };
    }
  }
  return { values };
}

/** The string that starts at `text[start]` (a " or a '), its value and where it ends; undefined when it never does. */
function readString(text: string, start: number): { value: string; end: number } | { bad: string } | undefined {
  const quote = text[start]!;
  let value = "";
  for (let i = start + 1; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === quote) return { value, end: i + 1 };
    if (ch !== "\\") {
      value += ch; // a raw line break or tab in a string: what it plainly means
      continue;
    }
    const next = text[++i];
    if (next === undefined) return undefined;
    if (next === "u") {
      const hex = text.slice(i + 1, i + 5);
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) return { bad: "a \\u escape without four hex digits" };
      value += String.fromCharCode(Number.parseInt(hex, 16));
      i += 4;
    } else if (next === "'" || next === '"') value += next;
    else if (JSON_ESCAPES.has(next)) value += JSON.parse(`"\\${next}"`) as string;
    else value += `\\${next}`; // `\d` in a regex: JSON has no such escape, so the backslash was meant
  }
  return undefined;
}
