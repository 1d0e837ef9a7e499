// x39 finding 3, end to end through dist/hey: under `allow = ["bash: git *"]` a model that follows
// the hint hey gives when git wants an editor (a rebase stopped on a conflict) finishes the rebase,
// and the commit form models trained on Claude Code emit (`git commit -m "$(cat <<'EOF' … EOF)"`)
// runs. The loopback model reads each tool result and runs the command the hint names. x42 findings
// 3 and 4: the same under the subcommand entries Claude Code's `Bash(git rebase:*)` becomes, and a
// message bash 3.2 would cut (`don't`) commits where no bash 3.x runs the commands (x54 finding 7),
// and on macOS is refused with the form that passes, which the model uses.
import { afterEach, beforeEach, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey, tempDir } from "../helpers/e2e.ts";
import { resultText, startModelServer, type ChatRequest, type ModelServer, type Turn } from "../helpers/model-server.ts";

setDefaultTimeout(60_000); // the first test may build dist/hey

const git = { GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t", GIT_CONFIG_NOSYSTEM: "1" };
let home: ReturnType<typeof tempDir>;
let project: ReturnType<typeof tempDir>;
let model: ModelServer | undefined;
beforeEach(() => {
  home = tempDir("hey-home-");
  project = tempDir("hey-project-");
});
afterEach(() => {
  model?.stop();
  home.remove();
  project.remove();
});

/** Starts the model: `next` gets the tool results so far and says the next command, or undefined to answer. */
function modelRunning(next: (results: string[]) => string | undefined, allow = GIT): void {
  model = startModelServer((req: ChatRequest): Turn => {
    const results = req.messages.filter((m) => m.role === "tool").map((m) => resultText(m));
    const command = next(results);
    return command === undefined ? { text: `results: ${JSON.stringify(results)}` } : { calls: [["bash", { command, timeout_ms: 60_000 }]] };
  });
  const dir = join(home.path, ".config", "hey");
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, "config.toml"),
    `[default]\nprovider = "local"\nmodel = "m1"\n[provider.local]\nbase_url = "${model.baseUrl}"\nmodels = ["m1"]\n[permission]\nallow = ${JSON.stringify(["read_file", ...allow])}\n`,
  );
}

const GIT = ["bash: git *"];
const SUBCOMMANDS = ["bash: git add *", "bash: git rebase *", "bash: git commit *", "bash: git status *", "bash: git log *"];
const env = () => ({ HOME: home.path, ...git, EDITOR: "vim", VISUAL: "vim", GIT_EDITOR: "vim", TERM: "xterm-256color" });

test.each([
  ["bash: git *", GIT],
  ["subcommand entries", SUBCOMMANDS],
])("mid-rebase under %s: the command hey's no-editor hint names is allowed and finishes the rebase", async (_name, allow) => {
  const setup = [
    "git init -q -b main && echo a > f && git add f && git commit -qm one",
    "git checkout -qb topic && echo b > f && git commit -qam topic",
    "git checkout -q main && echo c > f && git commit -qam main",
    "git checkout -q topic && { git rebase main >/dev/null 2>&1; true; } && echo x > f",
  ].join(" && ");
  expect(Bun.spawnSync(["sh", "-c", setup], { cwd: project.path, env: { ...process.env, ...env() } }).exitCode).toBe(0);
  let hinted: string | undefined;
  modelRunning((results) => {
    if (results.length === 0) return "git add f && git rebase --continue";
    if (results.length === 1) return (hinted = /give the text in the command: (.+?) keeps the message/.exec(results[0]!)?.[1]);
    if (results.length === 2) return "git status --short && git log --format=%s";
    return undefined;
  }, allow);
  const run = await runHey(["-p", "finish the rebase"], { cwd: project.path, env: env(), timeoutMs: 45_000 });
  expect(run.code).toBe(0);
  const results = model!.requests
    .at(-1)!
    .messages.filter((m) => m.role === "tool")
    .map((m) => resultText(m));
  expect(results[0]).toContain("[exit code 1]");
  expect(hinted).toBe("git -c core.editor=true rebase --continue");
  expect(results[1]).toContain("[exit code 0]");
  expect(results[1]).not.toContain("blocked by permission rules");
  expect(results[2]).toBe("topic\nmain\none\n[exit code 0]");
});

test('under allow = ["bash: git *"], `git commit -m "$(cat <<\'EOF\' … EOF)"` runs and commits the heredoc\'s text as the message', async () => {
  expect(Bun.spawnSync(["sh", "-c", "git init -q -b main && echo a > f"], { cwd: project.path, env: { ...process.env, ...env() } }).exitCode).toBe(0);
  const message =
    "fix(parser): keep 'quoted' words\n\nThe \"$(x)\" form stays as written.\n\n🤖 Generated with [Claude Code](https://claude.com/claude-code)\n\nCo-Authored-By: Claude <noreply@anthropic.com>";
  modelRunning((results) => {
    if (results.length === 0) return `git add f && git commit -q -m "$(cat <<'EOF'\n${message}\nEOF\n)"`;
    if (results.length === 1) return "git log -1 --format=%B";
    return undefined;
  });
  const run = await runHey(["-p", "commit it"], { cwd: project.path, env: env(), timeoutMs: 45_000 });
  expect(run.code).toBe(0);
  const results = model!.requests
    .at(-1)!
    .messages.filter((m) => m.role === "tool")
    .map((m) => resultText(m));
  expect(results).toEqual(["(no output)\n[exit code 0]", `${message}\n\n[exit code 0]`]);
});

test("under subcommand entries, a heredoc message with `don't` and `1)` commits where no bash 3.x runs the commands (Linux's sh); on macOS, whose sh is bash 3.2, it is refused saying to give it with `-F -`, and that form commits it", async () => {
  expect(Bun.spawnSync(["sh", "-c", "git init -q -b main && echo a > f"], { cwd: project.path, env: { ...process.env, ...env() } }).exitCode).toBe(0);
  const message = "fix: don't crash when config is missing\n\n1) parser";
  modelRunning((results) => {
    if (results.length === 0) return `git add f && git commit -q -m "$(cat <<'EOF'\n${message}\nEOF\n)"`;
    const form = /give the text on stdin instead, `(git commit -F - <<'EOF')`/.exec(results[0]!)?.[1];
    if (form && results.length === 1) return `git add f && ${form.replace("-F", "-q -F")}\n${message}\nEOF`;
    if (results.at(-1) !== `${message}\n\n[exit code 0]`) return "git log -1 --format=%B";
    return undefined;
  }, SUBCOMMANDS);
  const run = await runHey(["-p", "commit it"], { cwd: project.path, env: env(), timeoutMs: 45_000 });
  expect(run.code).toBe(0);
  const results = model!.requests
    .at(-1)!
    .messages.filter((m) => m.role === "tool")
    .map((m) => resultText(m));
  if (process.platform !== "darwin") expect(results).toEqual(["(no output)\n[exit code 0]", `${message}\n\n[exit code 0]`]);
  else {
    expect(results[0]).toContain("blocked by permission rules");
    expect(results[0]).not.toContain('add "bash:');
    expect(results.slice(1)).toEqual(["(no output)\n[exit code 0]", `${message}\n\n[exit code 0]`]);
  }
});
