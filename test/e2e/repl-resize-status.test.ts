// A window narrowed while a status shows (a split pane, a smaller window), through dist/hey in tmux
// against a local mock model: the terminal reflows the status over two rows, and hey clears it as
// reflowed, so no half of it stays in the transcript, and after a stall the answer goes on after
// its first words, not on a stale status row.
import { expect, test } from "bun:test";
import { fileReplayServer } from "../helpers/fixtures.ts";
import { gate } from "../helpers/wait.ts";
import { ALL, heldAnswer, lastLine, replTerms } from "./repl-helpers.ts";

const E2E_TIMEOUT = 90_000;
const server = fileReplayServer();
const { open } = replTerms(server);

test(
  "narrowed while 'waiting for the model…' shows under a stalled answer: the answer goes on after its first words, no status left",
  async () => {
    const t = await open();
    const stall = gate();
    server.enqueue(heldAnswer("First words of a stalled answer, then the rest after the stall.", 6, stall.passed));
    await t.type("stall now");
    await t.keys("Enter");
    await t.waitFor(/^First words of a stalled answer,\s*\n. waiting for the model… \d+s$/m);
    await t.resize(20, 10);
    await t.waitFor((s) => /^. waiting for the m…$/m.test(s) && !/^del… \d+s$/m.test(s)); // a frame drawn at the new width where the reflow put the status's end
    stall.open();
    await t.waitFor((s) => lastLine(s) === "›" && s.includes("stall."));
    await t.resize(80, 10);
    const screen = await t.waitFor((s) => lastLine(s) === "›" && s.includes("stall."), ALL);
    expect(screen).not.toContain("waiting for");
    expect(screen.replace(/\s+/g, " ")).toContain("› stall now First words of a stalled answer, then the rest after the stall. ›");
  },
  E2E_TIMEOUT,
);

test(
  "narrowed while 'working…' shows before the first word: the answer comes under the question, no half of the status left",
  async () => {
    const t = await open();
    const wait = gate();
    server.enqueue(heldAnswer("Answer after a delay.", 0, wait.passed));
    await t.type("delay please");
    await t.keys("Enter");
    await t.waitFor(/^. working… \d+s$/m);
    await t.resize(10, 10);
    await t.waitFor((s) => /^. working…$/m.test(s) && !/^ ?\d+s$/m.test(s)); // a frame drawn at the new width where the reflow put the status's end
    wait.open();
    await t.waitFor((s) => lastLine(s) === "›" && s.includes("delay."));
    await t.resize(80, 10);
    const screen = await t.waitFor((s) => lastLine(s) === "›" && s.includes("delay."), ALL);
    expect(screen).not.toContain("work");
    expect(screen.replace(/\s+/g, " ")).toContain("› delay please Answer after a delay. ›"); // wrapped at the narrow width
  },
  E2E_TIMEOUT,
);
