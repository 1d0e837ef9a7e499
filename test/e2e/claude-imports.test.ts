// A CLAUDE.md's @imports through dist/hey, as a user switching from Claude Code meets them in a
// cloned repository: a file that holds secrets or that git ignores (the user's `.env`, a local
// config) never reaches the system prompt, trusted or not, and each refusal is one line on stderr
// naming the file and why; whatever text does reach the prompt is redacted as a tool result is;
// trusting is suggested only for an import trust would let in.
import { afterEach, beforeEach, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey, tempDir } from "../helpers/e2e.ts";
import { eachModelServers } from "../helpers/fixtures.ts";
import { systemOf, textOf } from "../helpers/model-server.ts";

setDefaultTimeout(60_000); // the first test may build dist/hey

let home: ReturnType<typeof tempDir>;
let projects: ReturnType<typeof tempDir>;
let repo: string;
beforeEach(() => {
  home = tempDir("hey-home-");
  projects = tempDir("hey-projects-");
  repo = join(realpathSync(projects.path), "p3");
  mkdirSync(join(repo, ".git"), { recursive: true });
});
afterEach(() => {
  home.remove();
  projects.remove();
});
const model = eachModelServers();

const write = (path: string, text: string) => {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
};
const userConfig = (baseUrl: string) =>
  write(
    join(home.path, ".config", "hey", "config.toml"),
    `[default]\nprovider = "mock"\nmodel = "m"\n\n[provider.mock]\nbase_url = "${baseUrl}"\nmodels = ["m"]\n`,
  );
const hey = (args: string[]) => runHey(args, { cwd: repo, env: { HOME: home.path }, timeoutMs: 40_000 });
const lines = (stderr: string, text: string) => stderr.split("\n").filter((l) => l.includes(text));

test("a cloned repository's CLAUDE.md cannot import your .env or a file git ignores; what it imports is redacted; each refusal is said once", async () => {
  write(join(repo, "CLAUDE.md"), "See @.env for config and @secrets.txt and @config/local.json\nScripts: @package.json\nDeploy: @docs/deploy.md\n");
  write(join(repo, ".env"), "STRIPE_KEY=sk_live_51Habcdefghijklmnopqrstuv\nDB_PASSWORD=hunter2\n");
  write(join(repo, "secrets.txt"), "the vault says correcthorse\n");
  write(join(repo, "config", "local.json"), '{"db":"postgres://me:s3cr3tpass@localhost/app"}\n');
  write(join(repo, ".gitignore"), ".env\nsecrets.txt\nconfig/local.json\n");
  write(join(repo, "package.json"), '{"scripts":{"test":"bun test"}}\n');
  write(join(repo, "docs", "deploy.md"), "Deploy with GITHUB_TOKEN=ghp_a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1\n");
  const m = model(() => ({ text: "ok" }));
  userConfig(m.baseUrl);
  const claude = join(repo, "CLAUDE.md");
  for (const args of [
    ["-p", "hi"],
    ["--approve", "-p", "hi"],
  ]) {
    const run = await hey(args);
    expect(run.code).toBe(0);
    const system = systemOf(m.requests.at(-1)!);
    for (const secret of ["sk_live_", "hunter2", "correcthorse", "s3cr3tpass", "ghp_"]) expect(system).not.toContain(secret);
    expect(system).not.toContain(`Instructions from ${join(repo, ".env")}`);
    expect(system).toContain(`Instructions from ${join(repo, "package.json")} (imported by ${claude}):\n{"scripts":{"test":"bun test"}}`);
    expect(system).toContain(`Instructions from ${join(repo, "docs", "deploy.md")} (imported by ${claude}):\nDeploy with GITHUB_TOKEN=[secret: GITHUB_TOKEN]`);
    // said at the first run; the next one (the same imports left out) says nothing of them again
    expect(lines(run.stderr, "never imported")).toEqual(
      args[0] === "-p"
        ? [
            `hey: ${claude}:1: @.env holds secrets (a .env file): never imported`,
            `hey: ${claude}:1: @secrets.txt holds secrets (a credentials file): never imported`,
            `hey: ${claude}:1: @config/local.json is ignored by git (your checkout's own file, not the project's): never imported`,
          ]
        : [],
    );
  }
});

test("an import trust would not let in is named without suggesting to trust; a deeper directory's CLAUDE.md never suggests it", async () => {
  write(join(home.path, ".ssh", "id_rsa"), "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk=\n-----END OPENSSH PRIVATE KEY-----\n");
  write(join(home.path, ".claude", "notes.md"), "my own preferences\n");
  write(join(repo, "CLAUDE.md"), "Key: @~/.ssh/id_rsa\nMine: @~/.claude/notes.md\n");
  write(join(repo, "web", "CLAUDE.md"), "Web: @~/.claude/notes.md\n");
  write(join(repo, "web", "page.txt"), "page\n");
  const m = model((req) => (req.messages.some((x) => x.role === "tool") ? { text: "ok" } : { calls: [["read_file", { path: "web/page.txt" }]] }));
  userConfig(m.baseUrl);
  const claude = join(repo, "CLAUDE.md");
  const key = `hey: ${claude}:1: @~/.ssh/id_rsa holds secrets (under .ssh): never imported`;
  const nested = `hey: ${join(repo, "web", "CLAUDE.md")}:1: @~/.claude/notes.md is outside the project; left out of the prompt (a deeper directory's CLAUDE.md imports from the project only)`;

  const untrusted = await hey(["-p", "read the page"]);
  expect(untrusted.code).toBe(0);
  expect(lines(untrusted.stderr, "@~/")).toEqual([
    key,
    `hey: ${claude}:2: @~/.claude/notes.md is outside the project; left out of the prompt (hey follows it once you trust the project: hey trust)`,
    nested,
  ]);

  const approved = await hey(["--approve", "-p", "read the page"]);
  expect(approved.code).toBe(0);
  // the project's refusal was said at the first run, and is not again; a deeper directory's is said as hey reaches it
  expect(lines(approved.stderr, "@~/")).toEqual([nested]);
  expect(approved.stderr).not.toContain("hey trust");
  const requests = m.requests.slice(-2);
  expect(systemOf(requests[0]!)).toContain(`Instructions from ${join(home.path, ".claude", "notes.md")} (imported by ${claude}):\nmy own preferences`);
  expect(systemOf(requests[0]!)).not.toContain("PRIVATE KEY");
  const result = textOf(requests[1]!.messages.find((x) => x.role === "tool"));
  expect(result).toContain(`Instructions from ${join(repo, "web", "CLAUDE.md")}`);
});
