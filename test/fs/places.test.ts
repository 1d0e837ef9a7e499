// Every place of hey's comes from one function: the XDG variables when they are absolute paths,
// else the platform's defaults under the home directory; so do the user's folders of Claude Code
// and Codex, which CLAUDE_CONFIG_DIR and CODEX_HOME move.
import { describe, expect, test } from "bun:test";
import { driveUpper, homeOf, places, projectRoot, strayTaskNotes } from "../../src/fs/places.ts";

test.each([
  ["XDG_CACHE_HOME wins", { XDG_CACHE_HOME: "/x/cache" }, "linux", "/x/cache/hey"],
  ["a relative XDG_CACHE_HOME is ignored (XDG spec)", { XDG_CACHE_HOME: "rel" }, "linux", "/home/u/.cache/hey"],
  ["linux", {}, "linux", "/home/u/.cache/hey"],
  ["macOS", {}, "darwin", "/home/u/Library/Caches/hey"],
  ["Windows", { LOCALAPPDATA: "/appdata" }, "win32", "/appdata/hey/cache"],
  ["Windows without LOCALAPPDATA", {}, "win32", "/home/u/AppData/Local/hey/cache"],
])("the cache dir: %s", (_name, env, platform, dir) => {
  const p = places(env, "/home/u", "/p", platform);
  expect(p.cacheDir).toBe(dir);
  expect(p.outputsDir).toBe(`${dir}/outputs`);
});

test.each([
  ["set", { XDG_STATE_HOME: "/x/state", XDG_CONFIG_HOME: "/x/config" }, "/x/state/hey", "/x/config/hey"],
  ["unset", {}, "/h/.local/state/hey", "/h/.config/hey"],
  ["empty", { XDG_STATE_HOME: "", XDG_CONFIG_HOME: "" }, "/h/.local/state/hey", "/h/.config/hey"],
  ["relative: ignored (XDG spec)", { XDG_STATE_HOME: "state", XDG_CONFIG_HOME: "./config" }, "/h/.local/state/hey", "/h/.config/hey"],
])("state and config dirs, XDG variables %s", (_name, env, state, config) => {
  const p = places(env, "/h", "/p", "linux");
  expect({ stateDir: p.stateDir, configDir: p.configDir }).toEqual({ stateDir: state, configDir: config });
});

test.each([
  ["set", { CLAUDE_CONFIG_DIR: "/h/.config/claude", CODEX_HOME: "/h/.config/codex" }, "/h/.config/claude", "/h/.config/codex"],
  ["set outside the home directory", { CLAUDE_CONFIG_DIR: "/etc/claude", CODEX_HOME: "/srv/codex" }, "/etc/claude", "/srv/codex"],
  ["unset", {}, "/h/.claude", "/h/.codex"],
  ["empty", { CLAUDE_CONFIG_DIR: "", CODEX_HOME: "" }, "/h/.claude", "/h/.codex"],
  ["relative: ignored, as XDG_* are", { CLAUDE_CONFIG_DIR: ".config/claude", CODEX_HOME: "codex" }, "/h/.claude", "/h/.codex"],
  ["a Windows drive path", { CLAUDE_CONFIG_DIR: "D:\\claude", CODEX_HOME: "D:/codex" }, "D:\\claude", "D:/codex"],
])("the user's folders of Claude Code and Codex, CLAUDE_CONFIG_DIR and CODEX_HOME %s", (_name, env, claude, codex) => {
  const p = places(env, "/h", "/p", "linux");
  expect({ claudeDir: p.claudeDir, codexDir: p.codexDir }).toEqual({ claudeDir: claude, codexDir: codex });
});

test("a relative CLAUDE_CONFIG_DIR or CODEX_HOME is kept to be said, with its value; an absolute or empty one is not", () => {
  expect(places({ CLAUDE_CONFIG_DIR: ".config/claude", CODEX_HOME: "/x/codex" }, "/h", "/p", "linux").peerRelative).toEqual([
    { name: "CLAUDE_CONFIG_DIR", value: ".config/claude" },
  ]);
  expect(places({ CLAUDE_CONFIG_DIR: "", CODEX_HOME: "~/.codex" }, "/h", "/p", "linux").peerRelative).toEqual([{ name: "CODEX_HOME", value: "~/.codex" }]);
});

test("the files in them, the project's config under the working directory", () => {
  expect(places({}, "/h", "/p", "linux")).toEqual({
    home: "/h",
    cwd: "/p",
    root: "/p",
    configDir: "/h/.config/hey",
    stateDir: "/h/.local/state/hey",
    cacheDir: "/h/.cache/hey",
    claudeDir: "/h/.claude",
    codexDir: "/h/.codex",
    peerRelative: [],
    userConfig: "/h/.config/hey/config.toml",
    projectConfig: "/p/.hey/config.toml",
    projectMcpJson: "/p/.mcp.json",
    outerConfigs: [],
    trustFile: "/h/.config/hey/trust.json",
    approvalsFile: "/h/.local/state/hey/approvals.json",
    peerNoticesFile: "/h/.local/state/hey/peer-notices.json",
    sessionsDir: "/h/.local/state/hey/sessions",
    historyFile: "/h/.local/state/hey/history",
    historiesDir: "/h/.local/state/hey/histories",
    logsDir: "/h/.local/state/hey/logs",
    outputsDir: "/h/.cache/hey/outputs",
  });
});

test("a project root other than the launch directory holds the project's files", () => {
  const p = places({}, "/h", "/repo/sub", "linux", "/repo");
  expect({ cwd: p.cwd, root: p.root, projectConfig: p.projectConfig, projectMcpJson: p.projectMcpJson }).toEqual({
    cwd: "/repo/sub",
    root: "/repo",
    projectConfig: "/repo/.hey/config.toml",
    projectMcpJson: "/repo/.mcp.json",
  });
});

describe("projectRoot: the nearest .hey/ with the project's files up to the git root, else the git root, else the nearest bare .hey/, else the launch directory", () => {
  // dirs: directories; files: anything else that exists (.git, a .hey/'s config.toml or task.md)
  const probe = (dirs: string[], files: string[]) => ({ isDir: (p: string) => dirs.includes(p), exists: (p: string) => files.includes(p) || dirs.includes(p) });
  /** a .hey/ holding the project's files: its skills/ (or config.toml, below) */
  const hey = (dir: string) => [`${dir}/.hey`, `${dir}/.hey/skills`];
  test.each([
    ["a .hey/ in the launch directory", "/w/repo/sub", [...hey("/w/repo/sub"), ...hey("/w/repo")], ["/w/repo/.git"], "/w/repo/sub"],
    ["a .hey/ above it wins over the git root", "/w/repo/a/b", hey("/w/repo/a"), ["/w/repo/.git"], "/w/repo/a"],
    ["a .hey/ holding only config.toml is the project's", "/w/repo/a/b", ["/w/repo/a/.hey"], ["/w/repo/a/.hey/config.toml", "/w/repo/.git"], "/w/repo/a"],
    ["no .hey/: the git root", "/w/repo/a/b", [], ["/w/repo/.git"], "/w/repo"],
    ["a .hey/ at the git root", "/w/repo/a", hey("/w/repo"), ["/w/repo/.git"], "/w/repo"],
    ["a .hey/ above the git root is not the repository's", "/w/repo/a", hey("/w/.hey"), ["/w/repo/.git"], "/w/repo"],
    ["a .git file (a worktree) counts", "/w/wt/a", [], ["/w/wt/.git"], "/w/wt"],
    ["no git: the nearest .hey/", "/w/notes/2024", hey("/w/notes"), [], "/w/notes"],
    ["nothing: the launch directory", "/w/x/y", [], [], "/w/x/y"],
    ["home never counts, nor does anything above it", "/h/proj/sub", [...hey("/h"), ...hey("")], ["/h/.git"], "/h/proj/sub"],
    ["launched at home: home", "/h", hey("/h"), [], "/h"],
    // a .hey/ with none of the project's files (the model wrote .hey/task.md from a subdirectory) is passed over for a stronger marker
    [
      "a .hey/ holding only task.md below the git root: the git root",
      "/w/repo/a/src",
      ["/w/repo/a/src/.hey"],
      ["/w/repo/a/src/.hey/task.md", "/w/repo/.git"],
      "/w/repo",
    ],
    ["an empty .hey/ above the launch directory: the git root", "/w/repo/b/src", ["/w/repo/b/.hey"], ["/w/repo/.git"], "/w/repo"],
    ["a bare .hey/ below a .hey/ with skills: the latter", "/w/repo/a/src", ["/w/repo/a/src/.hey", ...hey("/w/repo/a")], ["/w/repo/.git"], "/w/repo/a"],
    ["no git, a bare .hey/ below a .hey/ with skills: the latter", "/w/notes/2024", ["/w/notes/2024/.hey", ...hey("/w/notes")], [], "/w/notes"],
    ["no git, only a bare .hey/: it is the project, as before", "/w/notes/2024/x", ["/w/notes/2024/.hey"], ["/w/notes/2024/.hey/task.md"], "/w/notes/2024"],
    ["no git, two bare .hey/: the nearest", "/w/notes/2024/x", ["/w/notes/2024/x/.hey", "/w/notes/.hey"], [], "/w/notes/2024/x"],
    ["a bare .hey/ below home, a .hey/ in home: home still never counts", "/h/proj/sub", ["/h/proj/.hey", ...hey("/h")], [], "/h/proj"],
  ])("%s", (_name, cwd, dirs, files, root) => {
    expect(projectRoot(cwd, "/h", probe(dirs, files))).toBe(root);
  });

  test("strayTaskNotes: the task.md files of the bare .hey/ folders passed over between the launch directory and the root", () => {
    const p = probe(
      ["/w/repo/a/src/.hey", "/w/repo/a/.hey", "/w/repo/b/.hey"],
      ["/w/repo/a/src/.hey/task.md", "/w/repo/a/.hey/task.md", "/w/repo/.hey/task.md"],
    );
    expect(strayTaskNotes("/w/repo/a/src", "/w/repo", p)).toEqual(["/w/repo/a/src/.hey/task.md", "/w/repo/a/.hey/task.md"]);
    expect(strayTaskNotes("/w/repo", "/w/repo", p)).toEqual([]); // the root's own is the project's
    expect(strayTaskNotes("/w/repo/b", "/w/repo", p)).toEqual([]); // an empty .hey/ has nothing to move
  });
});

test.each([
  ["c:\\proj", "win32", "C:\\proj"],
  ["C:\\proj", "win32", "C:\\proj"],
  ["d:", "win32", "D:"],
  ["\\\\server\\share\\x", "win32", "\\\\server\\share\\x"],
  ["c:\\Users\\ann", "win32", "C:\\Users\\ann"],
  ["c:/x", "linux", "c:/x"],
  ["/home/ann", "linux", "/home/ann"],
])("driveUpper(%s, %s) is %s: one spelling of a Windows launch directory, whichever terminal started hey", (path, platform, want) => {
  expect(driveUpper(path, platform)).toBe(want);
});

// `~` on Windows is the user folder whatever HOME says: Git Bash, MSYS2 and Cygwin set HOME to their
// own home, and hey's config, sessions and trust must not change with the terminal that started it.
test.each([
  ["Windows: the user folder, not the HOME Git Bash or MSYS2 set", { HOME: "C:\\msys64\\home\\ann", USERPROFILE: "C:\\Users\\ann" }, "win32", "C:\\Users\\ann"],
  ["Windows without USERPROFILE: the system's answer", { HOME: "C:\\otherhome" }, "win32", "C:\\from-system"],
  ["Linux: HOME, as a shell's ~", { HOME: "/home/ann", USERPROFILE: "C:\\Users\\ann" }, "linux", "/home/ann"],
  ["macOS without HOME: the system's answer", {}, "darwin", "C:\\from-system"],
  // x136: `HOME=/home/ann/` never equalled the launch directory's ancestor /home/ann, and home became the project
  ["Linux: HOME with trailing slashes, without them", { HOME: "/home/ann//" }, "linux", "/home/ann"],
  ["Linux: HOME=/ stays /", { HOME: "/" }, "linux", "/"],
  ["Windows: the user folder with a trailing separator, without it", { USERPROFILE: "C:\\Users\\ann\\" }, "win32", "C:\\Users\\ann"],
  ["Windows: a drive's root keeps its separator", { USERPROFILE: "C:\\" }, "win32", "C:\\"],
])("homeOf: %s", (_why, env, platform, want) => {
  expect(homeOf(env, platform, () => "C:\\from-system")).toBe(want);
});
