// x91 finding 3 through dist/hey: a run reads a.ts, reads other files, re-reads a.ts from line 50
// (answered with a note pointing at the first read) and goes on until a summary takes the first
// read but not the note. The run sends the note as the first read was; `hey -c` of the session
// must send it the same way — it sent "no longer in the conversation", which broke the prompt cache
// right after the summary and told the model it had lost lines it was shown.
import { beforeEach, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey } from "../helpers/e2e.ts";
import { eachTempDir, fileModelServer } from "../helpers/fixtures.ts";
import { systemOf, type ChatMessage, type ChatRequest } from "../helpers/model-server.ts";

const BUDGET = 6_000;
const FILLERS = 12;
let run: { reads: number; noted: boolean; big: boolean; summarized: boolean; after: boolean; resumed: boolean };
const model = fileModelServer(
  (req) => {
    if (systemOf(req).startsWith("You compress")) {
      run.summarized = true;
      return { text: "SUMMARY: a.ts and the f files were read." };
    }
    if (run.resumed) return { text: "ok" };
    if (run.reads === 0) {
      run.reads = 1;
      return { calls: [["read_file", { path: "a.ts" }]] };
    }
    // other files until the request nears the budget, then the re-read
    if (!run.noted && run.reads < FILLERS && chars(req) < BUDGET * 2.4) return { calls: [["read_file", { path: `f${run.reads++}.txt` }]] };
    if (!run.noted) {
      run.noted = true;
      return { calls: [["read_file", { path: "a.ts", offset: 50 }]] };
    }
    if (!run.big) {
      run.big = true; // a large read right after the note: over the budget, the summary keeps these two turns and takes the rest
      return { calls: [["read_file", { path: "big.txt" }]] };
    }
    if (!run.summarized && run.reads < 2 * FILLERS) return { calls: [["read_file", { path: `f${run.reads++}.txt` }]] };
    if (!run.after) {
      run.after = true;
      return { calls: [["read_file", { path: "f1.txt", limit: 3 }]] };
    }
    return { text: "done" };
  },
  { promptTokens: (body) => Math.ceil(body.length / 4) },
);
const chars = (req: ChatRequest) => JSON.stringify(req.messages).length;
const work = eachTempDir();
const state = eachTempDir();
beforeEach(() => {
  run = { reads: 0, noted: false, big: false, summarized: false, after: false, resumed: false };
  writeFileSync(join(work.path, "hey.toml"), `[agent]\nbudget_tokens = ${BUDGET}\nmax_turns = 60\n`);
  writeFileSync(join(work.path, "a.ts"), Array.from({ length: 120 }, (_, i) => `export const v${i + 1} = ${i + 1}; // a.ts line ${i + 1}`).join("\n") + "\n");
  writeFileSync(join(work.path, "big.txt"), `${Array.from({ length: 150 }, (_, k) => `big line ${k}: ${"data ".repeat(6)}`).join("\n")}\n`);
  for (let i = 1; i < 2 * FILLERS; i++)
    writeFileSync(join(work.path, `f${i}.txt`), `${Array.from({ length: 40 }, (_, k) => `f${i} line ${k}: ${"data ".repeat(6)}`).join("\n")}\n`);
});
const hey = (...args: string[]) =>
  runHey(["--base-url", model.baseUrl, "-m", "m", "--config", join(work.path, "hey.toml"), ...args], {
    cwd: work.path,
    env: { XDG_STATE_HOME: state.path, XDG_CONFIG_HOME: join(state.path, "config"), XDG_CACHE_HOME: join(state.path, "cache") },
  });
/** The result sent for the call that re-read a.ts from line 50. */
function reRead(req: ChatRequest): ChatMessage | undefined {
  const call = req.messages.flatMap((m) => m.tool_calls ?? []).find((c) => c.function.name === "read_file" && c.function.arguments.includes('"offset":50'));
  return call && req.messages.find((m) => m.role === "tool" && m.tool_call_id === call.id);
}

test("hey -c sends a re-read note whose earlier result a summary took as the run before it sent it", async () => {
  expect((await hey("-p", "read a.ts and the f files")).code).toBe(0);
  expect(run.summarized).toBe(true);
  const chats = model.requests.filter((r) => !systemOf(r).startsWith("You compress"));
  const last = chats.at(-1)!;
  expect(last.messages.some((m) => m.tool_calls?.some((c) => c.function.arguments === '{"path":"a.ts"}'))).toBe(false); // the summary took the first read
  expect(reRead(last)?.content).toContain("a.ts line 50"); // the note is sent as that read was

  run.resumed = true;
  const before = model.requests.length;
  expect((await hey("-c", "-p", "go on")).code).toBe(0);
  const first = model.requests[before]!;
  expect(reRead(first)?.content).toBe(reRead(last)!.content);
  // the whole prefix repeats, up to the last message, which carried that request's context line
  expect(first.messages.slice(0, last.messages.length - 1)).toEqual(last.messages.slice(0, -1));
});
