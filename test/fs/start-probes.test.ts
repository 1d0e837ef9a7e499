// While hey starts, the walks from the launch directory up share what they look at (x119 #6): the
// project's root, the AGENTS.md places and the main checkout each asked every ancestor for its
// `.git`, 8-9 stats each before the first request on a slow disk; and a config file's or CLAUDE.md's
// real path was asked by several readers. Once started, each walk looks afresh: a repository the
// agent makes during the run is seen where hey looks later, a config file relinked too.
import { afterEach, expect, test } from "bun:test";
import { mkdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadLayer } from "../../src/config/read-layer.ts";
import { recordKey } from "../../src/config/record-key.ts";
import { agentsPlaces, placedFiles } from "../../src/prompt/agents-md.ts";
import { inMainCheckout } from "../../src/fs/worktree.ts";
import { projectRoot } from "../../src/fs/places.ts";
import { looksMade, rootProbe, startedUp, startProbing } from "../../src/fs/root-probe.ts";
import { tempDir } from "../helpers/e2e.ts";

const dirs: ReturnType<typeof tempDir>[] = [];
afterEach(() => {
  startedUp();
  for (const d of dirs.splice(0)) d.remove();
});

/** A directory four levels below a fresh temp dir, as a real path. */
function deep(): { base: string; cwd: string } {
  const d = tempDir("hey-start-probes-");
  dirs.push(d);
  const base = realpathSync(d.path);
  const cwd = join(base, "a", "b", "c", "d");
  mkdirSync(cwd, { recursive: true });
  return { base, cwd };
}

/** What start-up asks of the launch directory: its project, its AGENTS.md places, its main checkout. */
const startUp = (cwd: string) => [projectRoot(cwd, "/nonexistent", rootProbe), agentsPlaces(cwd, "/nonexistent/config").length, inMainCheckout(cwd)];

test("while hey starts, a second walk up from the launch directory looks at nothing the first looked at", () => {
  const { cwd } = deep();
  startProbing();
  const before = looksMade();
  const first = startUp(cwd);
  const once = looksMade() - before;
  expect(once).toBeGreaterThan(0);
  expect(startUp(cwd)).toEqual(first);
  expect(startUp(cwd)).toEqual(first);
  expect(looksMade() - before).toBe(once);
});

test("once hey has started, a repository made since is found by the next walk", () => {
  const { base, cwd } = deep();
  startProbing();
  expect(agentsPlaces(cwd, "/nonexistent/config").map((p) => p.dir)).toEqual(["/nonexistent/config", cwd]);
  startedUp();
  mkdirSync(join(base, "a", ".git")); // the agent's `git init` in a/
  expect(agentsPlaces(cwd, "/nonexistent/config").map((p) => p.dir)).toEqual([
    "/nonexistent/config",
    join(base, "a"),
    join(base, "a", "b"),
    join(base, "a", "b", "c"),
    cwd,
  ]);
  expect(projectRoot(cwd, "/nonexistent", rootProbe)).toBe(join(base, "a"));
});

// A config file and an instructions file are asked for their real path by several readers while hey
// starts (the approvals' record, the /dev/null check before the read, the prompt, the notices of
// other agents' files): found once, then shared; once started, a link changed since is followed.
test("while hey starts, a linked config file's and CLAUDE.md's real paths are found once; once started, afresh", () => {
  const { base, cwd } = deep();
  mkdirSync(join(base, ".git"));
  const [dotfiles, elsewhere] = [join(base, "dotfiles"), join(base, "elsewhere")];
  for (const d of [dotfiles, elsewhere]) {
    mkdirSync(d);
    writeFileSync(join(d, "config.toml"), "[tools]\n");
    writeFileSync(join(d, "CLAUDE.md"), "Be brief.\n");
  }
  const config = join(base, "config.toml");
  mkdirSync(join(cwd, ".claude"));
  const claude = join(cwd, ".claude", "CLAUDE.md");
  const link = (to: string) => {
    for (const [at, name] of [
      [config, "config.toml"],
      [claude, "CLAUDE.md"],
    ] as const) {
      rmSync(at, { force: true });
      symlinkSync(join(to, name), at);
    }
  };
  const reals = () => [recordKey(config), ...placedFiles(agentsPlaces(cwd, "/nonexistent/config"))];
  link(dotfiles);
  startProbing();
  const before = looksMade();
  expect(reals()).toEqual([join(dotfiles, "config.toml"), join(dotfiles, "CLAUDE.md")]);
  expect(loadLayer(config, { required: false })?.text).toBe("[tools]\n"); // its /dev/null check asks the same real path
  const once = looksMade() - before;
  link(elsewhere); // the user relinks them while hey starts: the start goes on with what it found
  expect(reals()).toEqual([join(dotfiles, "config.toml"), join(dotfiles, "CLAUDE.md")]);
  expect(looksMade() - before).toBe(once);
  startedUp();
  expect(reals()).toEqual([join(elsewhere, "config.toml"), join(elsewhere, "CLAUDE.md")]);
});
