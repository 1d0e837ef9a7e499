// The skill and MCP guide of the system prompt (prompt/source.ts) follows what the run leaves out
// of the project, not whether it can ask: a project with nothing to guard is guided to its own
// .hey/ in `hey -p` (not trusted, nothing left out) as in the REPL (trusted for the session), so
// `hey -c` between the two keeps the cached system prompt; a project whose files are left out is
// guided to the user's folders, and told why.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { join } from "node:path";
import { createPromptSource } from "../../src/prompt/source.ts";
import { tempDir } from "../helpers/e2e.ts";

let dir: ReturnType<typeof tempDir>;
beforeEach(() => {
  dir = tempDir("hey-guide-");
});
afterEach(() => dir.remove());

const systemFor = (trusted: boolean, guarded: boolean) =>
  createPromptSource({
    core: "core",
    cwd: dir.path,
    root: dir.path,
    home: dir.path,
    claudeDir: join(dir.path, ".claude"),
    codexDir: join(dir.path, ".codex"),
    configDir: join(dir.path, "config"),
    os: "linux",
    shell: () => "bash",
    skills: { trusted: () => trusted, guarded: () => guarded },
    importsOutside: () => undefined,
    redact: (text) => text,
    writable: () => true,
    warn: () => {},
  }).system();

test.each([
  ["trusted (the REPL, nothing to guard; or recorded)", true, false, true],
  ["not trusted, nothing to guard (hey -p): the same words as the REPL's", false, false, true],
  ["trusted, its files loaded", true, true, true],
  ["not trusted, its files left out: the user's folders, and why", false, true, false],
])("%s", (_, trusted, guarded, project) => {
  const system = systemFor(trusted, guarded);
  expect(system.includes("Keep a procedure as a skill: .hey/skills/<name>/SKILL.md")).toBe(project);
  expect(system.includes("This project is untrusted: its .hey/ is ignored")).toBe(!project);
});

test("hey -p and the REPL send one system prompt in a project with nothing to guard", () => {
  expect(systemFor(false, false)).toBe(systemFor(true, false));
});
