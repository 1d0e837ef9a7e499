// `/usage` in the REPL (SPEC §10) through dist/hey in tmux against a local mock model: "this run"
// is what this hey sent, in the sessions it left by /resume or /clear too; a session this run began
// is said in one line, not twice.
import { expect, test } from "bun:test";
import { join } from "node:path";
import { fileReplayServer } from "../helpers/fixtures.ts";
import { answer, lastLine, replTerms, say, writeSession } from "./repl-helpers.ts";

const E2E_TIMEOUT = 90_000;
const server = fileReplayServer();
const { open } = replTerms(server);
const ZERO = "0 in (0 cached, 0 cache writes) · 0 out (0 reasoning) · 0 requests";
const ONE = "10 in (0 cached, 0 cache writes) · 5 out (0 reasoning) · 1 request"; // the mock's usage for one answer

test(
  "/usage after /resume counts this run's earlier requests under 'this run'",
  async () => {
    const t = await open();
    writeSession(join(t.home, ".local", "state"), t.cwd, "what is the capital of France?", "Paris.");
    server.enqueue(answer("Hello."));
    await say(t, "hi", "Hello.");
    await t.type("/resume 1");
    await t.keys("Enter");
    await t.waitFor((s) => s.includes("Paris.") && lastLine(s) === "›");
    const report = await say(t, "/usage", "last request:");
    expect(report).toContain(`session: ${ZERO}\nthis run: ${ONE}\n`);
  },
  E2E_TIMEOUT,
);

test(
  "/usage in a session this run began says its tokens once",
  async () => {
    const t = await open();
    server.enqueue(answer("Hello."));
    await say(t, "hi", "Hello.");
    const report = await say(t, "/usage", "last request:");
    expect(report).toContain(`session: ${ONE}\nlast request:`);
    expect(report).not.toContain("this run:");
  },
  E2E_TIMEOUT,
);
