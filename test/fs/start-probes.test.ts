// While hey starts, the walks from the launch directory up share what they look at (x119 #6): the
// project's root, the AGENTS.md places and the main checkout each asked every ancestor for its
// `.git`, 8-9 stats each before the first request on a slow disk. Once started, each walk looks
// afresh: a repository the agent makes during the run is seen where hey looks later.
import { afterEach, expect, test } from "bun:test";
import { mkdirSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { agentsPlaces } from "../../src/prompt/agents-md.ts";
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
