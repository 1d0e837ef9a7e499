// The compress tool (SPEC §10): the model replaces a finished stretch of its own context with a
// summary. The tool only validates and answers; the replacement itself is derived from the call
// in the history by buildContext (context/view.ts), so the session file alone reproduces it.
import type { Message } from "../kernel/ir.ts";
import { type Tool, toolError } from "../kernel/tool.ts";
import { checkCompressRange, compressArgs, DEFAULT_TOKENS_PER_CHAR, estimateTokens, PROTECT_TURNS, summaryMessage } from "../context/view.ts";
import { TOOL } from "../kernel/tool-names.ts";

/** What the compress tool's answer adds: the range may show as it was for a while (context/view.ts rewriteUpTo), and need not be compressed again. */
export const PENDING_NOTE =
  "they may show as they were until the prompt cache is rebuilt (rewriting them at once costs more than it saves): no need to compress them again";

/** `history` returns the conversation as it is when the call runs (its own assistant message last). */
export function createCompressTool(history: () => readonly Message[], protectTurns = PROTECT_TURNS): Tool {
  return {
    name: TOOL.compress,
    description:
      "Replace messages start_id..end_id (the [#xxxxx] ending tool results) with your summary; originals are kept. " +
      `Keep paths, line numbers, decisions, errors, open tasks. Refused: split turns, first/latest user message, last ${protectTurns} turns.`,
    parameters: {
      type: "object",
      properties: { start_id: { type: "string" }, end_id: { type: "string" }, summary: { type: "string" } },
      required: ["start_id", "end_id", "summary"],
    },
    exclusive: true, // it rewrites the context the other calls of its turn were made in
    run: async (args) => {
      const parsed = compressArgs(args);
      if ("error" in parsed) return toolError(`compress: ${parsed.error}`);
      const messages = history();
      const range = checkCompressRange(messages, parsed.start, parsed.end, protectTurns);
      if ("error" in range) return toolError(`compress: ${range.error}`);
      const from = messages.findIndex((m) => m.id === range.fromId);
      const to = messages.findIndex((m) => m.id === range.toId);
      const before = estimateTokens(messages.slice(from, to + 1), DEFAULT_TOKENS_PER_CHAR);
      const after = estimateTokens([summaryMessage({ ...range, text: parsed.summary })], DEFAULT_TOKENS_PER_CHAR);
      return { output: `compressed ${to - from + 1} messages (~${before} tokens → ~${after} tokens); ${PENDING_NOTE}` };
    },
  };
}
