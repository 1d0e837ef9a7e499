// The REPL of a user whose key goes elsewhere than the vendor's host: the banner says where
// (OPENAI_BASE_URL moved it), and `/model` to a provider without a key says which variable to set
// when switching, not first by the next message's 401; and `/model` there, with no model list,
// goes ahead unchecked, as -m does.
import { expect, test } from "bun:test";
import { fileReplayServer } from "../helpers/fixtures.ts";
import { startTerm, type Term } from "../helpers/tmux.ts";
import { answer, flat, lastLine, say } from "./repl-helpers.ts";

const E2E_TIMEOUT = 90_000;
const server = fileReplayServer();

/** The REPL with OPENAI_API_KEY and OPENAI_BASE_URL at the replay server (whose model list is a 405: it has none), at its prompt; `act` runs in it. */
async function inGatewayRepl(act: (t: Term) => Promise<void>): Promise<void> {
  const t = await startTerm({ rows: 40, cols: 160, env: { OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: `${server.url}/v1` } });
  try {
    await t.waitFor((s) => lastLine(s) === "›");
    await act(t);
  } finally {
    await t.close();
  }
}

test(
  "OPENAI_BASE_URL is named in the banner with its URL; /model to anthropic without ANTHROPIC_API_KEY warns, naming it",
  () =>
    inGatewayRepl(async (t) => {
      expect(await flat(t)).toContain(`openai/gpt-5.5 at ${server.url}/v1 (OPENAI_BASE_URL) ·`);
      const said = await say(t, "/model anthropic/claude-sonnet-4-5", "model: anthropic/claude-sonnet-4-5");
      expect(said.replace(/\s+/g, " ")).toContain(
        "warning: anthropic has no API key (ANTHROPIC_API_KEY is not set), so its requests will be refused — set it and start hey again, or /model openai/gpt-5.5 to go back",
      );
      const back = await say(t, "/model openai/gpt-5.5", "model: openai/gpt-5.5");
      expect(back).not.toContain("warning");
    }),
  E2E_TIMEOUT,
);

test(
  "behind OPENAI_BASE_URL whose endpoint has no model list, /model switches to any name, said as unchecked, as -m sends it",
  () =>
    inGatewayRepl(async (t) => {
      const said = await say(t, "/model openai/gpt-4.1", "model: openai/gpt-4.1");
      expect(said.replace(/\s+/g, " ")).toContain("warning: openai/gpt-4.1 is not checked: OPENAI_BASE_URL points openai at an endpoint with no model list");
      await say(t, "/model gpt-5", "model: openai/gpt-5");
      server.enqueue(answer("From the gateway."));
      await say(t, "hello", "From the gateway.");
      expect((server.requests.at(-1)!.body as { model: string }).model).toBe("gpt-5");
    }),
  E2E_TIMEOUT,
);

test(
  "Claude Code's ANTHROPIC_MODEL is named in the banner as where the model came from, and is the model asked for",
  async () => {
    const env = { ANTHROPIC_AUTH_TOKEN: "sk-gw", ANTHROPIC_BASE_URL: server.url, ANTHROPIC_MODEL: "gw-sonnet" };
    const t = await startTerm({ rows: 40, cols: 160, env });
    try {
      await t.waitFor((s) => lastLine(s) === "›");
      expect(await flat(t)).toContain(`anthropic/gw-sonnet (ANTHROPIC_MODEL) at ${server.url} (ANTHROPIC_BASE_URL) ·`);
    } finally {
      await t.close();
    }
  },
  E2E_TIMEOUT,
);
