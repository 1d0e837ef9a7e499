// The REPL's trust question (SPEC §15), asked once before the first turn, on the terminal.
import * as readline from "node:readline";

/** Asks `question`; the line typed (readAnswer reads it), undefined on Ctrl-C or Ctrl-D. */
export function askLine(question: string): Promise<string | undefined> {
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
    rl.question(question, (answer) => done(answer));
  });
}
