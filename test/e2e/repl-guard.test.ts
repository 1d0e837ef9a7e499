// Issue 24 in the REPL, in a real terminal (tmux): a change to the rules that gives the agent more
// takes effect only after the user says yes to a question that shows it — at start-up and at
// /reload — and the agent's own attempt to write it is refused. trust.json changed behind hey's
// back makes the trust question come back.
import { afterEach, beforeEach, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey, tempDir } from "../helpers/e2e.ts";
import { BUN } from "../helpers/mcp.ts";
import { lastUserText, reloadNoteOf, startModelServer, systemOf, textOf, type ModelServer, type Turn } from "../helpers/model-server.ts";
import { startTerm, type Term } from "../helpers/tmux.ts";
import { until } from "../helpers/wait.ts";
import { ALL, flat, say } from "./repl-helpers.ts";

setDefaultTimeout(90_000); // the first test may build dist/hey

let home: ReturnType<typeof tempDir>;
let project: ReturnType<typeof tempDir>;
let model: ModelServer;
const terminals: Term[] = [];
beforeEach(() => {
  home = tempDir("hey-home-");
  project = tempDir("hey-project-");
  model = startModelServer((req): Turn => {
    const last = req.messages.at(-1)!;
    if (last.role === "tool") return { text: `the tool said: ${textOf(last).split("\n")[0]}` };
    const said = lastUserText(req);
    if (said === "touch it") return { calls: [["bash", { command: "touch touched" }]] };
    if (said === "loosen") return { calls: [["write_file", { path: ".hey/config.toml", content: '[permission]\nallow = ["bash"]\n' }]] };
    return { text: "ok" };
  });
});
afterEach(async () => {
  for (const t of terminals.splice(0)) await t.close();
  model.stop();
  home.remove();
  project.remove();
});

const userConfigFile = () => join(home.path, ".config", "hey", "config.toml");
const write = (path: string, text: string) => {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
};
const userConfig = (allow: string[]) =>
  `[default]\nprovider = "local"\nmodel = "m1"\n[provider.local]\nbase_url = "${model.baseUrl}"\nmodels = ["m1"]\n[permission]\nallow = ${JSON.stringify(allow)}\n`;
/** An MCP server that leaves a file behind when it starts: proof that it ran. */
const touchingServer = (name: string, marker: string) =>
  `[mcp.${name}]\ncommand = "${BUN}"\nargs = ["-e", "require('fs').writeFileSync('${marker}', 'ran')"]\n`;

async function openRepl(): Promise<Term> {
  const term = await startTerm({ cwd: project.path, cols: 200, rows: 50, env: { HOME: home.path, NO_COLOR: "1" } });
  terminals.push(term);
  return term;
}

/** Answers the question on screen and waits for what follows. */
async function answer(term: Term, text: string, then: RegExp | string): Promise<void> {
  await term.type(text);
  await term.keys("Enter");
  await term.waitFor(then, ALL);
  // and the prompt back: a line typed while hey still works (a server failing after /reload's
  // summary) is kept as type-ahead, unsent — the next say() would wait for nothing
  await term.waitFor((screen) => screen.trimEnd().endsWith("›"));
}

test("start-up: a user config widened since it was approved is shown and asked about; no keeps it out, yes lets it in", async () => {
  write(userConfigFile(), userConfig(["read_file", "bash: ls"]));
  expect((await runHey(["-p", "hi"], { cwd: project.path, env: { HOME: home.path } })).code).toBe(0); // approved as it was
  write(userConfigFile(), userConfig(["read_file", "bash: ls", "bash: touch *"]));

  const first = await openRepl();
  await first.waitFor("Use this change? (y/N)");
  expect(await flat(first)).toContain(
    `${userConfigFile()} would give the agent more than you approved: + [permission] allow "bash: touch *" hey asks before any change that gives the agent more takes effect, whoever made it. Use this change? (y/N)`,
  );
  await answer(first, "n", /^›/m);
  expect(await flat(first)).toContain(
    `hey: not used, not approved: + [permission] allow "bash: touch *" in ${userConfigFile()}; the rest of the file is used (hey asks again at the next start or /reload)`,
  );
  expect((await first.screen(ALL)).split("Use this change? (y/N)").length).toBe(2); // asked once, drawn once
  await say(first, "touch it", "the tool said: blocked by permission rules");
  expect(existsSync(join(project.path, "touched"))).toBe(false);
  await say(first, "/quit", "[exit 0]");

  const second = await openRepl();
  await second.waitFor("Use this change? (y/N)"); // a no is not an approval: asked again
  await answer(second, "y", /^›/m);
  await say(second, "touch it", "the tool said: (no output)");
  expect(existsSync(join(project.path, "touched"))).toBe(true);
  await say(second, "/quit", "[exit 0]");

  const after = await runHey(["-p", "hi"], { cwd: project.path, env: { HOME: home.path } });
  expect(after.stderr).not.toContain("not used");
});

test("/reload: the agent cannot write the project's config; written another way, its new MCP server waits for a yes, and its allow list only narrows", async () => {
  const marker = join(project.path, "server-ran");
  write(userConfigFile(), userConfig(["read_file", "write_file", "bash: ls"]));
  const term = await openRepl();
  await term.waitFor(/^›/m);
  expect(await term.screen(ALL)).not.toContain("Trust this project"); // nothing to guard yet: trusted for the session

  // the attack: allow = ["bash"] in a project that had no .hey/, then /reload
  await say(term, "loosen", "the tool said: blocked by permission rules: .hey/config.toml is");
  expect(existsSync(join(project.path, ".hey", "config.toml"))).toBe(false);

  // written by other means (an allowed command, another program)
  write(join(project.path, ".hey", "config.toml"), `[permission]\nallow = ["bash"]\n${touchingServer("proj", marker)}`);
  await say(term, "/reload", "Use this change? (y/N)");
  const question = await flat(term);
  expect(question).toContain(`${join(project.path, ".hey", "config.toml")} would give the agent more than you approved: + [mcp.proj] ${BUN} -e`);
  expect(question).not.toContain('allow "bash"'); // a project's allow list narrows: nothing to ask
  await answer(term, "n", "hey asks again at the next start or /reload");
  await term.waitFor(/^›/m);
  await say(term, "touch it", "the tool said: blocked by permission rules");
  expect(existsSync(marker)).toBe(false);

  await say(term, "/reload", "Use this change? (y/N)");
  await answer(term, "y", "+ mcp server proj");
  await until(() => existsSync(marker), "the approved project server to start");

  // the user's own list, widened and approved at /reload, still meets the project's narrowing
  write(userConfigFile(), userConfig(["read_file", "write_file", "bash: ls", "bash: touch *"]));
  await say(term, "/reload", "Use this change? (y/N)");
  await answer(term, "y", '~ [permission] allow + "bash: touch *"');
  await say(term, "touch it", "the tool said: (no output)");
  expect(existsSync(join(project.path, "touched"))).toBe(true);
  await say(term, "/quit", "[exit 0]");
});

test('a no at /reload: the note the model reads names the change it was not given, not one "above" that only the user saw', async () => {
  write(userConfigFile(), userConfig(["read_file", "bash: ls"]));
  await runHey(["-p", "hi"], { cwd: project.path, env: { HOME: home.path } }); // the approvals record exists from a run the model answered
  const term = await openRepl();
  await term.waitFor(/^›/m);
  write(userConfigFile(), userConfig(["read_file", "bash: ls", "bash: touch *"]));
  await say(term, "/reload", "Use this change? (y/N)");
  await answer(term, "n", "hey asks again at the next start or /reload");
  await term.waitFor(/^›/m);
  await say(term, "is touch allowed now?", "ok");
  const note = reloadNoteOf(model.requests.at(-1)!) ?? "";
  // before: "warning: not used: the change above; …", where the model saw no change above
  expect(note).toContain(`\nwarning: not used, not approved: + [permission] allow "bash: touch *" in ${userConfigFile()}; the rest of the file is used`);
  expect(note).not.toContain("above");
  await say(term, "/quit", "[exit 0]");
});

test("trust.json written behind hey's back: the trust question comes back, and a yes there is remembered", async () => {
  write(userConfigFile(), userConfig(["read_file"]));
  await runHey(["-p", "hi"], { cwd: project.path, env: { HOME: home.path } }); // the approvals record exists from here on
  write(join(project.path, ".hey", "skills", "deploy", "SKILL.md"), "---\nname: deploy\ndescription: Ship it.\n---\nRun make deploy.\n");
  const trustFile = join(home.path, ".config", "hey", "trust.json");
  write(trustFile, JSON.stringify({ version: 1, projects: { [realpathSync(project.path)]: { trusted: true, decided: "" } } }));

  const first = await openRepl();
  await first.waitFor("Trust this project? (y/N)");
  expect(await flat(first)).toContain(
    `hey: ${trustFile} trusts ${realpathSync(project.path)}, but that was not answered at hey's question (the file was changed outside hey): hey asks again`,
  );
  // under a list the project's .hey/skills are weighed as the user's own are: the trust question shows its skill, and its yes approves it — one question
  expect(await flat(first)).toContain(
    "Trusted, it would load its .hey/skills: this skill, whose text the agent follows as instructions in every session here: + deploy: Ship it. (.hey/skills/deploy/SKILL.md, new): Run make deploy. Trust this project? (y/N)",
  );
  await answer(first, "y", /^›/m);
  expect(await first.screen(ALL)).not.toContain("Use it?");
  await say(first, "hi", "ok");
  expect(systemOf(model.requests.at(-1)!)).toContain("- deploy: Ship it.");
  await say(first, "/quit", "[exit 0]");
  const approvals = JSON.parse(readFileSync(join(home.path, ".local", "state", "hey", "approvals.json"), "utf8"));
  expect(Object.keys(approvals.instructions)).toEqual([join(realpathSync(project.path), ".hey", "skills", "deploy", "SKILL.md")]);

  const second = await openRepl();
  await second.waitFor(/^›/m);
  await say(second, "hi", "ok");
  expect(await second.screen(ALL)).not.toContain("Trust this project");
  expect(await second.screen(ALL)).not.toContain("(y/N)");
  expect(systemOf(model.requests.at(-1)!)).toContain("- deploy: Ship it.");
  expect(readFileSync(join(home.path, ".local", "state", "hey", "approvals.json"), "utf8")).toContain(realpathSync(project.path));
});

test("/reload: a new MCP server whose command is not found is the reload's error, with file and line, and is never asked about", async () => {
  write(userConfigFile(), userConfig(["read_file"]));
  await runHey(["-p", "hi"], { cwd: project.path, env: { HOME: home.path } }); // the approvals record exists from a run the model answered
  const term = await openRepl();
  await term.waitFor(/^›/m);
  const marker = join(project.path, "server-ran");
  write(userConfigFile(), `${userConfig(["read_file"])}[mcp.ghost]\ncommand = "no-such-command-hey-test"\n`);
  const line = userConfig(["read_file"]).split("\n").length; // the table's header, after the lines before it
  const failed = await say(term, "/reload", /^›|Use this change\?/m); // the prompt back, or (the fault) the question
  expect(failed).not.toContain("Use this change?"); // nothing to approve: it cannot start
  expect(failed.replace(/\s+/g, " ")).toContain(
    `hey: /reload changed nothing; fix these and /reload again: ${userConfigFile()}:${line}: [mcp.ghost] command "no-such-command-hey-test" not found on PATH`,
  );
  // fixed: now it can start, so it is asked about, and a yes starts it
  write(userConfigFile(), `${userConfig(["read_file"])}${touchingServer("ghost", marker)}`);
  await say(term, "/reload", "Use this change? (y/N)");
  await answer(term, "y", "+ mcp server ghost");
  await until(() => existsSync(marker), "the approved server to start");
  await say(term, "/quit", "[exit 0]");
});

test("start-up: a new MCP server whose command is not found is said with file and line, never asked about; hey mcp list says the same", async () => {
  write(userConfigFile(), userConfig(["read_file"]));
  await runHey(["-p", "hi"], { cwd: project.path, env: { HOME: home.path } }); // the approvals record exists from a run the model answered
  write(userConfigFile(), `${userConfig(["read_file"])}[mcp.ghost]\ncommand = "no-such-command-hey-test"\n`);
  const line = userConfig(["read_file"]).split("\n").length;
  const missing = `${userConfigFile()}:${line}: [mcp.ghost] command "no-such-command-hey-test" not found on PATH`;
  const list = await runHey(["mcp", "list"], { cwd: project.path, env: { HOME: home.path } });
  const one = (text: string) => text.replace(/\s+/g, " ");
  expect(one(list.stdout + list.stderr)).toContain(`ghost: not started · it cannot start: ${missing}; hey asks about it once that is fixed`);
  expect(list.stdout + list.stderr).not.toContain("start hey to approve it");
  const term = await openRepl();
  await term.waitFor(/^›/m);
  expect(await flat(term)).not.toContain("Use this change?");
  expect(await flat(term)).toContain(`hey: ${missing}; hey asks about MCP server changes once that is fixed (then /reload)`);
  // the model is told why its server is not there, so it fixes the table rather than waiting for a yes
  await say(term, "hi", "ok");
  expect(one(textOf(model.requests.at(-1)!.messages.at(-1)))).toContain(
    `MCP server ghost (~/.config/hey/config.toml) is not started: it cannot start: ${missing}; fix its table (the user is asked about it once it can start).]`,
  );
  await say(term, "/quit", "[exit 0]");
});

test("a no to a new provider's base_url at start-up: the REPL opens, each prompt is refused naming it, and /model to the approved one works", async () => {
  write(userConfigFile(), userConfig(["read_file"]));
  expect((await runHey(["-p", "hi"], { cwd: project.path, env: { HOME: home.path } })).code).toBe(0); // approved as it was
  const other = startModelServer(() => ({ text: "the other server answered" }));
  try {
    write(
      userConfigFile(),
      `[default]\nprovider = "fast"\nmodel = "f1"\n[provider.fast]\nbase_url = "${other.baseUrl}"\nmodels = ["f1"]\n${userConfig(["read_file"]).replace(/^\[default\][^[]*/, "")}`,
    );
    const term = await openRepl();
    await term.waitFor("Use this change? (y/N)");
    await answer(term, "n", "/help for commands");
    await say(term, "hello", "is not approved yet, so hey sends nothing there");
    expect(other.requests).toHaveLength(0);
    await say(term, "/model local/m1", "model: local/m1");
    await say(term, "hello", "ok");
    expect(other.requests).toHaveLength(0);
  } finally {
    other.stop();
  }
});

test("/model to a model a provider not approved does not list: nothing goes there, not even the GET of its model list, which carries the key", async () => {
  write(userConfigFile(), userConfig(["read_file"]));
  expect((await runHey(["-p", "hi"], { cwd: project.path, env: { HOME: home.path } })).code).toBe(0); // approved as it was
  const other = startModelServer(() => ({ text: "the other server answered" }));
  try {
    write(userConfigFile(), `${userConfig(["read_file"])}[provider.fast]\nbase_url = "${other.baseUrl}"\napi_key = "sk-fast-0123456789"\nmodels = ["f1"]\n`);
    const term = await openRepl();
    await term.waitFor("Use this change? (y/N)");
    await answer(term, "n", "/help for commands");
    await say(term, "/model fast/unlisted", "is not approved yet, so hey sends nothing there");
    expect(other.gets).toEqual([]);
    expect(other.requests).toHaveLength(0);
  } finally {
    other.stop();
  }
});

test("a no to a new provider's base_url at /reload: the rest of the edit applies (a new deny entry holds), and the provider gets nothing, as at start-up", async () => {
  write(userConfigFile(), userConfig(["read_file", "bash"]));
  expect((await runHey(["-p", "hi"], { cwd: project.path, env: { HOME: home.path } })).code).toBe(0); // approved as it was
  const other = startModelServer(() => ({ text: "the other server answered" }));
  try {
    const term = await openRepl();
    await term.waitFor(/^›/m);
    // one edit: a new default provider somewhere else, and a narrowing deny entry
    write(
      userConfigFile(),
      `[default]\nprovider = "fast"\nmodel = "f1"\n[provider.fast]\nbase_url = "${other.baseUrl}"\nmodels = ["f1"]\n${userConfig(["read_file", "bash"]).replace(/^\[default\][^[]*/, "")}deny = ["bash: touch *"]\n`,
    );
    await say(term, "/reload", "Use this change? (y/N)");
    await answer(term, "n", "hey asks again at the next start or /reload");
    const reloaded = await flat(term);
    expect(reloaded).not.toContain("/reload changed nothing");
    expect(reloaded).toContain("+ provider fast (base_url not approved: it gets no request)");
    expect(reloaded).toContain('~ [permission] deny + "bash: touch *"');
    await say(term, "!touch touched", "hey: not run:");
    expect(existsSync(join(project.path, "touched"))).toBe(false);
    await say(term, "hello", "is not approved yet, so hey sends nothing there");
    expect(other.requests).toHaveLength(0);
    await say(term, "/model local/m1", "model: local/m1");
    await say(term, "hello", "ok");
    expect(other.requests).toHaveLength(0);
    await say(term, "/quit", "[exit 0]");
  } finally {
    other.stop();
  }
});
