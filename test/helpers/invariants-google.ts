// The Gemini tool-call invariant for the replay server: every model turn's function calls are
// answered, in the very next user content, by exactly as many function responses with the same
// names in the same order (and the same ids where the calls have ids). The API rejects anything
// else ("Please ensure that the number of function response parts is equal to the number of
// function call parts of the function call turn"). And every function name is one the API takes:
// a letter or an underscore first, then letters, digits, `_.:-`, at most 64 (its 400 "Invalid
// function name").
import type { InvariantCheck } from "./replay-server.ts";

type Loose = Record<string, unknown>;
const isObject = (v: unknown): v is Loose => typeof v === "object" && v !== null;
const partsOf = (c: unknown): Loose[] => (isObject(c) && Array.isArray(c.parts) ? c.parts.filter(isObject) : []);
/** The `functionCall` (or `functionResponse`) objects of a content's parts. */
const all = (c: unknown, key: "functionCall" | "functionResponse"): Loose[] => partsOf(c).flatMap((p): Loose[] => (isObject(p[key]) ? [p[key]] : []));
const VALID_NAME = /^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$/;
/** The names of the request's function declarations. */
const declared = (body: Loose): unknown[] =>
  (Array.isArray(body.tools) ? body.tools.filter(isObject) : []).flatMap((t) =>
    Array.isArray(t.functionDeclarations) ? t.functionDeclarations.filter(isObject).map((d) => d.name) : [],
  );

export const googleToolPairs: InvariantCheck = {
  name: "gemini",
  applies: (path) => /\/models\/[^/]+:(stream)?[gG]enerateContent\b/.test(path),
  check(body) {
    const contents = isObject(body) && Array.isArray(body.contents) ? body.contents : [];
    const problems: string[] = [];
    const sentNames = [
      ...(isObject(body) ? declared(body) : []),
      ...contents.flatMap((c) => [...all(c, "functionCall"), ...all(c, "functionResponse")].map((x) => x.name)),
    ];
    for (const name of sentNames) if (typeof name !== "string" || !VALID_NAME.test(name)) problems.push(`invalid function name ${JSON.stringify(name)}`);
    const answered = new Set<number>(); // indexes of user contents that answer the model turn before them
    contents.forEach((c, i) => {
      const calls = all(c, "functionCall");
      if (!isObject(c) || c.role !== "model" || calls.length === 0) return;
      const next = contents[i + 1];
      const responses = isObject(next) && next.role === "user" ? all(next, "functionResponse") : [];
      if (responses.length > 0) answered.add(i + 1);
      const names = (xs: Loose[]) => xs.map((x) => String(x.name)).join(", ");
      if (names(calls) !== names(responses)) problems.push(`model content ${i} calls [${names(calls)}] but content ${i + 1} answers [${names(responses)}]`);
      calls.forEach((call, k) => {
        const id = responses[k]?.id;
        if (call.id !== undefined && id !== call.id) problems.push(`function call ${String(call.id)} is answered by id ${String(id)}`);
        if (call.id === undefined && id !== undefined) problems.push(`function response ${String(id)} answers a call that has no id`);
      });
    });
    contents.forEach((c, i) => {
      if (all(c, "functionResponse").length > 0 && !answered.has(i)) problems.push(`content ${i} has function responses but follows no function call turn`);
    });
    return problems;
  },
};
