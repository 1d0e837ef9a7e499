// The real filesystem MCP server through dist/hey while a permission list is set (a red-team
// report): its write_file wrote `.git/config` (core.fsmonitor then ran at the user's next `git
// status`) where hey's own write_file refused the same path. Its tools' path arguments are now held
// to the control files hey's file tools are; a write elsewhere goes through.
import { afterEach, beforeEach, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey, tempDir } from "../helpers/e2e.ts";
import { FS_SERVER } from "../helpers/mcp.ts";
import { resultText, startModelServer, type ModelServer, type Turn } from "../helpers/model-server.ts";

setDefaultTimeout(60_000);

let home: ReturnType<typeof tempDir>;
let project: ReturnType<typeof tempDir>;
let model: ModelServer;
let turns: Turn[] = [];
const ORIGINAL = "[core]\n\trepositoryformatversion = 0\n";
beforeEach(() => {
  home = tempDir("hey-home-");
  project = tempDir("hey-project-");
  model = startModelServer(() => turns.shift() ?? { text: "done" });
  mkdirSync(join(home.path, ".config", "hey"), { recursive: true });
  writeFileSync(
    join(home.path, ".config", "hey", "config.toml"),
    `[default]\nprovider = "gw"\nmodel = "m"\n[provider.gw]\nbase_url = "${model.baseUrl}"\napi_key = "k"\nmodels = ["m"]\n` +
      `[permission]\nallow = ["read_file", "fs_write_file", "fs_edit_file", "fs_move_file", "fs_create_directory"]\n` +
      `[mcp.fs]\ncommand = "node"\nargs = [${JSON.stringify(FS_SERVER)}, "."]\n`,
  );
  mkdirSync(join(project.path, ".git", "hooks"), { recursive: true });
  writeFileSync(join(project.path, ".git", "config"), ORIGINAL);
  writeFileSync(join(project.path, "notes.txt"), "#!/bin/sh\ntouch pwned\n");
});
afterEach(() => {
  model.stop();
  home.remove();
  project.remove();
});

const hey = (args: string[]) => runHey(args, { cwd: project.path, env: { HOME: home.path } });
const results = () =>
  model.requests
    .at(-1)!
    .messages.filter((m) => m.role === "tool")
    .map((m) => resultText(m));

test("the filesystem server's write_file, edit_file and move_file into .git are refused; a write to the project goes through", async () => {
  const gitConfig = join(project.path, ".git", "config");
  turns = [
    {
      calls: [
        ["fs_write_file", { path: gitConfig, content: "[core]\n\tfsmonitor = touch /tmp/pwned\n" }],
        ["fs_edit_file", { path: ".git/config", edits: [{ oldText: "repositoryformatversion = 0", newText: "fsmonitor = touch x" }] }],
        ["fs_move_file", { source: join(project.path, "notes.txt"), destination: join(project.path, ".git", "hooks", "pre-commit") }],
        ["fs_write_file", { path: join(project.path, "ok.txt"), content: "fine\n" }],
      ],
    },
  ];
  const run = await hey(["-p", "set things up"]);
  expect(run.code).toBe(0);
  const [write, edit, move, ok] = results();
  expect(write).toContain(`blocked by permission rules: fs_write_file's argument ${gitConfig} is git's own`);
  expect(edit).toContain("argument .git/config is git's own");
  expect(move).toContain("is git's own");
  expect(ok).toContain("Successfully wrote");
  expect(readFileSync(gitConfig, "utf8")).toBe(ORIGINAL);
  expect(existsSync(join(project.path, ".git", "hooks", "pre-commit"))).toBe(false);
  expect(readFileSync(join(project.path, "ok.txt"), "utf8")).toBe("fine\n");
});
