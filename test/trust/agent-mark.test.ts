// The mark on the agent's commands (agent-mark.ts): a hey started with it says in one line why it asks nothing.
import { expect, test } from "bun:test";
import { AGENT_MARK, agentCommand } from "../../src/agent-mark.ts";

test("a hey whose environment holds the session's mark is an agent's command; without it, or empty, it is not", () => {
  expect(AGENT_MARK).toBe("HEY_AGENT_SESSION");
  expect(agentCommand({ HEY_AGENT_SESSION: "01jx5k" })).toBe(
    "running under an agent's command (HEY_AGENT_SESSION): questions are answered in your own terminal",
  );
  expect(agentCommand({})).toBeUndefined();
  expect(agentCommand({ HEY_AGENT_SESSION: "" })).toBeUndefined();
});
