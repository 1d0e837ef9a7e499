// What "Can't redefine existing key" (@iarna/toml's words for a table or key given twice) means in
// the user's file: which table or key, and the line of the first one, so a newcomer who pastes the
// README's `[permission]` under their own sees where to put its keys. Pure.

const HEADER = /^\s*\[\s*([^[\]]+?)\s*\]\s*(#.*)?$/;
const KEY = /^\s*([A-Za-z0-9_.-]+|"[^"]*")\s*=/;

/** `a . "b"` → `a.b`: a table's or key's name as written, with its parts' spaces and quotes gone. */
const normal = (name: string) =>
  name
    .split(".")
    .map((p) => p.trim().replace(/^"(.*)"$/, "$1"))
    .join(".");

/**
 * The reason for a redefinition at 0-based `line` of `text`: `table [permission] is defined twice
 * (first at line 12): put its keys under that one`, or `max_turns is set twice in [agent] (first
 * at line 3)`; undefined when the line is neither a table header nor a key (the parser's words stay).
 */
export function redefinedReason(text: string, line: number): string | undefined {
  const lines = text.split(/\r?\n/);
  const at = lines[line] ?? "";
  const header = HEADER.exec(at);
  if (header) {
    const name = normal(header[1]!);
    const first = lines.findIndex((l, i) => i < line && normal(HEADER.exec(l)?.[1] ?? "") === name);
    if (first >= 0) return `table [${name}] is defined twice (first at line ${first + 1}): put its keys under that one`;
    const key = keyNaming(lines, line, name);
    return key
      ? `table [${name}] is already defined: line ${key.line + 1} sets ${key.path} = … (a key's value cannot be a table of its own as well)${key.path === "provider" ? "; the provider to use is [default] provider" : ""}`
      : `table [${name}] is already defined above (by a key or table that names it)`;
  }
  const key = KEY.exec(at);
  if (!key) return undefined;
  const name = normal(key[1]!);
  let table = "";
  let first = -1;
  for (let i = 0; i < line; i++) {
    const h = HEADER.exec(lines[i]!);
    if (h) {
      table = normal(h[1]!);
      first = -1; // a key of another table
    } else if (normal(KEY.exec(lines[i]!)?.[1] ?? "") === name) first = i;
  }
  const where = table ? ` in [${table}]` : "";
  return first >= 0 ? `${name} is set twice${where} (first at line ${first + 1})` : `${name} is already defined${where}`;
}

/** The key before 0-based `line` whose whole name (its table's and its own) is `name` or starts it: `provider = "x"` for [provider.x]. */
function keyNaming(lines: readonly string[], line: number, name: string): { line: number; path: string } | undefined {
  let table = "";
  for (let i = 0; i < line; i++) {
    const h = HEADER.exec(lines[i]!);
    if (h) table = normal(h[1]!);
    const key = h ? undefined : KEY.exec(lines[i]!);
    if (!key) continue;
    const path = table ? `${table}.${normal(key[1]!)}` : normal(key[1]!);
    if (name === path || name.startsWith(`${path}.`)) return { line: i, path };
  }
  return undefined;
}
