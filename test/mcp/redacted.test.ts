// What an MCP server sends or causes after it connected carries no secret hey knows either: a
// server that stops later (its stderr tail), a call that fails with the token in its message, a
// result or a new tool list that holds it. (Failures to start, end to end: e2e/mcp-secrets.test.ts.)
import { expect, test } from "bun:test";
import { redactingConnect } from "../../src/mcp/redacted.ts";
import { CallError, ConnectError, type Connection, type ConnectHooks } from "../../src/mcp/server.ts";
import { serverSettings } from "../helpers/mcp.ts";

const TOKEN = "tok_live_5555abcdef";
const schema = { type: "object" as const, properties: {} };
const signal = new AbortController().signal;
const opts = { timeoutMs: 1000, signal };

test("a connected server's stop, failed calls, results and new lists reach hey with [redacted] for the token", async () => {
  const heard: string[] = [];
  let hooksGiven: ConnectHooks | undefined;
  const raw: Connection = {
    tools: [{ name: "echo", description: `uses ${TOKEN}`, inputSchema: schema }],
    prompts: [{ name: "p", description: `key ${TOKEN}`, arguments: [] }],
    instructions: `Call with ${TOKEN}.`,
    call: async (name) => {
      if (name === "fail") throw new CallError("auth", `token ${TOKEN} expired`);
      return { content: [{ type: "text", text: `you are ${TOKEN}` }] };
    },
    get: async () => ({ messages: [{ role: "user", content: { type: "text", text: TOKEN } }] }),
    close: async () => {},
  };
  const connect = redactingConnect(
    async (_s, hooks) => ((hooksGiven = hooks), raw),
    () => [TOKEN],
  );
  const c = await connect(
    serverSettings("s", { command: "x" }),
    {
      onClose: (why, stderr) => void heard.push(why, stderr),
      onTools: (tools) => void heard.push(tools[0]!.description ?? ""),
    },
    signal,
  );
  expect(c.tools[0]!.description).toBe("uses [redacted]");
  expect(c.prompts[0]!.description).toBe("key [redacted]");
  expect(c.instructions).toBe("Call with [redacted].");
  expect(JSON.stringify(await c.call("echo", {}, opts))).toContain("you are [redacted]");
  expect(JSON.stringify(await c.get({ prompt: "p", args: {} }, opts))).not.toContain(TOKEN);
  const failed = await c.call("fail", {}, opts).catch((e: unknown) => e);
  expect(failed).toBeInstanceOf(CallError);
  expect(failed).toMatchObject({ kind: "auth", message: "token [redacted] expired" });
  hooksGiven!.onTools([{ name: "echo", description: `now ${TOKEN}`, inputSchema: schema }]);
  hooksGiven!.onClose(`exited (${TOKEN})`, `panic: bad token ${TOKEN}`);
  expect(heard).toEqual(["now [redacted]", "exited ([redacted])", "panic: bad token [redacted]"]);
});

test("a failed start keeps its kind: a sign-in wanted stays one, with the token redacted", async () => {
  const connect = redactingConnect(
    async () => {
      throw new ConnectError(`HTTP 401 for Bearer ${TOKEN}`, `stderr ${TOKEN}`, true);
    },
    () => [TOKEN],
  );
  const e = await connect(serverSettings("s", { url: "http://127.0.0.1:1/mcp" }), { onClose() {}, onTools() {} }, signal).catch((x: unknown) => x);
  expect(e).toBeInstanceOf(ConnectError);
  expect(e).toMatchObject({ message: "HTTP 401 for Bearer [redacted]", stderr: "stderr [redacted]", auth: true });
});
