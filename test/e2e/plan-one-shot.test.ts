// `hey --plan -p` through dist/hey: a call plan mode refuses is told to the model as this run's
// rule (no one can press Shift+Tab in it), and with --output json it is `refused: "plan"`, not a
// permission denial a script would count (docs/json-events.md).
import { expect, setDefaultTimeout, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { jsonEvents, runHey } from "../helpers/e2e.ts";
import { eachScriptedRun } from "../helpers/scripted-run.ts";

setDefaultTimeout(60_000); // the first test may build dist/hey

const scripted = eachScriptedRun();
const { home, project } = scripted;

test("hey --plan --output json -p: a write is refused with refused: plan and this run's words, and is no permission denial", async () => {
  scripted.userConfig("");
  scripted.calls = [["bash", { command: "touch x" }]];
  const run = await runHey(["--plan", "--output", "json", "-p", "make x"], { cwd: project.path, env: { HOME: home.path } });
  expect(run.code).toBe(0);
  expect(existsSync(join(project.path, "x"))).toBe(false);
  const events = jsonEvents(run.stdout);
  expect(events.filter((e) => e.type === "tool_result")).toEqual([
    {
      type: "tool_result",
      id: expect.any(String),
      name: "bash",
      ok: false,
      output: "blocked by plan mode: `touch x` may change things; this run is in plan mode (--plan): only reading and searching run",
      refused: "plan",
    },
  ]);
  expect(events.some((e) => "permission_denials" in e)).toBe(false);
  expect(scripted.results()).toEqual(["blocked by plan mode: `touch x` may change things; this run is in plan mode (--plan): only reading and searching run"]);
});
