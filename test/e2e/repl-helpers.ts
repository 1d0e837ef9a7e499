// Scripted model replies for the REPL tests (answers streamed word by word, tool calls) and sessions on disk.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { newId, userMessage, type Message } from "../../src/kernel/ir.ts";
import { toLine } from "../../src/sessions/format.ts";
import { afterEach, beforeEach } from "bun:test";
import { sseReply, type Reply, type ReplayServer } from "../helpers/replay-server.ts";
import { chatChunk, sseEvents } from "../helpers/sse.ts";
import { startTerm, type Term, type TermOptions } from "../helpers/tmux.ts";
import { tempDir } from "../helpers/e2e.ts";
import { recordEarlierRun } from "../helpers/earlier-run.ts";
import type { ModelServer } from "../helpers/model-server.ts";
import { found, until } from "../helpers/wait.ts";

const USAGE = chatChunk({ usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } });

/** An answer streamed a word at a time, `delayMs` apart. */
export function answer(text: string, delayMs = 0): Reply {
  const words = text.split(/(?<=\s)/).map((w) => chatChunk({ content: w }));
  return sseReply(sseEvents([...words, chatChunk({ finish: "stop" }), USAGE]), { delayMs });
}

/**
 * An answer streamed a word at a time whose words from index `at` on wait for `until` (a gate the
 * test opens): the turn is surely still running while the test types, resizes or presses keys.
 */
export function heldAnswer(text: string, at: number, until: Promise<void>): Reply {
  return { ...answer(text), hold: { at, until } };
}

/** The screen's last line (where the prompt is), without trailing blanks. */
export const lastLine = (screen: string) => screen.trimEnd().split("\n").at(-1) ?? "";

/**
 * The terminals of a test file's REPL tests against `server` (a replay server), each closed after
 * its test: `open` starts dist/hey at its prompt with `--base-url`, `-m mock-model` and `opts.args`
 * (`defaults` under `opts`); `start` starts a terminal as given (jobControl, another command).
 */
export function replTerms(
  server: ReplayServer,
  defaults: TermOptions = {},
): { open(opts?: TermOptions): Promise<Term>; start(opts: TermOptions): Promise<Term> } {
  let term: Term | undefined;
  afterEach(async () => {
    await term?.close();
    term = undefined;
  });
  const start = async (opts: TermOptions) => {
    await term?.close(); // a second terminal in one test: the first goes
    term = await startTerm(opts);
    return term;
  };
  return {
    start,
    async open(opts = {}) {
      const t = await start({ ...defaults, ...opts, args: ["--base-url", `${server.url}/v1`, "-m", "mock-model", ...(opts.args ?? [])] });
      await t.waitFor((s) => lastLine(s) === "›");
      return t;
    },
  };
}

/** The last user message of each request `server` got (`content` as sent: a string or parts). */
export const askedOf = (server: ReplayServer) => () =>
  server.requests.map((r) => (r.body as { messages: { role: string; content: unknown }[] }).messages.filter((m) => m.role === "user").at(-1)?.content);

let callCount = 0; // call ids stay unique across a conversation

/** One turn that calls tools (with optional text before), each call `[name, args]`. */
export function toolCalls(calls: [string, Record<string, unknown>][], said = ""): Reply {
  const chunks = [
    ...(said ? [chatChunk({ content: said })] : []),
    ...calls.map(([name, args], index) => chatChunk({ toolCall: { index, id: `call_${++callCount}_${name}`, name, arguments: JSON.stringify(args) } })),
    chatChunk({ finish: "tool_calls" }),
    USAGE,
  ];
  return sseReply(sseEvents(chunks));
}

/**
 * A session of `cwd` under `stateHome`/hey/sessions, written as hey writes one: a question and its
 * answer; with the approvals record that run would have left (the user's config under HOME as it
 * is now, `stateHome` being HOME/.local/state), when there is none.
 */
export function writeSession(stateHome: string, cwd: string, question: string, reply: string): string {
  const dir = join(stateHome, "hey", "sessions");
  mkdirSync(dir, { recursive: true });
  recordEarlierRun(stateHome, [join(stateHome, "..", "..", ".config", "hey", "config.toml")]);
  const id = newId();
  const said: Message = { id: newId(), role: "assistant", content: [{ type: "text", text: reply }] };
  const lines = [
    { type: "header" as const, id, cwd, created: new Date().toISOString(), version: "0.1.0" },
    { type: "message" as const, message: userMessage(question) },
    { type: "message" as const, message: said },
  ];
  writeFileSync(join(dir, `${id}.jsonl`), lines.map((l) => toLine(l)).join(""));
  return id;
}

/** The whole screen, scrollback included, wrapped lines joined. */
export const ALL = { scrollback: true, joined: true };

/**
 * The screen with every run of whitespace one space: hey wraps its own lines at spaces, so a
 * message reads whole here however long the temp paths in it are.
 */
export const flat = async (term: Term, opts = ALL): Promise<string> => (await term.screen(opts)).replace(/\s+/g, " ");

/** How long say() waits for an empty prompt before it types anyway (a question takes the line too). */
const READY_MS = 5_000;

/** Types a line at the prompt and waits for the screen to show `expect` after the typed line; returns what follows it. */
export async function say(term: Term, line: string, expect: RegExp | string): Promise<string> {
  // typed at a ready prompt: a line typed while a turn or a command still runs waits as type-ahead,
  // its Enter a newline, and is never sent (SPEC §17). An empty prompt is the last line then; a
  // question (or a line typed before) is not: after a while the line goes in anyway
  await until(async () => lastLine(await term.screen()) === "›", "a ready prompt", READY_MS).catch(() => {});
  const echo = `› ${line}`; // the line as the prompt shows it
  const before = (await term.screen(ALL)).split(echo).length;
  await term.type(line);
  await term.keys("Enter");
  let screen = "";
  const after = async () => {
    screen = await term.screen(ALL);
    const pieces = screen.split(echo);
    const text = pieces.length > before ? pieces.at(-1)! : "";
    return (typeof expect === "string" ? text.includes(expect) : expect.test(text)) ? text : undefined;
  };
  // a loaded machine (CI sharing its cores) has been seen to take over 20 s for a turn
  return found(after, `${String(expect)} after typing ${line}`, 60_000).catch((e: Error) => {
    throw new Error(`${e.message}; the screen:\n${screen}`);
  });
}

/**
 * Per test, a home and a project directory, and `start(server, args)`: hey ARGS in tmux in the project, its
 * configuration naming `server`'s model (mock/m). The terminal and both directories go after each test.
 */
export function projectTerms(): {
  readonly home: { path: string };
  readonly project: { path: string };
  start(server: ModelServer, args?: string[]): Promise<Term>;
} {
  let home: ReturnType<typeof tempDir> | undefined;
  let project: ReturnType<typeof tempDir> | undefined;
  let term: Term | undefined;
  beforeEach(() => {
    home = tempDir("hey-home-");
    project = tempDir("hey-project-");
  });
  afterEach(async () => {
    await term?.close();
    term = undefined;
    home?.remove();
    project?.remove();
  });
  return {
    get home() {
      return home!;
    },
    get project() {
      return project!;
    },
    async start(server, args = []) {
      await term?.close(); // a second hey in one test (`hey -c` after the first quit): the first terminal goes
      const dir = join(home!.path, ".config", "hey");
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, "config.toml"), `[default]\nprovider = "mock"\nmodel = "m"\n\n[provider.mock]\nbase_url = "${server.baseUrl}"\nmodels = ["m"]\n`);
      term = await startTerm({ cwd: project!.path, cols: 200, rows: 50, env: { HOME: home!.path, NO_COLOR: "1" }, args });
      await term.waitFor(/^›/m);
      return term;
    },
  };
}

/** waits until the terminal's cursor is at `col`, `row`; fails naming where it is */
export async function cursorAt(t: Term, col: number, row: number): Promise<void> {
  let at = { col: -1, row: -1 };
  await until(async () => {
    at = await t.cursor();
    return at.col === col && at.row === row;
  }, `the cursor at column ${col}, row ${row}`).catch((e: Error) => {
    throw new Error(`${e.message}; it is at column ${at.col}, row ${at.row}`);
  });
}
