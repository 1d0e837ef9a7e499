// A command longer than Linux lets one argument be (128 KB): a model writing a fixture with a big
// heredoc. It runs, through a script file of the call's that is gone after (explorer finding: a
// 169 KB `cat > fixture <<'EOF'` failed with E2BIG, and the message blamed the shell setting).
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileBashTool, shell } from "../helpers/bash-tool.ts";

const { dir, out, tool, ctx } = fileBashTool("hey-long-command-");

test("a 169 KB heredoc command runs as the shell would run it, and leaves no script file behind", async () => {
  const body = Array.from({ length: 1700 }, (_, i) => `row ${String(i).padStart(4, "0")} ${"x".repeat(90)} '$HOME' "q"`).join("\n");
  const command = `set -e\ncat > big_fixture.txt <<'EOF'\n${body}\nEOF\nwc -l < big_fixture.txt\necho "\${0##*/} ok"; exit 3`;
  expect(Buffer.byteLength(command)).toBeGreaterThan(128 * 1024);
  const r = await tool().run({ command }, ctx());
  expect(r).toEqual({ output: `1700\n${shell.name} ok\n[exit code 3]`, isError: true }); // the shell's own $0 and exit status, as with -c
  expect(readFileSync(join(dir, "big_fixture.txt"), "utf8")).toBe(`${body}\n`);
  expect(readdirSync(out)).toEqual([]);
});

test("where the command cannot go through a file (PowerShell, cmd) and the system refuses it, the message says it is too long, not that the shell is wrong", async () => {
  const powershellLike = { program: shell.program, name: "powershell", args: (command: string) => ["-c", command] };
  const r = await tool({ shell: powershellLike }).run({ command: `echo ${"x".repeat(200_000)}` }, ctx());
  expect(r.isError).toBe(true);
  expect(r.output).toStartWith("bash: the command (195 KB) is longer than the system lets a program's arguments be (");
  expect(r.output).toEndWith("); write long content with write_file and run a short command");
});
