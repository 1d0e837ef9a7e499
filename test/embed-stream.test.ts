// An embedded agent's run read as a stream (src/embed-stream.ts through src/lib.ts createAgent):
// its events then its result, each stream hearing its own run, and a program that stops reading
// early aborting the run it started instead of leaving it to run on unseen.
import { expect, test } from "bun:test";
import { createAgent, createProvider, STREAM_LEFT, type AgentEvent, type StreamItem, type Tool } from "../src/lib.ts";
import { startModelServer } from "./helpers/model-server.ts";
import { gate } from "./helpers/wait.ts";

/** A model that calls `tool` once for each user message but `two`, then answers with the message's text. */
const callsOnce = (tool: string) =>
  startModelServer((req) => {
    const last = req.messages.at(-1)!;
    if (last.role === "user" && last.content !== "two") return { calls: [[tool, {}]] };
    const asked = req.messages.filter((m) => m.role === "user").at(-1)!.content as string;
    return { text: `answer to ${asked}` };
  });
const types = (items: StreamItem[]) => items.map((i) => i.type).filter((t) => t !== "usage" && t !== "debug" && t !== "turn_start");
const echo: Tool = { name: "echo", description: "", parameters: { type: "object" }, run: async () => ({ output: "echoed" }) };

test("stream yields the run's events as output gets them, then its result, and ends", async () => {
  const model = callsOnce("echo");
  try {
    const provider = await createProvider({ protocol: "openai", baseUrl: model.baseUrl, model: "m" });
    const heard: AgentEvent[] = [];
    const agent = createAgent({ provider, tools: [echo], output: { emit: (e) => void heard.push(e) } });
    const items: StreamItem[] = [];
    for await (const item of agent.stream("one")) items.push(item);
    expect(types(items)).toEqual(["message", "message", "tool_call", "tool_start", "tool_result", "message", "text_delta", "message", "done", "result"]);
    const last = items.at(-1)!;
    expect(last.type === "result" && last.result.stop).toBe("end");
    expect(items.filter((i) => i.type !== "result")).toEqual(heard.filter((e) => e.type !== "model")); // the program's output heard the same
  } finally {
    model.stop();
  }
});

test("two streams asked for at once each hear their own run only, in the order asked", async () => {
  const model = callsOnce("echo");
  try {
    const provider = await createProvider({ protocol: "openai", baseUrl: model.baseUrl, model: "m" });
    const agent = createAgent({ provider, tools: [echo] });
    const read = async (message: string) => {
      const items: StreamItem[] = [];
      for await (const item of agent.stream(message)) items.push(item);
      return items;
    };
    const [first, second] = await Promise.all([read("one"), read("two")]);
    const texts = (items: StreamItem[]) => items.flatMap((i) => (i.type === "text_delta" ? [i.text] : []));
    expect(texts(first)).toEqual(["answer to one"]);
    expect(texts(second)).toEqual(["answer to two"]);
    expect(agent.messages.filter((m) => m.role === "user")).toHaveLength(2);
  } finally {
    model.stop();
  }
});

test("a program that leaves the loop early aborts its run: the tool call is cut, no request follows, the next send goes on from a whole history", async () => {
  const started = gate();
  let cut: string | undefined;
  const slow: Tool = {
    name: "slow",
    description: "",
    parameters: { type: "object" },
    run: (_, ctx) =>
      new Promise((resolve) => {
        started.open();
        ctx.signal.addEventListener("abort", () => ((cut = String(ctx.signal.reason)), resolve({ output: "stopped", isError: true })), { once: true });
      }),
  };
  const model = callsOnce("slow");
  try {
    const provider = await createProvider({ protocol: "openai", baseUrl: model.baseUrl, model: "m" });
    const agent = createAgent({ provider, tools: [slow] });
    for await (const item of agent.stream("one")) {
      if (item.type === "tool_start") {
        await started.passed;
        break; // leaving the loop: before, the run went on with no one reading it, the tool never told
      }
    }
    expect(cut).toBe(STREAM_LEFT); // aborted, and the run had ended by the time the loop was left
    expect(model.requests).toHaveLength(1);
    const roles = agent.messages.map((m) => m.role);
    expect(roles.slice(0, 3)).toEqual(["user", "assistant", "tool"]); // the call has its result
    const result = await agent.send("two", new AbortController().signal);
    expect(result.stop).toBe("end");
    expect(model.requests).toHaveLength(2);
  } finally {
    model.stop();
  }
});
