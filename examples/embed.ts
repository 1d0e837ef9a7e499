// hey inside another program (README "Embed"): an agent from hey's library with hey's tools, a
// permission list, its session saved to a file and its progress printed, running one task.
//
//   bun add path/to/hey-0.1.0.tgz     (`npm pack` in hey's repository makes it: the package is
//                                      private, not published: `bun add hey` would not get this one)
//   bun examples/embed.ts "which file here is the largest?"
//   bun examples/embed.ts -c "and the smallest?"     (goes on with the latest session, in a new process)
//
// MODEL_BASE_URL, MODEL and MODEL_API_KEY name an OpenAI-compatible endpoint (default: a local
// Ollama with qwen3). Exits 0 when the model answered.
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { createAgent, createProvider, createSessionWriter, fanOut, newId, permissionCheck, resumeSession, textOf, type Output } from "hey";

const args = process.argv.slice(2);
const again = args[0] === "-c";
const task = args.slice(again ? 1 : 0).join(" ") || "Which file in this directory is the largest? Answer with its name.";
const provider = await createProvider({
  protocol: "openai",
  baseUrl: process.env.MODEL_BASE_URL ?? "http://127.0.0.1:11434/v1",
  model: process.env.MODEL ?? "qwen3",
  apiKey: process.env.MODEL_API_KEY,
});

// every event of the run is also an entry of a JSONL session file, as hey's own sessions are; -c
// goes on with the latest one (ids sort by time) as `hey -c` would: its summaries stand in for
// what they cover, and this process is its one writer until the writer closes. With none yet, -c
// starts a new one and says so, as `hey -c` does. A run that gets no answer (the server down)
// saves nothing, so the next -c does not go on from an unanswered message.
const latest = again
  ? (existsSync(".sessions") ? readdirSync(".sessions") : [])
      .filter((f) => f.endsWith(".jsonl"))
      .sort()
      .at(-1)
  : undefined;
if (again && !latest) console.error("no earlier session in .sessions/; starting a new one");
const resume = latest ? resumeSession(join(".sessions", latest), process.cwd()) : undefined;
const session = createSessionWriter({
  dir: ".sessions",
  id: resume?.header.id ?? newId(),
  existing: resume !== undefined,
  cwd: process.cwd(),
  version: "embed-example",
  warn: (m) => console.error(m),
});
const progress: Output = {
  emit(event) {
    if (event.type === "tool_call") console.error(`→ ${event.name} ${event.arguments}`);
    if (event.type === "tool_result") console.error(`  ${event.ok ? "✓" : "✗"} ${event.output.split("\n", 1)[0]}`);
    if (event.type === "error") console.error(`error: ${event.message}`);
  },
};

const agent = createAgent({
  provider,
  output: fanOut([progress, session]),
  // the model may look, not change: it is offered only bash, read_file and grep, and a command
  // other than these comes back to it as refused
  permission: permissionCheck({ allow: ["read_file", "grep", "bash: ls *", "bash: wc *", "bash: du *"] }),
  resume,
});
const result = await agent.send(task, new AbortController().signal);
session.close();

const last = agent.messages.at(-1);
console.log(last && last.role === "assistant" ? textOf(last) : `(no answer: ${result.error?.message ?? result.stop})`);
console.error(`${result.turns} requests, ${result.usage.input} tokens in, ${result.usage.output} out; session in ${session.path}`);
process.exit(result.stop === "end" ? 0 : 1);
