// A CLAUDE.md's `@config/local.json` through dist/hey where git ignores that file only through an
// exclude file outside the working tree: a linked worktree (the main `.git`'s info/exclude), a
// submodule (`.git/modules/NAME/info/exclude`) and the user's global excludes file. The file's
// secret reaches no request, and the refusal is the line the main checkout prints.
import { afterEach, beforeEach, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey, tempDir } from "../helpers/e2e.ts";
import { eachModelServers, writeUserConfig } from "../helpers/fixtures.ts";
import { systemOf } from "../helpers/model-server.ts";
import { git, repoWith } from "../helpers/git-worktree.ts";

setDefaultTimeout(60_000); // the first test may build dist/hey

let home: ReturnType<typeof tempDir>;
let projects: ReturnType<typeof tempDir>;
let root: string;
beforeEach(() => {
  home = tempDir("hey-home-");
  projects = tempDir("hey-projects-");
  root = realpathSync(projects.path);
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
const SECRET = "hunter2-LOCAL-SECRET";
const shop = (dir: string) =>
  repoWith(dir, { "CLAUDE.md": "# Rules\nSee @config/local.json for the settings and @config/shared.json\n", "config/shared.json": '{"db":"x"}\n' });

/** The user's model: one per test, as a user's config names one. */
function userModel() {
  const m = model(() => ({ text: "ok" }));
  writeUserConfig(home.path, `[default]\nprovider = "mock"\nmodel = "m"\n\n[provider.mock]\nbase_url = "${m.baseUrl}"\nmodels = ["m"]\n`);
  return m;
}

/** Runs `hey -p hi` in `checkout`, whose `config/local.json` holds SECRET: nothing of it is sent, and the refusal is said. */
async function importsIn(checkout: string, m = userModel()) {
  write(join(checkout, "config", "local.json"), `{"db_password":"${SECRET}"}\n`);
  m.requests.length = 0;
  const run = await runHey(["-p", "hi"], { cwd: checkout, env: { HOME: home.path }, timeoutMs: 40_000 });
  expect(run.code).toBe(0);
  expect(m.requests.length).toBeGreaterThan(0);
  const claude = join(checkout, "CLAUDE.md");
  expect(JSON.stringify(m.requests)).not.toContain(SECRET);
  expect(systemOf(m.requests[0]!)).toContain(`Instructions from ${join(checkout, "config", "shared.json")} (imported by ${claude}):\n{"db":"x"}`);
  expect(run.stderr.split("\n").filter((l) => l.includes("never imported"))).toEqual([
    `hey: ${claude}:2: @config/local.json is ignored by git (your checkout's own file, not the project's): never imported`,
  ]);
}

test("in a linked worktree, a file the repository's info/exclude names is not imported", async () => {
  const main = shop(join(root, "shop"));
  write(join(main, ".git", "info", "exclude"), "config/local.json\n");
  const wt = join(root, "shop-wt");
  git(main, "worktree", "add", "-q", "-b", "wt", wt);
  await importsIn(wt);
});

test("in a submodule, a file its own exclude file (.git/modules/NAME/info/exclude) names is not imported", async () => {
  const lib = shop(join(root, "lib"));
  const app = repoWith(join(root, "app"), { "README.md": "app\n" });
  git(app, "-c", "protocol.file.allow=always", "submodule", "add", "-q", lib, "lib");
  write(join(app, ".git", "modules", "lib", "info", "exclude"), "config/local.json\n");
  await importsIn(join(app, "lib"));
});

test("a file the user's global excludes file (~/.config/git/ignore) names is not imported, in the main checkout or a worktree", async () => {
  write(join(home.path, ".config", "git", "ignore"), "config/local.json\n");
  const main = shop(join(root, "shop"));
  const m = userModel();
  await importsIn(main, m);
  const wt = join(root, "shop-wt");
  git(main, "worktree", "add", "-q", "-b", "wt", wt);
  await importsIn(wt, m);
});

test("core.excludesFile in a file ~/.gitconfig includes (or includes when the repository is below a directory), quoted with a space, set twice: not imported", async () => {
  write(join(home.path, ".gitconfig"), `[include]\n\tpath = ~/.gitconfig.local\n[includeIf "gitdir:${root}/"]\n\tpath = .gitconfig.work\n`);
  write(join(home.path, ".gitconfig.local"), "[core]\n\texcludesFile = ~/.gitignore_global\n");
  write(join(home.path, ".gitignore_global"), "config/local.json\n");
  const main = shop(join(root, "shop"));
  const wt = join(root, "shop-wt");
  git(main, "worktree", "add", "-q", "-b", "wt", wt);
  const m = userModel();
  await importsIn(main, m);
  await importsIn(wt, m);
  // the conditional file, read after the other, names another excludes file: git takes the last
  write(join(home.path, ".gitconfig.work"), '[core]\n\texcludesFile = "~/my files/ignore"\n');
  write(join(home.path, ".gitignore_global"), "nothing.md\n");
  write(join(home.path, "my files", "ignore"), "config/local.json\n");
  await importsIn(main, m);
  await importsIn(wt, m);
});
