// Keys typed while hey starts (issue 14 type-ahead) and the start-up trust question (SPEC §15),
// through dist/hey in tmux: what was typed before the question was drawn does not answer it — a
// `!git status` typed early was taken as "not now" — and waits at the prompt after the answer.
import { afterEach, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers/e2e.ts";
import { fileReplayServer } from "../helpers/fixtures.ts";
import { lastLine, replTerms } from "./repl-helpers.ts";

const E2E_TIMEOUT = 90_000;
const server = fileReplayServer();
const { start } = replTerms(server);
// the project: a directory of its own, not the home directory, which hey never trusts
let project: ReturnType<typeof tempDir> | undefined;
afterEach(() => project?.remove());

test.each([
  ["a line not ended", false],
  ["a line ended with Enter", true],
])(
  "%s before the trust question is drawn does not answer it; the answer typed at the question does, and the line waits at the prompt",
  async (_what, enter) => {
    // hey starts once the test says so: the line is typed into the terminal before
    const t = await start({
      cwd: (project = tempDir("hey-trust-project-")).path,
      args: ["--base-url", `${server.url}/v1`, "-m", "mock-model"],
      before: 'while [ ! -e "$HOME/go" ]; do sleep 0.05; done',
    });
    mkdirSync(join(t.cwd, ".hey"), { recursive: true });
    writeFileSync(join(t.cwd, ".hey", "config.toml"), "[agent]\nmax_turns = 5\n");
    await t.type("!git status");
    if (enter) await t.keys("Enter");
    await t.waitFor("!git status"); // the terminal holds it
    writeFileSync(join(t.home, "go"), "");
    await t.waitFor("Trust this project? (y/N)");
    await t.type("y");
    await t.keys("Enter");
    // kept in the prompt's line, not sent (an Enter typed early stays in it as a line break, as type-ahead does)
    const screen = await t.waitFor((s) => s.split("\n").includes("› !git status"));
    expect(screen).toMatch(/Trust this project\? \(y\/N\) y$/m);
    expect(screen).not.toContain("not loaded");
    expect(lastLine(screen)).toBe(enter ? "…" : "› !git status");
    expect(server.requests).toHaveLength(0);
  },
  E2E_TIMEOUT,
);
