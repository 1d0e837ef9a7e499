// The Anthropic Messages tool-call invariant for the replay server: what the API itself answers
// with a 400 (anthropic/error-400-tool-result-mismatch.json) when it is broken.
import type { InvariantCheck } from "./replay-server.ts";

type Loose = Record<string, unknown>;
const isObject = (v: unknown): v is Loose => typeof v === "object" && v !== null;
const blocksOf = (m: unknown): Loose[] => (isObject(m) && Array.isArray(m.content) ? m.content.filter(isObject) : []);

/**
 * Each `tool_use` id of an assistant message has exactly one `tool_result` in the NEXT message,
 * which is a user message whose tool results come before any other content; every
 * `tool_result` answers a `tool_use` of the message right before it; no id is used twice.
 */
export const anthropicToolPairs: InvariantCheck = {
  name: "anthropic-messages",
  applies: (path) => /\/messages(\?|$)/.test(path),
  check(body) {
    const messages: unknown[] = isObject(body) && Array.isArray(body.messages) ? body.messages : [];
    const problems: string[] = [];
    const seen = new Set<string>();
    messages.forEach((m, i) => {
      const role = isObject(m) ? m.role : undefined;
      const blocks = blocksOf(m);
      if (role === "assistant") {
        const uses = blocks.filter((b) => b.type === "tool_use").map((b) => String(b.id));
        const next = messages[i + 1];
        const answers =
          isObject(next) && next.role === "user"
            ? blocksOf(next)
                .filter((b) => b.type === "tool_result")
                .map((b) => String(b.tool_use_id))
            : [];
        for (const id of uses) {
          if (seen.has(id)) problems.push(`tool_use id ${id} is used twice`);
          seen.add(id);
          const n = answers.filter((a) => a === id).length;
          if (n !== 1) problems.push(`tool_use ${id} has ${n} tool_result blocks in the next user message, expected exactly 1`);
        }
      }
      if (role === "user") {
        const prev = messages[i - 1];
        const asked = new Set(
          isObject(prev) && prev.role === "assistant"
            ? blocksOf(prev)
                .filter((b) => b.type === "tool_use")
                .map((b) => String(b.id))
            : [],
        );
        let other = false;
        for (const b of blocks) {
          if (b.type !== "tool_result") {
            other = true;
            continue;
          }
          const id = String(b.tool_use_id);
          if (!asked.has(id)) problems.push(`tool_result ${id} answers no tool_use of the previous assistant message`);
          if (other) problems.push(`tool_result ${id} comes after other content in its user message`);
        }
      }
    });
    return problems;
  },
};

/**
 * The Messages API's 400s for an assistant turn that ends in thinking ("messages.N: The final block
 * in an assistant message cannot be `thinking`.") and for a turn without content ("messages.N: all
 * messages must have non-empty content except for the optional final assistant message"), in its words.
 */
export const anthropicTurnContent: InvariantCheck = {
  name: "anthropic-content",
  applies: anthropicToolPairs.applies,
  check(body) {
    const messages: unknown[] = isObject(body) && Array.isArray(body.messages) ? body.messages : [];
    return messages.flatMap((m, i) => {
      if (!isObject(m) || !Array.isArray(m.content)) return [];
      const last = blocksOf(m).at(-1);
      if (m.role === "assistant" && (last?.type === "thinking" || last?.type === "redacted_thinking"))
        return [`messages.${i}: The final block in an assistant message cannot be \`thinking\`.`];
      if (m.content.length === 0 && !(m.role === "assistant" && i === messages.length - 1))
        return [`messages.${i}: all messages must have non-empty content except for the optional final assistant message`];
      return [];
    });
  },
};
