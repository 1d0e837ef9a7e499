// A home for the peer-notice tests (peers/found.ts): a temp directory with a project under it,
// the places hey looks for other agents' files in, and `lay` to write one of them (its folders made).
import { afterAll } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "./e2e.ts";

/** A home removed after the file's tests; `project` is `src/NAME` below it. */
export function peerHome(prefix: string, name: string) {
  const home = tempDir(prefix);
  afterAll(() => home.remove());
  const project = join(home.path, "src", name);
  const at = {
    home: home.path,
    cwd: project,
    root: project,
    claudeDir: join(home.path, ".claude"),
    codexDir: join(home.path, ".codex"),
    configDir: join(home.path, ".config", "hey"),
    peerRelative: [],
  };
  const lay = (path: string, text: string) => {
    mkdirSync(join(path, ".."), { recursive: true });
    writeFileSync(path, text);
  };
  return { home, project, at, lay };
}
