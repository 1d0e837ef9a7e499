// SPEC §22: peak memory of dist/hey on a 500-turn scripted session and on a short task, against a
// local mock model server. Peak = the process's VmHWM, sampled while it runs (see runMeasured).
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { jsonEvents } from "../test/helpers/e2e.ts";
import { FIXED, makeRepo } from "../test/helpers/task-repo.ts";
import { isSummaryRequest, runMeasured, startMock, textSse, toolCallSse } from "./bench-mock.ts";

const TURNS = 500;
const FILES = 24;

/** A deterministic source file of about `bytes` bytes. */
function sourceFile(k: number, bytes: number): string {
  const lines = [`// module ${k}: generated for the memory benchmark`, `import { helper${(k + 1) % FILES} } from "./mod${(k + 1) % FILES}.ts";`, ""];
  for (let i = 0; lines.join("\n").length < bytes; i++)
    lines.push(
      `export function step${k}_${i}(input: number[]): number {`,
      `  return input.reduce((sum, x) => sum + x * ${i + 1}, helper${(k + 1) % FILES}(${i}));`,
      "}",
      "",
    );
  return lines.join("\n");
}

/** Turn n (1-based) of the long session: a read_file or a bash command, outputs of 1–4 KB. */
function longTurnCall(n: number): { id: string; name: string; args: unknown } {
  const id = `call_${n}`;
  const k = n % FILES;
  switch (n % 4) {
    case 0:
      return { id, name: "read_file", args: { path: `src/mod${k}.ts` } };
    case 1:
      return { id, name: "bash", args: { command: `head -c ${1000 + ((n * 37) % 3000)} src/mod${k}.ts; echo; echo "checked mod${k} (turn ${n})"` } };
    case 2:
      return { id, name: "bash", args: { command: `ls -la src | head -n 20; wc -l src/mod${k}.ts` } };
    default:
      return { id, name: "read_file", args: { path: `src/mod${k}.ts`, offset: 1 + (n % 20), limit: 60 } };
  }
}

/** dist/hey through TURNS tool turns and a final answer, `--output json` drained from a pipe. */
export async function longSession(hey: string, dir: string, env: Record<string, string>) {
  const work = join(dir, "long");
  mkdirSync(join(work, "src"), { recursive: true });
  for (let k = 0; k < FILES; k++) writeFileSync(join(work, "src", `mod${k}.ts`), sourceFile(k, 1000 + ((k * 131) % 3000)));
  let agentRequests = 0;
  let summaries = 0;
  let maxBody = 0;
  const server = startMock(({ body, bytes }) => {
    const tokens = Math.round(bytes / 4);
    if (isSummaryRequest(body)) {
      summaries++;
      return textSse("Summary: reading src/mod*.ts files one by one and checking their sizes; nothing changed yet, nothing failed.", tokens);
    }
    maxBody = Math.max(maxBody, bytes);
    const n = ++agentRequests;
    return n <= TURNS ? toolCallSse([longTurnCall(n)], tokens) : textSse("All modules checked.", tokens);
  });
  try {
    const cmd = [hey, "--base-url", server.url, "-m", "m", "--max-turns", String(TURNS + 100), "--output", "json", "-p", "check every module under src/"];
    const run = await runMeasured(cmd, { cwd: work, env: { ...env, XDG_STATE_HOME: join(dir, "long-state") }, timeoutMs: 170_000 });
    const done = jsonEvents(run.stdout).at(-1);
    if (run.code !== 0 || done?.type !== "done" || done.turns !== TURNS + 1)
      throw new Error(`500-turn run failed (exit ${run.code}): ${JSON.stringify(done)} ${run.stderr.slice(0, 500)}`);
    return { ...run, agentRequests, summaries, maxBody, stdoutBytes: run.stdout.length };
  } finally {
    server.stop();
  }
}

/**
 * What JavaScriptCore's own log of its collections (`BUN_JSC_logGC=1` on stderr) says of a run: the
 * heap when a collection started (its largest is the garbage the run had made by then, most of the
 * peak), the heap a full collection left (what the run really keeps) and the bytes allocated
 * between collections (a lower bound: collections started by Bun's timer log no count). Undefined
 * when the runtime logs nothing of the kind.
 */
export function gcFigures(stderr: string) {
  const starts = [...stderr.matchAll(/START M (\d+)kb => (\w+)Collection/g)].map((m) => ({ kb: Number(m[1]), full: m[2] === "Full" }));
  const ends = [...stderr.matchAll(/=> (\d+)kb, p=/g)].map((m) => Number(m[1]));
  if (starts.length === 0 || ends.length !== starts.length) return undefined;
  const kept = ends.filter((_, i) => starts[i]!.full);
  const allocated = [...stderr.matchAll(/bytes allocated this cycle: (\d+)/g)].reduce((sum, m) => sum + Number(m[1]), 0);
  return {
    collections: starts.length,
    full: kept.length,
    largest: Math.max(...starts.map((s) => s.kb)) * 1024,
    keptAfterFull: kept.length > 0 ? Math.max(...kept) * 1024 : undefined,
    allocated,
  };
}

/** The model's side of the short task, one SSE reply per request, for a repository made by makeRepo (test/helpers/task-repo.ts). */
export const SHORT_TASK = [
  toolCallSse([
    { id: "c1", name: "read_file", args: { path: "math.test.mjs" } },
    { id: "c2", name: "read_file", args: { path: "math.mjs" } },
  ]),
  toolCallSse([{ id: "c3", name: "bash", args: { command: "node math.test.mjs" } }]),
  toolCallSse([{ id: "c4", name: "edit", args: { path: "math.mjs", old_string: "return a - b;", new_string: "return a + b;" } }]),
  toolCallSse([{ id: "c5", name: "bash", args: { command: "node math.test.mjs" } }]),
  textSse("Fixed math.mjs:2; the test passes."),
];

/** The same fix found by a search first (grep, the embedded ripgrep when none is on PATH): search → edit → run → answer. */
export const SEARCH_TASK = [toolCallSse([{ id: "c1", name: "grep", args: { pattern: "a - b" } }]), SHORT_TASK[2]!, SHORT_TASK[3]!, SHORT_TASK[4]!];

/** The 5-turn read → run → edit → run → answer task of test/e2e-task.test.ts (or another `script` of it), `runs` times. */
export async function shortTask(hey: string, dir: string, env: Record<string, string>, runs: number, script = SHORT_TASK) {
  let next = 0;
  const server = startMock(() => script[next++] ?? textSse("(script exhausted)"));
  const results: Awaited<ReturnType<typeof runMeasured>>[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      next = 0;
      const work = join(dir, `task-${script.length}-${i}`);
      mkdirSync(work);
      makeRepo(work);
      const cmd = [hey, "--base-url", server.url, "-m", "m", "--output", "json", "-p", "the test fails, fix it"];
      const run = await runMeasured(cmd, { cwd: work, env: { ...env, XDG_STATE_HOME: join(dir, "task-state") }, timeoutMs: 30_000 });
      const done = jsonEvents(run.stdout).at(-1);
      if (run.code !== 0 || done?.turns !== script.length || readFileSync(join(work, "math.mjs"), "utf8") !== FIXED)
        throw new Error(`short task failed (exit ${run.code}): ${run.stderr.slice(0, 500)}`);
      results.push(run);
    }
  } finally {
    server.stop();
  }
  return results;
}

/**
 * Peak RSS of dist/hey making one replacement in a SQL dump of `mb` MB (one row a line) and of
 * answering with a short text, and the dump's size: what edit holds beside the file.
 */
export async function bigEdit(hey: string, dir: string, env: Record<string, string>, mb = 50) {
  const work = join(dir, `edit-${mb}`);
  mkdirSync(work, { recursive: true });
  const rows = Array.from({ length: 10_000 }, (_, i) => `INSERT INTO t VALUES (${i}, "row ${i} handler TODO value", 0.5);\n`).join("");
  const copies = Math.ceil((mb * 1e6) / rows.length);
  const dump = rows.repeat(copies >> 1) + "UNIQUE_MARKER_LINE\n" + rows.repeat(copies - (copies >> 1));
  writeFileSync(join(work, "dump.sql"), dump);
  const edit = { path: "dump.sql", old_string: "UNIQUE_MARKER_LINE", new_string: "UNIQUE_MARKER_LINE2" };
  const measure = async (script: string[]) => {
    let next = 0;
    const server = startMock(() => script[next++] ?? textSse("done"));
    try {
      const cmd = [hey, "--base-url", server.url, "-m", "m", "--output", "json", "-p", "rename the marker"];
      const run = await runMeasured(cmd, { cwd: work, env: { ...env, XDG_STATE_HOME: join(dir, "edit-state") }, timeoutMs: 60_000 });
      if (run.code !== 0) throw new Error(`big edit run failed (exit ${run.code}): ${run.stderr.slice(0, 500)}`);
      return run;
    } finally {
      server.stop();
    }
  };
  const answer = await measure([textSse("nothing to do")]);
  const edited = await measure([toolCallSse([{ id: "e1", name: "edit", args: edit }]), textSse("renamed")]);
  if (!readFileSync(join(work, "dump.sql"), "latin1").includes("\nUNIQUE_MARKER_LINE2\n")) throw new Error("big edit: the file was not changed");
  return { bytes: dump.length, answer: answer.peakRss, edit: edited.peakRss, ms: edited.ms };
}
