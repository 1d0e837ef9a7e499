// A failed turn in the REPL (x7 #13), in a real terminal (tmux) against a server whose chat template
// demands alternating roles (Gemma, Mistral-Instruct and Llama 2 templates on vLLM, TGI or
// llama-server: "Conversation roles must alternate …", a 400): the turn's failure leaves an
// assistant marker, so the next message and every one after it are answered, and `hey -c` of the
// session sends the same history.
import { afterEach, beforeEach, expect, setDefaultTimeout, test } from "bun:test";
import { runHey, tempDir } from "../helpers/e2e.ts";
import { lastUserText, startModelServer, textOf, withoutNote, type ChatMessage, type ChatRequest, type ModelServer } from "../helpers/model-server.ts";
import { startTerm, type Term } from "../helpers/tmux.ts";
import { ALL, lastLine } from "./repl-helpers.ts";

setDefaultTimeout(90_000); // the first test may build dist/hey

const ALTERNATE = "Conversation roles must alternate user/assistant/user/assistant/...";

let home: ReturnType<typeof tempDir>;
let project: ReturnType<typeof tempDir>;
let model: ModelServer;
let term: Term | undefined;
beforeEach(() => {
  home = tempDir("hey-home-");
  project = tempDir("hey-project-");
  // the template's check: no two messages of one role in a row (tool results aside); "first" is refused outright
  model = startModelServer((req: ChatRequest) => {
    const turns = req.messages.filter((m) => m.role !== "system");
    if (turns.some((m, i) => i > 0 && m.role !== "tool" && m.role === turns[i - 1]!.role)) throw new Error(ALTERNATE);
    const asked = lastUserText(req);
    if (asked.startsWith("first")) throw new Error("the model is not available right now");
    return { text: `answer to ${asked.split(/\s/)[0]}` };
  });
});
afterEach(async () => {
  await term?.close();
  model.stop();
  home.remove();
  project.remove();
});

const roles = (req: ChatRequest) => req.messages.filter((m) => m.role !== "system").map((m) => m.role);

test("after a turn the server refused, the next messages are answered (no two user messages in a row); hey -c sends the same history", async () => {
  term = await startTerm({ cwd: project.path, cols: 200, rows: 50, args: ["--base-url", model.baseUrl, "-m", "m1"], env: { HOME: home.path, NO_COLOR: "1" } });
  await term.waitFor((s) => lastLine(s) === "›");
  await term.type("first");
  await term.keys("Enter");
  await term.waitFor("the model is not available right now", ALL);
  await term.waitFor((s) => lastLine(s) === "›");
  for (const word of ["second", "third"]) {
    await term.type(word);
    await term.keys("Enter");
    await term.waitFor(`answer to ${word}`, ALL);
  }
  const screen = await term.screen(ALL);
  expect(screen).not.toContain("must alternate");
  const third = model.requests.at(-1)!;
  expect(roles(third)).toEqual(["user", "assistant", "user", "assistant", "user"]);
  expect(textOf(third.messages.find((m) => m.role === "assistant"))).toBe("[interrupted: the request failed]");
  await term.keys("C-d");
  await term.waitFor("[exit 0]", ALL);

  const resumed = await runHey(["-c", "-p", "fourth", "--base-url", model.baseUrl, "-m", "m1"], { cwd: project.path, env: { HOME: home.path } });
  expect(resumed).toMatchObject({ code: 0, stdout: "answer to fourth\n" });
  const fourth = model.requests.at(-1)!;
  // the session file holds the marker: the resumed request's prefix is the REPL's, word for word
  const said = (m: ChatMessage) => [m.role, withoutNote(textOf(m))]; // the context note rides on the last message alone
  expect(fourth.messages.slice(0, third.messages.length + 1).map(said)).toEqual(
    [...third.messages, { role: "assistant", content: "answer to third" }].map(said),
  );
  expect(roles(fourth)).toEqual(["user", "assistant", "user", "assistant", "user", "assistant", "user"]);
});
