// Through dist/hey against a loopback model, under a list whose path entries fence the file tools
// (`read_file: src/**`, `deny: read_file: ~/.ssh/**`): a read of ~/.ssh/id_ed25519, of it through a
// link in the project and of a sibling project's .env by `..` are refused, each naming the entry to
// add; a grep of the whole project searches src/ alone; a read and a grep under src/ run; the tools stay offered.
// Plan mode still narrows such a list: a write the list allows is refused by plan mode.
import { expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey } from "../helpers/e2e.ts";
import { eachScriptedRun } from "../helpers/scripted-run.ts";

setDefaultTimeout(60_000); // the first test may build dist/hey

const scripted = eachScriptedRun();

const write = (path: string, text: string) => {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
};

test("read_file: src/** and a deny of ~/.ssh/**: the key, a link to it and ../other/.env are refused; a grep of the project searches src/ alone", async () => {
  const { home, project } = scripted;
  scripted.userConfig(`[permission]\nallow = ["read_file: src/**", "grep: src/**"]\ndeny = ["read_file: ~/.ssh/**"]\n`);
  write(join(home.path, ".ssh", "id_ed25519"), "PRIVATE KEY DATA\n");
  write(join(project.path, "src", "a.ts"), "export const a = 1;\n");
  write(join(project.path, "notes.md"), "db password: hunter2\n"); // outside src/: a grep of the project passes it by
  const other = join(project.path, "..", `${project.path.split("/").at(-1)}-other`);
  write(join(other, ".env"), "db=hunter2\n");
  symlinkSync(join(home.path, ".ssh"), join(project.path, "src", "keys"));
  scripted.calls = [
    ["read_file", { path: "~/.ssh/id_ed25519" }],
    ["read_file", { path: "src/keys/id_ed25519" }],
    ["read_file", { path: `../${other.split("/").at(-1)}/.env` }],
    ["grep", { pattern: "hunter2" }],
    ["read_file", { path: "src/a.ts" }],
    ["grep", { pattern: "export", path: "src" }],
  ];
  try {
    const run = await runHey(["-p", "review"], { cwd: project.path, env: { HOME: home.path } });
    expect(run.code).toBe(0);
    expect((scripted.model.requests[0]!.tools ?? []).map((t) => t.function.name)).toEqual(["read_file", "grep"]);
    const got = scripted.results();
    const key = join(realpathSync(home.path), ".ssh", "id_ed25519");
    const env = join(realpathSync(other), ".env");
    const shown = (path: string, real: string) => (join(project.path, path) === real ? "" : ` (${real})`); // where the temp dir is no link
    expect(got[0]).toBe(
      "blocked by permission rules: read_file of `~/.ssh/id_ed25519` matches deny entry `read_file: ~/.ssh/**` in ~/.config/hey/config.toml:9",
    );
    expect(got[1]).toBe(
      `blocked by permission rules: read_file of \`src/keys/id_ed25519\` (${key}) matches deny entry \`read_file: ~/.ssh/**\` in ~/.config/hey/config.toml:9`,
    );
    expect(got[2]).toBe(
      `blocked by permission rules: read_file of \`../${other.split("/").at(-1)}/.env\`${shown(`../${other.split("/").at(-1)}/.env`, env)} matches no allow entry in ~/.config/hey/config.toml: add "read_file: ${env}" there (allowed: read_file: src/**, grep: src/**)`,
    );
    // a grep of the project searches src/ only: the files outside it are passed by, counted, not read
    expect(got[3]).toStartWith('no matches for "hunter2" in .');
    expect(got[3]).toContain("[1 file not searched: the permission rules keep it from grep]");
    expect(got[4]).toBe("1\texport const a = 1;");
    expect(got[5]).toContain("a.ts");
    expect(got.join("\n")).not.toContain("PRIVATE KEY DATA");
    expect(got.join("\n")).not.toContain("hunter2\n");
    expect(got.join("\n")).not.toContain("db password");
  } finally {
    Bun.spawnSync(["rm", "-rf", other]);
  }
});

test("plan mode still narrows a list with path entries: src/ is read, a write there is refused by plan mode, a read outside by the list", async () => {
  const { home, project } = scripted;
  scripted.userConfig(`[permission]\nallow = ["read_file: src/**", "write_file: src/**"]\n`);
  write(join(project.path, "src", "a.ts"), "export const a = 1;\n");
  write(join(project.path, "notes.txt"), "private\n");
  scripted.calls = [
    ["read_file", { path: "src/a.ts" }],
    ["write_file", { path: "src/b.ts", content: "x" }],
    ["read_file", { path: "notes.txt" }],
  ];
  const run = await runHey(["--plan", "-p", "plan it"], { cwd: project.path, env: { HOME: home.path } });
  expect(run.code).toBe(0);
  const got = scripted.results();
  expect(got[0]).toBe("1\texport const a = 1;");
  expect(got[1]).toStartWith("blocked by plan mode: write_file may change things");
  expect(got[2]).toStartWith("blocked by permission rules: read_file of `notes.txt` matches no allow entry");
  expect(existsSync(join(project.path, "src", "b.ts"))).toBe(false);
});
