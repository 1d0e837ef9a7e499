// A model that behaves like one for the self-evolution loop (SPEC §0, §12): asked to save a
// skill, it writes one with write_file; asked for a greeting, it looks for a matching skill in
// the system prompt's list, reads that file with read_file and answers as the file says. With no
// skill listed it answers plainly — so a test sees whether the skill was listed, read and followed.
import { lastUserText, systemOf, textOf, type ChatRequest, type Turn } from "./model-server.ts";

export const SKILL_NAME = "greet-pirate";
export const SKILL_PATH = `.hey/skills/${SKILL_NAME}/SKILL.md`;
export const SKILL_ANSWER = "Ahoy, matey! (the greet-pirate skill)";
export const PLAIN_ANSWER = "Hello.";
export const SKILL_FILE = `---
name: ${SKILL_NAME}
description: How to greet the user. Use it whenever the user asks for a greeting.
---

# Greeting

Reply with exactly: ${SKILL_ANSWER}
`;

export function skillModel(req: ChatRequest): Turn {
  const last = req.messages.at(-1)!;
  if (last.role === "tool") {
    const followed = /Reply with exactly: (.+)/.exec(textOf(last));
    return { text: followed ? followed[1]!.trim() : "Saved the skill." };
  }
  const ask = lastUserText(req);
  if (/save a skill/i.test(ask)) return { calls: [["write_file", { path: SKILL_PATH, content: SKILL_FILE }]] };
  if (/greet/i.test(ask)) {
    const listed = /^- ([a-z0-9-]+): (.*greeting.*) \((.+)\)$/m.exec(systemOf(req));
    return listed ? { calls: [["read_file", { path: listed[3] }]] } : { text: PLAIN_ANSWER };
  }
  return { text: "ok" };
}
