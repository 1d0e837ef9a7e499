// hey's own long messages outside the REPL's notices — the help a new user reads when no model
// server answers, `hey trust`'s result — are broken at spaces at a narrow terminal, as the REPL's
// notices and /help are, never cut mid-word by the terminal (before: "…start it with `ollam" / "a
// serve`…", "…(or /reload in a ru" / "nning one)…"), and `hey doctor`'s report, whose setup help is
// the same text. Through dist/hey in tmux at 80 columns (the doctor at 120 too).
import { afterEach, expect, test } from "bun:test";
import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers/e2e.ts";
import { freePort } from "../helpers/mcp.ts";
import { startTerm, type Term } from "../helpers/tmux.ts";

const E2E_TIMEOUT = 120_000;
const COLS = 80;
const dirs: ReturnType<typeof tempDir>[] = [];
const terms: Term[] = [];
afterEach(async () => {
  for (const t of terms.splice(0)) await t.close();
  for (const d of dirs.splice(0)) d.remove();
});

/** Every word of `sentence` is whole on some row of `screen`, and no row is wider than the terminal: broken at spaces only. */
function brokenAtSpaces(screen: string, sentence: string, cols = COLS): void {
  const rows = screen.split("\n");
  for (const row of rows) expect([...row].length).toBeLessThanOrEqual(cols);
  const onRows = rows.flatMap((r) => r.split(/\s+/));
  const missing = sentence.split(/\s+/).filter((w) => w && !onRows.includes(w));
  expect(missing).toEqual([]);
  expect(screen.replace(/\s+/g, " ")).toContain(sentence); // and it reads whole, in order
}

test(
  "the help after the default Ollama does not answer is broken at spaces: the commands to type are whole",
  async () => {
    const port = freePort(); // nothing listens: connection refused
    const term = await startTerm({ args: ["-p", "hi"], cols: COLS, rows: 40, env: { OLLAMA_HOST: `127.0.0.1:${port}` } });
    terms.push(term);
    const screen = await term.waitFor("[exit 1]", { scrollback: true });
    brokenAtSpaces(
      screen,
      `With no configuration hey talks to the Ollama at OLLAMA_HOST (http://127.0.0.1:${port}/v1) with the model qwen3: start it there with \`ollama serve\` and \`ollama pull qwen3\`,`,
    );
    // a new user has no approvals record: the config written next is used as it is, with no step to approve it
    brokenAtSpaces(screen, "or add a provider to ~/.config/hey/config.toml:");
    expect(screen).not.toContain("approve it");
  },
  E2E_TIMEOUT,
);

test(
  "hey trust's result is broken at spaces",
  async () => {
    const projects = tempDir("hey-wrap-projects-");
    dirs.push(projects);
    const project = join(projects.path, "p");
    mkdirSync(join(project, ".hey"), { recursive: true });
    writeFileSync(join(project, ".hey", "config.toml"), "[agent]\nmax_turns = 5\n");
    const term = await startTerm({ args: ["trust"], cwd: project, cols: COLS, rows: 40 });
    terms.push(term);
    await term.waitFor("Trust this project? (y/N)");
    await term.type("y");
    await term.keys("Enter");
    const screen = await term.waitFor("[exit 0]", { scrollback: true });
    const trustFile = join(term.home, ".config", "hey", "trust.json");
    brokenAtSpaces(
      screen,
      `${realpathSync(project)} is trusted now (recorded in ${trustFile}): the next start of hey (or /reload in a running one) loads its .hey/config.toml.`,
    );
  },
  E2E_TIMEOUT,
);

for (const cols of [80, 120])
  test(
    `hey doctor at ${cols} columns: its report and setup help are broken at spaces, and the config lines it prints paste as TOML`,
    async () => {
      const port = freePort(); // nothing listens: connection refused
      const term = await startTerm({ args: ["doctor"], cols, rows: 60, env: { OLLAMA_HOST: `127.0.0.1:${port}` } });
      terms.push(term);
      const screen = await term.waitFor("[exit 1]", { scrollback: true });
      // a check's words go on under its detail column (before: "…ECONNREFUSED 12" / "7.0.0.1:…" at 80 columns)
      brokenAtSpaces(screen, `✗ TCP cannot connect to 127.0.0.1:${port}: connection refused (ECONNREFUSED) → what to do is below the verdict`, cols);
      if (cols === 80) expect(screen).toMatch(/^ {22}\S/m);
      brokenAtSpaces(
        screen,
        `With no configuration hey talks to the Ollama at OLLAMA_HOST (http://127.0.0.1:${port}/v1) with the model qwen3: start it there with \`ollama serve\` and \`ollama pull qwen3\`,`,
        cols,
      );
      const rows = screen.split("\n");
      const from = rows.indexOf("or add a provider to ~/.config/hey/config.toml:");
      const to = rows.findIndex((r, i) => i > from && r.startsWith("or use any endpoint once: hey --base-url"));
      expect(from).toBeGreaterThan(0);
      const block = rows.slice(from + 1, to);
      expect(block).toHaveLength(5);
      for (const row of block) expect(() => Bun.TOML.parse(row)).not.toThrow(); // each row as it would be copied: no half of a line
      expect(Bun.TOML.parse(block.join("\n"))).toEqual({ provider: { NAME: { base_url: "https://.../v1", api_key: "${YOUR_KEY_VAR}", models: ["MODEL"] } } });
    },
    E2E_TIMEOUT,
  );
