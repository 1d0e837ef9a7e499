// A model API's 400 that refuses a request over one tool's schema names the tool by its place in
// the request, or by its name: Gemini `tools[0].function_declarations[23].parameters.properties
// [languages].items: field predicate failed`, OpenAI `tools[23].function.parameters …` or `Invalid
// schema for function 'NAME'`, Anthropic `tools.23.custom.input_schema …`. The user had to count
// to 23 to find which server's tool it was, and every request failed alike. This finds the tools a
// refusal names, for tool-cap.ts to leave them out and say which, and the cap a refusal of the
// tools' count states. Pure.

/** The names of `tools` (a request's, in its order) that a refusal's `message` names, in the order named; none when it names none. */
export function refusedTools(message: string, tools: readonly { name: string }[]): string[] {
  const found: string[] = [];
  const add = (name: string | undefined) => name !== undefined && !found.includes(name) && found.push(name);
  const at = (i: string) => tools[Number(i)]?.name;
  for (const m of message.matchAll(/function_declarations\[(\d+)\]/g)) add(at(m[1]!)); // Gemini: all in tools[0]
  if (found.length === 0) for (const m of message.matchAll(/\btools(?:\.(\d+)\.|\[(\d+)\])/g)) add(at(m[1] ?? m[2]!)); // Anthropic, OpenAI
  for (const m of message.matchAll(/[Ii]nvalid schema for function '([^']+)'/g)) add(tools.find((t) => t.name === m[1])?.name);
  return found;
}

/**
 * The most tools an endpoint's refusal of a request's count says it takes, undefined when it says
 * none: OpenAI's `Invalid 'tools': array too long. Expected an array with maximum length 128`,
 * Gemini's `At most 512 function declarations can be specified`.
 */
export function statedToolCap(message: string): number | undefined {
  const m = /'?tools'?: array too long\. Expected an array with maximum length (\d+)/.exec(message) ?? /At most (\d+) function declarations/.exec(message);
  return m ? Number(m[1]) : undefined;
}

/** The API's words about the schema, shortened: the first line that names a tool, at most 240 characters. */
export function refusalWords(message: string): string {
  const names = /function_declarations\[|\btools[.[]|schema for function/;
  const line = message.split("\n").find((l) => names.test(l)) ?? message;
  const star = line.lastIndexOf("* ", Math.max(0, line.search(names))); // Gemini's list of problems: from the one that names it
  const words = (star >= 0 ? line.slice(star + 2) : line).trim();
  return words.length > 240 ? `${words.slice(0, 239)}…` : words;
}
