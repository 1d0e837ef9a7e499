// What most test files set up the same way — a temporary directory, a replay server, a model
// server — made once per file (or per test) and taken down after it, so a file says what it uses
// in one line instead of a beforeAll and an afterAll of its own.
import { afterAll, afterEach, beforeEach } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { tempDir } from "./e2e.ts";
import { startModelServer, type ModelServer, type Turn, type ChatRequest } from "./model-server.ts";
import { startReplayServer, type ReplayServer } from "./replay-server.ts";

/** A temporary directory for this file's tests, removed after the last one. */
export function fileTempDir(prefix = "hey-test-"): { path: string } {
  const dir = tempDir(prefix);
  afterAll(() => dir.remove());
  return dir;
}

/** A fresh temporary directory for each test of this file (read `.path` inside the test), removed after it. */
export function eachTempDir(prefix = "hey-test-"): { readonly path: string } {
  let dir: ReturnType<typeof tempDir> | undefined;
  beforeEach(() => {
    dir = tempDir(prefix);
  });
  afterEach(() => dir?.remove());
  return {
    get path() {
      if (!dir) throw new Error("eachTempDir: read .path inside a test");
      return dir.path;
    },
  };
}

/** A replay server (canned replies, every request checked) for this file's tests, stopped after the last one. */
export function fileReplayServer(...args: Parameters<typeof startReplayServer>): ReplayServer {
  const server = startReplayServer(...args);
  afterAll(() => server.stop());
  return server;
}

/** A model server whose answers are a function of the request, for this file's tests, stopped after the last one. */
export function fileModelServer(decide: (req: ChatRequest) => Turn, opts?: Parameters<typeof startModelServer>[1]): ModelServer {
  const server = startModelServer(decide, opts);
  afterAll(() => server.stop());
  return server;
}

/** Model servers each test starts as it needs them (`model(decide)`), all stopped after the test. */
export function eachModelServers(): (decide: (req: ChatRequest) => Turn) => ModelServer {
  const started: ModelServer[] = [];
  afterEach(() => {
    for (const s of started.splice(0)) s.stop();
  });
  return (decide) => {
    const server = startModelServer(decide);
    started.push(server);
    return server;
  };
}

/** A user config naming one provider, `local`, at `baseUrl` with model `m1` (and a key), the default. */
export const localModel = (baseUrl: string): string =>
  `[default]\nprovider = "local"\nmodel = "m1"\n[provider.local]\nbase_url = "${baseUrl}"\napi_key = "k"\nmodels = ["m1"]\n`;

/** Writes the user's config file of `home` (`~/.config/hey/config.toml`); returns its path. */
export function writeUserConfig(home: string, text: string): string {
  const file = join(home, ".config", "hey", "config.toml");
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}
