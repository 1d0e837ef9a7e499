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
