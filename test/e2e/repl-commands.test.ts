// Everyday commands (issue 28), through dist/hey in tmux against a local mock model: /last shows
// the previous tool call's whole output, /clear (and /new) start a new session in place, !COMMAND
// runs in the shell with the terminal and goes with the next message (under the permission
// lists; a job it leaves in the background does not hold the prompt; Ctrl-C gives the command a
// moment, then ends its whole tree), /model checks a name before switching, and /sessions keeps a
// session to a line.
import { afterEach, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { movedNote } from "../../src/kernel/user-notes.ts";
import { fileReplayServer, fileTempDir } from "../helpers/fixtures.ts";
import { killMarked, marker, withMarker } from "../helpers/processes.ts";
import { startTerm, type Term, type TermOptions } from "../helpers/tmux.ts";
import { until } from "../helpers/wait.ts";
import { ALL, answer, flat, say, toolCalls, writeSession, lastLine } from "./repl-helpers.ts";

const E2E_TIMEOUT = 90_000;
const server = fileReplayServer(undefined, { models: ["mock-model", "mock-large"] });
let term: Term | undefined;
const leftovers: string[] = [];
afterEach(async () => {
  await term?.close();
  term = undefined;
  killMarked(leftovers.splice(0));
});
/** A unique marker for a test's processes (`sleep <marker>`), killed after it. */
const mark = () => {
  const m = marker();
  leftovers.push(m);
  return m;
};

type Body = { model: string; messages: { role: string; content: unknown }[] };
const body = (i: number) => server.requests[i]!.body as Body;
/** the text of the last request's last user message */
const lastUserText = () => {
  const content = body(server.requests.length - 1).messages.findLast((m) => m.role === "user")!.content;
  return typeof content === "string" ? content : (content as { text?: string }[]).map((p) => p.text ?? "").join("\n");
};

async function open(opts: TermOptions = {}): Promise<Term> {
  term = await startTerm({ rows: 40, ...opts, args: ["--base-url", `${server.url}/v1`, "-m", "mock-model", ...(opts.args ?? [])] });
  await term.waitFor((s) => lastLine(s) === "›");
  return term;
}

test(
  "/last prints the previous tool call's whole output from its full-output file, where the screen showed five lines",
  async () => {
    const t = await open();
    server.enqueue(toolCalls([["bash", { command: "seq 1 2600" }]]), answer("Counted."));
    await say(t, "count", "Counted.");
    expect(await t.screen(ALL)).toContain("    2596\n    2597\n    2598\n    2599\n    2600\n"); // the preview: how it ended
    const shown = await say(t, "/last", /^›$/m);
    const lines = shown.split("\n");
    expect(lines.slice(1, 3).join(" ")).toMatch(/^\$ seq 1 2600 \(full output: .*\/hey\/outputs\/.*\.log\)$/); // wrapped at the space before the path
    // every line the command printed, in order, where the model saw 2000 at most
    const numbers = lines.filter((l) => /^\d+$/.test(l)).map(Number);
    expect(numbers).toEqual(Array.from({ length: 2600 }, (_, i) => i + 1));
  },
  E2E_TIMEOUT,
);

test(
  "/last before any tool call says so; after a short command it shows what the model saw",
  async () => {
    const t = await open();
    await say(t, "/last", "no tool call yet in this session");
    server.enqueue(toolCalls([["bash", { command: "echo short one" }]]), answer("Echoed."));
    await say(t, "echo", "Echoed.");
    const shown = await say(t, "/last", /^›$/m);
    expect(shown).toContain("$ echo short one\nshort one\n");
  },
  E2E_TIMEOUT,
);

test(
  "/last shows a command's Latin-1 output as the model read it, from the full-output file that keeps its bytes",
  async () => {
    const t = await open();
    server.enqueue(toolCalls([["bash", { command: "printf 'caf\\351 cr\\350me\\n'" }]]), answer("Printed."));
    await say(t, "print", "Printed.");
    const shown = await say(t, "/last", /^›$/m);
    expect(shown).toMatch(/\(full output:\s[^)]*\.log\)\ncafé crème\n/);
  },
  E2E_TIMEOUT,
);

test(
  "/clear ends the session (it stays saved) and starts a new one in place; the next request carries nothing of the old",
  async () => {
    const t = await open();
    server.enqueue(answer("First answer."), answer("Fresh answer."), answer("Newer answer."));
    await say(t, "remember the word pineapple", "First answer.");
    await say(t, "/clear", "new session; the last one is saved (/resume lists it)");
    await say(t, "what was the word?", "Fresh answer.");
    expect(body(server.requests.length - 1).messages.filter((m) => m.role !== "system")).toEqual([{ role: "user", content: "what was the word?" }]);
    await say(t, "/new", "new session; the last one is saved");
    await say(t, "and now?", "Newer answer.");
    expect(body(server.requests.length - 1).messages.filter((m) => m.role === "user")).toHaveLength(1);
    const sessions = readdirSync(join(t.home, ".local/state/hey/sessions")).filter((f) => f.endsWith(".jsonl"));
    expect(sessions).toHaveLength(3);
  },
  E2E_TIMEOUT,
);

test(
  "!ls runs in the shell and prints its output; the command and its output go with the next message",
  async () => {
    const t = await open();
    writeFileSync(join(t.cwd, "apple.txt"), "");
    writeFileSync(join(t.cwd, "banana.txt"), "");
    const before = server.requests.length;
    const shown = await say(t, "!ls", "the command and its output go with your next message");
    expect(shown).toContain("apple.txt\nbanana.txt\nexit 0 · the command and its output go with your next message");
    expect(server.requests.length).toBe(before); // nothing sent yet
    server.enqueue(answer("Two fruits."));
    await say(t, "what is here?", "Two fruits.");
    expect(lastUserText()).toBe(
      "The user ran a command in their shell (with `!`) before writing this message:\n$ ls\napple.txt\nbanana.txt\n[exit code 0]\nwhat is here?",
    );
    // only once: the message after it has no note
    server.enqueue(answer("Nothing new."));
    await say(t, "and now?", "Nothing new.");
    expect(lastUserText()).toBe("and now?");
  },
  E2E_TIMEOUT,
);

test(
  "!COMMAND printing over 1 MB: the model gets it as the bash tool would, the failure and summary at its end among it, and the full output in the file the note names",
  async () => {
    const t = await open();
    const script = join(t.cwd, "noisy_test.sh");
    writeFileSync(
      script,
      'i=0; while [ $i -lt 40000 ]; do echo "PASS tests/unit/module_$i.test.ts (12 ms)"; i=$((i+1)); done\n' +
        "echo 'FAIL tests/unit/parser.test.ts'; echo 'Expected: 42, Received: 41 at src/parser.ts:88'; echo 'Tests: 1 failed, 40000 passed'; exit 1\n",
      { mode: 0o755 },
    );
    // the visible screen only: reading 40,000 lines of scrollback on every poll (say) slows tmux to a crawl
    await t.type("!./noisy_test.sh");
    await t.keys("Enter");
    const shown = await t.waitFor((s) => lastLine(s) === "›" && s.includes("exit 1 ·"));
    expect(shown).toContain("FAIL tests/unit/parser.test.ts\nExpected: 42, Received: 41 at src/parser.ts:88\nTests: 1 failed, 40000 passed\nexit 1 ·");
    server.enqueue(answer("Fixing the parser."));
    await t.type("fix that");
    await t.keys("Enter");
    await t.waitFor("Fixing the parser.");
    const note = lastUserText();
    expect(note).toContain(
      "FAIL tests/unit/parser.test.ts\nExpected: 42, Received: 41 at src/parser.ts:88\nTests: 1 failed, 40000 passed\n[exit code 1]\n[full output: ",
    );
    expect(note).toContain("[output filtered: ");
    expect(note.length).toBeLessThan(5000);
    const full = readFileSync(note.match(/\[full output: (.+)\]\n/)![1]!, "utf8");
    expect(full.split("\n").filter((l) => l.startsWith("PASS "))).toHaveLength(40000);
    expect(full).toEndWith("Tests: 1 failed, 40000 passed\n\n[exit code 1]\n");
  },
  E2E_TIMEOUT,
);

test(
  "! in a narrow terminal: the status line is broken between words, not mid-word by the terminal, after output and after ^C alike",
  async () => {
    const t = await open({ cols: 30 });
    await t.type("!printf abc");
    await t.keys("Enter");
    await t.waitFor((s) => lastLine(s) === "›" && s.includes("message"));
    expect(await t.screen()).toContain("› !printf abc\nabc\nexit 0 · the command and its\noutput go with your next\nmessage\n›");
    // Ctrl-C once the command runs: one pressed while the shell is still being started can reach
    // it before it takes signals, and only the SIGTERM a second later ends it
    await t.type("!echo started; sleep 600");
    await t.keys("Enter");
    await t.waitFor("!echo started; sleep 600\nstarted\n");
    await t.keys("C-c");
    await t.waitFor((s) => lastLine(s) === "›" && s.includes("SIGINT"));
    expect(await t.screen()).toContain("^C\nkilled by SIGINT · the command\nand its output go with your\nnext message\n›");
  },
  E2E_TIMEOUT,
);

test(
  "! gives the command the terminal: it can ask, and Ctrl-C stops it; hey's prompt comes back",
  async () => {
    const t = await open();
    await t.type('!printf "name? "; read name; echo "hello $name"');
    await t.keys("Enter");
    await t.waitFor(/^name\?/m); // the command's question on a line of its own: the typed line holds "name?" too
    await t.type("ada");
    await t.keys("Enter");
    await t.waitFor("hello ada\nexit 0 ·");
    await t.waitFor((s) => lastLine(s) === "›");
    // Ctrl-C once the command runs: one pressed while the shell is still being started can reach
    // it before it takes signals, and only the SIGTERM a second later ends it
    await t.type("!echo started; sleep 600");
    await t.keys("Enter");
    await t.waitFor("!echo started; sleep 600\nstarted\n");
    await t.keys("C-c");
    await t.waitFor(/^\^C\nkilled by SIGINT · the command/m); // the status on a line of its own, below the terminal's ^C
    await t.waitFor((s) => lastLine(s) === "›");
    server.enqueue(answer("Seen."));
    await say(t, "ok", "Seen.");
    expect(lastUserText()).toContain('$ printf "name? "; read name; echo "hello $name"\nname? hello ada\n[exit code 0]');
  },
  E2E_TIMEOUT,
);

test(
  "a ! command that hey's SIGTERM stops: the line names the signal and says hey is exiting, promising no next message",
  async () => {
    const t = await open({ after: "[ $code = 143 ] && echo exited-143" });
    await t.type("!echo bang; sleep 40");
    await t.keys("Enter");
    await t.waitFor("!echo bang; sleep 40\nbang\n");
    process.kill(await t.heyPid(), "SIGTERM");
    await t.waitFor(/^exited-143$/m);
    const screen = await flat(t); // hey wraps the line at spaces
    expect(screen).toContain("bang killed by SIGTERM · terminated (SIGTERM): hey is exiting; the command is not sent exited-143");
    expect(screen).not.toContain("go with your next message");
  },
  E2E_TIMEOUT,
);

test(
  "!sleep … & gives the prompt back when the shell exits; the job runs on, what it prints later is not shown, and hey exits without waiting for it",
  async () => {
    const t = await open();
    const m = mark();
    await say(t, `!sleep ${m} &`, "exit 0 · the command and its output go with your next message");
    await t.waitFor((s) => lastLine(s) === "›");
    expect(withMarker(m)).toHaveLength(1); // the prompt is back while the job (minutes long) still runs, holding hey's pipes
    // a job that prints once the test lets it, then lives on
    await say(t, `!(: ${m}; while [ ! -e go ]; do sleep 0.05; done; echo "late-$((6 * 7))"; exec sleep ${m}) &`, "exit 0 · the command");
    writeFileSync(join(t.cwd, "go"), "");
    await until(() => withMarker(m).filter((p) => p.args.startsWith("sleep")).length === 2, "the job to print and go on");
    server.enqueue(answer("Still here."));
    await say(t, "hello", "Still here.");
    expect(await t.screen(ALL)).not.toContain("late-42"); // the command line shows `late-$((6 * 7))`
    await t.keys("C-d");
    await t.waitFor("[exit 0]");
    expect(withMarker(m).filter((p) => p.args.startsWith("sleep"))).toHaveLength(2); // hey left them running, as a shell does
  },
  E2E_TIMEOUT,
);

test(
  "Ctrl-C: a command that ignores SIGINT is ended after a moment, its whole tree with it; !cat still reads the terminal",
  async () => {
    const t = await open();
    const m = mark();
    await t.type(`!trap '' INT; sleep ${m}; echo after`);
    await t.keys("Enter");
    await until(() => withMarker(m).some((p) => p.args.startsWith("sleep")), "the sleep to start");
    await t.keys("C-c");
    await t.waitFor(/^\^C\nkilled by SIGTERM · the command/m);
    await t.waitFor((s) => lastLine(s) === "›");
    expect(withMarker(m)).toEqual([]); // the orphaned sleep too, which held the output open
    expect(await t.screen()).not.toContain("\nafter\n");
    await t.type("!echo cat-ready; cat");
    await t.keys("Enter");
    await t.waitFor("\ncat-ready\n"); // the shell has the terminal: what is typed now is cat's, not hey's
    await t.type("typed to cat");
    await t.keys("Enter");
    await t.waitFor("typed to cat\ntyped to cat\n"); // the terminal's echo, and cat's
    await t.keys("C-d");
    await t.waitFor("typed to cat\nexit 0 · the command");
  },
  E2E_TIMEOUT,
);

test(
  "Ctrl-C: a command that catches SIGINT and exits 0 gets to, and its exit 0 is reported",
  async () => {
    const t = await open();
    await t.type("!trap 'echo got SIGINT; exit 0' INT; echo ready; while :; do sleep 0.1; done");
    await t.keys("Enter");
    await t.waitFor("\nready\n");
    await t.keys("C-c");
    await t.waitFor(/^\^Cgot SIGINT\nexit 0 · the command/m);
    await t.waitFor((s) => lastLine(s) === "›");
  },
  E2E_TIMEOUT,
);

test(
  "! is under the permission lists a bash call is under: a refused command does not run",
  async () => {
    const t = await open({ before: `printf '[permission]\\ndeny = ["bash: rm *"]\\n' > hey.toml`, args: ["--config", "hey.toml"] });
    writeFileSync(join(t.cwd, "keep.txt"), "precious");
    await say(t, "!rm keep.txt", "hey: not run:");
    expect(existsSync(join(t.cwd, "keep.txt"))).toBe(true);
    await say(t, "!ls keep.txt", "keep.txt\nexit 0");
  },
  E2E_TIMEOUT,
);

test(
  "/model checks the name: one neither configured nor listed by the endpoint is refused with the nearest; a listed one switches",
  async () => {
    const t = await open();
    const refused = (await say(t, "/model mock-larg", "still cli/mock-model")).replace(/\s+/g, " "); // wrapped at spaces to the width
    expect(refused).toContain(
      'hey: provider cli has no model "mock-larg": its models are mock-model; the endpoint lists mock-model, mock-large; did you mean mock-large?',
    );
    expect(refused).toContain("(a model missing from both can be added to the provider's models = [...]); still cli/mock-model"); // nothing switched: said
    await say(t, "/model nosuch", 'has no model "nosuch"');
    server.enqueue(answer("Still the first."));
    await say(t, "which?", "Still the first.");
    expect(body(server.requests.length - 1).model).toBe("mock-model");
    await say(t, "/model mock-large", "model: cli/mock-large");
    server.enqueue(answer("The large one."));
    await say(t, "which now?", "The large one.");
    expect(body(server.requests.length - 1).model).toBe("mock-large");
  },
  E2E_TIMEOUT,
);

const state = fileTempDir("hey-sessions-state-");
const project = fileTempDir("hey-sessions-cwd-");
test(
  "/sessions at 120 columns keeps each session to one line, a long first prompt cut with …; hey --sessions on the terminal too",
  async () => {
    const long = 'Use the skill "greet" (/tmp/explore/repo/.hey/skills/greet/SKILL.md): say hello';
    const id = writeSession(state.path, project.path, long, "Hello.");
    /** the listing's row of the session and the line under it: blank, where a wrapped row would go on */
    const rowOf = (screen: string) => {
      const lines = screen.split("\n");
      const at = lines.findIndex((l) => l.startsWith(id));
      return [lines[at], lines[at + 1]];
    };
    const env = { XDG_STATE_HOME: state.path };
    const t = await open({ cols: 120, cwd: project.path, env });
    await t.type("/sessions");
    await t.keys("Enter");
    const [row, under] = rowOf(await t.waitFor("Resume one with /resume ID"));
    expect(row).toMatch(/ {2}Use the skill "greet" \(.*…$/);
    expect(row!.length).toBeLessThanOrEqual(120);
    expect(under).toBe("");
    await t.close();
    term = await startTerm({ cols: 120, cwd: project.path, env, args: ["--sessions"] });
    const [cli, next] = rowOf(await term.waitFor("[exit 0]"));
    expect(cli).toMatch(/ {2}Use the skill "greet" \(.*…$/);
    expect(cli!.length).toBeLessThanOrEqual(120);
    expect(next).toBe("");
  },
  E2E_TIMEOUT,
);

const narrow = fileTempDir("hey-resume-narrow-");
test(
  "/resume at 50 columns keeps each choice to a row: its long first prompt cut with …, not broken by the terminal",
  async () => {
    writeSession(state.path, narrow.path, "look at @hello.txt and tell me what the second line of it says", "It says SECOND LINE.");
    const t = await open({ cols: 50, cwd: narrow.path, env: { XDG_STATE_HOME: state.path } });
    await t.type("/resume");
    await t.keys("Enter");
    const lines = (await t.waitFor("resume which? (1-1, Enter to cancel)")).split("\n").map((l) => l.trimEnd());
    const at = lines.findIndex((l) => /^1 {2}\d{4}-/.test(l));
    expect(lines[at]).toMatch(/ {2}look at @hello\.txt.*…$/);
    expect(Bun.stringWidth(lines[at]!)).toBeLessThanOrEqual(50);
    expect(lines[at + 1]).toStartWith("resume which?"); // before: the prompt's rest on the next row ("e second line of it says")
  },
  E2E_TIMEOUT,
);

const shop = fileTempDir("hey-resume-project-");
test(
  "/resume in a project's subdirectory with no other session of its own offers the project's, each with its directory, and /sessions lists them",
  async () => {
    const repo = join(realpathSync(shop.path), "shop");
    mkdirSync(join(repo, ".git"), { recursive: true });
    mkdirSync(join(repo, "web"));
    writeSession(state.path, repo, "where are the release steps?", "In RELEASE.md.");
    const t = await open({ cols: 120, cwd: join(repo, "web"), env: { XDG_STATE_HOME: state.path } });
    const listed = await say(t, "/sessions", /^›$/m);
    expect(listed.replace(/\s+/g, " ")).toContain(`No sessions in this directory; its project's, ${repo}: `);
    expect(listed).toContain("where are the release st"); // cut with … when the directory column is wide
    await t.type("/resume");
    await t.keys("Enter");
    const screen = await t.waitFor("resume which? (1-1, Enter to cancel)", ALL);
    expect(screen.replace(/\s+/g, " ")).toContain(`No other sessions in this directory; its project's, ${repo}: `);
    expect(screen).toMatch(new RegExp(`^1 {2}\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d +\\S+ B {2}${repo}  where are the release steps\\?$`, "m"));
    await t.type("1");
    await t.keys("Enter");
    await t.waitFor("› where are the release steps?\nIn RELEASE.md.", ALL);
    server.enqueue(answer("Step one: tag it."));
    await say(t, "what is step one?", "Step one: tag it.");
    const sent = body(server.requests.length - 1).messages.filter((m) => m.role !== "system");
    expect(JSON.stringify(body(server.requests.length - 1).messages[0])).toContain(`Working directory: ${repo}\\n`);
    // the system prompt names where the session began (the cache holds it); the model is told where hey works now
    expect(sent.map((m) => m.content)).toEqual(["where are the release steps?", "In RELEASE.md.", `${movedNote(join(repo, "web"))}\nwhat is step one?`]);
  },
  E2E_TIMEOUT,
);
