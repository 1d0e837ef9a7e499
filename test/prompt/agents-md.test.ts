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
    const mine = (cwd: string) => readAgentsFiles(agentsPlaces(cwd, user, home)).files.map((f) => [f.path.slice(root.length), f.text]);
    mkdirSync(join(root, "p"));
    put(join(home, ".claude", "CLAUDE.md"), "claude rules");
    expect(mine(join(root, "p"))).toEqual([["/home/.claude/CLAUDE.md", "claude rules"]]);
    put(join(home, ".codex", "AGENTS.md"), "codex rules");
    expect(mine(join(root, "p"))).toEqual([["/home/.codex/AGENTS.md", "codex rules"]]);
    put(join(user, "AGENTS.md"), "mine");
    expect(mine(join(root, "p"))).toEqual([["/home/.config/hey/AGENTS.md", "mine"]]);
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

  test("in a project not trusted, a file outside it, through ~ or a link, is left out with a warning naming the line", () => {
    put(join(root, "secret"), "a private key");
    symlinkSync(join(root, "secret"), join(repo(), "key.md"));
    put(join(repo(), "CLAUDE.md"), ["@~/.ssh/id_rsa", `@${join(root, "secret")}`, "@key.md"].join("\n"));
    const got = read(repo());
    expect(got.files.map((f) => f.text).join("\n")).not.toContain("a private key");
    const claude = join(repo(), "CLAUDE.md");
    const trust = "left out of the prompt (hey follows it once you trust the project: hey trust)";
    expect(got.warnings).toEqual([
      `${claude}:1: @~/.ssh/id_rsa is outside the project; ${trust}`,
      `${claude}:2: @${join(root, "secret")} is outside the project; ${trust}`,
      `${claude}:3: @key.md is a link out of the project; ${trust}`,
    ]);
  });

  test("in a project the user trusted, imports outside it are followed: ~ is the home directory", () => {
    const home = join(root, "home");
    put(join(home, ".claude", "mine.md"), "my own preferences");
    put(join(root, "shared.md"), "team rules");
    put(join(repo(), "CLAUDE.md"), `@~/.claude/mine.md\n@../shared.md\n@~/.claude/gone.md`);
    const got = readAgentsFiles(agentsPlaces(repo(), user), { outside: { home } });
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
    put(join(home, "secrets.txt"), "a secret");
    put(join(home, "mine.md"), "mine");
    put(join(repo(), "CLAUDE.md"), "@~/.ssh/notes.md @~/.aws/credentials @~/secrets.txt @~/mine.md");
    const got = readAgentsFiles(agentsPlaces(repo(), user), { outside: { home } });
    expect(got.files.map((f) => f.text)).toEqual(["@~/.ssh/notes.md @~/.aws/credentials @~/secrets.txt @~/mine.md", "mine"]);
    const claude = join(repo(), "CLAUDE.md");
    expect(got.warnings).toEqual(
      [
        ["~/.ssh/notes.md", join(home, ".ssh", "notes.md")],
        ["~/.aws/credentials", join(home, ".aws", "credentials")],
        ["~/secrets.txt", join(home, "secrets.txt")],
      ].map(([ref, real]) => `${claude}:1: @${ref} is outside the project and no markdown file of yours (${real}); left out of the prompt`),
    );
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
