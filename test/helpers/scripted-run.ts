// A HOME, a project and a loopback model for each test of a file: to a run's message the model
// makes the calls the test set (`scripted.calls = [...]`), then answers with what they returned.
// For end-to-end tests of what the tools and the permission checker do through dist/hey.
import { afterEach, beforeEach } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "./e2e.ts";
import { resultText, startModelServer, type ModelServer, type Turn } from "./model-server.ts";

export interface ScriptedRun {
  readonly home: { readonly path: string };
  readonly project: { readonly path: string };
  readonly model: ModelServer;
  /** the calls the model makes on the first request of each run (none: it answers at once) */
  calls: [string, unknown][];
  /** the user config's provider table on the loopback model (`[default]` and `[provider.local]`) */
  provider(): string;
  /** writes the user config (HOME/.config/hey/config.toml): the provider, then `extra` (a `[permission]` table…) */
  userConfig(extra: string): void;
  /** the tool results the model got in the last request, without their `[#handle]` lines */
  results(): string[];
}

export function eachScriptedRun(): ScriptedRun {
  let home: ReturnType<typeof tempDir> | undefined;
  let project: ReturnType<typeof tempDir> | undefined;
  let model: ModelServer | undefined;
  let calls: [string, unknown][] = [];
  beforeEach(() => {
    home = tempDir("hey-home-");
    project = tempDir("hey-project-");
    calls = [];
    model = startModelServer((req): Turn => {
      if (req.messages.at(-1)!.role === "user" && calls.length) return { calls };
      const results = req.messages.filter((m) => m.role === "tool").map((m) => resultText(m));
      return { text: `results: ${JSON.stringify(results)}` };
    });
  });
  afterEach(() => {
    model?.stop();
    home?.remove();
    project?.remove();
  });
  const inTest = <T>(v: T | undefined): T => {
    if (v === undefined) throw new Error("eachScriptedRun: read it inside a test");
    return v;
  };
  return {
    home: {
      get path() {
        return inTest(home).path;
      },
    },
    project: {
      get path() {
        return inTest(project).path;
      },
    },
    get model() {
      return inTest(model);
    },
    get calls() {
      return calls;
    },
    set calls(next) {
      calls = next;
    },
    provider: () => `[default]\nprovider = "local"\nmodel = "m1"\n[provider.local]\nbase_url = "${inTest(model).baseUrl}"\nmodels = ["m1"]\n`,
    userConfig(extra) {
      const dir = join(inTest(home).path, ".config", "hey");
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, "config.toml"), this.provider() + extra);
    },
    results: () =>
      inTest(model)
        .requests.at(-1)!
        .messages.filter((m) => m.role === "tool")
        .map((m) => resultText(m)),
  };
}
