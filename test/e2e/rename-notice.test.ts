// The notice that an MCP server's tool is offered under another name (hey has a tool of that name)
// is said once per change of the server's tool list, not at every start: the run that first sees
// the list says it, later runs with the same list are quiet — and the model's call to the renamed
// tool still runs — until the server lists other tools, when it is said again. /mcp always shows
// the names the model sees. The server's tools come from a file, so its configuration (and the
// cache key) stays the same while its list changes.
import { expect, setDefaultTimeout, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureBinary, runHey } from "../helpers/e2e.ts";
import { eachModelServers, eachTempDir, writeUserConfig } from "../helpers/fixtures.ts";
import { BUN, FAKE_SERVER } from "../helpers/mcp.ts";
import { resultText, type ChatRequest } from "../helpers/model-server.ts";

setDefaultTimeout(120_000);

const home = eachTempDir("hey-rename-notice-");
const model = eachModelServers();
const hey = (args: string[]) => runHey(args, { env: { HOME: home.path }, cwd: home.path, timeoutMs: 60_000 });
const toolNames = (req: ChatRequest) => (req.tools ?? []).map((t) => t.function.name);
const WRITE = "hey: MCP server notes's tool write_file is offered as notes_write_file: hey's own write_file keeps its name";
const GREP = "hey: MCP server notes's tool grep is offered as notes_grep: hey's own grep keeps its name";

test("the renaming is said by the run that first sees the list, not by the next ones, and again once the server's list changed", async () => {
  await ensureBinary();
  const list = join(home.path, "tools");
  writeFileSync(list, "write_file,lookup");
  // the model calls the server's write_file by the name it is offered under, then says what it got
  const m = model((req) => {
    const last = req.messages.at(-1)!;
    if (last.role === "tool") return { text: `done: ${resultText(last)}` };
    return toolNames(req).includes("notes_write_file") ? { calls: [["notes_write_file", { text: "milk" }]] } : { text: "no notes_write_file" };
  });
  const server = `exec ${JSON.stringify(BUN)} ${JSON.stringify(FAKE_SERVER)} ok notes "$(cat ${JSON.stringify(list)})"`;
  writeUserConfig(
    home.path,
    `[default]\nprovider = "mock"\nmodel = "m"\n\n[provider.mock]\nbase_url = "${m.baseUrl}"\nmodels = ["m"]\n\n` +
      `[mcp.notes]\ncommand = "/bin/sh"\nargs = ["-c", ${JSON.stringify(server)}]\n`,
  );

  const first = await hey(["-p", "note milk"]);
  expect(first.stdout).toBe("done: notes: milk\n");
  expect(first.stderr).toContain(`${WRITE}\n`);

  // the same list (cached, then listed again when the call started the server): quiet, and the call runs
  const second = await hey(["-p", "note milk"]);
  expect(second.code).toBe(0);
  expect(second.stdout).toBe("done: notes: milk\n");
  expect(second.stderr).not.toContain("keeps its name");
  const status = await hey(["-p", "/mcp"]);
  expect(status.stdout).toContain("notes_write_file ~");
  expect(status.stderr).not.toContain("keeps its name");

  // the server lists one more tool: its renamings are said again, the new one with them
  writeFileSync(list, "write_file,lookup,grep");
  const changed = await hey(["-p", "note milk"]);
  // the cached list went with the first request; the one the server lists now has grep: the model is told of it
  expect(changed.stdout).toMatch(/^done: notes: milk\n\[#\w+\]\n\n\[hey: the MCP tools offered changed since the last request:\n\+ tools notes_grep\]\n$/);
  expect(changed.stderr).toContain(`${WRITE}\n`);
  expect(changed.stderr).toContain(`${GREP}\n`);
  const after = await hey(["-p", "note milk"]);
  expect(after.stdout).toBe("done: notes: milk\n");
  expect(after.stderr).not.toContain("keeps its name");
  expect(toolNames(m.requests.at(-1)!)).toEqual(expect.arrayContaining(["notes_write_file", "notes_grep", "write_file", "grep"]));
});

test("two servers' tools of one name: the clash is said on the first run only; a call by the plain name is told the names to call", async () => {
  await ensureBinary();
  const fake = (name: string) => `\n[mcp.${name}]\ncommand = ${JSON.stringify(BUN)}\nargs = ${JSON.stringify([FAKE_SERVER, "ok", name, "lookup"])}\n`;
  // told of "lookup" (by the user, a skill, an earlier session), the model calls it by that name first
  const m = model((req) => {
    const last = req.messages.at(-1)!;
    if (last.role !== "tool") return { calls: [["lookup", { text: "milk" }]] };
    const said = resultText(last);
    return said.startsWith("unknown tool") ? { calls: [["beta_lookup", { text: "milk" }]] } : { text: `${said} after: ${resultText(req.messages.at(-3))}` };
  });
  writeUserConfig(
    home.path,
    `[default]\nprovider = "mock"\nmodel = "m"\n\n[provider.mock]\nbase_url = "${m.baseUrl}"\nmodels = ["m"]\n${fake("alpha")}${fake("beta")}`,
  );
  const CLASH = "hey: MCP servers alpha and beta both offer a tool named lookup; the model sees alpha_lookup and beta_lookup\n";
  const told = `unknown tool "lookup": it is offered as alpha_lookup (MCP server alpha's lookup), beta_lookup (MCP server beta's lookup); call one of those`;

  const first = await hey(["-p", "look up milk"]);
  expect(first.stdout).toBe(`beta: milk after: ${told}\n`);
  expect(first.stderr).toContain(CLASH);
  const second = await hey(["-p", "look up milk"]);
  expect(second.stdout).toBe(`beta: milk after: ${told}\n`);
  expect(second.stderr).not.toContain("both offer");
});
