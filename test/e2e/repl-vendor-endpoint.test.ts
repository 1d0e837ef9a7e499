// The REPL of a user whose key goes elsewhere than the vendor's host: the banner says where
// (OPENAI_BASE_URL moved it), and `/model` to a provider without a key says which variable to set
// when switching, not first by the next message's 401.
import { expect, test } from "bun:test";
import { fileReplayServer } from "../helpers/fixtures.ts";
import { startTerm } from "../helpers/tmux.ts";
import { flat, lastLine, say } from "./repl-helpers.ts";

const E2E_TIMEOUT = 90_000;
const server = fileReplayServer();

test(
  "OPENAI_BASE_URL is named in the banner with its URL; /model to anthropic without ANTHROPIC_API_KEY warns, naming it",
  async () => {
    const t = await startTerm({ rows: 40, cols: 160, env: { OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: `${server.url}/v1` } });
    try {
      await t.waitFor((s) => lastLine(s) === "›");
      expect(await flat(t)).toContain(`openai/gpt-5.5 at ${server.url}/v1 (OPENAI_BASE_URL) ·`);
      const said = await say(t, "/model anthropic/claude-sonnet-4-5", "model: anthropic/claude-sonnet-4-5");
      expect(said.replace(/\s+/g, " ")).toContain(
        "warning: anthropic has no API key (ANTHROPIC_API_KEY is not set), so its requests will be refused — set it and start hey again, or /model openai/gpt-5.5 to go back",
      );
      const back = await say(t, "/model openai/gpt-5.5", "model: openai/gpt-5.5");
      expect(back).not.toContain("warning");
    } finally {
      await t.close();
    }
  },
  E2E_TIMEOUT,
);
