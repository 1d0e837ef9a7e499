// A `[tools] bash_filter` whose program is missing at start is said then; start-up's answer is its
// own: after `/model`, PATH is searched again, so a filter installed since is used (README /reload:
// from the first request on, hey asks again each time). A filter turned off in the run stays off:
// `/model` changes the model, not the filter (x138 #3).
import { expect, test } from "bun:test";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileReplayServer } from "../helpers/fixtures.ts";
import { startTerm } from "../helpers/tmux.ts";
import { answer, lastLine, say, toolCalls } from "./repl-helpers.ts";

const E2E_TIMEOUT = 90_000;
const server = fileReplayServer(undefined, { models: ["m1", "m2"] });

test(
  "a bash_filter installed after start is used after /model",
  async () => {
    const config = `[tools]\\nbash_filter = "f128efilt"\\n\\n[provider.first]\\nbase_url = "${server.url}/v1"\\nmodels = ["m1", "m2"]\\n`;
    const t = await startTerm({ rows: 40, cols: 200, before: `printf '${config}' > hey.toml; export PATH="$HOME/bin:$PATH"`, args: ["--config", "hey.toml"] });
    try {
      await t.waitFor((s) => lastLine(s) === "›");
      expect(await t.screen()).toContain('bash_filter "f128efilt" cannot be run (f128efilt: not on PATH)');
      mkdirSync(join(t.home, "bin"));
      writeFileSync(join(t.home, "bin", "f128efilt"), "#!/bin/sh\nsed 's/^/FILTERED:/'\n");
      chmodSync(join(t.home, "bin", "f128efilt"), 0o755);
      await say(t, "/model m2", "model: first/m2");
      server.enqueue(toolCalls([["bash", { command: "echo hello-f128e" }]]));
      server.enqueue(answer("Echoed."));
      await say(t, "echo it", "Echoed.");
      expect(JSON.stringify(server.requests.at(-1)!.body)).toContain("FILTERED:hello-f128e");
    } finally {
      await t.close();
    }
  },
  E2E_TIMEOUT,
);

test(
  "a bash_filter that failed on 3 commands in a row stays off after /model, as the line said: for the rest of this run",
  async () => {
    const filter = 'cat >/dev/null; echo ran >> \\"$HOME/runs.log\\"; exit 2';
    const config = `[tools]\\nbash_filter = "${filter}"\\n\\n[provider.first]\\nbase_url = "${server.url}/v1"\\nmodels = ["m1", "m2"]\\n`;
    const t = await startTerm({ rows: 40, cols: 200, before: `printf '${config}' > hey.toml`, args: ["--config", "hey.toml"] });
    const runs = () => readFileSync(join(t.home, "runs.log"), "utf8").split("\n").filter(Boolean).length;
    try {
      await t.waitFor((s) => lastLine(s) === "›");
      const three = ["one", "two", "three"].map((w): [string, Record<string, unknown>] => ["bash", { command: `echo ${w}` }]);
      server.enqueue(toolCalls(three));
      server.enqueue(answer("Three echoed."));
      expect(await say(t, "echo three", "Three echoed.")).toContain("failed on 3 commands in a row");
      expect(runs()).toBe(3);
      await say(t, "/model m2", "model: first/m2");
      server.enqueue(toolCalls([["bash", { command: "echo four" }]]));
      server.enqueue(answer("Four echoed."));
      await say(t, "echo four", "Four echoed.");
      expect(runs()).toBe(3);
    } finally {
      await t.close();
    }
  },
  E2E_TIMEOUT,
);
