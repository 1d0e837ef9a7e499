// AGENTS.md discovery (SPEC §11, §24) against real directories: the git root above the working
// directory, nested files in order, no git, a symlinked directory, the CLAUDE.md fallback (and
// .claude/CLAUDE.md; the user's rules for Codex or Claude Code when hey has none), the
// size cap, unreadable files, and re-reading only what changed.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { agentsChanges, agentsPlaces, readAgentsFiles } from "../../src/prompt/agents-md.ts";
import { AGENTS_MD_MAX_BYTES } from "../../src/prompt/system.ts";
import { tempDir } from "../helpers/e2e.ts";

let tmp: ReturnType<typeof tempDir>;
let root: string; // real path: the temp dir may sit behind a link (macOS /tmp)
let user: string;
beforeEach(() => {
  tmp = tempDir("hey-agents-");
  root = realpathSync(tmp.path);
  user = join(root, "home", ".config", "hey");
  mkdirSync(user, { recursive: true });
});
afterEach(() => tmp.remove());

function put(path: string, text: string): void {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
}
/** path → first line of every file read for `cwd` */
const read = (cwd: string) => readAgentsFiles(agentsPlaces(cwd, user));
const summary = (cwd: string) => read(cwd).files.map((f) => [f.path.slice(root.length), f.text]);

describe("discovery", () => {
  test("the user's file first, then every AGENTS.md from the git root down to the working directory", () => {
    put(join(user, "AGENTS.md"), "mine");
    mkdirSync(join(root, "repo", ".git"), { recursive: true });
    put(join(root, "AGENTS.md"), "above the repository: not read");
    put(join(root, "repo", "AGENTS.md"), "repo");
    put(join(root, "repo", "a", "AGENTS.md"), "a");
    mkdirSync(join(root, "repo", "a", "b", "c"), { recursive: true }); // b has none
    put(join(root, "repo", "a", "b", "c", "AGENTS.md"), "c");
    expect(summary(join(root, "repo", "a", "b", "c"))).toEqual([
      ["/home/.config/hey/AGENTS.md", "mine"],
      ["/repo/AGENTS.md", "repo"],
      ["/repo/a/AGENTS.md", "a"],
      ["/repo/a/b/c/AGENTS.md", "c"],
    ]);
  });

  test("a .git file (a worktree or submodule) marks the root too", () => {
    put(join(root, "wt", ".git"), "gitdir: /elsewhere\n");
    put(join(root, "wt", "AGENTS.md"), "worktree");
    mkdirSync(join(root, "wt", "src"));
    expect(summary(join(root, "wt", "src"))).toEqual([["/wt/AGENTS.md", "worktree"]]);
  });

  test("without git only the working directory's file is read", () => {
    put(join(root, "AGENTS.md"), "parent");
    put(join(root, "dir", "AGENTS.md"), "here");
    expect(summary(join(root, "dir"))).toEqual([["/dir/AGENTS.md", "here"]]);
  });

  test("a working directory reached through a symlink finds the repository it really is in", () => {
    mkdirSync(join(root, "repo", ".git"), { recursive: true });
    put(join(root, "repo", "AGENTS.md"), "repo");
    put(join(root, "repo", "sub", "AGENTS.md"), "sub");
    symlinkSync(join(root, "repo", "sub"), join(root, "link"));
    expect(summary(join(root, "link"))).toEqual([
      ["/repo/AGENTS.md", "repo"],
      ["/repo/sub/AGENTS.md", "sub"],
    ]);
  });

  test("an AGENTS.md linking inside the project is followed; one linking outside it is left out with a warning", () => {
    mkdirSync(join(root, "repo", ".git"), { recursive: true });
    put(join(root, "repo", "docs", "agents.md"), "shared rules");
    symlinkSync(join(root, "repo", "docs", "agents.md"), join(root, "repo", "AGENTS.md"));
    put(join(root, "secret"), "a private key");
    mkdirSync(join(root, "repo", "sub"));
    symlinkSync(join(root, "secret"), join(root, "repo", "sub", "AGENTS.md"));
    const got = read(join(root, "repo", "sub"));
    expect(got.files.map((f) => f.text)).toEqual(["shared rules"]);
    expect(got.warnings).toEqual([
      `${join(root, "repo", "sub", "AGENTS.md")} is a link to ${join(root, "secret")}, outside the project; left out of the prompt`,
    ]);
  });

  test.each([
    ["CLAUDE.md only", ["CLAUDE.md"], "CLAUDE.md"],
    ["both: AGENTS.md wins", ["AGENTS.md", "CLAUDE.md"], "AGENTS.md"],
    ["AGENTS.md only", ["AGENTS.md"], "AGENTS.md"],
    ["Claude Code's .claude/CLAUDE.md only", [".claude/CLAUDE.md"], ".claude/CLAUDE.md"],
    ["CLAUDE.md and .claude/CLAUDE.md: CLAUDE.md wins", ["CLAUDE.md", ".claude/CLAUDE.md"], "CLAUDE.md"],
  ])("a directory with %s", (_, names, used) => {
    for (const name of names) put(join(root, "p", name), name);
    expect(summary(join(root, "p"))).toEqual([[`/p/${used}`, used]]);
  });

  test("with no AGENTS.md of hey's, the user's rules for Codex, else for Claude Code, are the user's file", () => {
    const home = join(root, "home");
    const peers = { claudeDir: join(home, ".claude"), codexDir: join(home, ".codex") };
    const mine = (cwd: string) => readAgentsFiles(agentsPlaces(cwd, user, peers)).files.map((f) => [f.path.slice(root.length), f.text]);
    mkdirSync(join(root, "p"));
    put(join(home, ".claude", "CLAUDE.md"), "claude rules");
    expect(mine(join(root, "p"))).toEqual([["/home/.claude/CLAUDE.md", "claude rules"]]);
    put(join(home, ".codex", "AGENTS.md"), "codex rules");
    expect(mine(join(root, "p"))).toEqual([["/home/.codex/AGENTS.md", "codex rules"]]);
    put(join(user, "AGENTS.md"), "mine");
    expect(mine(join(root, "p"))).toEqual([["/home/.config/hey/AGENTS.md", "mine"]]);
  });

  test("the user's rules are read where Codex and Claude Code keep them ($CODEX_HOME, $CLAUDE_CONFIG_DIR), not in the home folder they left", () => {
    const home = join(root, "home");
    const peers = { claudeDir: join(home, ".config", "claude"), codexDir: join(home, ".config", "codex") };
    const mine = () => readAgentsFiles(agentsPlaces(join(root, "p"), user, peers)).files.map((f) => [f.path.slice(root.length), f.text]);
    mkdirSync(join(root, "p"));
    put(join(home, ".codex", "AGENTS.md"), "stale codex rules");
    put(join(home, ".claude", "CLAUDE.md"), "stale claude rules");
    expect(mine()).toEqual([]);
    put(join(home, ".config", "claude", "CLAUDE.md"), "claude rules");
    expect(mine()).toEqual([["/home/.config/claude/CLAUDE.md", "claude rules"]]);
    put(join(home, ".config", "codex", "AGENTS.md"), "codex rules");
    expect(mine()).toEqual([["/home/.config/codex/AGENTS.md", "codex rules"]]);
  });

  test("the user's directory holds AGENTS.md only (its CLAUDE.md belongs to another tool)", () => {
    put(join(user, "CLAUDE.md"), "not hey's");
    mkdirSync(join(root, "p"));
    expect(summary(join(root, "p"))).toEqual([]);
  });
});

describe("content", () => {
  test("a file over 32 KB is cut at its last whole line, marked truncated; BOM and CRLF are cleaned", () => {
    const line = "x".repeat(99) + "\r\n";
    put(join(root, "p", "AGENTS.md"), "\uFEFF" + line.repeat(400)); // 40,000 bytes
    const [file] = read(join(root, "p")).files;
    expect(file!.truncated).toBe(true);
    expect(file!.text.length).toBeLessThanOrEqual(AGENTS_MD_MAX_BYTES);
    expect(file!.text).toBe(("x".repeat(99) + "\n").repeat(Math.floor(AGENTS_MD_MAX_BYTES / 101) - 1) + "x".repeat(99));
  });

  test("an unreadable file is a one-line warning, the others are still read; an empty one is skipped", () => {
    mkdirSync(join(root, "repo", ".git"), { recursive: true });
    mkdirSync(join(root, "repo", "AGENTS.md")); // a directory: cannot be read as a file
    put(join(root, "repo", "sub", "AGENTS.md"), "  \n");
    put(join(user, "AGENTS.md"), "mine");
    const got = read(join(root, "repo", "sub"));
    expect(got.files.map((f) => f.text)).toEqual(["mine"]);
    expect(got.warnings).toEqual([`${join(root, "repo", "AGENTS.md")}: cannot read (EISDIR); left out of the prompt`]);
  });
});

test("changes between two readings", () => {
  const f = (path: string, text: string) => ({ path, text, truncated: false });
  expect(agentsChanges([f("/a", "1"), f("/b", "1")], [f("/b", "2"), f("/c", "1")])).toEqual(["~ AGENTS.md /b", "+ AGENTS.md /c", "- AGENTS.md /a"]);
  expect(agentsChanges([f("/a", "1")], [f("/a", "1")])).toEqual([]);
});

describe("a CLAUDE.md's @path imports", () => {
  const repo = () => join(root, "repo");
  beforeEach(() => mkdirSync(join(root, "repo", ".git"), { recursive: true }));

  test("each imported file follows its importer, relative to it, imports of imports too; the @ words stay", () => {
    put(join(repo(), "CLAUDE.md"), "Rules: @docs/style.md and @alice");
    put(join(repo(), "docs", "style.md"), "style\nmore: @../git.md");
    put(join(repo(), "git.md"), "git rules");
    const got = read(repo());
    expect(got.files.map((f) => [f.path.slice(root.length), f.text, f.importedBy?.slice(root.length)])).toEqual([
      ["/repo/CLAUDE.md", "Rules: @docs/style.md and @alice", undefined],
      ["/repo/docs/style.md", "style\nmore: @../git.md", "/repo/CLAUDE.md"],
      ["/repo/git.md", "git rules", "/repo/docs/style.md"],
    ]);
    expect(got.warnings).toEqual([]);
  });

  test("in a project not trusted, a markdown file outside it, through ~ or a link, is left out with a warning naming the line and that trust lets it in", () => {
    const home = join(root, "home");
    put(join(home, ".claude", "mine.md"), "my preferences");
    put(join(root, "notes.md"), "outside notes");
    symlinkSync(join(root, "notes.md"), join(repo(), "key.md"));
    put(join(repo(), "CLAUDE.md"), ["@~/.claude/mine.md", `@${join(root, "notes.md")}`, "@key.md"].join("\n"));
    const got = readAgentsFiles(agentsPlaces(repo(), user), { outside: { home, trusted: false } });
    expect(got.files.map((f) => f.text)).toEqual([["@~/.claude/mine.md", `@${join(root, "notes.md")}`, "@key.md"].join("\n")]);
    const claude = join(repo(), "CLAUDE.md");
    const trust = "left out of the prompt (hey follows it once you trust the project: hey trust)";
    expect(got.warnings).toEqual([
      `${claude}:1: @~/.claude/mine.md is outside the project; ${trust}`,
      `${claude}:2: @${join(root, "notes.md")} is outside the project; ${trust}`,
      `${claude}:3: @key.md is a link out of the project; ${trust}`,
    ]);
  });

  test("trusting is suggested only for a file trust would let in: a key or a file that is no markdown is never imported, trusted or not", () => {
    const home = join(root, "home");
    put(join(home, ".ssh", "id_rsa"), "-----BEGIN OPENSSH PRIVATE KEY-----");
    put(join(home, "todo.txt"), "a list");
    put(join(repo(), "CLAUDE.md"), "@~/.ssh/id_rsa @~/todo.txt");
    const claude = join(repo(), "CLAUDE.md");
    for (const trusted of [false, true]) {
      const got = readAgentsFiles(agentsPlaces(repo(), user), { outside: { home, trusted } });
      expect(got.files.map((f) => f.text)).toEqual(["@~/.ssh/id_rsa @~/todo.txt"]);
      expect(got.warnings).toEqual([
        `${claude}:1: @~/.ssh/id_rsa holds secrets (under .ssh): never imported`,
        `${claude}:1: @~/todo.txt is outside the project and no markdown file (${join(home, "todo.txt")}): never imported`,
      ]);
    }
  });

  test("a deeper directory's CLAUDE.md (read with no outside imports) never imports from outside the project, and does not suggest trusting", () => {
    put(join(root, "notes.md"), "outside notes");
    put(join(repo(), "web", "CLAUDE.md"), `@~/.claude/mine.md @${join(root, "notes.md")}`);
    const got = readAgentsFiles([{ dir: join(repo(), "web"), names: ["CLAUDE.md"], within: repo() }]);
    expect(got.files.map((f) => f.text).join("\n")).not.toContain("outside notes");
    const claude = join(repo(), "web", "CLAUDE.md");
    const never = "left out of the prompt (a deeper directory's CLAUDE.md imports from the project only)";
    expect(got.warnings).toEqual([
      `${claude}:1: @~/.claude/mine.md is outside the project; ${never}`,
      `${claude}:1: @${join(root, "notes.md")} is outside the project; ${never}`,
    ]);
  });

  test("inside the project, a file that holds secrets or that git ignores is never imported, trusted or not; committed files are", () => {
    const home = join(root, "home");
    put(join(repo(), ".gitignore"), "secrets.txt\nconfig/local.json\nlocal/\n!docs/keep.md\n");
    put(join(repo(), ".env"), "STRIPE_KEY=sk_live_51Habcdefghijklmnopqrstuv\nDB_PASSWORD=hunter2\n");
    put(join(repo(), "secrets.txt"), "vault password: correcthorse");
    put(join(repo(), "config", "local.json"), '{"token":"abc"}');
    put(join(repo(), "local", "notes.md"), "local notes");
    put(join(repo(), "deploy", "server.pem"), "-----BEGIN PRIVATE KEY-----");
    put(join(repo(), "package.json"), '{"scripts":{"test":"bun test"}}');
    put(join(repo(), "docs", "secrets.md"), "how we keep secrets: in the vault");
    put(
      join(repo(), "CLAUDE.md"),
      "See @.env for config and @secrets.txt and @config/local.json\n@local/notes.md @deploy/server.pem\n@package.json @docs/secrets.md",
    );
    for (const trusted of [false, true]) {
      const got = readAgentsFiles(agentsPlaces(repo(), user), { outside: { home, trusted } });
      expect(got.files.map((f) => f.path.slice(repo().length))).toEqual(["/CLAUDE.md", "/package.json", "/docs/secrets.md"]);
      const claude = join(repo(), "CLAUDE.md");
      const ignored = "is ignored by git (your checkout's own file, not the project's): never imported";
      expect(got.warnings).toEqual([
        `${claude}:1: @.env holds secrets (a .env file): never imported`,
        `${claude}:1: @secrets.txt holds secrets (a credentials file): never imported`,
        `${claude}:1: @config/local.json ${ignored}`,
        `${claude}:2: @local/notes.md ${ignored}`,
        `${claude}:2: @deploy/server.pem holds secrets (a key file): never imported`,
      ]);
    }
  });

  test("a project's AGENTS.md or CLAUDE.md that is a link to a file holding secrets, or to one git ignores, is left out", () => {
    put(join(repo(), ".gitignore"), "local.json\n");
    put(join(repo(), ".env"), "TOKEN=abcdefgh12345678");
    put(join(repo(), "local.json"), '{"password":"hunter22"}');
    symlinkSync(join(repo(), ".env"), join(repo(), "AGENTS.md"));
    mkdirSync(join(repo(), "sub"));
    symlinkSync(join(repo(), "local.json"), join(repo(), "sub", "CLAUDE.md"));
    const got = read(join(repo(), "sub"));
    expect(got.files).toEqual([]);
    expect(got.warnings).toEqual([
      `${join(repo(), "AGENTS.md")} is a link to ${join(repo(), ".env")}, which holds secrets (a .env file); left out of the prompt`,
      `${join(repo(), "sub", "CLAUDE.md")} is a link to ${join(repo(), "local.json")}, which git ignores (your checkout's own file); left out of the prompt`,
    ]);
  });

  test("in a project the user trusted, imports outside it are followed: ~ is the home directory", () => {
    const home = join(root, "home");
    put(join(home, ".claude", "mine.md"), "my own preferences");
    put(join(root, "shared.md"), "team rules");
    put(join(repo(), "CLAUDE.md"), `@~/.claude/mine.md\n@../shared.md\n@~/.claude/gone.md`);
    const got = readAgentsFiles(agentsPlaces(repo(), user), { outside: { home, trusted: true } });
    expect(got.files.map((f) => [f.path, f.text])).toEqual([
      [join(repo(), "CLAUDE.md"), "@~/.claude/mine.md\n@../shared.md\n@~/.claude/gone.md"],
      [join(home, ".claude", "mine.md"), "my own preferences"],
      [join(repo(), "..", "shared.md"), "team rules"],
    ]);
    expect(got.warnings).toEqual([`${join(repo(), "CLAUDE.md")}:3: @~/.claude/gone.md: no such file; the import is left out`]);
  });

  test("even in a trusted project, an outside import must be a markdown file, and none in a directory of credentials", () => {
    const home = join(root, "home");
    put(join(home, ".ssh", "notes.md"), "ssh notes");
    put(join(home, ".aws", "credentials"), "aws key");
    put(join(home, "todo.txt"), "a list");
    put(join(home, "mine.md"), "mine");
    put(join(repo(), "CLAUDE.md"), "@~/.ssh/notes.md @~/.aws/credentials @~/todo.txt @~/mine.md");
    const got = readAgentsFiles(agentsPlaces(repo(), user), { outside: { home, trusted: true } });
    expect(got.files.map((f) => f.text)).toEqual(["@~/.ssh/notes.md @~/.aws/credentials @~/todo.txt @~/mine.md", "mine"]);
    const claude = join(repo(), "CLAUDE.md");
    expect(got.warnings).toEqual([
      `${claude}:1: @~/.ssh/notes.md holds secrets (under .ssh): never imported`,
      `${claude}:1: @~/.aws/credentials holds secrets (under .aws): never imported`,
      `${claude}:1: @~/todo.txt is outside the project and no markdown file (${join(home, "todo.txt")}): never imported`,
    ]);
  });

  test("a missing file that looks like one is a warning; a file given already is not given twice; a cycle ends", () => {
    put(join(repo(), "AGENTS.md"), "root rules");
    put(join(repo(), "web", "CLAUDE.md"), "@../AGENTS.md @styel.md @a.md");
    put(join(repo(), "web", "a.md"), "a @b.md");
    put(join(repo(), "web", "b.md"), "b @a.md");
    const got = read(join(repo(), "web"));
    expect(got.files.map((f) => f.text)).toEqual(["root rules", "@../AGENTS.md @styel.md @a.md", "a @b.md", "b @a.md"]);
    expect(got.warnings).toEqual([`${join(repo(), "web", "CLAUDE.md")}:1: @styel.md: no such file; the import is left out`]);
  });

  test("imports stop five hops deep", () => {
    put(join(repo(), "CLAUDE.md"), "@1.md");
    for (let i = 1; i <= 6; i++) put(join(repo(), `${i}.md`), `level ${i} @${i + 1}.md`);
    const got = read(repo());
    expect(got.files.map((f) => f.text.split(" @")[0])).toEqual(["@1.md", "level 1", "level 2", "level 3", "level 4", "level 5"]);
    expect(got.warnings).toEqual([`${join(repo(), "5.md")}:1: @6.md: more than 5 imports deep; left out of the prompt`]);
  });

  test("an AGENTS.md's @words are text: Codex and the others read it as written", () => {
    put(join(repo(), "AGENTS.md"), "@docs/style.md");
    put(join(repo(), "docs", "style.md"), "style");
    expect(read(repo()).files.map((f) => f.text)).toEqual(["@docs/style.md"]);
  });
});
