// A file whose name has a space, through dist/hey against a local mock model: `hey -p "@my notes.txt"`
// as its own argument, `@"my notes.txt"` and `@my\ notes.txt` in a message, and Tab at the REPL's
// prompt, which writes the name quoted; each brings the file's content to the model.
import { expect, setDefaultTimeout, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { runHey } from "../helpers/e2e.ts";
import { fileReplayServer, fileTempDir } from "../helpers/fixtures.ts";
import { answer, askedOf, lastLine, replTerms } from "./repl-helpers.ts";

setDefaultTimeout(90_000); // the first test may build dist/hey

const server = fileReplayServer();
const work = fileTempDir();
writeFileSync(join(work.path, "my notes.txt"), "spacey content\n");
const asked = askedOf(server);
const { open } = replTerms(server, { cwd: work.path });
const adHoc = () => ["--base-url", `${server.url}/v1`, "-m", "some-model"];
const attached = "\n\n```my notes.txt\nspacey content\n```";

test.each([
  [["@my notes.txt", "what is in it"], '@"my notes.txt" what is in it'],
  [['@"my notes.txt"', "what is in it"], '@"my notes.txt" what is in it'],
  [['what is in @"my notes.txt"?'], 'what is in @"my notes.txt"?'],
  [["what is in @my\\ notes.txt?"], "what is in @my\\ notes.txt?"],
])("hey -p %p attaches the file", async (words, message) => {
  server.enqueue(answer("It says spacey content."));
  const run = await runHey([...adHoc(), "-p", ...words], { cwd: work.path });
  expect(run).toMatchObject({ code: 0, stdout: "It says spacey content.\n", stderr: "" });
  expect(asked().at(-1)).toBe(message + attached);
});

test("a whole argument with a space that names no file is words, as before; a quoted one must be a file", async () => {
  server.enqueue(answer("Hi."));
  const words = await runHey([...adHoc(), "-p", "@john please look", "at user@host.com"], { cwd: work.path });
  expect(words).toMatchObject({ code: 0, stderr: "" });
  expect(asked().at(-1)).toBe("@john please look at user@host.com");
  const before = server.requests.length;
  const gone = await runHey([...adHoc(), "-p", '@"gone notes.txt"', "hi"], { cwd: work.path });
  expect(gone.code).toBe(2);
  expect(gone.stderr).toStartWith(`hey: @"gone notes.txt": no such file (${join(work.path, "gone notes.txt")})`);
  expect(server.requests.length).toBe(before);
});

test("Tab completes `@my` to the quoted name, and Enter sends the file's content", async () => {
  const t = await open();
  await t.type("look @my");
  await t.keys("Tab");
  await t.waitFor((s) => lastLine(s) === '› look @"my notes.txt"');
  server.enqueue(answer("Looked."));
  await t.type("please");
  await t.keys("Enter");
  await t.waitFor("Looked.");
  expect(String(asked().at(-1))).toStartWith(`look @"my notes.txt" please${attached}`);
});

test('hey "@my notes.txt" "what is it" at a terminal: the REPL\'s first message brings the file too', async () => {
  server.enqueue(answer("Seen it."));
  const t = await open({ args: ["@my notes.txt", "what is it"] });
  await t.waitFor("Seen it.");
  expect(String(asked().at(-1))).toStartWith(`@"my notes.txt" what is it${attached}`);
});
