// The tool list as the context estimate and the prompt cache's check count it: its JSON, 10-50 KB
// with MCP servers, made once per tool list instead of two or three times per request (s51). The
// list is rebuilt for every request (each tool wrapped anew), but from the same names, descriptions
// and schemas until /reload, an MCP server's tools, a skill or the model change: the text is kept
// while every tool has the same fields holding the same values. A schema object is compared as an
// object, not by what it holds: hey never changes one in place, it makes a new one. Pure.

let last: { values: unknown[]; text: string } | undefined;

/** JSON.stringify(tools), kept while the tools' fields hold the same values (their functions, which JSON leaves out, aside). */
export function toolsText(tools: readonly object[]): string {
  const values = fieldsOf(tools);
  if (last && last.values.length === values.length && last.values.every((v, i) => v === values[i])) return last.text;
  const text = JSON.stringify(tools);
  last = { values, text };
  return text;
}

/** Each tool's field names and values in order, functions left out as JSON leaves them out. */
function fieldsOf(tools: readonly object[]): unknown[] {
  const values: unknown[] = [tools.length];
  for (const tool of tools) {
    const fields = tool as Record<string, unknown>;
    for (const name in fields) if (typeof fields[name] !== "function") values.push(name, fields[name]);
    values.push(undefined); // where one tool's fields end: a field moved to the next tool is a change
  }
  return values;
}
