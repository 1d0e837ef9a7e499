// The home directory reached through a link or written with a trailing slash (x136): FreeBSD's
// /home -> /usr/home, NFS setups. home did not equal the launch directory's ancestor, so a stray
// ~/.hey/skills/ made home the project: hey asked to trust ~, and the filesystem server, given the
// project as its root, got all of ~ — hey's config and approvals record with it. Through dist/hey,
// with the real filesystem server from npm and a scripted model.
import { expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureBinary, runHey } from "../helpers/e2e.ts";
import { eachModelServers, eachTempDir, writeUserConfig } from "../helpers/fixtures.ts";
import { FS_SERVER } from "../helpers/mcp.ts";
import { resultText, systemOf } from "../helpers/model-server.ts";

setDefaultTimeout(120_000);

const base = eachTempDir("hey-linked-home-");
const model = eachModelServers();

test.each([
  ["through a link", "home"],
  ["through a link, with a trailing slash", "home/"],
  ["with a trailing slash", "real/"],
])("HOME %s: a directory below home is its own project, not ~; the filesystem server's root is that directory", async (_how, spelled) => {
  await ensureBinary();
  const real = join(realpathSync(base.path), "real");
  mkdirSync(join(real, "notes"), { recursive: true });
  symlinkSync(real, join(base.path, "home"));
  // what a model leaves behind when it writes .hey/skills/… while hey runs in ~
  mkdirSync(join(real, ".hey", "skills", "stray"), { recursive: true });
  writeFileSync(join(real, ".hey", "skills", "stray", "SKILL.md"), "---\nname: stray\ndescription: written in ~ once\n---\nx\n");
  const m = model((req) =>
    req.messages.at(-1)!.role === "tool" ? { text: resultText(req.messages.at(-1)!) } : { calls: [["fs_list_allowed_directories", {}]] },
  );
  writeUserConfig(
    real,
    `[default]\nprovider = "mock"\nmodel = "m"\n\n[provider.mock]\nbase_url = "${m.baseUrl}"\nmodels = ["m"]\n\n[mcp.fs]\ncommand = "node"\nargs = [${JSON.stringify(FS_SERVER)}]\n`,
  );
  const home = join(base.path, spelled);
  const run = await runHey(["-p", "where may you go?"], { env: { HOME: home }, cwd: join(home, "notes"), timeoutMs: 90_000 });
  expect(run.stdout).toBe(`Allowed directories:\n${join(real, "notes")}\n`);
  expect(run.stderr).not.toContain(".hey/skills/"); // no "not loaded: .hey/skills/ (this project is not trusted…)": ~'s are no project's
  expect(systemOf(m.requests[0]!)).not.toContain("Project root:");
});

test("hey trust DIR, HOME through a link: the directory below home is the project, however DIR names it", async () => {
  const real = join(realpathSync(base.path), "real");
  mkdirSync(join(real, "notes"), { recursive: true });
  mkdirSync(join(real, ".hey", "skills", "stray"), { recursive: true });
  writeFileSync(join(real, ".hey", "skills", "stray", "SKILL.md"), "---\nname: stray\ndescription: written in ~ once\n---\nx\n");
  const home = join(base.path, "home");
  symlinkSync(real, home);
  for (const dir of [join(real, "notes"), join(home, "notes"), "~/notes"]) {
    const run = await runHey(["trust", "--revoke", dir], { env: { HOME: home }, cwd: real });
    expect(run.stdout).toStartWith(`project: ${join(real, "notes")}\nit has no .hey/config.toml, skills or .mcp.json yet\n`);
  }
});
