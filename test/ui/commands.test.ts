// /model at the prompt: a model name is one word; anything else is refused and switches nothing.
import { expect, test } from "bun:test";
import type { Agent } from "../../src/agent.ts";
import { runCommand, type CommandContext } from "../../src/ui/commands.ts";

function context(): { ctx: CommandContext; switched: string[] } {
  const switched: string[] = [];
  const settings = { provider: { name: "mock" }, model: "m" };
  const ctx = {
    agent: { settings } as unknown as Agent,
    signal: new AbortController().signal,
    terminal: undefined,
    switchModel: async (spec: string) => void switched.push(spec),
    reload: async () => ({ ok: true, changes: [], errors: [], warnings: [] }),
    mcpStatus: async () => "",
  };
  return { ctx, switched };
}

test.each(["/model gpt 4o", "/model selection is broken, fix it", "/model  a\tb"])("%p is refused, naming the form", async (line) => {
  const { ctx, switched } = context();
  const r = await runCommand(line, ctx);
  expect(r.ok).toBe(false);
  expect(r.text).toStartWith("hey: /model takes one model name, as /model [provider/]model; got ");
  expect(switched).toEqual([]);
});

test("one word switches at the prompt; on its own (one-shot) it is refused, naming -m", async () => {
  const { ctx, switched } = context();
  expect(await runCommand("/model other/x ", ctx)).toEqual({ text: "model: mock/m", ok: true });
  expect(switched).toEqual(["other/x"]);
  const one = await runCommand("/model other/x", { ...ctx, oneShot: true });
  expect(one.ok).toBe(false);
  expect(one.text).toContain("for one run use -m other/x");
  expect(switched).toEqual(["other/x"]);
});
