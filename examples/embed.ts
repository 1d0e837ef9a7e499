// hey inside another program (README "Embed"): an agent from hey's library with hey's tools, a
// permission list, its session saved to a file and its progress printed, running one task.
//
//   bun add hey            (or: npm install path/to/hey-0.1.0.tgz, from `npm pack` in hey's repository)
//   bun examples/embed.ts "which file here is the largest?"
//
// MODEL_BASE_URL, MODEL and MODEL_API_KEY name an OpenAI-compatible endpoint (default: a local
// Ollama with qwen3). Exits 0 when the model answered.
import { createAgent, createProvider, createSessionWriter, fanOut, newId, permissionCheck, textOf, type Output } from "hey";

const task = process.argv.slice(2).join(" ") || "Which file in this directory is the largest? Answer with its name.";
const provider = await createProvider({
  protocol: "openai",
  baseUrl: process.env.MODEL_BASE_URL ?? "http://127.0.0.1:11434/v1",
  model: process.env.MODEL ?? "qwen3",
  apiKey: process.env.MODEL_API_KEY,
});

// every event of the run is also an entry of a JSONL session file, as hey's own sessions are
const session = createSessionWriter({ dir: ".sessions", id: newId(), cwd: process.cwd(), version: "embed-example", warn: (m) => console.error(m) });
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
});
const result = await agent.send(task, new AbortController().signal);
session.close();

const last = agent.messages.at(-1);
console.log(last && last.role === "assistant" ? textOf(last) : `(no answer: ${result.error?.message ?? result.stop})`);
console.error(`${result.turns} requests, ${result.usage.input} tokens in, ${result.usage.output} out; session in ${session.path}`);
process.exit(result.stop === "end" ? 0 : 1);
