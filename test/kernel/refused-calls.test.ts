// A call the permission rules refuse is told apart from one that failed (docs/json-events.md
// `tool_result.refused`): both are error results for the model, but a script must be able to see
// that the rules, not the command, said no.
import { expect, test } from "bun:test";
import { runLoop } from "../../src/kernel/loop.ts";
import { userMessage } from "../../src/kernel/ir.ts";
import type { Tool } from "../../src/kernel/tool.ts";
import { fakeProvider } from "../helpers/fake-provider.ts";
import { loopDeps } from "../helpers/loop-deps.ts";

const bash: Tool = {
  name: "bash",
  description: "bash",
  parameters: { type: "object", properties: { command: { type: "string" } }, required: ["command"] },
  run: async (args) => ({ output: `${args.command}: exit 1`, isError: true }),
};

test("a refused call's tool_result says refused: permission; a call that ran and failed does not", async () => {
  const provider = fakeProvider([
    {
      toolCalls: [
        { id: "c1", name: "bash", arguments: { command: "rm -rf build" } },
        { id: "c2", name: "bash", arguments: { command: "false" } },
      ],
    },
    { text: "Done." },
  ]);
  const permission = (_: string, args: Record<string, unknown>) =>
    String(args.command).startsWith("rm") ? "blocked by permission rules: `rm -rf build` matches no allow entry" : undefined;
  const deps = loopDeps(provider, { tools: [bash], permission });
  await runLoop([userMessage("go")], deps);
  const [refused, failed] = deps.output.of("tool_result");
  expect(refused).toMatchObject({ id: "c1", ok: false, refused: "permission" });
  expect(refused!.output).toStartWith("blocked by permission rules:");
  expect(failed).toEqual({ type: "tool_result", id: "c2", name: "bash", ok: false, output: "false: exit 1" });
});

test("a call plan mode refused says refused: plan, apart from the permission rules' refusals", async () => {
  const provider = fakeProvider([
    {
      toolCalls: [
        { id: "c1", name: "bash", arguments: { command: "touch x" } },
        { id: "c2", name: "bash", arguments: { command: "rm -rf build" } },
      ],
    },
    { text: "Done." },
  ]);
  const permission = (_: string, args: Record<string, unknown>) =>
    String(args.command).startsWith("rm")
      ? "blocked by permission rules: `rm -rf build` matches no allow entry"
      : "blocked by plan mode: `touch x` may change things; this run is in plan mode (--plan): only reading and searching run";
  const deps = loopDeps(provider, { tools: [bash], permission });
  await runLoop([userMessage("go")], deps);
  expect(deps.output.of("tool_result").map((r) => r.refused)).toEqual(["plan", "permission"]);
});
