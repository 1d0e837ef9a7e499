// The REPL in a real terminal (issue 14), against a local mock model: what a person sees and the
// keys they press. Each test types keys into tmux and asserts on the captured screen.
import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { freePort } from "../helpers/mcp.ts";
import { jsonReply, startReplayServer, type ReplayServer } from "../helpers/replay-server.ts";
import { startTerm, type Term, type TermOptions } from "../helpers/tmux.ts";
import { gate } from "../helpers/wait.ts";
import { answer, heldAnswer, toolCalls, writeSession, lastLine } from "./repl-helpers.ts";

let server: ReplayServer;
let term: Term | undefined;
beforeAll(() => {
  server = startReplayServer();
});
afterAll(() => server.stop());
afterEach(async () => {
  await term?.close();
  term = undefined;
});

/** the binary may be built by the first test; the screen waits have their own timeouts */
const E2E_TIMEOUT = 90_000;
const model = () => ["--base-url", `${server.url}/v1`, "-m", "mock-model"];
async function open(opts: TermOptions = {}): Promise<Term> {
  term = await startTerm({ args: model(), ...opts, ...(opts.args ? { args: [...model(), ...opts.args] } : {}) });
  await prompt(term);
  return term;
}
/** the last line on the screen that is not blank */
/** waits until the prompt is the last line, holding `text` */
const prompt = (t: Term, text = "") => t.waitFor((s) => lastLine(s).trimEnd() === `› ${text}`.trimEnd());
const userTexts = () =>
  server.requests.map((r) => {
    const messages = (r.body as { messages: { role: string; content: unknown }[] }).messages.filter((m) => m.role === "user");
    return String(messages.at(-1)?.content);
  });

test(
  "a one-line dim banner: version, provider/model, directory, /help",
  async () => {
    const t = await open();
    const screen = await t.screen();
    // below the first run's line about permissions (first-run-unasked.test.ts), which comes once
    expect(screen.split("\n").filter((l) => /^hey \d/.test(l))).toEqual([
      expect.stringMatching(/^hey \d+\.\d+\.\d+ · cli\/mock-model · ~ · \/help for commands$/),
    ]);
    expect(await t.screen({ colors: true })).toContain("\x1b[2mhey ");
  },
  E2E_TIMEOUT,
);

test(
  "tool calls read like commands; a command that exits 1 gets a red ✗ and its error line",
  async () => {
    writeFileSync(join((await open()).home, "calc.py"), "def add(a, b):\n    return a - b\n");
    const t = term!;
    server.enqueue(
      toolCalls(
        [
          ["read_file", { path: "calc.py" }],
          ["bash", { command: "ls nope" }],
        ],
        "Let me look.",
      ),
      answer("The file has a bug."),
    );
    await t.type("check calc.py");
    await t.keys("Enter");
    const screen = await t.waitFor("The file has a bug.");
    expect(screen).toContain("read calc.py");
    expect(screen).toContain("$ ls nope");
    expect(screen).toMatch(/✓ read calc\.py: 2 lines/);
    expect(screen).toMatch(/✗ \$ ls nope: exit 2: ls: cannot access 'nope'/);
    expect(screen).not.toContain('{"path"');
    expect(await t.screen({ colors: true })).toMatch(/\x1b\[31m✗/);
  },
  E2E_TIMEOUT,
);

test(
  "an edit shows a coloured unified diff",
  async () => {
    const t = await open();
    writeFileSync(join(t.home, "calc.py"), "def add(a, b):\n    return a - b\n");
    server.enqueue(toolCalls([["edit", { path: "calc.py", old_string: "a - b", new_string: "a + b" }]]), answer("Fixed."));
    await t.type("fix it");
    await t.keys("Enter");
    await t.waitFor("Fixed.");
    const colors = await t.screen({ colors: true });
    expect(await t.screen()).toContain("edit calc.py");
    const sgr = "(?:\x1b\\[[0-9;]*m)*"; // tmux may add its own resets between
    expect(colors).toMatch(new RegExp(`\x1b\\[31m${sgr}\\s*-    return a - b`));
    expect(colors).toMatch(new RegExp(`\x1b\\[32m${sgr}\\s*\\+    return a \\+ b`));
    expect(readFileSync(join(t.home, "calc.py"), "utf8")).toContain("a + b");
  },
  E2E_TIMEOUT,
);

test.each([["C-c"], ["Escape"]])(
  "%s cancels a running turn and hey stays",
  async (key) => {
    const t = await open();
    // held after word3 (word2 and the space after it on the screen) until the key ends the turn: it is surely running when the key arrives
    server.enqueue(heldAnswer(Array.from({ length: 60 }, (_, i) => `word${i}`).join(" "), 4, new Promise(() => {})), answer("Still here."));
    await t.type("talk slowly");
    await t.keys("Enter");
    await t.waitFor("word2 ");
    await t.keys(key);
    await t.waitFor("interrupted");
    await prompt(t);
    expect(await t.screen()).not.toContain("word59");
    await t.type("again");
    await t.keys("Enter");
    await t.waitFor("Still here.");
  },
  E2E_TIMEOUT,
);

test(
  "at an empty prompt the first Ctrl-C warns, the second exits",
  async () => {
    const t = await open();
    await t.keys("C-c");
    await t.waitFor("press Ctrl-C again or Ctrl-D to exit");
    await prompt(t);
    await t.keys("C-c");
    await t.waitFor("[exit 0]");
  },
  E2E_TIMEOUT,
);

test(
  "keys typed during a turn show under its status; Enter queues the line, and the turn's end sends it as the next message",
  async () => {
    const t = await open();
    const before = server.requests.length;
    // the words after w1 wait until the test has typed and looked: the turn runs all the while, however loaded the machine
    const rest = gate();
    server.enqueue(heldAnswer("w0 w1 w2 w3", 2, rest.passed));
    await t.type("first");
    await t.keys("Enter");
    await t.waitFor("w0 w1");
    await t.type("next questio");
    await t.keys("BSpace");
    await t.type("on");
    await t.waitFor((s) => s.includes("› next question") && s.includes("Enter queues it"));
    await t.keys("Enter");
    await t.waitFor((s) => s.includes("queued: next question") && !s.includes("› next question"));
    await t.type("more");
    await t.waitFor("› more");
    expect(server.requests.length - before).toBe(1); // queued, not sent while the turn runs
    server.enqueue(answer("Second answer."));
    rest.open();
    await t.waitFor("Second answer.");
    expect(userTexts().at(-1)).toBe("next question");
    await prompt(t, "more"); // typed, never queued: it waits at the prompt, unsent
    const screen = await t.screen();
    expect(screen).toContain("w3\n› next question\nSecond answer.");
    expect(screen).not.toContain("queued:");
    expect(server.requests.length - before).toBe(2);
  },
  E2E_TIMEOUT,
);

test(
  "Esc during a turn with a queued line stops the turn as ever, and puts the queued line and the one being typed back at the prompt, unsent",
  async () => {
    const t = await open();
    const before = server.requests.length;
    const rest = gate();
    server.enqueue(heldAnswer("w0 w1 w2 w3", 2, rest.passed));
    await t.type("first");
    await t.keys("Enter");
    await t.waitFor("w0 w1");
    await t.type("later one");
    await t.keys("Enter");
    await t.waitFor("queued: later one"); // else a loaded machine may read Enter and `draft` together: a line break, as in a paste
    await t.type("draft");
    await t.waitFor((s) => s.includes("queued: later one") && s.includes("› draft"));
    await t.keys("Escape");
    await t.waitFor((s) => lastLine(s) === "… draft");
    rest.open();
    const screen = await t.screen();
    expect(screen).toContain("interrupted by user\n› later one\n… draft");
    expect(screen).not.toContain("queued:");
    expect(server.requests.length - before).toBe(1);
  },
  E2E_TIMEOUT,
);

test(
  "a line, Enter and more typed during a turn in one burst (one read) wait as two lines",
  async () => {
    const t = await open();
    const rest = gate();
    server.enqueue(heldAnswer("w0 w1 w2 w3", 2, rest.passed));
    await t.type("first");
    await t.keys("Enter");
    await t.waitFor("w0 w1");
    await t.keys("next question", "Enter", "more"); // one send-keys: the terminal hands them over together, as tmux does under load
    await t.keysRead();
    rest.open();
    await t.waitFor((s) => lastLine(s) === "… more");
    expect(await t.screen()).toContain("› next question\n… more");
  },
  E2E_TIMEOUT,
);

test(
  "an Enter pressed as the turn ends, onto the line typed during it, sends that line once, whichever side of the end it is read",
  async () => {
    const t = await open();
    const before = server.requests.length;
    const rest = gate();
    server.enqueue(heldAnswer("w0 w1 w2 w3", 2, rest.passed));
    await t.type("first");
    await t.keys("Enter");
    await t.waitFor("w0 w1");
    await t.type("next question");
    await t.keysRead();
    server.enqueue(answer("One line."));
    // the turn ends as the Enter goes: it is read before the end (it queues the line) or just after it (it sends it at the
    // prompt), as on a loaded machine. Sent by a tmux client started before the end: starting one under load takes long
    const enter = await t.keysReady("Enter");
    const sent = enter.send();
    rest.open();
    await sent;
    await t.waitFor("One line.");
    await prompt(t);
    expect(userTexts().at(-1)).toBe("next question");
    expect(server.requests.length - before).toBe(2);
  },
  E2E_TIMEOUT,
);

test(
  "a slash command queued during a turn runs as the command when the turn ends, not as a message; a resize meanwhile draws the typed rows again at the new width",
  async () => {
    const t = await open();
    const before = server.requests.length;
    const rest = gate();
    server.enqueue(heldAnswer("w0 w1 w2 w3", 2, rest.passed));
    await t.type("first");
    await t.keys("Enter");
    await t.waitFor("w0 w1");
    await t.type("/usage");
    await t.keys("Enter");
    await t.waitFor("queued: /usage");
    const long = "please also look at the flaky network tests afterwards";
    await t.type(long);
    await t.waitFor(`› ${long}   Enter queues it`);
    await t.resize(40, 24); // the rows cut to one row each at the new width, once: no copy of the old ones left on the screen
    // the line's end in view, where the cursor is; the hint left out where it does not fit
    const narrow = await t.waitFor((s) => s.includes("› …") && s.includes("tests afterwards") && !s.includes("Enter queues it"));
    const rows = narrow.split("\n");
    expect(rows.filter((r) => r.startsWith("queued: /usage"))).toHaveLength(1);
    expect(rows.filter((r) => r.includes("afterwards") || r.includes("please also"))).toHaveLength(1);
    expect(Math.max(...rows.map((r) => r.trimEnd().length))).toBeLessThanOrEqual(40);
    await t.resize(100, 24);
    await t.waitFor(`› ${long}   Enter queues it`);
    rest.open();
    await t.waitFor("last request:"); // /usage's own lines
    await prompt(t, long);
    expect(server.requests.length - before).toBe(1); // the command asked the model nothing
    expect(await t.screen()).toContain("› /usage\nsession:");
  },
  E2E_TIMEOUT,
);

test(
  "a multi-line paste is one message",
  async () => {
    const t = await open();
    const before = server.requests.length;
    server.enqueue(answer("Got both lines."));
    await t.paste("line one\nline two\nline three");
    await t.waitFor("… line three");
    expect(server.requests.length).toBe(before); // a paste is never sent by itself
    await t.keys("Enter");
    await t.waitFor("Got both lines.");
    expect(server.requests.length - before).toBe(1);
    expect(userTexts().at(-1)).toBe("line one\nline two\nline three");
  },
  E2E_TIMEOUT,
);

const PROSE =
  "Streaming text should wrap at word boundaries so that nobody has to read half a word on one line and the other half on the next, which is what happened before at forty columns.";
/** the screen's lines from the one starting with `from` to the prompt, each with its trailing blanks cut */
const linesAfter = (screen: string, from: string) => {
  const lines = screen.split("\n").map((l) => l.trimEnd());
  return lines.slice(
    lines.findIndex((l) => l.startsWith(from)),
    lines.findLastIndex((l) => l.startsWith("›")),
  );
};

test(
  "streamed text wraps at word boundaries to 40 columns",
  async () => {
    const t = await open({ cols: 40 });
    server.enqueue(answer(PROSE));
    await t.type("wrap");
    await t.keys("Enter");
    // the whole answer and then the prompt: under load the screen can show a prompt before the answer arrives
    const screen = await t.waitFor((s) => s.includes("forty columns.") && lastLine(s).trimEnd() === "›");
    const lines = linesAfter(screen, "Streaming");
    expect(lines.length).toBeGreaterThan(3);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(40);
    expect(lines.join(" ").split(/\s+/)).toEqual(PROSE.split(" ")); // every word whole, in order
  },
  E2E_TIMEOUT,
);

test(
  "a resize mid-stream keeps what was written, wraps the rest to the new width, and draws no stray prompt",
  async () => {
    const t = await open({ cols: 80 });
    const words = Array.from({ length: 40 }, (_, i) => `word${i}`);
    // the words after word6 (word5 and the space after it on the screen) wait until the terminal is narrower: they stream after the resize, however loaded the machine
    const rest = gate();
    server.enqueue(heldAnswer(words.join(" "), 7, rest.passed));
    await t.type("stream");
    await t.keys("Enter");
    await t.waitFor("word5 ");
    await t.resize(30, 24);
    rest.open();
    const screen = await prompt(t);
    const lines = linesAfter(screen, "word0");
    expect(lines.join(" ").split(/\s+/)).toEqual(words);
    expect(screen.split("\n").filter((l) => l.startsWith("›"))).toEqual(["› stream", "›"]);
    // the words streamed after the resize wrap at 30 columns
    expect(lines.slice(-3).every((l) => l.length <= 30)).toBe(true);
  },
  E2E_TIMEOUT,
);

test(
  "markdown is rendered: headings, bold, inline code, lists, fenced code",
  async () => {
    const t = await open();
    server.enqueue(answer("# Plan\n\nUse **care** with `rm` here.\n\n- first step\n- second step\n\n```sh\nls -la\n```\n"));
    await t.type("plan");
    await t.keys("Enter");
    // the whole answer, the turn ended: "• second step" can be on screen before the fenced code is
    const screen = await t.waitFor((s) => s.includes("• second step") && lastLine(s) === "›");
    expect(screen).toContain("\nPlan\n");
    expect(screen).toContain("Use care with rm here.");
    expect(screen).toContain("• first step");
    expect(screen).toContain("ls -la");
    const colors = await t.screen({ colors: true });
    expect(colors).toMatch(/\x1b\[1m(\x1b\[[0-9;]*m)*care/);
    expect(colors).toMatch(/\x1b\[36m(\x1b\[[0-9;]*m)*rm/);
  },
  E2E_TIMEOUT,
);

test(
  "a spinner with elapsed seconds runs during a 3 s tool call",
  async () => {
    const t = await open();
    server.enqueue(toolCalls([["bash", { command: "sleep 3" }]]), answer("Slept."));
    await t.type("wait");
    await t.keys("Enter");
    await t.waitFor("$ sleep 3");
    await t.waitFor(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] running… [12]s/);
    const screen = await t.waitFor("Slept.");
    expect(screen).toContain("✓ no output");
    expect(screen).not.toMatch(/running…/); // the spinner's line is cleared once the tool is done
  },
  E2E_TIMEOUT,
);

test(
  "/resume picks a session of this directory from a numbered list and shows its last exchange, dim, the answer rendered as live ones are",
  async () => {
    const t = await open();
    writeSession(join(t.home, ".local", "state"), t.cwd, "what is the capital of France?", "It is **Paris**.");
    await t.type("/resume");
    await t.keys("Enter");
    await t.waitFor("resume which? (1-1, Enter to cancel)");
    expect(await t.screen()).toMatch(/^1 {2}\d{4}-\d\d-\d\d \d\d:\d\d .*what is the capital of France\?$/m);
    await t.type("1");
    await t.keys("Enter");
    const screen = await prompt(t);
    expect(screen).toContain("› what is the capital of France?\nIt is Paris.\n"); // no ** left
    const colors = await t.screen({ colors: true });
    // dim from the question through the answer (tmux repeats an attribute only where it changes); the bold stays bold, then dim again
    expect(colors).toMatch(/\x1b\[2m› what is the capital of France\?\nIt is \x1b\[1mParis\x1b\[0;2m/);
    server.enqueue(answer("And Berlin for Germany."));
    await t.type("and Germany?");
    await t.keys("Enter");
    await t.waitFor("And Berlin for Germany.");
    const sent = (server.requests.at(-1)!.body as { messages: { role: string; content: string }[] }).messages.map((m) => m.content);
    expect(sent.slice(-3)).toEqual(["what is the capital of France?", "It is **Paris**.", "and Germany?"]);
  },
  E2E_TIMEOUT,
);

test(
  "/resume ID of a session started in another directory says so above the prompt (wrapped at spaces)",
  async () => {
    const t = await open();
    const id = writeSession(join(t.home, ".local", "state"), "/srv/elsewhere", "fix src/a.ts", "Fixed.");
    await t.type(`/resume ${id}`);
    await t.keys("Enter");
    const screen = await t.waitFor("hey: this session was started in /srv/elsewhere;", { joined: true });
    expect(screen.replace(/\n/g, " ")).toContain(
      `hey: this session was started in /srv/elsewhere; hey works in ${t.cwd} now (paths in it may be relative to /srv/elsewhere)`,
    );
    expect(await prompt(t)).toContain("› fix src/a.ts\nFixed.\n"); // the notice, then the last exchange
  },
  E2E_TIMEOUT,
);

test(
  "a session that cannot be saved says so on a line of its own, never inside the answer being shown",
  async () => {
    const t = await open();
    mkdirSync(join(t.home, ".local", "state", "hey"), { recursive: true });
    writeFileSync(join(t.home, ".local", "state", "hey", "sessions"), ""); // a file where the directory should be
    const text = "The capital of France is Paris, and it has been for a very long time indeed.";
    server.enqueue(answer(text));
    await t.type("capital?");
    await t.keys("Enter");
    const screen = await t.waitFor("the conversation continues without it", { scrollback: true, joined: true });
    expect(screen).toContain(`${text}\n`);
    expect(screen).toMatch(/^hey: session not saved: cannot write\s/m); // wrapped at spaces: the path may start the next row
    await prompt(t);
  },
  E2E_TIMEOUT,
);

test(
  "/resume marks a session another hey has open, and picking it anyway is refused with who holds it; the conversation here goes on",
  async () => {
    const t = await open();
    const sessions = join(t.home, ".local", "state", "hey", "sessions");
    writeSession(join(t.home, ".local", "state"), t.cwd, "an older question", "an older answer");
    const held = writeSession(join(t.home, ".local", "state"), t.cwd, "the other terminal's work", "on it");
    writeFileSync(join(sessions, `${held}.jsonl.lock`), `${process.pid} ${hostname()}\n`); // this test's process: alive, not the REPL's hey
    await t.type("/resume");
    await t.keys("Enter");
    const screen = await t.waitFor("resume which? (1-2, Enter to cancel)");
    expect(screen).toMatch(/ {2}\(open in another hey\) the other terminal's work$/m);
    expect(screen).toMatch(/ {2}an older question$/m);
    const row = screen
      .split("\n")
      .find((l) => l.includes("the other terminal's work"))!
      .trim()
      .split(" ")[0];
    await t.type(row!);
    await t.keys("Enter");
    await t.waitFor(`hey: session ${held} is in use by another hey (pid ${process.pid})`, { joined: true });
    await prompt(t);
  },
  E2E_TIMEOUT,
);

test(
  "at the prompt, /sessions and /resume point to slash commands, and a bad pick reads like every refusal (hey: …)",
  async () => {
    const t = await open();
    writeSession(join(t.home, ".local", "state"), t.cwd, "an older question", "an older answer");
    await t.type("/sessions");
    await t.keys("Enter");
    let screen = await t.waitFor("Resume one with /resume ID", { joined: true });
    expect(screen).toContain("  an older questi…\n"); // one line a session: the first prompt cut to the 80 columns
    expect(screen).not.toContain("hey --resume");
    await prompt(t);
    await t.type("/resume zz");
    await t.keys("Enter");
    screen = await t.waitFor('hey: no session "zz"', { joined: true });
    expect(screen).toContain("(/sessions lists them)");
    await prompt(t);
    await t.type("/resume 99");
    await t.keys("Enter");
    await t.waitFor("hey: no session 99 in the list (1-1)");
    await prompt(t);
  },
  E2E_TIMEOUT,
);

test(
  "first run: with no configuration and no Ollama the REPL shows the setup hint naming Ollama and qwen3",
  async () => {
    // where Ollama would listen, free: this machine may run one on 11434
    const ollamaHost = `127.0.0.1:${freePort()}`;
    term = await startTerm({ env: { HEY_MAX_RETRIES: "0", OLLAMA_HOST: ollamaHost } });
    const t = term;
    await t.waitFor("ollama/qwen3");
    await prompt(t);
    await t.type("hi");
    await t.keys("Enter");
    // hey wraps the hint at the terminal's width itself: its words are compared with the rows joined by spaces
    const screen = (await t.waitFor("--base-url", { joined: true })).replace(/\s+/g, " ");
    expect(screen).toContain(`the Ollama at OLLAMA_HOST (http://${ollamaHost}/v1) with the model qwen3`);
    expect(screen).toContain("ollama pull qwen3");
    expect(screen).toContain("OPENAI_API_KEY");
  },
  E2E_TIMEOUT,
);

test(
  "a local server without the model (not Ollama): the error says what the server's model list holds (here none), not ollama pull",
  async () => {
    const t = await open();
    server.enqueue(jsonReply(404, { error: { message: 'model "mock-model" not found', type: "api_error" } }));
    await t.type("hi");
    await t.keys("Enter");
    const screen = await t.waitFor(`${server.url}/v1 does not serve mock-model: it has no model list`, { joined: true });
    expect(screen).toContain("(404)");
    expect(screen).not.toContain("ollama pull");
    expect(screen).not.toContain("OPENAI_API_KEY");
  },
  E2E_TIMEOUT,
);

test(
  "/model lists the usable models and marks the current one",
  async () => {
    const t = await open({ env: { OPENAI_API_KEY: "sk-test" } });
    await t.type("/model");
    await t.keys("Enter");
    const screen = await t.waitFor("switch with /model");
    expect(screen).toContain("* cli/mock-model");
    expect(screen).toContain("  openai/gpt-5.5");
    expect(screen).toContain("  ollama/qwen3");
    expect(screen).not.toContain("anthropic/");
  },
  E2E_TIMEOUT,
);

test(
  "at the prompt, an unknown /word is refused and a line that starts with a path is a message",
  async () => {
    const t = await open();
    await t.type("/frobnicate");
    await t.keys("Enter");
    await t.waitFor("hey: unknown command /frobnicate (/help lists the commands)");
    await prompt(t);
    server.enqueue(answer("It maps names to addresses."));
    await t.type("/etc/hosts is weird, why?");
    await t.keys("Enter");
    await t.waitFor("It maps names to addresses.");
    expect(userTexts().at(-1)).toBe("/etc/hosts is weird, why?");
  },
  E2E_TIMEOUT,
);

test(
  "an empty answer, also on its two retries, is one visible error line, and the REPL goes on",
  async () => {
    const t = await open();
    server.enqueue(answer(""), answer(""), answer(""), answer("Now with words."));
    await t.type("go");
    await t.keys("Enter");
    const screen = await t.waitFor("answered with no content — gave up");
    expect(screen.split("\n").filter((l) => l.startsWith("error:") && l.includes("answered with no content"))).toHaveLength(1);
    await prompt(t);
    await t.type("again");
    await t.keys("Enter");
    await t.waitFor("Now with words.");
  },
  E2E_TIMEOUT,
);
