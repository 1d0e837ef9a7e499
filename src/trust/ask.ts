// The REPL's questions before the first turn (SPEC §15 trust, issue 24 approvals), on the terminal.
import * as readline from "node:readline";
import { onJobControl, stopJob } from "../ui/signals.ts";
import { reflowedRow } from "../ui/prompt-rows.ts";
import { codePointWidth, fitted, terminalWidth } from "../ui/term.ts";
import { answersYesNo } from "./policy.ts";

/** Keys queued in the terminal come at the first read: ample for that, too short to be felt. */
const EARLY_INPUT_MS = 30;

/**
 * Asks `question`; the line typed (readAnswer reads it), undefined on Ctrl-C or Ctrl-D. A question
 * of several lines is printed and only its last line is the prompt: readline redraws a prompt of
 * several lines twice. Keys typed before the question was drawn (a `!git status` typed while hey
 * started) do not answer it: they are set aside first and given back to stdin after the answer,
 * for the prompt that follows (type-ahead, kept). Ctrl-Z (or a SIGTSTP from outside) stops hey
 * with the terminal as the shell left it; after `fg` (or a SIGSTOP's SIGCONT) the question is shown
 * again with what was typed of the answer, and still waits. A resize redraws it where the terminal's
 * reflow of its row put the cursor, so it shows once. A question ending in `(y/N) ` takes only y,
 * yes, n, no or Enter (one ending in `(y/N/e) ` e or each too): anything else (`yhi there`, a y with the first message typed on after it)
 * is asked again, not taken as a no; with `keep` (a prompt follows: the REPL's start) that text is
 * given back to stdin, unsent, as the start of the prompt's line, not dropped.
 */
export async function askLine(question: string, keep = false): Promise<string | undefined> {
  const early = await setAside();
  const cut = question.lastIndexOf("\n") + 1;
  if (cut > 0) process.stdout.write(question.slice(0, cut));
  const prompt = question.slice(cut);
  return new Promise((resolve) => {
    const stdout = process.stdout;
    const before = new Set(stdout.listeners("resize"));
    const terminal = Boolean(process.stdin.isTTY);
    const rl = readline.createInterface({ input: process.stdin, output: stdout, terminal });
    // readline's own redraw on a resize goes up the rows it counts at the new width, not those the
    // terminal's reflow of the drawn row made, and shows the question twice: hey redraws it itself
    for (const listener of stdout.listeners("resize")) if (!before.has(listener)) stdout.off("resize", listener);
    let drawnAt = stdout.columns || 0;
    const resized = () => {
      const cols = stdout.columns || 0;
      const shown = rl.getPrompt() + rl.line;
      const cells = [...shown].map(codePointWidth).filter((w) => w > 0);
      const offset = terminalWidth(rl.getPrompt() + rl.line.slice(0, rl.cursor));
      // where the cursor went in the reflowed question, which readline's redraw goes up from
      if (drawnAt > 0 && cols > 0) (rl as unknown as { prevRows: number }).prevRows = reflowedRow({ cells: [cells], line: 0, offset, cols: drawnAt }, cols);
      drawnAt = cols;
      rl.prompt(true);
    };
    if (terminal) stdout.on("resize", resized);
    let answered = false;
    let kept = "";
    const raw = (on: boolean) => {
      try {
        if (process.stdin.isTTY) process.stdin.setRawMode(on);
      } catch {}
    };
    // raw mode set again even where the runtime thinks it still is (the shell changed it), then the
    // question redrawn where the cursor is
    const again = () => {
      raw(false);
      raw(true);
      rl.prompt(true);
    };
    // readline's own Ctrl-Z leaves nothing to keep hey running after `fg`: the run would end unfinished
    const stop = () => {
      raw(false);
      process.stdout.write("\n");
      stopJob();
      again();
    };
    rl.on("SIGTSTP", stop);
    const offJobControl = onJobControl(stop, again);
    const done = (value: string | undefined) => {
      if (answered) return;
      answered = true;
      offJobControl();
      stdout.off("resize", resized);
      rl.close();
      const back = Buffer.concat([early, Buffer.from(kept)]);
      if (back.length > 0) process.stdin.unshift(back);
      if (value === undefined) process.stdout.write("\n");
      resolve(value);
    };
    rl.on("SIGINT", () => done(undefined));
    rl.on("close", () => done(undefined));
    const yesNo = /\(y\/N(\/e)?\)\s*$/.exec(prompt); // `/e`: or each file on its own (trust/instructions.ts)
    const heard = (answer: string) => {
      if (!yesNo || answersYesNo(answer) || (yesNo[1] && /^\s*e(ach)?\s*$/i.test(answer))) return done(answer);
      if (keep) kept = answer;
      const then = keep ? " (what you typed waits at the prompt after it)" : "";
      stdout.write(
        `${fitted(1, `hey: ${JSON.stringify(answer.trim())} does not answer the question: type y${yesNo[1] ? ", n or e" : " or n"}, then Enter${then}`)}\n`,
      ); // at spaces, never mid-word
      rl.question(prompt, heard);
    };
    rl.question(prompt, heard);
  });
}

/**
 * What the terminal holds already, typed before the question: read with the line discipline off (a
 * line not yet ended comes too), for EARLY_INPUT_MS — what was queued arrives at once.
 */
async function setAside(): Promise<Buffer> {
  const stdin = process.stdin;
  if (!stdin.isTTY) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  const take = (chunk: Buffer | string) => void chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  stdin.setRawMode(true);
  stdin.on("data", take);
  stdin.resume();
  await Bun.sleep(EARLY_INPUT_MS);
  await new Promise((resolve) => setImmediate(resolve)); // a loop held up past the timer still reads what is waiting first
  stdin.off("data", take);
  stdin.pause();
  stdin.setRawMode(false);
  return Buffer.concat(chunks);
}
