// The start-up trust question (SPEC §15) in a window resized while it waits, through dist/hey in
// tmux: the terminal reflows the question's row, and hey redraws it where the reflow put it, so it
// shows once — on the screen and in the scrollback after the answer — with what was typed of the answer.
import { afterEach, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers/e2e.ts";
import { fileReplayServer } from "../helpers/fixtures.ts";
import { ALL, lastLine, replTerms } from "./repl-helpers.ts";

const E2E_TIMEOUT = 90_000;
const QUESTION = "Trust this project? (y/N)";
const server = fileReplayServer();
const { start } = replTerms(server);
// the project: a directory of its own, not the home directory, which hey never trusts
let project: ReturnType<typeof tempDir> | undefined;
afterEach(() => project?.remove());
const count = (screen: string) => screen.split(QUESTION).length - 1;

test(
  "narrowed and widened while the trust question waits, it shows once, and once in the scrollback after the answer",
  async () => {
    // hey starts once the project's settings are there
    const t = await start({
      cols: 40,
      rows: 10,
      cwd: (project = tempDir("hey-trust-project-")).path,
      args: ["--base-url", `${server.url}/v1`, "-m", "mock-model"],
      before: 'while [ ! -e "$HOME/go" ]; do sleep 0.05; done',
    });
    mkdirSync(join(t.cwd, ".hey"), { recursive: true });
    writeFileSync(join(t.cwd, ".hey", "config.toml"), "[agent]\nmax_turns = 5\n");
    writeFileSync(join(t.home, "go"), "");
    await t.waitFor(QUESTION);
    await t.resize(25, 10); // the question's row, a column wider than the window, is split in two
    await t.type("n");
    await t.keysRead();
    await t.waitFor((s) => /^ ?n$/m.test(s) || /\(y\/N\) n$/m.test(s)); // the answer typed, after the question
    expect(count(await t.screen({ joined: true }))).toBe(1);
    await t.resize(60, 10);
    await t.keys("Enter");
    const screen = await t.waitFor((s) => lastLine(s) === "›", ALL);
    expect(count(screen)).toBe(1);
    expect(screen).toContain(`${QUESTION} n\n`);
  },
  E2E_TIMEOUT,
);
