// x106 finding 2, through dist/hey in a real terminal: a `/reload` that adds a skill rewrote the
// system prompt, so every byte after the tools was new to the provider's prompt cache (a 60k-token
// session re-billed to add a three-line skill). Now the system prompt stays byte-identical, the
// request after the reload extends the one before it, and the model keeps the skill's line in the
// conversation; the next run (`hey -c`) within the cache's lifetime sends the same prompt, the note standing.
import { expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey } from "../helpers/e2e.ts";
import { startModelServer, systemOf, textOf, type ChatRequest, type ModelServer } from "../helpers/model-server.ts";
import { projectTerms, say } from "./repl-helpers.ts";

setDefaultTimeout(120_000); // the first test may build dist/hey

const terms = projectTerms();
const skill = (name: string, description: string) => {
  const file = join(terms.home.path, ".config", "hey", "skills", name, "SKILL.md");
  mkdirSync(join(file, ".."), { recursive: true });
  writeFileSync(file, `---\nname: ${name}\ndescription: ${description}\n---\nSteps.\n`);
};

/** The bytes two requests share from their start, in the order a provider caches them (the tools, then the messages). */
function sharedBytes(a: ChatRequest, b: ChatRequest): number {
  const wire = (r: ChatRequest) => JSON.stringify([(r as { tools?: unknown }).tools, r.messages]);
  const [x, y] = [wire(a), wire(b)];
  let n = 0;
  while (n < x.length && n < y.length && x[n] === y[n]) n++;
  return n;
}

/** The tools and the messages but the last (whose tail carries the context line) of a request, as sent. */
const allButLast = (r: ChatRequest) => JSON.stringify([(r as { tools?: unknown }).tools, r.messages.slice(0, -1)]);

test("/reload that adds a skill: the next request extends the last one, system prompt unchanged, and the skill's line stays in the conversation", async () => {
  let model: ModelServer | undefined;
  try {
    const long = "A long answer that a real session would hold many of. ".repeat(60); // 3.3 KB of conversation
    model = startModelServer((req) => ({ text: textOf(req.messages.at(-1)).includes("first question") ? long : "Fine." }));
    skill("lint", "Lint the code.");
    const term = await terms.start(model);
    await say(term, "first question", "A long answer");
    await say(term, "second question", "Fine.");
    skill("shout", "Shout the answer in capitals.");
    await say(term, "/reload", "+ skill shout");
    await say(term, "third question", "Fine.");
    await say(term, "fourth question", "Fine.");
    const [, before, after, later] = model.requests;
    expect(systemOf(after!)).toBe(systemOf(before!)); // before the fix: the list gained `- shout: …`
    // all that the request before the reload sent is shared, but its last message's tail; before the fix the
    // shared part ended in the system prompt, and the 3.3 KB answer and all after it were new to the cache
    expect(sharedBytes(before!, after!)).toBeGreaterThan(allButLast(before!).length);
    const kept = "+ skill shout: Shout the answer in capitals. (~/.config/hey/skills/shout/SKILL.md)";
    expect(textOf(after!.messages.at(-1))).toContain(kept);
    expect(later!.messages.filter((m) => m.role === "user" && textOf(m).includes(kept))).toHaveLength(1); // kept, not one-shot
    expect(sharedBytes(after!, later!)).toBeGreaterThan(allButLast(after!).length);
    await term.type("/quit");
    await term.keys("Enter");
    await term.waitFor(/\[exit 0\]/);
    // the next run within the cache's lifetime: the same system prompt, the note kept in the history still stands (x4 #3)
    const next = await runHey(["-c", "-p", "fifth question"], { cwd: terms.project.path, env: { HOME: terms.home.path } });
    expect(next.code).toBe(0);
    const fifth = model.requests.at(-1)!;
    expect(systemOf(fifth)).toBe(systemOf(before!));
    expect(sharedBytes(later!, fifth)).toBeGreaterThan(allButLast(later!).length);
    expect(textOf(fifth.messages.at(-1))).not.toContain("[hey: the skills"); // nothing changed since the note: nothing to tell
  } finally {
    model?.stop();
  }
});
