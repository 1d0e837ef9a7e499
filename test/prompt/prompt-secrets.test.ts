// What reaches the system prompt from files and servers (AGENTS.md, CLAUDE.md and its imports,
// skills' descriptions, MCP servers' instructions) is redacted as a tool result is: the secrets hey
// knows become [redacted], values shaped like credentials `[secret: NAME]` placeholders — the same
// bytes on every request and after a /reload that changed nothing, so the prompt cache holds.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { redactText, type Redaction } from "../../src/config/secrets.ts";
import { createPromptSource } from "../../src/prompt/source.ts";
import { tempDir } from "../helpers/e2e.ts";

let dir: ReturnType<typeof tempDir>;
beforeEach(() => {
  dir = tempDir("hey-prompt-secrets-");
});
afterEach(() => dir.remove());

const write = (path: string, text: string) => {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
};

const KNOWN = "gw-known-secret-0123456789"; // a configured API key
const STRIPE = "sk_live_51Habcdefghijklmnopqrstuv";
const GITHUB = "ghp_" + "a1".repeat(18);

function source(root: string, shapes: boolean) {
  const configDir = join(root, "home", ".config", "hey");
  const redaction: Redaction = { secrets: () => [KNOWN], shapes: () => shapes, shown: new Set() };
  const prompt = createPromptSource({
    core: "core",
    cwd: join(root, "repo"),
    root: join(root, "repo"),
    home: join(root, "home"),
    claudeDir: join(root, "home", ".claude"),
    codexDir: join(root, "home", ".codex"),
    configDir,
    os: "linux",
    shell: () => "bash",
    skills: { trusted: () => false, guarded: () => true },
    importsOutside: () => ({ home: join(root, "home"), trusted: false }),
    redact: (text) => redactText(text, redaction),
    writable: () => true,
    warn: () => {},
    servers: () => `Server docs: connect with ${KNOWN}`,
  });
  return { prompt, redaction };
}

test("secrets in instruction files, skills' descriptions and servers' instructions never reach the system prompt; the prompt stays byte-identical", async () => {
  const root = realpathSync(dir.path);
  write(join(root, "repo", ".git", "HEAD"), "ref: refs/heads/main\n");
  write(join(root, "home", ".config", "hey", "AGENTS.md"), `My gateway key is ${KNOWN}.\n`);
  write(join(root, "repo", "CLAUDE.md"), `Deploy with:\nSTRIPE_KEY=${STRIPE}\nSee @docs/ops.md\n`);
  write(join(root, "repo", "docs", "ops.md"), `GITHUB_TOKEN=${GITHUB}\n`);
  write(join(root, "home", ".config", "hey", "skills", "ship", "SKILL.md"), `---\nname: ship\ndescription: Ship it with token ${GITHUB}\n---\nSteps.\n`);
  const { prompt, redaction } = source(root, true);
  const system = prompt.system();
  for (const raw of [KNOWN, STRIPE, GITHUB]) expect(system).not.toContain(raw);
  expect(system).toContain("My gateway key is [redacted].");
  expect(system).toContain("STRIPE_KEY=[secret: STRIPE_KEY]");
  expect(system).toContain(
    `Instructions from ${join(root, "repo", "docs", "ops.md")} (imported by ${join(root, "repo", "CLAUDE.md")}):\nGITHUB_TOKEN=[secret: GITHUB_TOKEN]`,
  );
  expect(system).toContain("- ship: Ship it with token [secret: github-token]");
  expect(system).toContain("Server docs: connect with [redacted]");
  // a placeholder the model saw here is one write_file and edit refuse to write back, as a tool result's
  expect([...redaction.shown].sort()).toEqual(["[redacted]", "[secret: GITHUB_TOKEN]", "[secret: STRIPE_KEY]", "[secret: github-token]"]);
  expect(prompt.system()).toBe(system);
  for (const part of prompt.reloadables) (await part.check({} as never)).apply();
  expect(prompt.system()).toBe(system);
});

test("with `[tools] redact_secrets = false` the shapes stay, the secrets hey knows are still hidden", () => {
  const root = realpathSync(dir.path);
  write(join(root, "repo", "CLAUDE.md"), `STRIPE_KEY=${STRIPE}\nkey ${KNOWN}\n`);
  const system = source(root, false).prompt.system();
  expect(system).toContain(`STRIPE_KEY=${STRIPE}\nkey [redacted]`);
});
