// What a run starts from (src/trust/start.ts): a yes at the trust question approves the project's
// files as the question listed them, not as they are by the time the configuration is read.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beginConfig } from "../../src/trust/start.ts";
import { tempDir } from "../helpers/e2e.ts";
import { configInputs } from "../helpers/places.ts";

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => {
  tmp = tempDir("hey-start-");
});
afterEach(() => tmp.remove());

const servers = (...names: string[]) => JSON.stringify({ mcpServers: Object.fromEntries(names.map((n) => [n, { command: "npx", args: [n] }])) });

test("a server written while the trust question was up is not approved by its yes: it is asked about as any change", async () => {
  const project = join(realpathSync(tmp.path), "project");
  mkdirSync(join(project, ".git"), { recursive: true });
  writeFileSync(join(project, ".mcp.json"), servers("listed"));
  const { env, here } = configInputs(
    { HOME: join(tmp.path, "home"), XDG_CONFIG_HOME: join(tmp.path, "config"), XDG_STATE_HOME: join(tmp.path, "state") },
    project,
  );
  // hey's record exists (not its first run, where every file is taken as it is)
  mkdirSync(join(tmp.path, "state", "hey"), { recursive: true });
  writeFileSync(here.approvalsFile, JSON.stringify({ version: 1, configs: {}, trusted: [] }));
  const asked: string[] = [];
  const begun = await beginConfig(
    here,
    env,
    {},
    {
      approve: false,
      configFile: undefined,
      warn: () => {},
      ask: async (question) => {
        asked.push(question);
        writeFileSync(join(project, ".mcp.json"), servers("listed", "later")); // the agent, in another terminal
        return "y";
      },
    },
  );
  if (begun === "cancelled") throw new Error("cancelled");
  expect(asked[0]).toContain("run MCP server listed: npx listed\nTrust this project?");
  expect(asked[0]).not.toContain("later");
  expect(begun.config.settings.mcp.servers.map((s) => s.name)).toEqual(["listed"]);
  expect(begun.config.guards.flatMap((g) => g.widenings)).toEqual(["+ [mcp.later] npx later"]);
});
