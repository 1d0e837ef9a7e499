// A session file of `cwd` well over a small budget: a first prompt, then eight reads of 3 KB files
// and a last answer — the same history whatever `id`, for tests of what a resumed run compacts.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Message } from "../../src/kernel/ir.ts";
import { toLine } from "../../src/sessions/format.ts";
import { systemOf, type ChatRequest, type Turn } from "./model-server.ts";
import { recordEarlierRun } from "./earlier-run.ts";

/** Writes it as `<stateHome>/hey/sessions/<id>.jsonl`, the file `hey --resume ID` opens; `task`: its first prompt. */
export function writeReadingSession(stateHome: string, cwd: string, id: string, task = "refactor the parser"): void {
  const dir = join(stateHome, "hey", "sessions");
  mkdirSync(dir, { recursive: true });
  recordEarlierRun(stateHome); // the approvals record the run that wrote it left beside it
  const lines = [toLine({ type: "header", id, cwd, created: new Date().toISOString(), version: "0.1.0" })];
  const add = (m: Message) => lines.push(toLine({ type: "message", message: m }));
  add({ id: "m-first", role: "user", content: [{ type: "text", text: task }] });
  for (let i = 0; i < 8; i++) {
    const call = { id: `read_${i}`, name: "read_file", arguments: JSON.stringify({ path: `src/f${i}.ts` }) };
    add({ id: `m-call-${i}`, role: "assistant", content: [{ type: "text", text: `reading f${i}` }], toolCalls: [call] });
    add({
      id: `m-result-${i}`,
      role: "tool",
      toolCallId: call.id,
      toolName: "read_file",
      isError: false,
      content: [{ type: "text", text: `file ${i}: ${"x".repeat(3000)}` }],
    });
  }
  add({ id: "m-last", role: "assistant", content: [{ type: "text", text: "done reading" }] });
  writeFileSync(join(dir, `${id}.jsonl`), lines.join(""));
}

/** The model such a resume talks to: it answers "Continuing.", and summarizes when asked — unless `refuse()`, then the summary request fails. */
export function summarizingModel(refuse: () => boolean): (req: ChatRequest) => Turn {
  return (req) => {
    if (!systemOf(req).startsWith("You compress")) return { text: "Continuing." };
    if (refuse()) throw new Error("no summaries today");
    return { text: "Summary: read f0 to f7." };
  };
}
