// Slash commands' own words (reviewer trial): /compact says it once.
import { expect, test } from "bun:test";
import type { Agent } from "../../src/agent.ts";
import { runCommand, type CommandContext } from "../../src/ui/commands.ts";
import { createTerminalOutput, type TerminalOutput } from "../../src/ui/terminal.ts";

function context(terminal: TerminalOutput | undefined, compacted: boolean): CommandContext {
  const agent = {
    compact: async () => {
      // what compaction reports as it happens: the terminal shows this line
      terminal?.emit({ type: "compaction", kind: "summary", from_id: "a", to_id: "b", summary: "s", tokens_before: 5200, tokens_after: 310 });
      return compacted;
    },
  } as unknown as Agent;
  const never = () => Promise.reject(new Error("not used"));
  return { agent, signal: new AbortController().signal, terminal, switchModel: never, reload: never, mcpStatus: never };
}

test("/compact on a terminal: one line, the compaction's own (no second line saying the same)", async () => {
  const shown: string[] = [];
  const stream = { write: (t: string) => void shown.push(t), color: false, tty: false };
  const terminal = createTerminalOutput(stream, stream);
  const result = await runCommand("/compact", context(terminal, true));
  const lines = (shown.join("") + (result.text ? result.text + "\n" : "")).trimEnd().split("\n");
  expect(lines).toEqual(["context: summarized older work (~5200 → ~310 tokens)"]);
});

test("/compact without a terminal (JSON) says it in the command's output; nothing to do is said either way", async () => {
  expect(await runCommand("/compact", context(undefined, true))).toEqual({ text: "older work summarized; the next request sends the summary instead", ok: true });
  expect((await runCommand("/compact", context(undefined, false))).text).toBe("nothing to summarize yet: everything is in the last turns");
});
