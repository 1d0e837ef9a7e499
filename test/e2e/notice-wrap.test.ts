// hey's notices about background work (an MCP server's tool renamed, a server connected) are
// sentences, and a narrow terminal gets them broken at spaces, as every other notice of hey's —
// said above the prompt when the server connects (the first run: no cached tool list) — never cut
// mid-word by the terminal ("… keeps its nam" / "e"). A later run with the same tool list does not
// say the renaming again (src/mcp/said-renames.ts); /mcp shows the name the model sees.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers/e2e.ts";
import { FS_SERVER } from "../helpers/mcp.ts";
import { startTerm, type Term } from "../helpers/tmux.ts";
import { lastLine } from "./repl-helpers.ts";

const E2E_TIMEOUT = 120_000;
/** the terminal cuts the notice below inside a word at this width (…write_file: hey's own w|rite_file…) */
const COLS = 77;
const RENAMED = "hey: MCP server fs's tool write_file is offered as fs_write_file: hey's own write_file keeps its name";

let home: ReturnType<typeof tempDir>;
const terms: Term[] = [];
beforeEach(() => {
  home = tempDir("hey-notice-wrap-");
});
afterEach(async () => {
  for (const t of terms.splice(0)) await t.close();
  home.remove();
});

const atPrompt = (s: string) => lastLine(s).trimEnd() === "›";
/** the screen's rows as one line of words: a notice broken at spaces reads whole; one cut inside a word does not */
const words = (screen: string) => screen.replace(/\s+/g, " ");

test(
  "a notice that an MCP tool is renamed is wrapped at spaces in a narrow terminal, above the prompt; a later run does not repeat it, /mcp shows the name",
  async () => {
    const notes = join(home.path, "notes");
    mkdirSync(notes);
    mkdirSync(join(home.path, ".config", "hey"), { recursive: true });
    // the endpoint is never asked: no message is sent
    writeFileSync(
      join(home.path, ".config", "hey", "config.toml"),
      `[default]\nprovider = "mock"\nmodel = "m"\n\n[provider.mock]\nbase_url = "http://127.0.0.1:9/v1"\nmodels = ["m"]\n\n` +
        `[mcp.fs]\ncommand = "node"\nargs = [${JSON.stringify(FS_SERVER)}, ${JSON.stringify(notes)}]\n`,
    );
    const open = async () => {
      const t = await startTerm({ env: { HOME: home.path }, cols: COLS, rows: 30 });
      terms.push(t);
      return t;
    };

    // first run: no cached tool list, so the server connects after the prompt is drawn
    const first = await open();
    // read_file's notice and write_file's come one after the other: the one checked here is awaited, not only the first
    const above = await first.waitFor((s) => s.includes("connected: fs") && words(s).includes(RENAMED) && atPrompt(s));
    expect(words(above)).toContain(RENAMED);
    for (const row of above.split("\n")) expect(Bun.stringWidth(row.trimEnd())).toBeLessThanOrEqual(COLS);
    await first.type("/quit");
    await first.keys("Enter");
    await first.waitFor("[exit 0]");

    // a later run offers the cached list at once, and the server connects with the same list: nothing is said again
    const later = await open();
    await later.waitFor((s) => s.includes("/help for commands") && atPrompt(s));
    await later.type("/mcp");
    await later.keys("Enter");
    const listed = await later.waitFor((s) => s.includes("MCP tools in every request") && atPrompt(s));
    expect(words(listed)).toContain("fs: connected");
    expect(words(listed)).toContain("fs_write_file ~");
    expect(listed).not.toContain("keeps its name");
  },
  E2E_TIMEOUT,
);
