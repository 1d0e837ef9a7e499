// An allow list edited since the user approved it, through dist/hey against a loopback model: what
// the edit takes away applies at once, what it adds waits for a yes at a terminal, and the run's
// messages agree with each other on which is which.
import { expect, setDefaultTimeout, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey } from "../helpers/e2e.ts";
import { eachScriptedRun } from "../helpers/scripted-run.ts";

setDefaultTimeout(60_000); // the first test may build dist/hey

const scripted = eachScriptedRun();
const hey = (args: string[]) => runHey(args, { cwd: scripted.project.path, env: { HOME: scripted.home.path } });

/** Runs hey once with `allow` so the record approves it (the first run takes the files as they are). */
async function approve(allow: string): Promise<void> {
  scripted.userConfig(`[permission]\nallow = ${allow}\n`);
  scripted.calls = [];
  expect((await hey(["-p", "hello"])).code).toBe(0);
}

test("an allow entry removed in the same edit that adds another is removed at once; the added one waits", async () => {
  writeFileSync(join(scripted.project.path, "README.md"), "# readme\n");
  await approve('["read_file", "bash: cat *"]');
  scripted.userConfig('[permission]\nallow = ["read_file", "bash: head *"]\n');
  scripted.calls = [
    ["bash", { command: "cat README.md" }],
    ["bash", { command: "head -1 README.md" }],
    ["read_file", { path: "README.md" }],
  ];
  const run = await hey(["-p", "read it"]);
  expect(run.code).toBe(0);
  expect(run.stderr).toContain('not used: + [permission] allow "bash: head *"');
  const [cat, head, read] = scripted.results();
  expect(cat).toStartWith("blocked by permission rules:");
  expect(head).toStartWith("blocked by permission rules:");
  expect(read).toContain("# readme");
});

test("entries waiting for approval are not asked for again, and a call one of them would allow says it waits for the user's yes", async () => {
  await approve('["read_file", "grep"]');
  scripted.userConfig('[permission]\nallow = ["read_file", "grep", "write_file", "edit", "bash: ls *"]\n');
  scripted.calls = [["write_file", { path: "notes.txt", content: "hello\n" }]];
  const run = await hey(["-p", "write it"]);
  expect(run.code).toBe(0);
  expect(run.stderr).toContain('not used: + [permission] allow "write_file", + [permission] allow "edit", + [permission] allow "bash: ls *"');
  expect(run.stderr).toContain("hey: [permission] allow leaves compress blocked (compress:"); // not the tools the file allows
  const refused =
    'blocked by permission rules: tool `write_file`: allow entry "write_file" in ~/.config/hey/config.toml waits for your approval (hey asks at a terminal start or /reload)';
  expect(scripted.results()[0]).toBe(refused);
  // the user's tool line says it too, its start at least (a line is cut to the width)
  expect(run.stderr).toContain(
    'write notes.txt (1 line)\n  ✗ blocked by permission rules: tool `write_file`: allow entry "write_file" in ~/.config/hey/config.toml waits',
  );
});

test("the tools an allow list blocks are named once per project until the list changes, compress with what it is", async () => {
  scripted.userConfig('[permission]\nallow = ["read_file", "bash: ls"]\n');
  const first = await hey(["-p", "hello"]);
  const line = "hey: [permission] allow leaves write_file, edit, grep, compress blocked (compress: hey's tool that drops old tool output";
  expect(first.stderr).toContain(line);
  expect((await hey(["-p", "hello"])).stderr).not.toContain("blocked;");
  scripted.userConfig('[permission]\nallow = ["read_file", "grep", "bash: ls"]\n');
  expect((await hey(["-p", "hello"])).stderr).toContain("hey: [permission] allow leaves write_file, edit, compress blocked (compress:");
});

test("--approve says that it does not cover a change to the user's config, which still waits", async () => {
  await approve('["read_file"]');
  scripted.userConfig('[permission]\nallow = ["read_file", "bash: ls *"]\n');
  const run = await hey(["--approve", "-p", "hello"]);
  expect(run.code).toBe(0);
  expect(run.stderr).toContain('not used: + [permission] allow "bash: ls *"');
  expect(run.stderr).toContain(
    "hey: --approve covers only the project's .hey/config.toml for this run, not the changes above: start hey at a terminal once to approve them\n",
  );
});
