// Pastes at the prompt, through dist/hey in tmux against a local mock model: a big paste stands in
// the line as one label (sent whole, recalled folded), and a paste holding its own end marker is
// never cut into keys.
import { expect, test } from "bun:test";
import { fileReplayServer } from "../helpers/fixtures.ts";
import { answer, lastLine, replTerms, askedOf } from "./repl-helpers.ts";

const E2E_TIMEOUT = 90_000;
const server = fileReplayServer();
const { open } = replTerms(server);
/** the user message of each request the model got */
const asked = askedOf(server);

test(
  "a 2,000-line paste shows as one label the cursor steps over; the model gets all of it, and ↑ brings the line back folded",
  async () => {
    const t = await open();
    server.enqueue(answer("Read it."));
    const log = Array.from({ length: 2000 }, (_, i) => `2026-01-01 error ${i}: connection reset`).join("\n");
    await t.type("why ");
    await t.paste(log);
    await t.waitFor((s) => lastLine(s) === "› why [Pasted text #1 +2000 lines]");
    // Left steps over the label whole: what is typed lands before it
    await t.keys("Left");
    await t.type("so ");
    await t.waitFor((s) => lastLine(s) === "› why so [Pasted text #1 +2000 lines]");
    await t.keys("End");
    await t.type("?");
    await t.keys("Enter");
    const screen = await t.waitFor("Read it.");
    expect(screen).not.toContain("connection reset");
    expect(String(asked().at(-1))).toStartWith(`why so ${log}?`); // a context note may follow
    await t.waitFor((s) => lastLine(s) === "›");
    await t.keys("Up");
    await t.waitFor((s) => lastLine(s) === "› why so [Pasted text #1 +2000 lines]?");
    // Backspace takes the label whole
    await t.keys("Left", "BSpace");
    await t.waitFor((s) => lastLine(s) === "› why so ?");
  },
  E2E_TIMEOUT,
);

test(
  "a paste holding the paste-end marker stays one paste: nothing of it runs as keys, and Enter sends all of it",
  async () => {
    const t = await open();
    server.enqueue(answer("Seen."));
    const before = server.requests.length;
    // terminal output captured with its escapes: tmux passes the marker on as xterm does
    const text = "printf '\x1b[201~'\nrm -rf build\necho done\n";
    await t.paste(text);
    await t.waitFor((s) => lastLine(s) === "…" && s.includes("… echo done"));
    expect(await t.screen()).toContain("› printf '^[[201~'");
    expect(server.requests.length).toBe(before);
    await t.keys("Enter");
    await t.waitFor("Seen.");
    expect(String(asked().at(-1))).toStartWith(text.trimEnd());
  },
  E2E_TIMEOUT,
);
