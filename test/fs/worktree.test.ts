// A linked worktree's paths as its main checkout names them (fs/worktree.ts), with real git: the
// key trust and the approvals record use, so a worktree of a trusted project is trusted — and only
// a worktree its repository lists, never a directory whose `.git` file merely claims one.
import { afterAll, expect, test } from "bun:test";
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { inMainCheckout } from "../../src/fs/worktree.ts";
import { readApprovals } from "../../src/config/approval-store.ts";
import { recordTrust, settleTrust } from "../../src/trust/store.ts";
import { tempDir } from "../helpers/e2e.ts";
import { git, repoWith } from "../helpers/git-worktree.ts";

const dir = tempDir("hey-worktree-");
afterAll(() => dir.remove());
const root = realpathSync(dir.path);
/** The user's folders, which the trust question tells the project's skills from: none of them there. */
const userDirs = {
  home: join(root, "home"),
  configDir: join(root, "home", ".config", "hey"),
  claudeDir: join(root, "home", ".claude"),
  codexDir: join(root, "home", ".codex"),
};
const main = repoWith(join(root, "shop"), { "README.md": "shop\n", "src/a.ts": "a\n" });
git(main, "worktree", "add", "-q", "-b", "fix", join(root, "shop-fix"));

test("a worktree, and any path in it, maps onto the main checkout", () => {
  expect(inMainCheckout(join(root, "shop-fix"))).toBe(main);
  expect(inMainCheckout(join(root, "shop-fix", "src", "a.ts"))).toBe(join(main, "src", "a.ts"));
  expect(inMainCheckout(join(root, "shop-fix", ".hey", "config.toml"))).toBe(join(main, ".hey", "config.toml")); // not there yet: still mapped
});

test("the main checkout, a second clone and a directory outside git are themselves", () => {
  expect(inMainCheckout(main)).toBe(main);
  git(root, "clone", "-q", main, join(root, "shop-2"));
  expect(inMainCheckout(join(root, "shop-2", "src"))).toBe(join(root, "shop-2", "src"));
  mkdirSync(join(root, "plain"));
  expect(inMainCheckout(join(root, "plain"))).toBe(join(root, "plain"));
});

test("a .git file that claims the trusted repository's worktree record is not followed: the record does not name it back", () => {
  const fake = join(root, "download");
  mkdirSync(fake);
  writeFileSync(join(fake, ".git"), `gitdir: ${join(main, ".git", "worktrees", "shop-fix")}\n`);
  expect(inMainCheckout(fake)).toBe(fake);
  const claims = join(root, "claims-repo");
  mkdirSync(claims);
  writeFileSync(join(claims, ".git"), `gitdir: ${join(main, ".git")}\n`);
  expect(inMainCheckout(claims)).toBe(claims);
});

test("a worktree of a bare repository maps onto the repository", () => {
  const bare = join(root, "lib.git");
  git(root, "clone", "-q", "--bare", main, bare);
  git(bare, "worktree", "add", "-q", join(root, "lib-main"), "main");
  expect(inMainCheckout(join(root, "lib-main", "src"))).toBe(join(bare, "src"));
});

test("hey's trust question in a worktree names it and the repository the answer is kept for", async () => {
  const fix = join(root, "shop-fix");
  mkdirSync(join(fix, ".hey", "skills", "x"), { recursive: true });
  writeFileSync(join(fix, ".hey", "skills", "x", "SKILL.md"), "---\nname: x\ndescription: x\n---\n");
  const asked: string[] = [];
  const got = await settleTrust({
    here: { root: fix, projectConfig: join(fix, ".hey", "config.toml"), projectMcpJson: join(fix, ".mcp.json"), ...userDirs },
    trustFile: join(root, "trust.json"),
    approve: false,
    interactive: true,
    ask: async (q) => (asked.push(q), ""),
    warn: () => {},
    approvals: { record: undefined, file: join(root, "approvals.json") },
  });
  expect(got).toMatchObject({ trusted: false });
  expect(asked[0]).toStartWith(`${fix} (a git worktree of ${main}: the answer holds for both) has .hey/skills/: `);
});

test("a directory holding its own worktree record whose commondir names the trusted repository is itself: the record is not in that repository", () => {
  const fake = join(root, "archive");
  mkdirSync(join(fake, ".record"), { recursive: true });
  writeFileSync(join(fake, ".git"), "gitdir: .record\n");
  writeFileSync(join(fake, ".record", "gitdir"), `${join(fake, ".git")}\n`);
  writeFileSync(join(fake, ".record", "commondir"), `${join(main, ".git")}\n`);
  expect(inMainCheckout(join(fake, ".hey", "config.toml"))).toBe(join(fake, ".hey", "config.toml"));
  const relative = join(root, "archive-2");
  mkdirSync(join(relative, "r"), { recursive: true });
  writeFileSync(join(relative, ".git"), "gitdir: r\n");
  writeFileSync(join(relative, "r", "gitdir"), "../.git\n");
  writeFileSync(join(relative, "r", "commondir"), "../../shop/.git\n");
  expect(inMainCheckout(relative)).toBe(relative);
});

test("a .git that is a link to a listed worktree's .git file is not that worktree", () => {
  const linked = join(root, "unpacked");
  mkdirSync(linked);
  symlinkSync(join(root, "shop-fix", ".git"), join(linked, ".git"));
  expect(inMainCheckout(join(linked, "src"))).toBe(join(linked, "src"));
});

test("with the repository trusted, a directory that forges a worktree record of it is asked about, its skills not loaded unasked", async () => {
  const trustFile = join(root, "trust-forged.json");
  const approvalsFile = join(root, "approvals-forged.json");
  await recordTrust(trustFile, main, true, approvalsFile);
  const fake = join(root, "pr-archive");
  mkdirSync(join(fake, ".record"), { recursive: true });
  mkdirSync(join(fake, ".hey", "skills", "x"), { recursive: true });
  writeFileSync(join(fake, ".hey", "skills", "x", "SKILL.md"), "---\nname: x\ndescription: x\n---\n");
  writeFileSync(join(fake, ".git"), "gitdir: .record\n");
  writeFileSync(join(fake, ".record", "gitdir"), "../.git\n");
  writeFileSync(join(fake, ".record", "commondir"), `${join(main, ".git")}\n`);
  const got = await settleTrust({
    here: { root: fake, projectConfig: join(fake, ".hey", "config.toml"), projectMcpJson: join(fake, ".mcp.json"), ...userDirs },
    trustFile,
    approve: false,
    interactive: false, // hey -p: an untrusted project's files are left out
    ask: async () => "",
    warn: () => {},
    approvals: { record: readApprovals(approvalsFile), file: approvalsFile },
  });
  expect(got).toMatchObject({ trusted: false, stored: undefined });
});
