// What the user sees of an allow list's refusal at a 100-column terminal (x54 finding 4): the
// entry to add, and where, on a line of its own under the status, where the width cannot cut it
// off; and that entry is one that would allow the command (`CI=1` spelled out), not the listed
// `bash: npm test *` it was before. Through dist/hey in tmux against a local mock model.
import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import { startReplayServer, type ReplayServer } from "../helpers/replay-server.ts";
import { startTerm, type Term } from "../helpers/tmux.ts";
import { answer, toolCalls } from "./repl-helpers.ts";

let server: ReplayServer;
let term: Term | undefined;
beforeAll(() => {
  server = startReplayServer();
});
afterAll(() => server.stop());
afterEach(async () => {
  await term?.close();
  term = undefined;
});

test("a refused command shows the entry that would allow it, whole, on its own line", async () => {
  server.enqueue(toolCalls([["bash", { command: "CI=1 npm test" }]]), answer("Done."));
  const config = '[permission]\\nallow = ["bash: npm *", "bash: npm test *", "bash: git *", "read_file", "edit"]\\n';
  term = await startTerm({
    args: ["--base-url", `${server.url}/v1`, "-m", "mock-model"],
    before: `mkdir -p "$HOME/.config/hey" && printf '${config}' > "$HOME/.config/hey/config.toml"`,
    cols: 100,
  });
  await term.waitFor((s) => s.trimEnd().split("\n").at(-1)?.trimEnd() === "›");
  await term.type("run the tests with CI set");
  await term.keys("Enter");
  const lines = (await term.waitFor("Done.")).split("\n").map((l) => l.trimEnd());
  const status = lines.findIndex((l) => l.startsWith("  ✗ blocked by permission rules: `CI=1 npm test` matches no allow entry"));
  expect(status).toBeGreaterThanOrEqual(0);
  expect(lines[status + 1]).toBe('    add "bash: CI=1 npm test *" to ~/.config/hey/config.toml');
  // the model is told the same entry, and what the listed one leaves out
  const result = (server.requests[1]!.body as { messages: { role: string; content: string }[] }).messages.at(-1)!.content;
  expect(result).toContain('add "bash: CI=1 npm test *" there, as `bash: npm *` does not allow the assignment `CI=1`');
}, 90_000);
