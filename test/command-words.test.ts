// One word on the command line: a slip for one of hey's commands is refused with the one meant, a
// word asking for sessions points to the flags that handle them, `help` is the help, and a word a
// prompt would be still goes to the model.
import { expect, test } from "bun:test";
import { parseCli, RESUME_NEEDS_ID, UsageError } from "../src/cli.ts";
import { oneWordCommand } from "../src/command-words.ts";

test.each([
  ["doctr", "doctor"],
  ["docter", "doctor"],
  ["dcotor", "doctor"],
  ["Doctor", "doctor"],
  ["upgrdae", "upgrade"],
  ["upgade", "upgrade"],
  ["upgrades", "upgrade"],
  ["turst", "trust"],
  ["trst", "trust"],
  ["mpc", "mcp"],
  ["MCP", "mcp"],
])("hey %s is refused: did you mean hey %s?", (word, meant) => {
  expect(oneWordCommand([word])).toEqual({ error: `unknown command hey ${word}; did you mean hey ${meant}? (to send it as a prompt: hey -p "${word}")` });
});

test.each(["sessions", "sesions", "session", "resume", "resum", "Resume"])("hey %s points to --sessions, -c and --resume ID", (word) => {
  expect(oneWordCommand([word])).toEqual({
    error: `unknown command hey ${word}: hey --sessions lists this directory's sessions, hey -c continues the last one, hey --resume ID another (to send it as a prompt: hey -p "${word}")`,
  });
});

test.each([
  "hi",
  "hello",
  "test",
  "tests",
  "fix",
  "docs",
  "status",
  "continue",
  "explain",
  "review",
  "refactor",
  "commit",
  "lint",
  "build",
  "deploy",
  "rust",
  "must",
  "trusty",
  "docker",
  "doctors",
  "factor",
  "vector",
  "update",
  "map",
  "mvp",
  "cp",
  "thanks",
  "why",
  "go",
])("hey %s is a prompt", (word) => {
  expect(oneWordCommand([word])).toBeUndefined();
  expect(parseCli([word]).message).toBe(word);
});

test("more than one word, or a flag, is never checked: hey -p doctr, hey doctr the build", () => {
  for (const argv of [
    ["-p", "doctr"],
    ["doctr", "the", "build"],
    ["--", "doctr"],
    ["-c", "sessions"],
  ])
    expect(oneWordCommand(argv)).toBeUndefined();
  expect(parseCli(["-p", "doctr"]).message).toBe("doctr");
});

test("hey help is hey --help, as git's is", () => {
  expect(parseCli(["help"]).help).toBe(true);
  // after a flag too (it was sent to the model as the prompt "help"); with -c or --resume it is a message to that session
  expect(parseCli(["--output", "json", "help"]).help).toBe(true);
  expect(parseCli(["-p", "help"]).help).toBe(true);
  expect(parseCli(["-c", "help"])).toMatchObject({ help: false, message: "help" });
});

test.each([
  [["-r"], "unknown flag -r (see hey --help); to resume a session: hey --resume (picks from a list) or hey --resume ID (hey -c continues the last one)"],
  [["--resume", "-p", "hi"], RESUME_NEEDS_ID],
  [["--resume=", "hi"], RESUME_NEEDS_ID],
  [["--resume", "--output", "json"], RESUME_NEEDS_ID],
])("%p says how to find the session to resume", (argv, message) => {
  expect(() => parseCli(argv)).toThrow(new UsageError(message));
});

test("--resume with no ID, at the end or before a flag, picks from a list", () => {
  expect(parseCli(["--resume"])).toMatchObject({ pickSession: true, resume: undefined });
  expect(parseCli(["--resume", "-m", "m"])).toMatchObject({ pickSession: true, resume: undefined, flags: { model: "m" } });
  expect(parseCli(["--resume", "0mx64"])).toMatchObject({ pickSession: false, resume: "0mx64" });
});

test.each([
  [["exec", "fix the tests"], 'hey has no exec command (Codex\'s); a one-shot run is hey -p "fix the tests"'],
  [["exec", "--full-auto", "fix it"], 'hey has no exec command (Codex\'s); a one-shot run is hey -p "…"'],
  [["exec"], 'hey has no exec command (Codex\'s); a one-shot run is hey -p "…"'],
  [["exec", "--json", "hi", "there"], 'hey has no exec command (Codex\'s); a one-shot run is hey --output json -p "…"'],
])("Codex's hey %p is refused with hey -p", (argv, said) => {
  expect(() => parseCli(argv)).toThrow(new UsageError(said));
});

test("exec as the first word of a prompt of several words is a prompt", () => {
  expect(parseCli(["exec", "into", "the", "pod"]).message).toBe("exec into the pod");
});
