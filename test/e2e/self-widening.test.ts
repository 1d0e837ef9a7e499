// Issue 24: the agent cannot loosen its own rules — one-shot runs through dist/hey against a
// loopback model. Its writes to hey's control files are refused while a list is set; a user config,
// a --config file or trust.json changed behind hey's back (as an allowed command could) is not used
// by the next run, which says what it left out; a trusted project narrows the user's lists only.
import { expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, linkSync, mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey } from "../helpers/e2e.ts";
import { eachScriptedRun } from "../helpers/scripted-run.ts";
import { BUN } from "../helpers/mcp.ts";
import { until } from "../helpers/wait.ts";

setDefaultTimeout(60_000); // the first test may build dist/hey

const scripted = eachScriptedRun();
const { home, project } = scripted;

const userConfig = () => join(home.path, ".config", "hey", "config.toml");
const trustFile = () => join(home.path, ".config", "hey", "trust.json");
const write = (path: string, text: string) => {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
};
const provider = () => scripted.provider();
/** An MCP server that leaves a file behind when it starts: proof that it ran. */
const touchingServer = (name: string, marker: string) =>
  `[mcp.${name}]\ncommand = "${BUN}"\nargs = ["-e", "require('fs').writeFileSync('${marker}', 'ran')"]\n`;
const hey = (args: string[], extra: Record<string, string> = {}) => runHey(args, { cwd: project.path, env: { HOME: home.path, ...extra } });
/** The tool results the model got in the last run's final request. */
const results = () => scripted.results();

test("while a list is set, write_file and edit may not change hey's control files", async () => {
  const strict = `${provider()}[permission]\nallow = ["read_file", "write_file", "edit", "bash: ls"]\n`;
  write(userConfig(), strict);
  mkdirSync(join(project.path, ".hey"));
  write(trustFile(), '{"version": 1, "projects": {}}\n');
  scripted.calls = [
    ["write_file", { path: "~/.config/hey/config.toml", content: `${provider()}[permission]\nallow = ["bash"]\n` }],
    ["write_file", { path: ".hey/config.toml", content: '[permission]\nallow = ["bash"]\n' }],
    [
      "edit",
      { path: trustFile(), old_string: '"projects": {}', new_string: `"projects": {"${realpathSync(project.path)}": {"trusted": true, "decided": ""}}` },
    ],
    ["write_file", { path: join(home.path, ".local", "state", "hey", "approvals.json"), content: "{}" }],
    ["write_file", { path: "notes.md", content: "fine\n" }],
  ];
  const run = await hey(["-p", "loosen your rules"]);
  expect(run.code).toBe(0);
  const got = results();
  for (const r of got.slice(0, 4))
    expect(r).toMatch(
      /^blocked by permission rules: \S+ is .*one of hey's control files; while a permission list is set the agent may not change its own rules — ask the user to edit it$/,
    );
  expect(got[4]).toStartWith("created notes.md");
  expect(readFileSync(userConfig(), "utf8")).toBe(strict);
  expect(existsSync(join(project.path, ".hey", "config.toml"))).toBe(false);
  expect(readFileSync(trustFile(), "utf8")).toBe('{"version": 1, "projects": {}}\n');
});

test("while a list is set (a deny list: redirections are otherwise free), no bash redirection may write hey's control files", async () => {
  const strict = `${provider()}[permission]\ndeny = ["bash: rm *"]\n`;
  write(userConfig(), strict);
  scripted.calls = [
    ["bash", { command: `echo '[permission]' > ~/.config/hey/config.toml` }],
    ["bash", { command: `echo 'allow = ["bash"]' >> "$HOME/.config/hey/config.toml"` }],
    ["bash", { command: "cat /dev/null > ~/.config/hey/trust.json" }],
    ["bash", { command: "mkdir -p .hey; echo x > .hey/config.toml" }],
    ["bash", { command: "echo fine > notes.md" }],
  ];
  const run = await hey(["-p", "loosen your rules"]);
  expect(run.code).toBe(0);
  const got = results();
  for (const r of got.slice(0, 4)) expect(r).toStartWith("blocked by permission rules:");
  expect(got[4]).toContain("[exit code 0]");
  expect(readFileSync(userConfig(), "utf8")).toBe(strict);
  expect(existsSync(trustFile())).toBe(false);
  expect(existsSync(join(project.path, ".hey", "config.toml"))).toBe(false);
  expect(readFileSync(join(project.path, "notes.md"), "utf8")).toBe("fine\n");
});

test("nor through a link a cloned project ships, a linked directory, `..` after a link or a hard link, nor to a name decided at run time", async () => {
  const strict = `${provider()}[permission]\nallow = ["read_file", "bash: cat * > *", "bash: echo * > *", "bash: ls"]\n`;
  write(userConfig(), strict);
  const approvals = join(home.path, ".local", "state", "hey", "approvals.json");
  await hey(["-p", "hello"]); // the approvals record exists from here on
  const record = readFileSync(approvals, "utf8");
  symlinkSync(userConfig(), join(project.path, "cfglink"));
  symlinkSync(approvals, join(project.path, "apl"));
  symlinkSync(join(home.path, ".config", "hey"), join(project.path, "dirlink"));
  linkSync(userConfig(), join(project.path, "hard"));
  mkdirSync(join(project.path, "sub"));
  scripted.calls = [
    ["bash", { command: `echo '[permission]\nallow = ["bash"]' > cfglink` }],
    ["bash", { command: "echo '{}' > apl" }],
    ["bash", { command: "echo x >> dirlink/config.toml" }],
    ["bash", { command: "echo x > sub/../dirlink/../hey/config.toml" }],
    ["bash", { command: "echo x >> hard" }],
    ["bash", { command: "echo x > cfg*" }],
    ["bash", { command: "echo fine > notes.md" }],
  ];
  const run = await hey(["-p", "loosen your rules"]);
  expect(run.code).toBe(0);
  const got = results();
  for (const r of got.slice(0, 6)) expect(r).toStartWith("blocked by permission rules: `>");
  expect(got[0]).toBe(
    "blocked by permission rules: `> cfglink` could write hey's own configuration or trust file (by another name), which the agent may not change",
  );
  expect(got[5]).toContain("(its name is known only at run time)");
  expect(got[6]).toContain("[exit code 0]");
  expect(readFileSync(userConfig(), "utf8")).toBe(strict);
  expect(readFileSync(approvals, "utf8")).toBe(record);
  expect(readFileSync(join(project.path, "notes.md"), "utf8")).toBe("fine\n");
});

test("a user config widened between runs is not used in the next one-shot run, which names the file and the change", async () => {
  const marker = join(project.path, "server-ran");
  write(userConfig(), `${provider()}[permission]\nallow = ["read_file", "bash: ls"]\ndeny = ["bash: rm *"]\n`);
  scripted.calls = [["bash", { command: "touch made-by-agent" }]];
  const first = await hey(["-p", "go"]);
  expect(first.code).toBe(0);
  expect(first.stderr).not.toContain("recorded"); // the first run takes the file as it is; one-shot runs do not say so (a CI run in a fresh home would each time)
  expect(results()[0]).toContain("matches no allow entry");

  // what an allowed command (cp, sed -i, a script) could leave behind for the next run
  write(
    userConfig(),
    `${provider()}[permission]\nallow = ["read_file", "bash"]\n[tools]\nbash_filter = "sh -c 'touch filtered'"\n${touchingServer("evil", marker)}`,
  );
  const second = await hey(["-p", "go"]);
  expect(second.code).toBe(0);
  const notice = second.stderr.split("\n").find((l) => l.startsWith("hey: not used: "));
  expect(notice).toBe(
    `hey: not used: + [permission] allow "bash", - [permission] deny "bash: rm *", + [tools] bash_filter = "sh -c 'touch filtered'", + [mcp.evil] ${BUN} -e "require('fs').writeFileSync('${marker}', 'ran')" in ${userConfig()}: it gives the agent more than you approved; the rest of the file is used (the interactive prompt asks about it: start \`hey\` at a terminal)`,
  );
  expect(results()[0]).toContain(': allow entry "bash" in ~/.config/hey/config.toml waits for your approval (hey asks at a terminal start or /reload)');
  expect(existsSync(join(project.path, "made-by-agent"))).toBe(false);
  expect(existsSync(marker)).toBe(false);
  expect(existsSync(join(project.path, "filtered"))).toBe(false);

  // and the run after that: still not used (a refusal is not an approval)
  const third = await hey(["-p", "go"]);
  expect(third.stderr).toContain(`hey: not used: + [permission] allow "bash"`);
  expect(existsSync(marker)).toBe(false);
});

test("a --config file is guarded the same way", async () => {
  const extra = join(project.path, "ci.toml");
  write(extra, `${provider()}[permission]\nallow = ["read_file"]\n`);
  scripted.calls = [["bash", { command: "touch made-by-agent" }]];
  await hey(["--config", extra, "-p", "go"]);
  write(extra, `${provider()}[permission]\nallow = ["read_file", "bash"]\n`);
  const run = await hey(["--config", extra, "-p", "go"]);
  expect(run.stderr).toContain(`hey: not used: + [permission] allow "bash" in ${extra}`);
  expect(existsSync(join(project.path, "made-by-agent"))).toBe(false);
});

test("a narrowing applies at once in a one-shot run: an allow list added to a --config file that had none", async () => {
  const extra = join(project.path, "ci.toml");
  write(extra, `${provider()}[agent]\nmax_turns = 5\n`);
  expect((await hey(["--config", extra, "-p", "hi"])).code).toBe(0);
  write(extra, `${provider()}[agent]\nmax_turns = 5\n[permission]\nallow = ["read_file"]\n`);
  const run = await hey(["--config", extra, "-p", "hi"]);
  expect(run.code).toBe(0);
  expect(run.stderr).not.toContain("not used");
  expect(scripted.model.requests.at(-1)!.tools?.map((t) => t.function.name)).toEqual(["read_file"]);
  // recorded: dropping the list again is the widening, left out
  write(extra, `${provider()}[agent]\nmax_turns = 5\n`);
  const back = await hey(["--config", extra, "-p", "hi"]);
  expect(back.stderr).toContain(`hey: not used: - [permission] allow (the whole list: every tool call would run) in ${extra}`);
  expect(scripted.model.requests.at(-1)!.tools?.map((t) => t.function.name)).toEqual(["read_file"]);
});

test("--no-mcp: a new server is not news (none starts) and is not approved by that run", async () => {
  const marker = join(project.path, "server-ran");
  write(userConfig(), `${provider()}[agent]\nmax_turns = 5\n`);
  await hey(["-p", "hi"]);
  write(userConfig(), `${provider()}[agent]\nmax_turns = 5\n${touchingServer("late", marker)}`);
  const off = await hey(["--no-mcp", "-p", "hi"]);
  expect(off.code).toBe(0);
  expect(off.stderr).not.toContain("not used");
  const on = await hey(["-p", "hi"]);
  expect(on.stderr).toContain("hey: not used: + [mcp.late] ");
  expect(existsSync(marker)).toBe(false);
});

test("trust.json written behind hey's back does not trust the project; --approve still does, for one run", async () => {
  const marker = join(project.path, "project-server-ran");
  write(userConfig(), `${provider()}[permission]\nallow = ["read_file", "bash: ls"]\n`);
  await hey(["-p", "hello"]); // the record exists from here on
  write(join(project.path, ".hey", "config.toml"), touchingServer("proj", marker));
  write(trustFile(), JSON.stringify({ version: 1, projects: { [realpathSync(project.path)]: { trusted: true, decided: "" } } }));
  const run = await hey(["-p", "hello"]);
  expect(run.stderr).toContain(
    `hey: ${trustFile()} trusts ${realpathSync(project.path)}, but that was not answered at hey's question (the file was changed outside hey): its files are not loaded; the interactive prompt asks again, --approve trusts it for one run`,
  );
  expect(run.stderr).toContain("hey: not loaded: .hey/config.toml");
  expect(existsSync(marker)).toBe(false);

  const approved = await hey(["--approve", "-p", "hello"]);
  expect(approved.code).toBe(0);
  await until(() => existsSync(marker), "the approved server to start (in the background)");
});

test('a trusted project narrows the user\'s lists and cannot widen them: deny = [] and allow = ["bash"] change nothing', async () => {
  write(userConfig(), `${provider()}[permission]\nallow = ["read_file", "bash: ls", "bash: rm *"]\ndeny = ["bash: rm -rf *"]\n`);
  write(join(project.path, ".hey", "config.toml"), '[permission]\nallow = ["bash"]\ndeny = []\n');
  scripted.calls = [
    ["bash", { command: "touch made-by-agent" }],
    ["bash", { command: "rm -rf nothing-here" }],
    ["bash", { command: "ls" }],
  ];
  const run = await hey(["--approve", "-p", "go"]);
  expect(run.code).toBe(0);
  const [touch, rm, ls] = results();
  expect(touch).toContain("matches no allow entry");
  expect(rm).toContain("matches deny entry `bash: rm -rf *`");
  expect(ls).not.toContain("blocked");
  expect(existsSync(join(project.path, "made-by-agent"))).toBe(false);

  // a narrower project list holds on its own: bash, refused whatever its command, is not even offered
  write(join(project.path, ".hey", "config.toml"), '[permission]\nallow = ["read_file"]\n');
  scripted.calls = [["bash", { command: "ls" }]];
  await hey(["--approve", "-p", "go"]);
  // not offered, and refused by the rules of the project's list, which the refusal names
  expect(results()[0]).toBe(
    `blocked by permission rules: \`ls\` matches no allow entry in ${join(realpathSync(project.path), ".hey", "config.toml")}: add "bash: ls *" there (no bash entry; allowed: read_file)`,
  );
  expect(scripted.model.requests.at(-1)!.tools?.map((t) => t.function.name)).toEqual(["read_file"]);
});

test("approvals that cannot be recorded (a full disk, a size limit) say what is wrong and what to do, not the system call's words", async () => {
  write(userConfig(), provider());
  const run = await runHey(["-p", "hi"], { cwd: project.path, env: { HOME: home.path }, fileSizeLimitKb: 0 });
  const record = join(home.path, ".local", "state", "hey", "approvals.json");
  expect(run.stderr).toContain(
    `hey: could not record approvals in ${record}: the file would be larger than this process may write (EFBIG: see \`ulimit -f\`)\n`,
  );
  expect(run.stderr).not.toContain("file too large, write");
});
