// A sign of life once the answer's first words are shown (SPEC §17), through dist/hey in tmux
// against a local mock model: a stream that stalls mid-sentence brings back a status with the
// seconds it has been quiet, under the text; the text then goes on where it stopped, the status
// gone, and Esc still cancels while it shows.
import { expect, test } from "bun:test";
import { fileReplayServer } from "../helpers/fixtures.ts";
import type { Term } from "../helpers/tmux.ts";
import { gate } from "../helpers/wait.ts";
import { ALL, heldAnswer, lastLine, replTerms } from "./repl-helpers.ts";

const E2E_TIMEOUT = 90_000;
const server = fileReplayServer();
const { open } = replTerms(server);

/** A question whose answer stalls after "I am starting to ", until the returned function lets it go on; once the status shows. */
async function stalled(t: Term): Promise<{ screen: string; goOn(): void }> {
  const stall = gate();
  server.enqueue(heldAnswer("I am starting to write the plan now.", 4, stall.passed));
  await t.type("plan it");
  await t.keys("Enter");
  return { screen: await t.waitFor(/waiting for the model… \d+s/), goOn: stall.open };
}

test(
  "a stream that stalls after its first words shows 'waiting for the model…' under them; the answer then goes on where it stopped",
  async () => {
    const t = await open();
    const { screen: quiet, goOn } = await stalled(t);
    expect(quiet).toMatch(/^I am starting to\s*\n⠋ waiting for the model… \d+s$/m);
    goOn();
    const screen = await t.waitFor((s) => lastLine(s) === "›" && s.includes("plan now."), ALL);
    expect(screen).toContain("› plan it\nI am starting to write the plan now.\n");
    expect(screen).not.toContain("waiting for the model");
  },
  E2E_TIMEOUT,
);

test(
  "Esc while the status shows under a stalled answer cancels the turn; the status is gone",
  async () => {
    const t = await open();
    const { goOn } = await stalled(t);
    await t.keys("Escape");
    const screen = await t.waitFor((s) => lastLine(s) === "›", ALL);
    goOn();
    expect(screen).toMatch(/^I am starting to\s*\ninterrupted by user$/m);
    expect(screen).not.toContain("waiting for the model");
  },
  E2E_TIMEOUT,
);
