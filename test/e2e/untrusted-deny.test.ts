// In CI (`hey -p`, no one to ask) an untrusted project's `.hey/config.toml` is not loaded, but its
// `deny = ["bash: git push *"]` holds: the push is refused, and the notice says why.
import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey, tempDir } from "../helpers/e2e.ts";
import { resultText, startModelServer } from "../helpers/model-server.ts";

test("an untrusted project's deny entries refuse git push in a one-shot run, and the notice says they apply", async () => {
  const [home, project] = [tempDir("hey-home-"), tempDir("hey-project-")];
  const model = startModelServer((req) =>
    req.messages.at(-1)?.role === "tool" ? { text: "done" } : { calls: [["bash", { command: "git push origin main" }]] },
  );
  try {
    mkdirSync(join(project.path, ".git"));
    mkdirSync(join(project.path, ".hey"));
    writeFileSync(join(project.path, ".hey", "config.toml"), '[permission]\ndeny = ["bash: git push *"]\n');
    const run = await runHey(["--base-url", model.baseUrl, "-m", "m", "-p", "ship it"], { cwd: project.path, env: { HOME: home.path } });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("hey: not loaded: .hey/config.toml (this project is not trusted;");
    expect(run.stderr).toContain("; .hey/config.toml's [permission] deny entries apply all the same: they only narrow what runs");
    expect(resultText(model.requests.at(-1)!.messages.at(-1))).toContain("blocked by permission rules");
  } finally {
    model.stop();
    home.remove();
    project.remove();
  }
}, 60_000); // the first test may build dist/hey

test("an untrusted project's deny entries do not silence the notice that the user's Claude Code rules are not applied", async () => {
  const [home, project] = [tempDir("hey-home-"), tempDir("hey-project-")];
  const model = startModelServer(() => ({ text: "done" }));
  try {
    mkdirSync(join(home.path, ".claude"), { recursive: true });
    writeFileSync(join(home.path, ".claude", "settings.json"), JSON.stringify({ permissions: { allow: ["Bash(git status)", "Read"] } }));
    mkdirSync(join(project.path, ".git"));
    mkdirSync(join(project.path, ".hey"));
    writeFileSync(join(project.path, ".hey", "config.toml"), '[permission]\ndeny = ["bash: anything *"]\n');
    const run = await runHey(["--base-url", model.baseUrl, "-m", "m", "-p", "hi"], { cwd: project.path, env: { HOME: home.path } });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("has Claude Code permission rules");
  } finally {
    model.stop();
    home.remove();
    project.remove();
  }
}, 60_000);
