// The budget's last resort (budget.ts stage 5): when what is left once everything else was left out
// or cut — the first message, the latest one and the newest answer — is still over the budget (a
// 60 KB answer of a cloud model, continued with `hey -c -m` on a local model of 8k tokens), the long
// texts among them are cut to their start and end, as a pasted first prompt is (passes.ts
// trimFirstPrompt). The latest user message is never cut: the model needs all of it to answer.
// Each cut is reckoned from the text and the budget alone (passes.ts textKeep), never from the
// estimate's ratio, so every request cuts at the same place and the provider's cached prefix holds.
// Pure.
import { textOf, type ContentBlock, type Message } from "../kernel/ir.ts";
import { headAndTail, SUMMARY_ID, textKeep } from "./passes.ts";

/** Shares of the budget a long text is cut to, tried in turn: most of a long answer stays when that is enough. */
export const TEXT_SHARES = [0.25, 0.05] as const;

/** Whether `m` is a text this stage may cut: a user or assistant message, not a summary, not `latest`. */
export function cuttable(m: Message, latest: Message | undefined): boolean {
  return (m.role === "user" || m.role === "assistant") && m !== latest && !m.id.startsWith(SUMMARY_ID);
}

/** The characters `m`'s text keeps at `share` of the budget; its length (nothing to cut) when it is short enough. */
export function textCutKeep(m: Message, share: number, budgetTokens: number): number {
  const text = textOf(m);
  const keep = textKeep(text, share * budgetTokens);
  return text.length > keep * 1.2 ? keep : text.length; // cutting saves too little to be worth a note
}

const cuts = new WeakMap<Message, { keep: number; out: Message }>();

/**
 * `m` with its text cut to `keep` characters (headAndTail), in the place of its first text part;
 * its thinking, images and tool calls kept. `m` itself when its text is no longer. Memoized: the
 * same object comes back for the same message and size, so unchanged requests compare cheaply.
 */
export function cutText(m: Message, keep: number): Message {
  const memo = cuts.get(m);
  if (memo?.keep === keep) return memo.out;
  const text = textOf(m);
  if (text.length <= keep) return m;
  const first = m.content.findIndex((p) => p.type === "text");
  const content = m.content.flatMap((p, i): ContentBlock[] => (p.type !== "text" ? [p] : i === first ? [{ type: "text", text: headAndTail(text, keep) }] : []));
  const out: Message = { ...m, content };
  cuts.set(m, { keep, out });
  return out;
}
