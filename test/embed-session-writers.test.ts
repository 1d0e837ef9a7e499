// One writer per session inside one process too (src/sessions/lock.ts): a program serving several
// requests that continue one session — the README's `resumeSession(...) // this process is its one
// writer now (else SessionLockedError)` — gets the error for the second, never an interleaved file.
import { afterAll, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createAgent, createProvider, createSessionWriter, resumeSession, SessionLockedError, type Provider } from "../src/lib.ts";
import { tempDir } from "./helpers/e2e.ts";
import { startModelServer, textOf } from "./helpers/model-server.ts";

const dir = tempDir("hey-embed-writers-");
// each answer says what it answers, so the file shows which request it belongs to
const model = startModelServer((req) => ({ text: `ok: ${textOf(req.messages.at(-1)!)}` }));
afterAll(() => {
  model.stop();
  dir.remove();
});
const sessions = join(dir.path, "sessions");
const warnings: string[] = [];
const writer = (id: string, existing: boolean) =>
  createSessionWriter({ dir: sessions, id, cwd: dir.path, version: "test", warn: (m) => void warnings.push(m), existing });

/** The session's messages as `role:text`, in file order. */
const lines = (path: string) =>
  readFileSync(path, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l))
    .filter((e) => e.type === "message")
    .map((e) => `${e.message.role}:${e.message.content.map((p: { text?: string }) => p.text ?? "").join("")}`);

/** A session saved with one exchange; its path. */
async function saved(provider: Provider, id: string): Promise<string> {
  const w = writer(id, false);
  await createAgent({ provider, cwd: dir.path, tools: [], output: w }).send("first", new AbortController().signal);
  w.close();
  return w.path;
}

test("two handlers continuing one session at once: the second is refused with SessionLockedError, the file stays one conversation", async () => {
  const provider = await createProvider({ protocol: "openai", baseUrl: model.baseUrl, model: "m" });
  const path = await saved(provider, "shared");
  const handle = async (request: string) => {
    const resume = resumeSession(path, dir.path);
    const w = writer(resume.header.id, true);
    try {
      return (await createAgent({ provider, cwd: dir.path, tools: [], output: w, resume }).send(request, new AbortController().signal)).stop;
    } finally {
      w.close();
    }
  };
  const [a, b] = await Promise.allSettled([handle("req A"), handle("req B")]);
  expect(a).toEqual({ status: "fulfilled", value: "end" });
  // before: both ran, and the file read first, ok, req A, req B, ok: req A, ok: req B
  expect(b.status).toBe("rejected");
  const error = (b as PromiseRejectedResult).reason;
  expect(error).toBeInstanceOf(SessionLockedError);
  // the first handler's resume holds it for its writer, or that writer does once it writes (the library's writes from the first answer on)
  expect(error.message).toMatch(
    new RegExp(
      `^session shared (was resumed in this process already, for a writer|is in use by another writer in this process) \\(pid ${process.pid}\\); close that writer first, or start a new session$`,
    ),
  );
  expect(lines(path)).toEqual(["user:first", "assistant:ok: first", "user:req A", "assistant:ok: req A"]);

  // the first writer closed: the next request continues the session
  expect(await handle("req C")).toBe("end");
  expect(lines(path).slice(4)).toEqual(["user:req C", "assistant:ok: req C"]);
});

test("a second writer of a session a writer here holds saves nothing, says why, and its close leaves the first writer's lock", async () => {
  const provider = await createProvider({ protocol: "openai", baseUrl: model.baseUrl, model: "m" });
  const path = await saved(provider, "held");
  const resume = resumeSession(path, dir.path);
  const first = writer("held", true);
  const second = writer("held", true); // no resumeSession of its own
  await createAgent({ provider, cwd: dir.path, tools: [], output: first, resume }).send("from the first", new AbortController().signal);
  warnings.length = 0;
  await createAgent({ provider, cwd: dir.path, tools: [], output: second }).send("from the second", new AbortController().signal);
  expect(warnings).toEqual([expect.stringContaining("session held is in use by another writer in this process")]);
  second.close();
  // before: the second writer's close removed the lock the first still writes under
  expect(existsSync(`${path}.lock`)).toBe(true);
  expect(() => resumeSession(path, dir.path)).toThrow(SessionLockedError);
  first.close();
  expect(existsSync(`${path}.lock`)).toBe(false);
  expect(lines(path)).toEqual(["user:first", "assistant:ok: first", "user:from the first", "assistant:ok: from the first"]);
});

test("a resume whose writer closes without writing (no answer came) lets the session go: it can be resumed again", async () => {
  const provider = await createProvider({ protocol: "openai", baseUrl: model.baseUrl, model: "m" });
  const path = await saved(provider, "unwritten");
  const resume = resumeSession(path, dir.path);
  expect(() => resumeSession(path, dir.path)).toThrow(
    `session unwritten was resumed in this process already, for a writer (pid ${process.pid}); close that writer first, or start a new session`,
  );
  writer(resume.header.id, true).close();
  expect(existsSync(`${path}.lock`)).toBe(false);
  expect(resumeSession(path, dir.path).messages).toHaveLength(2);
});
