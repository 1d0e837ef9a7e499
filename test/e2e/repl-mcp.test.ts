// The evolution loop in the REPL, in a real terminal (tmux; SPEC §14, seed §6.3): the model adds
// an [mcp.fs] table for the filesystem server with write_file; `/reload` starts it (the
// connected line appears above the prompt); the next request offers its tools and a call returns
// real content; `/mcp` lists it; a /reload naming a command that does not exist changes nothing.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { appendFileSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers/e2e.ts";
import { FS_SERVER } from "../helpers/mcp.ts";
import { startModelServer, textOf, type ChatRequest, type ModelServer } from "../helpers/model-server.ts";
import { startTerm, type Term } from "../helpers/tmux.ts";
import { lastLine } from "./repl-helpers.ts";

const E2E_TIMEOUT = 120_000;
let home: ReturnType<typeof tempDir>;
let model: ModelServer | undefined;
let term: Term | undefined;
beforeEach(() => {
  home = tempDir("hey-repl-mcp-");
});
afterEach(async () => {
  await term?.close();
  model?.stop();
  home.remove();
});

const atPrompt = (s: string) => lastLine(s).trimEnd() === "›";
const toolNames = (req: ChatRequest) => (req.tools ?? []).map((t) => t.function.name);

test(
  "the model adds the filesystem server; /reload shows it and, after a yes, starts it; its tools answer the next message; /mcp lists it",
  async () => {
    const notes = join(home.path, "notes");
    mkdirSync(notes);
    writeFileSync(join(notes, "todo.md"), "- water the plants\n");
    const root = realpathSync(notes);
    const configFile = join(home.path, ".config", "hey", "config.toml");
    let baseUrl = "";
    const provider = () => `[default]\nprovider = "mock"\nmodel = "m"\n\n[provider.mock]\nbase_url = "${baseUrl}"\nmodels = ["m"]\n`;
    model = startModelServer((req) => {
      const last = req.messages.at(-1)!;
      if (last.role === "tool")
        return { text: last.content && textOf(last).includes("[FILE]") ? `Your notes: ${textOf(last)}` : "Added the fs server; run /reload." };
      if (toolNames(req).includes("list_directory")) return { calls: [["list_directory", { path: root }]] };
      const table = `\n[mcp.fs]\ncommand = "node"\nargs = [${JSON.stringify(FS_SERVER)}, ${JSON.stringify(root)}]\n`;
      // write_file overwrites only a file read this run
      return {
        calls: [
          ["read_file", { path: configFile }],
          ["write_file", { path: configFile, content: provider() + table }],
        ],
      };
    });
    baseUrl = model.baseUrl;
    mkdirSync(join(home.path, ".config", "hey"), { recursive: true });
    writeFileSync(configFile, provider());

    term = await startTerm({ env: { HOME: home.path }, cols: 120, rows: 40 });
    const t = term;
    await t.waitFor(atPrompt);
    await t.type("connect the filesystem server for my notes");
    await t.keys("Enter");
    await t.waitFor("Added the fs server; run /reload.");
    expect(toolNames(model.requests[0]!)).not.toContain("list_directory");
    expect(readFileSync(configFile, "utf8")).toContain("[mcp.fs]");

    await t.waitFor(atPrompt);
    await t.type("/reload");
    await t.keys("Enter");
    // a server the agent added runs only after the user says yes to it (issue 24)
    const question = await t.waitFor("Use this change? (y/N)");
    // wrapped where the checkout's path puts the breaks (inside the path too): matched without them
    expect(question.replace(/\s+/g, "")).toContain(`+[mcp.fs]node${FS_SERVER}${root}`);
    await t.type("y");
    await t.keys("Enter");
    await t.waitFor("+ mcp server fs");
    // printed above the prompt, which is drawn again (a capture may fall between the two: wait for both)
    await t.waitFor((s) => /connected: fs \(\d+ tools\)/.test(s) && atPrompt(s));

    await t.type("what is in my notes?");
    await t.keys("Enter");
    const answered = await t.waitFor("Your notes: [FILE] todo.md");
    expect(answered.replace(/\s+/g, " ")).toContain(`list_directory (fs) ${root}`); // an MCP tool's line names its server
    // its read_file and write_file keep off hey's names (issue 26): said when it connected, before any question, once
    const said = answered.indexOf("hey: MCP server fs's tool read_file is offered as fs_read_file: hey's own read_file keeps its name");
    expect(said).toBeGreaterThan(answered.indexOf("connected: fs"));
    expect(said).toBeLessThan(answered.indexOf("› what is in my notes?"));
    expect(answered.split("is offered as fs_read_file")).toHaveLength(2);
    const asked = model.requests.find((r) => textOf(r.messages.findLast((m) => m.role === "user")) === "what is in my notes?")!;
    expect(toolNames(asked)).toEqual(expect.arrayContaining(["list_directory", "read_text_file", "fs_read_file", "read_file", "write_file"]));
    expect(asked.messages.some((m) => textOf(m) === "connect the filesystem server for my notes")).toBe(true); // the same conversation

    await t.waitFor(atPrompt);
    await t.type("/mcp");
    await t.keys("Enter");
    await t.waitFor(/fs: connected · \d+ tools, ~[\d,]+ tokens per request\n {2}fs_read_file ~\d+, read_text_file ~\d+/);

    // a server whose command does not exist: /reload changes nothing and says where (SPEC §23)
    appendFileSync(configFile, '\n[mcp.ghost]\ncommand = "no-such-mcp-server-x"\n');
    const ghostLine = readFileSync(configFile, "utf8").split("\n").indexOf("[mcp.ghost]") + 1;
    await t.waitFor(atPrompt);
    await t.type("/reload");
    await t.keys("Enter");
    // checked before it is asked about (issue 24): a server that cannot start is the reload's error, not a question
    const refused = await t.waitFor("fix these and /reload again", { joined: true });
    expect(refused.replace(/\s+/g, " ")).toContain(`${configFile}:${ghostLine}: [mcp.ghost] command "no-such-mcp-server-x" not found on PATH`);
    expect(refused.slice(refused.lastIndexOf("› /reload"))).not.toContain("Use this change?");
    await t.waitFor(atPrompt);
    await t.type("/mcp");
    await t.keys("Enter");
    const still = await t.waitFor(
      /› \/mcp\nfs: connected · \d+ tools, ~[\d,]+ tokens per request\n(?: {2}[^\n]*\n)+MCP tools in every request: \d+, ~[\d,]+ tokens \(hey's own tools: ~[\d,]+\)\n›\s*$/,
      { joined: true },
    ); // the tool names wrap at the width
    expect(still.slice(still.lastIndexOf("› /mcp"))).not.toContain("ghost"); // fs kept, ghost never started
  },
  E2E_TIMEOUT,
);
