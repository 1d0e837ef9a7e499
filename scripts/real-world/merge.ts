// Joins extract.ts's command list with record.sh's two records into the fixture the test reads
// (test/fixtures/real-world/corpus.txt), kept compact for the repository:
//   # SOURCE                                  a line before each source's commands (tldr:common/find)
//   DASH<TAB>BASH<TAB>"COMMAND"[<TAB>partial]  one line per command
// DASH and BASH name the programs each shell executed or tried to (argv[0] basenames and the names
// driver.ts saw tried, found or not; sorted, each once, space-separated; "-" for none, and BASH "="
// when it equals DASH); the command is a JSON string;
// "partial" marks a command stopped at the time limit (what it ran is a lower bound).
//   bun scripts/real-world/merge.ts COMMANDS.jsonl OUT_DIR > test/fixtures/real-world/corpus.txt
import { readFileSync } from "node:fs";
import { join } from "node:path";

interface Run {
  i: number;
  run: string[][];
  tried?: string[];
  timeout?: true;
}

const lines = (path: string) =>
  readFileSync(path, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));
const [commandsPath, outDir] = process.argv.slice(2);
if (!commandsPath || !outDir) throw new Error("usage: bun scripts/real-world/merge.ts COMMANDS.jsonl OUT_DIR");
const commands: { c: string; src: string }[] = lines(commandsPath);
const records = Object.fromEntries(["dash", "bash"].map((shell) => [shell, lines(join(outDir, `${shell}.jsonl`)) as Run[]]));
// a name of digits only is a process ID run as a command (`[[ -n $$ && $$ -gt 0 ]]` under dash): one
// placeholder for all, so that the record is the same from one recording to the next
const names = (r: Run) =>
  [...new Set([...r.run.map((argv) => argv[0]!), ...(r.tried ?? [])].map((n) => (/^[0-9]+$/.test(n) ? "<number>" : n)))].sort().join(" ") || "-";

let source = "";
commands.forEach(({ c, src }, i) => {
  const [dash, bash] = [records.dash![i]!, records.bash![i]!];
  if (dash.i !== i || bash.i !== i) throw new Error(`record out of step at command ${i}`);
  if (src !== source) process.stdout.write(`# ${(source = src)}\n`);
  const fields = [names(dash), names(bash) === names(dash) ? "=" : names(bash), JSON.stringify(c)];
  if (dash.timeout || bash.timeout) fields.push("partial");
  process.stdout.write(fields.join("\t") + "\n");
});
