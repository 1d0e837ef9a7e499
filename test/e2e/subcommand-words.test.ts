// hey's own commands with a flag after them: `hey mcp` takes those its usage names (`hey mcp --config
// FILE`), and `hey trust` refuses one it does not take with its usage — where both used to say the
// command goes first, before any flag, though it was first. `hey mcp list` — what Claude Code and
// Codex users type — is `hey mcp`: none of these goes to the model as a prompt, nor does a typo of
// a subcommand (`hey mcp lst`).
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey } from "../helpers/e2e.ts";
import { eachModelServers, eachTempDir, writeUserConfig } from "../helpers/fixtures.ts";
import { BUN, FAKE_SERVER } from "../helpers/mcp.ts";
import { lastUserText } from "../helpers/model-server.ts";

const home = eachTempDir("hey-mcp-words-");
const model = eachModelServers();

const toml = (s: string) => JSON.stringify(s);

function setUp(): { asked: () => string[]; extra: string } {
  const m = model((req) => ({ text: `answered: ${lastUserText(req)}` }));
  writeUserConfig(home.path, `[provider.local]\nbase_url = "${m.baseUrl}"\nmodels = ["m"]\n`);
  const extra = join(home.path, "extra.toml");
  writeFileSync(extra, `[mcp.alpha]\ncommand = ${toml(BUN)}\nargs = ${JSON.stringify([FAKE_SERVER, "ok", "alpha", "echo"])}\n`);
  return { asked: () => m.requests.map(lastUserText), extra };
}

const hey = (args: string[]) => runHey(args, { cwd: home.path, env: { HOME: home.path } });

test("hey mcp --config FILE lists the servers of that file (it used to say mcp goes first, before any flag)", async () => {
  const { asked, extra } = setUp();
  const r = await hey(["mcp", "--config", extra]);
  expect(r.stderr).not.toContain("goes first");
  expect(r.code).toBe(0);
  expect(r.stdout).toContain("alpha: connected");
  expect(asked()).toEqual([]);
});

test("hey mcp list is hey mcp, with or without flags; more words are a prompt; a word after flags is refused", async () => {
  const { asked, extra } = setUp();
  const plain = await hey(["mcp", "list"]);
  expect(plain.code).toBe(0);
  expect(plain.stdout).toContain("no MCP servers in use");
  const flagged = await hey(["mcp", "list", "--config", extra]);
  expect(flagged.code).toBe(0);
  expect(flagged.stdout).toContain("alpha: connected");
  expect(asked()).toEqual([]);

  const prompt = await hey(["mcp", "list", "the", "servers", "you", "know"]);
  expect(prompt.code).toBe(0);
  expect(prompt.stdout).toContain("answered: mcp list the servers you know");

  const stray = await hey(["mcp", "--config", extra, "alpha"]);
  expect(stray.code).toBe(2);
  expect(stray.stderr).toContain('takes flags only, got "alpha"');
  expect(asked()).toHaveLength(1);
});

test("hey mcp lst, hey mcp logni github: a typo of a subcommand is refused with the one meant (exit 2), not sent as a prompt; -p sends it", async () => {
  const { asked } = setUp();
  const lst = await hey(["mcp", "lst"]);
  expect(lst.code).toBe(2);
  expect(lst.stderr).toBe('hey: unknown command hey mcp lst; did you mean hey mcp list? (to send it as a prompt: hey -p "mcp lst")\n');
  const login = await hey(["mcp", "logni", "github"]);
  expect(login.code).toBe(2);
  expect(login.stderr).toContain("did you mean hey mcp login?");
  expect(asked()).toEqual([]);
  // what is no near miss, or says more, stays a prompt
  expect((await hey(["mcp", "hello"])).stdout).toContain("answered: mcp hello");
  expect((await hey(["mcp", "lst", "is", "what", "I", "typed"])).stdout).toContain("answered: mcp lst is what I typed");
  expect((await hey(["-p", "mcp lst"])).stdout).toContain("answered: mcp lst");
  expect(asked()).toHaveLength(3);
});

test("hey mcp add / remove / get (Claude Code's and Codex's commands): refused with what does it in hey, the table to write for an add; never a prompt", async () => {
  const { asked, extra } = setUp();
  const add = await hey(["mcp", "add", "github", "--", "npx", "-y", "mcp-server-github"]);
  expect(add.code).toBe(2);
  expect(add.stderr).toStartWith("hey: hey has no command hey mcp add: add an [mcp.NAME] table");
  expect(add.stderr).toEndWith('; this one:\n[mcp.github]\ncommand = "npx"\nargs = ["-y", "mcp-server-github"]\n');
  const url = await hey(["mcp", "add", "docs", "https://mcp.example.com/mcp"]);
  expect(url.stderr).toEndWith('; this one:\n[mcp.docs]\nurl = "https://mcp.example.com/mcp"\n');
  const remove = await hey(["mcp", "remove", "github"]);
  expect(remove.code).toBe(2);
  expect(remove.stderr).toContain("delete the server's [mcp.NAME] table");
  expect((await hey(["mcp", "get", "alpha"])).stderr).toContain("hey mcp lists each server with its state and tools");
  // flags first, then the subcommand's words: the subcommand goes first
  const late = await hey(["--config", extra, "mcp", "list"]);
  expect(late.code).toBe(2);
  expect(late.stderr).toBe("hey: mcp list is a command of hey's own and goes first, before any flag: hey mcp list … (as a prompt: add more words)\n");
  const lateAdd = await hey(["--config", extra, "mcp", "add", "fs", "--", "npx", "srv"]);
  expect(lateAdd.code).toBe(2);
  expect(lateAdd.stderr).toStartWith("hey: hey has no command mcp add: run hey mcp add alone to see what does it");
  expect(asked()).toEqual([]);
});

test("hey trust with a flag it does not take: refused with its usage, not told to go first", async () => {
  const { asked } = setUp();
  for (const flag of ["--approve", "-p"]) {
    const r = await hey(["trust", flag]);
    expect(r.code).toBe(2);
    expect(r.stderr).toStartWith(`hey trust: unknown flag ${flag}\nusage: hey trust [DIR]`);
  }
  expect((await hey(["trust", "--revoke", "--approve"])).stderr).toStartWith("hey trust: unknown flag --approve\n");
  expect(asked()).toEqual([]);
});

test("hey doctr, hey upgrdae, hey sesions: one word that is a slip for a command is refused (exit 2), nothing sent or saved; hey help is the help", async () => {
  const { asked } = setUp();
  const doctr = await hey(["doctr"]);
  expect(doctr.code).toBe(2);
  expect(doctr.stderr).toBe('hey: unknown command hey doctr; did you mean hey doctor? (to send it as a prompt: hey -p "doctr")\n');
  expect((await hey(["upgrdae"])).stderr).toContain("did you mean hey upgrade?");
  const sessions = await hey(["sesions"]);
  expect(sessions.code).toBe(2);
  expect(sessions.stderr).toContain("hey --sessions lists this directory's sessions");
  expect(asked()).toEqual([]);
  expect((await hey(["--sessions"])).stdout).not.toContain("doctr");
  const help = await hey(["help"]);
  expect(help.code).toBe(0);
  expect(help.stdout).toStartWith("hey ");
  expect(help.stdout).toContain("Usage: hey");
  expect(asked()).toEqual([]);
  expect((await hey(["test"])).stdout).toContain("answered: test"); // a word a prompt would be
});

test("hey mcp WORD where WORD is a name every object has (constructor, toString): a prompt, as before", async () => {
  const { asked } = setUp();
  const r = await hey(["mcp", "constructor", "of", "the", "parser", "is", "slow"]);
  expect(r.stderr).not.toContain("has no command");
  expect(r.stdout).toContain("answered: mcp constructor of the parser is slow");
  expect(asked()).toHaveLength(1);
});

test("hey skills list / ls is hey skills; hey skills --help prints its usage; one stray word after skills, mcp list or trust DIR is refused (exit 2), more words are a prompt", async () => {
  const { asked } = setUp();
  for (const verb of ["list", "ls"]) {
    const r = await hey(["skills", verb]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("No skills.");
  }
  const help = await hey(["skills", "--help"]);
  expect(help.code).toBe(0);
  expect(help.stdout).toStartWith("usage: hey skills [list]");
  const ls = await hey(["mcp", "ls"]);
  expect(ls.code).toBe(0);
  expect(ls.stdout).toContain("no MCP servers in use");
  expect(asked()).toEqual([]);

  const skills = await hey(["skills", "foo"]);
  expect(skills.code).toBe(2);
  expect(skills.stderr).toBe(
    'hey skills: unknown argument "foo": hey skills takes flags only (to send it as a prompt: hey -p "skills foo")\nusage: hey skills [list] [--config FILE] [--approve]\n  lists the skills as /skills does: each with its folder, its description\'s start and whether the model sees it\n',
  );
  expect((await hey(["skills", "list", "all"])).code).toBe(2);
  const servers = await hey(["mcp", "list", "servers"]);
  expect(servers.code).toBe(2);
  expect(servers.stderr).toStartWith(
    'hey mcp: hey mcp list takes flags only, got "servers" (to send it as a prompt: hey -p "mcp list servers")\nusage: hey mcp [list]',
  );
  const trust = await hey(["trust", ".", "extra"]);
  expect(trust.code).toBe(2);
  expect(trust.stderr).toStartWith('hey trust: unknown argument "extra" after . (to send it as a prompt: hey -p "trust . extra")\nusage: hey trust [DIR]');
  expect(asked()).toEqual([]);

  // a sentence after the command word stays a prompt
  expect((await hey(["skills", "for", "a", "rust", "repo"])).stdout).toContain("answered: skills for a rust repo");
  expect((await hey(["trust", "me", "on", "this"])).stdout).toContain("answered: trust me on this");
  expect(asked()).toHaveLength(2);
});

test("hey skills help / hey mcp help alone print the usage; a prompt that starts with help reaches the model (it used to print the usage, exit 0)", async () => {
  const { asked } = setUp();
  for (const args of [
    ["skills", "help"],
    ["skills", "list", "help"],
  ]) {
    const r = await hey(args);
    expect(r.code).toBe(0);
    expect(r.stdout).toStartWith("usage: hey skills [list]");
  }
  for (const args of [
    ["mcp", "help"],
    ["mcp", "help", "login"],
  ]) {
    const r = await hey(args);
    expect(r.code).toBe(0);
    expect(r.stdout).toStartWith("usage: hey mcp [list]");
    for (const line of r.stdout.split("\n")) expect(line.length).toBeLessThanOrEqual(80); // an 80-column terminal breaks none mid-word
  }
  expect(asked()).toEqual([]);

  const skills = await hey(["skills", "help", "me", "write", "a", "skill", "for", "rust"]);
  expect(skills.code).toBe(0);
  expect(skills.stdout).toContain("answered: skills help me write a skill for rust");
  expect((await hey(["skills", "help", "me"])).stdout).toContain("answered: skills help me");
  expect((await hey(["mcp", "help", "me", "add", "github"])).stdout).toContain("answered: mcp help me add github");
  expect(asked()).toHaveLength(3);
});

test("hey doctor --bogus: refused with the doctor's usage, without advice on sending a prompt (no prompt goes after a command)", async () => {
  const r = await hey(["doctor", "--bogus"]);
  expect(r.code).toBe(2);
  expect(r.stderr).toStartWith("hey doctor: unknown flag --bogus (see hey --help)\nusage: hey doctor [PROVIDER]");
  for (const line of r.stderr.split("\n").slice(1)) expect(line.length).toBeLessThanOrEqual(80);
  expect(r.stderr).not.toContain("put --");
  expect((await hey(["-p", "--bogus"])).stderr).toContain('put -- before a message that starts with - (hey -p -- "--bogus")'); // a prompt's still is
});
