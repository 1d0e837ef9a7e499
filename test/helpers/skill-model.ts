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
    const listed = skillsOffered(req).find((s) => /greeting/.test(s.description));
    return listed ? { calls: [["read_file", { path: listed.path }]] } : { text: PLAIN_ANSWER };
  }
  return { text: "ok" };
}

/**
 * The skills a request offers, as a model reads them: the system prompt's list (each folder's
 * heading, then `- NAME: description`, or `- NAME (FILE): description`), then the lines of the
 * notes a skills-only /reload left in the conversation (`+ skill NAME: description (PATH)`).
 */
export function skillsOffered(req: ChatRequest): { name: string; description: string; path: string }[] {
  const found = new Map<string, { name: string; description: string; path: string }>();
  let folder = "";
  for (const line of systemOf(req).split("\n")) {
    const heading = /^(\S.*)\/:$/.exec(line);
    if (heading) folder = heading[1]!;
    const entry = /^- ([a-z0-9-]+)(?: \((.+?)\))?: (.*)$/.exec(line);
    if (entry && folder) found.set(entry[1]!, { name: entry[1]!, description: entry[3]!, path: `${folder}/${entry[2] ?? `${entry[1]}/SKILL.md`}` });
  }
  for (const m of req.messages)
    for (const line of m.role === "user" ? textOf(m).split("\n") : []) {
      const kept = /^[+~] skill ([a-z0-9-]+): (.*) \((.+)\)\]?$/.exec(line);
      if (kept) found.set(kept[1]!, { name: kept[1]!, description: kept[2]!, path: kept[3]! });
      const gone = /^- skill ([a-z0-9-]+): removed/.exec(line);
      if (gone) found.delete(gone[1]!);
    }
  return [...found.values()];
}
