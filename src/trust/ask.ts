// The REPL's questions before the first turn (SPEC §15 trust, issue 24 approvals), on the terminal.
import * as readline from "node:readline";

/** Keys queued in the terminal come at the first read: ample for that, too short to be felt. */
const EARLY_INPUT_MS = 30;

/**
 * Asks `question`; the line typed (readAnswer reads it), undefined on Ctrl-C or Ctrl-D. A question
 * of several lines is printed and only its last line is the prompt: readline redraws a prompt of
 * several lines twice. Keys typed before the question was drawn (a `!git status` typed while hey
 * started) do not answer it: they are set aside first and given back to stdin after the answer,
 * for the prompt that follows (type-ahead, kept).
 */
export async function askLine(question: string): Promise<string | undefined> {
  const early = await setAside();
  const cut = question.lastIndexOf("\n") + 1;
  if (cut > 0) process.stdout.write(question.slice(0, cut));
  const prompt = question.slice(cut);
  return new Promise((resolve) => {
    const rl = readline.createInterface({ input: process.stdin, output: process.stdout, terminal: Boolean(process.stdin.isTTY) });
    let answered = false;
    const done = (value: string | undefined) => {
      if (answered) return;
      answered = true;
      rl.close();
      if (early.length > 0) process.stdin.unshift(early);
      if (value === undefined) process.stdout.write("\n");
      resolve(value);
    };
    rl.on("SIGINT", () => done(undefined));
    rl.on("close", () => done(undefined));
    rl.question(prompt, (answer) => done(answer));
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
