// Writes a large, realistic session file quickly: a first prompt, then turns of an assistant
// message with one to three tool calls and their results, a usage entry per assistant message,
// and now and then a text answer and a new user message. Lines are the writer's own format
// (pure/session-format.ts `toLine`), written in big batches.
import { closeSync, openSync, writeSync } from "node:fs";
import { newId, type Message } from "../../src/kernel/ir.ts";
import { toLine, type SessionEntry } from "../../src/sessions/format.ts";

export interface BigSession {
  path: string;
  bytes: number;
  /** message entries written */
  count: number;
  firstUser: Message;
  /** the last `keepTail` messages, oldest first */
  tail: Message[];
  /** the summary entries written, oldest first */
  summaries: { fromId: string; toId: string; text: string }[];
}

/**
 * One summary as hey writes one: of messages `from` to `to` (1-based; `to` moves on past the
 * results of its call), written after message `after`.
 */
export interface SummaryAt {
  from: number;
  to: number;
  after: number;
}

const FILLER = "The quick brown fox jumps over the lazy dog; ".repeat(24); // ~1 KB of content per message
const BATCH_BYTES = 4 * 1024 * 1024;

/**
 * `messages` message entries into `path` (created or replaced). `summaryEvery` > 0 writes a
 * compaction summary entry covering the messages so far every that many messages.
 */
export function writeBigSession(
  path: string,
  opts: { messages: number; keepTail?: number; summaryEvery?: number; summary?: SummaryAt; cwd?: string },
): BigSession {
  const keepTail = opts.keepTail ?? 1000;
  const start = Date.UTC(2025, 0, 1);
  let tick = 0;
  const id = () => newId(start + tick++);
  const fd = openSync(path, "w");
  let batch: string[] = [];
  let batchBytes = 0;
  let bytes = 0;
  const flush = () => {
    const data = Buffer.from(batch.join(""));
    for (let done = 0; done < data.length; ) done += writeSync(fd, data, done, data.length - done);
    bytes += data.length;
    batch = [];
    batchBytes = 0;
  };
  const put = (entry: SessionEntry | Parameters<typeof toLine>[0]) => {
    const line = toLine(entry);
    batch.push(line);
    batchBytes += line.length;
    if (batchBytes >= BATCH_BYTES) flush();
  };

  const tail: Message[] = [];
  const summaries: BigSession["summaries"] = [];
  const order: Pick<Message, "id" | "role">[] = []; // with opts.summary: every message so far, to pick its range
  let count = 0;
  let firstId = "";
  const add = (m: Message) => {
    put({ type: "message", message: m });
    if (count === 0) firstId = m.id;
    count++;
    if (count > opts.messages - keepTail) tail.push(m);
    if (opts.summary && count <= opts.summary.after) order.push({ id: m.id, role: m.role });
    if (opts.summary && count === opts.summary.after) {
      let to = opts.summary.to - 1;
      while (order[to + 1]?.role === "tool") to++; // a call and its results stay together
      const summary = { fromId: order[opts.summary.from - 1]!.id, toId: order[to]!.id, text: `summary of messages ${opts.summary.from} to ${to + 1}` };
      summaries.push(summary);
      put({ type: "compaction", id: id(), from_id: summary.fromId, to_id: summary.toId, summary: summary.text });
    }
    if (m.role === "assistant")
      put({ type: "usage", id: id(), input_tokens: 1000 + count, output_tokens: 50, cache_read_tokens: 800, cache_write_tokens: 0, reasoning_tokens: 10 });
    if (opts.summaryEvery && count % opts.summaryEvery === 0) {
      const summary = { fromId: firstId, toId: m.id, text: `summary of the first ${count} messages` };
      summaries.push(summary);
      put({ type: "compaction", id: id(), from_id: summary.fromId, to_id: summary.toId, summary: summary.text });
    }
  };

  put({ type: "header", id: id(), cwd: opts.cwd ?? "/tmp/big", created: new Date(start).toISOString(), version: "0.0.0-test" });
  put({ type: "model", id: id(), provider: "fake", model: "fake-1" });
  const firstUser: Message = { id: id(), role: "user", content: [{ type: "text", text: `first prompt: refactor the parser. ${FILLER}` }] };
  add(firstUser);
  for (let turn = 0; count < opts.messages; turn++) {
    const calls = Array.from({ length: 1 + (turn % 3) }, (_, k) => ({
      id: `call_${turn}_${k}`,
      name: k === 0 ? "bash" : "read_file",
      arguments: JSON.stringify({ command: `step ${turn}.${k}`, path: `src/f${k}.ts` }),
    }));
    add({ id: id(), role: "assistant", content: [{ type: "text", text: `turn ${turn}: ${FILLER}` }], toolCalls: calls });
    for (const c of calls) {
      if (count >= opts.messages) break;
      add({ id: id(), role: "tool", toolCallId: c.id, toolName: c.name, isError: false, content: [{ type: "text", text: `output of ${c.id}\n${FILLER}` }] });
    }
    if (turn % 4 === 3 && count < opts.messages) add({ id: id(), role: "assistant", content: [{ type: "text", text: `answer ${turn}` }] });
    if (turn % 4 === 3 && count < opts.messages) add({ id: id(), role: "user", content: [{ type: "text", text: `next request ${turn}` }] });
  }
  flush();
  closeSync(fd);
  return { path, bytes, count, firstUser, tail, summaries };
}

/**
 * A session of `cwd` in `dir` whose first prompt is one line of `mb` megabytes ("summarize this
 * log:\n" then `A`s), then a short answer: the file `hey -c` must resume without loading the line.
 */
export function writeHugePromptSession(dir: string, cwd: string, mb: number): { path: string; answer: string } {
  const id = newId();
  const path = `${dir}/${id}.jsonl`;
  const fd = openSync(path, "w");
  const put = (data: string | Buffer) => {
    const bytes = typeof data === "string" ? Buffer.from(data) : data;
    for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done, bytes.length - done);
  };
  put(toLine({ type: "header", id, cwd, created: new Date().toISOString(), version: "0.0.0-test" }));
  put(`{"type":"message","message":{"id":"${newId()}","role":"user","content":[{"type":"text","text":"summarize this log:\\n`);
  const block = Buffer.alloc(1024 * 1024, "A");
  for (let i = 0; i < mb; i++) put(block);
  put('"}]}}\n');
  const answer = `It is ${mb} MB of A.`;
  put(toLine({ type: "message", message: { id: newId(), role: "assistant", content: [{ type: "text", text: answer }] } }));
  closeSync(fd);
  return { path, answer };
}
