// A notice hey writes while a turn is drawn starts a line of its own: the approvals record that
// cannot be written at the model's first answer (here: `ulimit -f 0`, EFBIG) is said after the
// spinner's line is cleared, wrapped at spaces — not glued onto `⠋ working… 0s` and cut mid-word
// by the terminal. Through the compiled binary in a real terminal, against a local mock model.
import { afterEach, expect, test } from "bun:test";
import { startModelServer } from "../helpers/model-server.ts";
import { startTerm, type Term } from "../helpers/tmux.ts";

const COLS = 80;
let term: Term | undefined;
afterEach(async () => {
  await term?.close();
  term = undefined;
});

test("the approvals record that cannot be written at the first answer is said on a line of its own, wrapped at spaces, the answer after it", async () => {
  const model = startModelServer(() => ({ text: "the answer is here" }));
  try {
    term = await startTerm({ args: ["--base-url", model.baseUrl, "-m", "m", "-p", "hi"], cols: COLS, rows: 30, before: "ulimit -f 0" });
    const screen = await term.waitFor("[exit 0]");
    const rows = screen.split("\n");
    const at = rows.findIndex((r) => r.includes("could not record approvals"));
    expect(rows[at]).toStartWith("hey: could not record approvals in");
    // broken at spaces: the rows read back as the sentence, each no wider than the terminal
    const notice = rows.slice(at, at + 4).join(" ");
    expect(notice).toMatch(/ \S+\/approvals\.json: the file would be larger than this process may write \(EFBIG/);
    for (const row of rows) expect(Bun.stringWidth(row)).toBeLessThanOrEqual(COLS);
    expect(screen).not.toContain("working…");
    expect(screen).toContain("\nthe answer is here\n");
  } finally {
    model.stop();
  }
}, 60_000);
