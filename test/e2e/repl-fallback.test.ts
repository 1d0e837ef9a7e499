// At the interactive prompt a fallback answers for the rest of the prompt its model gave up on;
// the next prompt starts on the model again, and `/model` marks it as the one in use.
import { expect, test } from "bun:test";
import { fileReplayServer } from "../helpers/fixtures.ts";
import { jsonReply } from "../helpers/replay-server.ts";
import { startTerm } from "../helpers/tmux.ts";
import { answer, lastLine, say } from "./repl-helpers.ts";

const E2E_TIMEOUT = 90_000;
const server = fileReplayServer(undefined, { models: ["m1", "m2"] });

test(
  "a 503 on the first prompt goes on with the fallback; the second prompt goes to the model again",
  async () => {
    const table = (name: string, model: string) =>
      `[provider.${name}]\\nbase_url = "${server.url}/v1"\\nmodels = ["${model}"]\\nheaders = { X-Provider = "${name}" }\\n`;
    const config = `[default]\\nprovider = "first"\\nfallback_models = ["second/m2"]\\n\\n${table("first", "m1")}\\n${table("second", "m2")}\\n[retry]\\nmax_retries = 0\\n`;
    const t = await startTerm({ rows: 40, cols: 140, before: `printf '${config}' > hey.toml`, args: ["--config", "hey.toml"] });
    try {
      await t.waitFor((s) => lastLine(s) === "›");
      server.enqueue(jsonReply(503, { error: { message: "busy" } }), answer("From the fallback."));
      const screen = await say(t, "first question", "From the fallback.");
      expect(screen).toContain("hey: falling back from first/m1 to second/m2 for the rest of this run: first/m1 is overloaded or failing");
      expect(server.requests.slice(-2).map((r) => r.headers["x-provider"])).toEqual(["first", "second"]);
      await say(t, "/model", "* first/m1");
      server.enqueue(answer("From the first again."));
      await say(t, "second question", "From the first again.");
      expect(server.requests.at(-1)!.headers["x-provider"]).toBe("first");
    } finally {
      await t.close();
    }
  },
  E2E_TIMEOUT,
);
