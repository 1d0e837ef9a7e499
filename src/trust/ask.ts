// The REPL's questions before the first turn (SPEC §15 trust, issue 24 approvals), on the terminal.
import * as readline from "node:readline";

/**
 * Asks `question`; the line typed (readAnswer reads it), undefined on Ctrl-C or Ctrl-D. A question
 * of several lines is printed and only its last line is the prompt: readline redraws a prompt of
 * several lines twice.
 */
export function askLine(question: string): Promise<string | undefined> {
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
      if (value === undefined) process.stdout.write("\n");
      resolve(value);
    };
    rl.on("SIGINT", () => done(undefined));
    rl.on("close", () => done(undefined));
    rl.question(prompt, (answer) => done(answer));
  });
}
