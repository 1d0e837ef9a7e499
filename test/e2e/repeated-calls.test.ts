// A model that makes the same tool call again and again with the same result (free models do:
// `cat a.txt` 20 times, then the turn limit's hand-off): dist/hey tells it from the third turn on,
// in the result it reads, and stops the run at the fifth with a message saying why — exit 1,
// `error.kind` "repeated_calls" — instead of spending the rest of --max-turns. The same call made
// several times in one reply counts once.
import { expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { jsonEvents, runHey } from "../helpers/e2e.ts";
import { eachModelServers, eachTempDir } from "../helpers/fixtures.ts";

const servers = eachModelServers();
const work = eachTempDir("hey-repeat-");

test("the same failing read_file call: told at the 3rd, stopped at the 5th, with a message and exit 1 (before: 20 turns, then a hand-off)", async () => {
  const server = servers(() => ({ calls: [["read_file", { path: "nope.txt" }]] }));
  const run = await runHey(["--base-url", server.baseUrl, "-m", "m", "--output", "json", "-p", "read nope.txt"], { cwd: work.path });
  expect(run.code).toBe(1);
  expect(run.stderr).toContain("the model made the same call 5 turns in a row and got the same result each time");
  const events = jsonEvents(run.stdout);
  expect(events.filter((e) => e.type === "tool_call")).toHaveLength(5);
  expect(events.find((e) => e.type === "error")).toMatchObject({ kind: "repeated_calls" });
  expect(events.at(-1)).toMatchObject({ type: "done", stop_reason: "error", turns: 5 });
  expect(events.some((e) => e.type === "notice" && String(e.message).includes("same read_file call 3 turns in a row"))).toBe(true);
  expect(existsSync(join(work.path, ".hey", "task.md"))).toBe(false);
  const tool = (i: number) => server.requests[i]!.messages.filter((m) => m.role === "tool").map((m) => String(m.content));
  expect(tool(2).join("\n")).not.toContain("you have made this exact call");
  expect(tool(3).at(-1)).toContain("you have made this exact call in each of your last 3 turns");
  expect(tool(4).at(-1)).toContain("you have made this exact call in each of your last 4 turns");
});

test("a model that does something else after the note goes on to its answer; the user was told of the repetition on stderr", async () => {
  writeFileSync(join(work.path, "a.txt"), "hello\n");
  let n = 0;
  const server = servers(() =>
    ++n <= 3 ? { calls: [["bash", { command: "cat a.txt" }]] } : n === 4 ? { calls: [["bash", { command: "ls" }]] } : { text: "a.txt says hello." },
  );
  const run = await runHey(["--base-url", server.baseUrl, "-m", "m", "-p", "show a.txt"], { cwd: work.path });
  expect(run.code).toBe(0);
  expect(run.stdout).toContain("a.txt says hello.");
  expect(run.stderr).toContain("same bash call 3 turns in a row");
});

test("five identical calls in one reply: the first runs, each copy is told so; the model answers; no note, no stop (before: stopped after that reply, exit 1)", async () => {
  let n = 0;
  const server = servers(() =>
    ++n === 1 ? { calls: Array.from({ length: 5 }, () => ["bash", { command: "echo clean" }] as [string, unknown]) } : { text: "All clean." },
  );
  const run = await runHey(["--base-url", server.baseUrl, "-m", "m", "-p", "status?"], { cwd: work.path });
  expect(run.code).toBe(0);
  expect(run.stdout).toContain("All clean.");
  expect(run.stderr).not.toContain("same bash call");
  expect(server.requests).toHaveLength(2);
  const results = server.requests[1]!.messages.filter((m) => m.role === "tool").map((m) => String(m.content));
  expect(results).toHaveLength(5);
  expect(results[0]).toStartWith("clean\n[exit code 0]");
  for (const r of results.slice(1)) expect(r).toStartWith("same call as the 1st in this reply: not run again; its result is above");
  expect(results.join("\n")).not.toContain("you have made this exact call");
});
