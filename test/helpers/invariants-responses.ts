// The replay server's tool-call invariant for OpenAI Responses request bodies, like
// openaiChatToolPairs in replay-server.ts: the API answers 400 "No tool output found for function
// call call_…" when a call is left open.
import type { InvariantCheck } from "./replay-server.ts";

type Loose = Record<string, unknown>;
const isObject = (v: unknown): v is Loose => typeof v === "object" && v !== null;

/** Each `function_call` item's call_id has exactly one later `function_call_output`, and every output answers an earlier call. */
export const responsesToolPairs: InvariantCheck = {
  name: "openai-responses",
  applies: (path) => path.endsWith("/responses"),
  check(body) {
    const input = isObject(body) && Array.isArray(body.input) ? body.input : [];
    const answers = new Map<string, number>();
    const problems: string[] = [];
    for (const item of input) {
      if (!isObject(item)) continue;
      if (item.type === "function_call") {
        const id = String(item.call_id);
        if (answers.has(id)) problems.push(`call_id ${id} is used by two function calls`);
        answers.set(id, 0);
      }
      if (item.type === "function_call_output") {
        const id = String(item.call_id);
        const n = answers.get(id);
        if (n === undefined) problems.push(`function_call_output ${id} answers no earlier function call`);
        else answers.set(id, n + 1);
      }
    }
    for (const [id, n] of answers) if (n !== 1) problems.push(`function call ${id} has ${n} outputs, expected exactly 1`);
    return problems;
  },
};
