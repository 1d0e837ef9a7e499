// The home directory as the file system names it (x136): with HOME reached through a link (FreeBSD's
// /home -> /usr/home, an NFS automount) or written with a trailing slash, home did not equal the
// launch directory's ancestor, so a stray ~/.hey/skills made home "the project": hey asked to trust
// ~, and the filesystem server got all of ~ as its root, hey's config and approvals record with it.
import { afterEach, expect, test } from "bun:test";
import { mkdirSync, realpathSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { here } from "../../src/here.ts";
import { realDir } from "../../src/fs/root-probe.ts";
import { tempDir } from "../helpers/e2e.ts";

const made: ReturnType<typeof tempDir>[] = [];
const [startDir, startEnv] = [process.cwd(), { ...process.env }];
afterEach(() => {
  process.chdir(startDir);
  // an unset variable deleted again: assigning undefined would set the text "undefined" for every later test file
  for (const name of ["HOME", "XDG_CONFIG_HOME"]) {
    if (startEnv[name] === undefined) delete process.env[name];
    else process.env[name] = startEnv[name];
  }
  for (const d of made.splice(0)) d.remove();
});

/** A home at `real/` reached through the link `home`, with ~/notes and a stray ~/.hey/skills/ in it. */
function linkedHome(): { real: string; link: string } {
  const d = tempDir("hey-home-link-");
  made.push(d);
  const real = join(realpathSync(d.path), "real");
  mkdirSync(join(real, "notes"), { recursive: true });
  mkdirSync(join(real, ".hey", "skills", "stray"), { recursive: true });
  const link = join(realpathSync(d.path), "home");
  symlinkSync(real, link);
  return { real, link };
}

test.each([
  ["through a link", (h: { link: string }) => h.link],
  ["through a link, with a trailing slash", (h: { link: string }) => `${h.link}/`],
  ["with a trailing slash", (h: { real: string }) => `${h.real}/`],
])("HOME %s: home is named as the launch directory is, and a directory below it is its own project", (_how, spell) => {
  const h = linkedHome();
  process.env.HOME = spell(h);
  delete process.env.XDG_CONFIG_HOME;
  process.chdir(join(h.real, "notes"));
  const at = here();
  expect(at.home).toBe(h.real);
  expect(at.root).toBe(join(h.real, "notes"));
  expect(at.configDir).toBe(join(h.real, ".config", "hey"));
});

test("realDir: a directory through a link is named as the file system does; one not there, as given", () => {
  const h = linkedHome();
  expect(realDir(h.link, "linux")).toBe(h.real);
  expect(realDir(join(h.link, "nowhere"), "linux")).toBe(join(h.link, "nowhere"));
});
