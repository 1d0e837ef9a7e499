// SPEC §22: `hey -c` on a session of 100,000 messages whose latest summary covers all but the
// last ~150, from process start to the first request at a local mock server, and that request's
// size (issue 10: the summary + the recent window, no re-summary). Every run resumes the same file: each run appends to it, so it is cut
// back to its original length afterwards (the writer only appends).
import { closeSync, mkdirSync, openSync, readdirSync, readSync, realpathSync, renameSync, statSync, truncateSync } from "node:fs";
import { join } from "node:path";
import { writeBigSession, writeHugePromptSession } from "../test/helpers/big-session.ts";
import { recordEarlierRun } from "../test/helpers/earlier-run.ts";
import { isSummaryRequest, runMeasured, startMock, textSse, type MockRequest } from "./bench-mock.ts";

const MESSAGES = 100_000;

export interface Seen {
  ms: number;
  bytes: number;
  messages: number;
  summary: boolean;
  /** for a summary request: the session messages in its transcript (compaction.ts `describe` starts each with "[role" or "[tool result") */
  transcribed?: number;
}

/** `dir` is an empty scratch directory; `env` a clean environment (HOME, PATH). */
export async function resumeBench(hey: string, dir: string, env: Record<string, string>, opts: { runs: number; warmup: number }) {
  const state = join(dir, "state");
  const sessions = join(state, "hey", "sessions");
  mkdirSync(join(dir, "project"));
  const work = realpathSync(join(dir, "project")); // hey compares the header's cwd with process.cwd()
  mkdirSync(sessions, { recursive: true });
  recordEarlierRun(state); // the approvals record the run that wrote the session left: without it, a removed record (no tool sent)
  const tmp = join(sessions, "writing.tmp");
  // as hey leaves a long session: its latest summary covers all but the last ~150 messages
  const big = writeBigSession(tmp, { messages: MESSAGES, keepTail: 0, cwd: work, summary: { from: 2, to: MESSAGES - 150, after: MESSAGES - 140 } });
  const path = join(sessions, `${headerId(tmp)}.jsonl`); // the writer appends to <header id>.jsonl
  renameSync(tmp, path);

  let seen: Seen[] = [];
  let t0 = 0;
  const server = startMock((req: MockRequest) => {
    const summary = isSummaryRequest(req.body);
    const s: Seen = { ms: req.at - t0, bytes: req.bytes, messages: req.body.messages.length, summary };
    if (summary) s.transcribed = JSON.stringify(req.body.messages.at(-1)?.content ?? "").match(/\\n\\n\[(user|assistant|[\w-]+ result)\b/g)?.length;
    seen.push(s);
    return textSse(summary ? "Summary: refactoring the parser; steps so far were reads and test runs." : "Continuing.");
  });
  const firsts: number[] = [];
  const chats: number[] = [];
  let last: Seen[] = [];
  try {
    const cmd = [hey, "--base-url", server.url, "-m", "m", "-c", "-p", "continue"];
    for (let i = 0; i < opts.warmup + opts.runs; i++) {
      seen = [];
      t0 = performance.now();
      const p = Bun.spawn(cmd, {
        cwd: work,
        env: { ...env, XDG_STATE_HOME: state },
        stdin: "ignore",
        stdout: "ignore",
        stderr: "pipe",
        timeout: 30_000,
        killSignal: "SIGKILL",
      });
      const [code, stderr] = await Promise.all([p.exited, p.stderr.text()]);
      if (code !== 0) throw new Error(`resume run exited ${code}: ${stderr}`);
      const grown = statSync(path).size - big.bytes;
      const files = readdirSync(sessions);
      if (grown <= 0 || files.length !== 1) throw new Error(`resume did not append to the big session (grew ${grown} B; files: ${files.join(", ")})`);
      truncateSync(path, big.bytes);
      const chat = seen.find((s) => !s.summary);
      if (!chat) throw new Error("resume run sent no agent request");
      if (i >= opts.warmup) {
        firsts.push(seen[0]!.ms);
        chats.push(chat.ms);
      }
      last = seen;
    }
  } finally {
    server.stop();
  }
  return { fileBytes: big.bytes, count: big.count, firsts, chats, requests: last };
}

function headerId(path: string): string {
  const fd = openSync(path, "r");
  try {
    const buf = Buffer.alloc(4096);
    const n = readSync(fd, buf, 0, buf.length, 0);
    return (JSON.parse(buf.toString("utf8", 0, n).split("\n")[0]!) as { id: string }).id;
  } finally {
    closeSync(fd);
  }
}

/** Issue 13 row 4: `hey -c` on a session whose first prompt is one 200 MB line: wall time and peak RSS. */
export async function hugePromptResume(hey: string, dir: string, env: Record<string, string>) {
  const state = join(dir, "state");
  const sessions = join(state, "hey", "sessions");
  mkdirSync(sessions, { recursive: true });
  recordEarlierRun(state); // the approvals record the run that wrote the session left: without it, a removed record (no tool sent)
  mkdirSync(join(dir, "project"));
  const work = realpathSync(join(dir, "project"));
  writeHugePromptSession(sessions, work, 200);
  const server = startMock(() => textSse("Continuing."));
  try {
    const run = await runMeasured([hey, "--base-url", server.url, "-m", "m", "-c", "-p", "next"], {
      cwd: work,
      env: { ...env, XDG_STATE_HOME: state },
      timeoutMs: 60_000,
    });
    if (run.code !== 0) throw new Error(`huge-prompt resume exited ${run.code}: ${run.stderr}`);
    return run;
  } finally {
    server.stop();
  }
}
