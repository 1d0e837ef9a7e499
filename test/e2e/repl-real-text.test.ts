// The line editor with text as people paste and edit it (x108), through dist/hey in tmux: the
// cursor stands where tmux drew the text (soft hyphens from a web page, Hindi vowel signs, each
// given a cell by the terminal's wcwidth), Up and Down keep their column through a short line,
// and kills in a row add up for Ctrl-Y.
import { expect, test } from "bun:test";
import { fileReplayServer } from "../helpers/fixtures.ts";
import { answer, cursorAt, lastLine, replTerms } from "./repl-helpers.ts";

const E2E_TIMEOUT = 90_000;
const server = fileReplayServer();
const terms = replTerms(server);

test(
  "the cursor stands where the terminal drew the text: soft hyphens and spacing vowel signs take a cell each",
  async () => {
    const t = await terms.open({ cols: 60, rows: 20 });
    const { row } = await t.cursor(); // the prompt's row; "› " is two columns
    await t.paste("Sil\u00adben\u00adtren\u00adnung ist gut"); // 22 letters and spaces, 3 soft hyphens
    await t.waitFor("nung ist gut");
    await cursorAt(t, 2 + 25, row);
    await t.keys("C-a", "M-f", "M-f"); // after "ist"
    await cursorAt(t, 2 + 21, row);
    await t.type("_");
    await t.waitFor((s) => lastLine(s) === "› Sil\u00adben\u00adtren\u00adnung ist_ gut");
    await cursorAt(t, 2 + 22, row);
    await t.keys("C-e", "C-u");
    await t.paste("किताब ok"); // क ि त ा ब: the two vowel signs are spacing marks, a cell each
    await t.waitFor("ब ok");
    await cursorAt(t, 2 + 8, row);
  },
  E2E_TIMEOUT,
);

test(
  "Up and Down keep their column through a short line; Ctrl-W Ctrl-W then Ctrl-Y puts both words back",
  async () => {
    const t = await terms.open({ cols: 60, rows: 20 });
    const { row } = await t.cursor();
    await t.type("a long first line of text here");
    await t.keys("C-j");
    await t.type("x");
    await t.keys("C-j");
    await t.type("another long third line of text");
    await cursorAt(t, 2 + 31, row + 2);
    await t.keys("Up");
    await cursorAt(t, 2 + 1, row + 1); // the end of x
    await t.keys("Up");
    await cursorAt(t, 2 + 30, row); // the end of the first line, not one letter in
    await t.keys("Down", "Down");
    await cursorAt(t, 2 + 31, row + 2);

    await t.keys("C-w", "C-w");
    await t.waitFor((s) => lastLine(s) === "… another long third line");
    await t.keys("C-y");
    await t.waitFor((s) => lastLine(s) === "… another long third line of text");
    server.enqueue(answer("ok"));
    await t.keys("Enter");
    await t.waitFor("ok");
    const sent = (server.requests.at(-1)!.body as { messages: { role: string; content: unknown }[] }).messages.at(-1)?.content;
    expect(sent).toBe("a long first line of text here\nx\nanother long third line of text");
  },
  E2E_TIMEOUT,
);
