// `/model NAME` after a switch to another provider: a name no provider lists is a model of the
// provider in use, as `-m NAME` after `-c` is one of the session's — not of the [default] one,
// which would quietly move the conversation to another endpoint (and key).
import { expect, test } from "bun:test";
import { fileReplayServer } from "../helpers/fixtures.ts";
import { startTerm, type Term } from "../helpers/tmux.ts";
import { answer, lastLine, say } from "./repl-helpers.ts";

const E2E_TIMEOUT = 90_000;
// the endpoint of both providers lists every model, so /model accepts each name whichever provider it goes to
const server = fileReplayServer(undefined, { models: ["m1", "m2", "m3"] });

async function open(env: Record<string, string> = {}): Promise<Term> {
  const table = (name: string, model: string) =>
    `[provider.${name}]\\nbase_url = "${server.url}/v1"\\nmodels = ["${model}"]\\nheaders = { X-Provider = "${name}" }\\n`;
  const config = `[default]\\nprovider = "first"\\n\\n${table("first", "m1")}\\n${table("second", "m2")}`;
  const t = await startTerm({ rows: 40, cols: 120, before: `printf '${config}' > hey.toml`, args: ["--config", "hey.toml"], env });
  await t.waitFor((s) => lastLine(s) === "›");
  return t;
}

test(
  "/model NAME that no provider lists stays with the provider in use; a name another provider lists goes there",
  async () => {
    const t = await open();
    try {
      await say(t, "/model second/m2", "model: second/m2");
      await say(t, "/model m3", "model: second/m3");
      server.enqueue(answer("From the second."));
      await say(t, "which?", "From the second.");
      const last = server.requests.at(-1)!;
      expect(last.headers["x-provider"]).toBe("second");
      expect((last.body as { model: string }).model).toBe("m3");
      await say(t, "/model m1", "model: first/m1");
    } finally {
      await t.close();
    }
  },
  E2E_TIMEOUT,
);

// HEY_PROVIDER chose the provider at start; a provider /model switched to is the one in use after
// it: HEY_PROVIDER (which beats a resumed session's) took the next /model NAME back to its own
test(
  "/model NAME stays with the provider /model switched to when HEY_PROVIDER chose the first one",
  async () => {
    const t = await open({ HEY_PROVIDER: "first" });
    try {
      await say(t, "/model second/m2", "model: second/m2");
      await say(t, "/model m3", "model: second/m3");
      server.enqueue(answer("From the second."));
      await say(t, "which?", "From the second.");
      expect(server.requests.at(-1)!.headers["x-provider"]).toBe("second");
    } finally {
      await t.close();
    }
  },
  E2E_TIMEOUT,
);

// an endpoint whose /models is its web page: the list cannot be read, so the name is not checked —
// `-m html/anything` runs, and `/model html/anything` goes ahead as well, with one line saying why
const html = fileReplayServer(undefined, { models: "<!doctype html><title>gateway</title>" });

test(
  "/model NAME on an endpoint whose model list cannot be read switches with a warning, as -m does",
  async () => {
    const config = `[default]\\nprovider = "first"\\n\\n[provider.first]\\nbase_url = "${server.url}/v1"\\nmodels = ["m1"]\\n\\n[provider.html]\\nbase_url = "${html.url}/v1"\\n`;
    const t = await startTerm({ rows: 40, cols: 160, before: `printf '${config}' > hey.toml`, args: ["--config", "hey.toml"] });
    try {
      await t.waitFor((s) => lastLine(s) === "›");
      const screen = await say(t, "/model html/anything", "model: html/anything");
      expect(screen).toContain("warning: html/anything is not checked: the endpoint's model list could not be read (");
      expect(screen).not.toContain("has no model");
      html.enqueue(answer("From the page."));
      await say(t, "hello", "From the page.");
      expect((html.requests.at(-1)!.body as { model: string }).model).toBe("anything");
    } finally {
      await t.close();
    }
  },
  E2E_TIMEOUT,
);
