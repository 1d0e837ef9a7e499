// Flag parsing (SPEC §2): forms, values, positionals and the usage errors that name the flag.
import { expect, test } from "bun:test";
import { parseCli, UsageError } from "../src/cli.ts";

test.each([
  [["-p", "hi"], { print: true, message: "hi" }],
  [["--print", "fix", "the", "bug"], { print: true, message: "fix the bug" }],
  [["-m", "deepseek/deepseek-chat", "-p", "x"], { flags: { model: "deepseek/deepseek-chat" } }],
  [["--model=gpt-5.5", "x"], { flags: { model: "gpt-5.5" }, message: "x" }],
  [["-mgpt-5.5", "x"], { flags: { model: "gpt-5.5" } }],
  [["-t", "high"], { flags: { effort: "high" } }],
  [["--effort=off"], { flags: { effort: "off" } }],
  [["-pc", "go"], { print: true, continue: true, message: "go" }],
  [["-pt", "low", "go"], { print: true, flags: { effort: "low" }, message: "go" }],
  [["--output", "json"], { run: { output: "json" } }],
  [["--max-turns", "7"], { flags: { maxTurns: 7 } }],
  // repeated, comma-separated, or both: one list in order
  [["--fallback-model", "b/m2", "--fallback-model=ollama/qwen3, gpt-5-mini", "-p", "x"], { flags: { fallbackModels: ["b/m2", "ollama/qwen3", "gpt-5-mini"] } }],
  [
    ["--base-url", "http://127.0.0.1:11434/v1", "--protocol", "anthropic", "--api-key", "k"],
    { flags: { baseUrl: "http://127.0.0.1:11434/v1", protocol: "anthropic", apiKey: "k" } },
  ],
  [["@a.ts", "explain", "@b/c.md"], { files: ["a.ts", "b/c.md"], message: "@a.ts explain @b/c.md" }],
  [["-p", "--", "-v", "is a flag"], { print: true, version: false, message: "-v is a flag" }],
  [["--max-turns", "3", "-p", "--", "-1 is odd"], { print: true, flags: { maxTurns: 3 }, message: "-1 is odd" }],
  [["-"], { message: "-" }],
  [["--no-mcp", "--no-skills", "--raw", "--approve", "--sessions"], { run: { mcp: false, skills: false, raw: true }, approve: true, sessions: true }],
  [["--resume", "0mx6"], { resume: "0mx6" }],
  [["--sessions", "--all", "--output", "json"], { sessions: true, all: true, run: { output: "json" } }],
  [["-m", "mock"], { flags: { model: "mock" } }],
  [[], { print: false, run: { output: "text", raw: false, skills: true, mcp: true }, message: "", files: [] }],
  [["--proxy", "socks5://h:1080", "--config", "c.toml"], { run: { proxy: "socks5://h:1080" }, config: "c.toml" }],
  [["--plan", "-p", "x"], { run: { plan: true } }],
] as const)("%p", (argv, expected) => {
  expect(parseCli([...argv])).toMatchObject(expected);
});

test.each([
  [["--frobnicate"], 'unknown flag --frobnicate (see hey --help); put -- before a message that starts with - (hey -p -- "--frobnicate")'],
  [["--outptu", "json"], "unknown flag --outptu; did you mean --output? (see hey --help)"],
  [["--contine"], "unknown flag --contine; did you mean --continue? (see hey --help)"],
  [["-x"], 'unknown flag -x (see hey --help); put -- before a message that starts with - (hey -p -- "-x")'],
  // Claude Code's and Codex's read-only modes: hey's plan mode (before: no hint at all)
  [
    ["--permission-mode", "plan"],
    "unknown flag --permission-mode; hey's plan mode is --plan (reads and searches, changes nothing); otherwise it runs every tool unless [permission] lists refuse it (see hey --help)",
  ],
  [["--sandbox", "read-only"], "unknown flag --sandbox; hey has no sandbox; --plan lets the agent only read and search (see hey --help)"],
  // a message's first word, or flags grouped: the letter and the argument it is in, quoted
  [["-p", "-fix"], 'unknown flag -f in "-fix" (see hey --help); put -- before a message that starts with - (hey -p -- "-fix")'],
  [["-pz"], 'unknown flag -z in "-pz" (see hey --help); put -- before a message that starts with - (hey -p -- "-pz")'],
  // other agents' flags are told hey's way, with no advice to send them as a message
  [["--cd", "/tmp/p3", "-p", "hi"], "unknown flag --cd; run it from the directory: cd DIR && hey … (see hey --help)"],
  [["-C", "/tmp/p3", "-p", "hi"], "unknown flag -C; run it from the directory: cd DIR && hey … (see hey --help)"],
  [["--add-dir", "../p3"], "unknown flag --add-dir; its tools reach any path: name the directory in your message (@PATH brings a file of it) (see hey --help)"],
  [["--json", "-p", "hi"], "unknown flag --json; hey's is --output json (see hey --help)"],
  [["-i", "a.png", "-p", "hi"], 'unknown flag -i; name the file in the message: hey -p "@shot.png what is wrong here" attaches it (see hey --help)'],
  [["--image", "a.png"], 'unknown flag --image; name the file in the message: hey -p "@shot.png what is wrong here" attaches it (see hey --help)'],
  [
    ["--permission-mode", "plan", "-p", "hi"],
    "unknown flag --permission-mode; hey's plan mode is --plan (reads and searches, changes nothing); otherwise it runs every tool unless [permission] lists refuse it (see hey --help)",
  ],
  [["-s", "read-only"], "unknown flag -s; hey has no sandbox; --plan lets the agent only read and search (see hey --help)"],
  [
    ["--ask-for-approval", "never"],
    "unknown flag --ask-for-approval; hey asks no permission: it runs every tool unless [permission] lists in config.toml refuse it (see hey --help)",
  ],
  // a flag of no agent's with a value after it is a flag, not a message's first word
  [["--workdir", "/tmp/x", "-p", "hi"], "unknown flag --workdir (see hey --help)"],
  [["--frob=3"], "unknown flag --frob (see hey --help)"],
  [["--frob", "loud", "-p", "hi"], "unknown flag --frob (see hey --help)"],
  [["--fix", "the", "parser"], 'unknown flag --fix (see hey --help); put -- before a message that starts with - (hey -p -- "--fix")'],
  [["-m"], "-m/--model needs a value"],
  [["-m", "-p"], "-m/--model needs a value"],
  [["--output"], "--output needs a value"],
  [["--print=yes"], "--print takes no value"],
  [["-t", "loud"], '-t/--effort must be one of off, minimal, low, medium, high, xhigh, max (got "loud")'],
  [["--output", "xml"], '--output must be one of text, json (got "xml")'],
  [["--protocol", "grpc"], '--protocol must be one of openai, responses, anthropic, google (got "grpc")'],
  [["--protocol", "gemini"], '--protocol must be one of openai, responses, anthropic, google (got "gemini"; did you mean google?)'],
  [["--protocol", "Claude"], '--protocol must be one of openai, responses, anthropic, google (got "Claude"; did you mean anthropic?)'],
  [["--max-turns", "0"], '--max-turns must be a positive integer (got "0")'],
  [["--max-turns", "2.5"], '--max-turns must be a positive integer (got "2.5")'],
  // a negative number after a flag that takes a number is its value, refused as one (before: "needs a value")
  [["--max-turns", "-1"], '--max-turns must be a positive integer (got "-1")'],
  [["--max-run-tokens", "-5", "-p", "hi"], '--max-run-tokens must be a positive integer (got "-5")'],
  [["--max-turns", "-p", "hi"], "--max-turns needs a value"],
  // on a flag whose value is no number, a word after it that starts with - is still the next flag
  [["-m", "-1"], "-m/--model needs a value"],
  [["--base-url", "localhost:11434"], '--base-url must be an http:// or https:// URL (got "localhost:11434")'],
  [["--base-url", "not a url"], '--base-url must be a URL such as http://127.0.0.1:11434/v1 (got "not a url")'],
  [["--config", " "], "--config needs a non-empty value"],
  // two flags where hey would obey one and drop the other in silence
  [["-c", "--resume", "abc"], "-c/--continue and --resume both pick the session to continue: use one (-c: this directory's latest, --resume ID: that one)"],
  [
    ["--resume=abc", "--continue"],
    "-c/--continue and --resume both pick the session to continue: use one (-c: this directory's latest, --resume ID: that one)",
  ],
  [["--sessions", "-p", "hi"], "--sessions lists sessions and runs no prompt: run the prompt without --sessions"],
  [["--sessions", "some prompt"], "--sessions lists sessions and runs no prompt: run the prompt without --sessions"],
  [["--sessions", "@a.ts"], "--sessions lists sessions and runs no prompt: run the prompt without --sessions"],
  [["--sessions", "-c"], "--sessions lists sessions and opens none: drop -c/--continue, or run it without --sessions"],
  [["--sessions", "--resume", "abc"], "--sessions lists sessions and opens none: drop --resume, or run it without --sessions"],
  [["-m", "mock/"], '-m/--model mock/: no model after "mock/" (-m PROVIDER/MODEL; -m mock alone uses the provider\'s default model)'],
  // a blank model after the provider: refused here, not blamed on a line of the config file
  [["-m", "mock/ "], '-m/--model mock/: no model after "mock/" (-m PROVIDER/MODEL; -m mock alone uses the provider\'s default model)'],
  [["--model=openrouter/vendor/"], '-m/--model openrouter/vendor/: no model after "openrouter/vendor/" (-m PROVIDER/MODEL)'],
])("%p → %s", (argv, message) => {
  expect(() => parseCli([...argv])).toThrow(new UsageError(message));
});

test("a command of hey's own after flags is refused with where it goes; in a sentence it is a prompt", () => {
  expect(() => parseCli(["-m", "mock", "doctor"])).toThrow(
    new UsageError("doctor is a command of hey's own and goes first, before any flag: hey doctor … (a prompt of that one word: add more words)"),
  );
  expect(() => parseCli(["--no-mcp", "upgrade", "--check"])).toThrow(
    new UsageError("unknown flag --check (see hey --help); upgrade is a command of hey's own and goes first, before any flag: hey upgrade …"),
  );
  expect(() => parseCli(["--bogus"])).toThrow(
    new UsageError('unknown flag --bogus (see hey --help); put -- before a message that starts with - (hey -p -- "--bogus")'),
  );
  // its words with a provider's name after a flag: `hey --config lab.toml doctor lab` went to the model as "doctor lab"
  expect(() => parseCli(["--config", "lab.toml", "doctor", "lab"])).toThrow(
    new UsageError("doctor lab is a command of hey's own and goes first, before any flag: hey doctor lab … (as a prompt: add more words)"),
  );
  expect(parseCli(["-p", "doctor", "the", "tests"]).message).toBe("doctor the tests");
  expect(parseCli(["-p", "upgrade", "the", "deps"]).message).toBe("upgrade the deps");
  expect(parseCli(["-m", "x", "trust me, fix it"]).message).toBe("trust me, fix it");
});

// `hey -p "$(cat todo.md)"`: a markdown list or front matter starts with `-`, and was refused as
// "unknown flag -  " (a space), exit 2. A flag's name holds no space or line break: such an
// argument is the message. A flag's value may hold one (`--config="my lab.toml"`).
test.each([
  ["- fix the parser\n- add tests\n"],
  ["---\ntitle: x\n---\nDo it\n"],
  ["-v is broken"],
  ["-x is broken"],
  ["--verbose flag is ignored"],
  ["-\tindented"],
])("an argument starting with - that holds a space or a line break is the message: %p", (text) => {
  expect(parseCli(["-p", text])).toMatchObject({ print: true, message: text, verbose: false, version: false });
  expect(parseCli(["-m", "mock", text, "--output", "json"])).toMatchObject({ message: text, flags: { model: "mock" }, run: { output: "json" } });
});

test("a flag's value may hold a space; a lone - is the message (read from stdin: run.ts)", () => {
  expect(parseCli(["--config=my lab.toml", "-p", "hi"])).toMatchObject({ config: "my lab.toml", message: "hi" });
  expect(parseCli(["-p", "-"])).toMatchObject({ print: true, message: "-" });
});
