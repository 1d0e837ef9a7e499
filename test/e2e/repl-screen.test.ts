// What the prompt leaves on the screen (issue 14), through dist/hey in tmux against a local mock
// model: the cursor stands on the character it is at (a wide character the terminal moved to the
// next row, a tab split at the edge, an emoji family taken whole), and redrawing the line never
// scrolls copies of it into the scrollback (a paste taller than the screen, a prompt at the top
// after Ctrl-L); Ctrl-L during a turn keeps the row being written.
import { expect, test } from "bun:test";
import { fileReplayServer } from "../helpers/fixtures.ts";
import { PASTE_FOLD_LINES } from "../../src/ui/paste-fold.ts";
import { gate, until } from "../helpers/wait.ts";
import { answer, cursorAt, heldAnswer, say, lastLine, replTerms } from "./repl-helpers.ts";

const E2E_TIMEOUT = 90_000;
const server = fileReplayServer();
const terms = replTerms(server);

/** the user message of the last request the model got */
const asked = () =>
  (server.requests.at(-1)!.body as { messages: { role: string; content: unknown }[] }).messages.filter((m) => m.role === "user").at(-1)?.content;
const SCROLLBACK = { scrollback: true };

const open = (cols: number, rows: number) => terms.open({ cols, rows });

test(
  "the cursor stands on the character it is at: a wide character moved to the next row, a tab split at the edge, an emoji family taken whole",
  async () => {
    const t = await open(40, 12);
    const { row } = await t.cursor(); // the prompt's row; "› " is two columns
    // 37 columns of text fill the row but one: 你 does not fit and goes to the next row
    await t.type(`${"a".repeat(37)}你b`);
    await t.waitFor("你b");
    await t.keys("Left", "Left");
    await cursorAt(t, 0, row + 1); // on 你, not in the blank it left at the row's end
    // a tab is four spaces: one ends the row, three start the next, then b
    await t.keys("C-e", "C-u");
    await t.type("a".repeat(37));
    await t.paste("\tb");
    await t.waitFor((s) => s.includes("   b"));
    await cursorAt(t, 4, row + 1);
    await t.keys("BSpace");
    await cursorAt(t, 3, row + 1);
    // Left, Left and Backspace take the family (five code points) whole, never a part of it
    await t.keys("C-e", "C-u");
    await t.type("a👨‍👩‍👧b");
    await t.waitFor("👧b");
    await t.keys("Left");
    await cursorAt(t, 5, row); // on b: the family is two columns on the screen (one emoji's cell), not six
    await t.keys("Left", "BSpace");
    await t.waitFor((s) => lastLine(s) === "› 👨‍👩‍👧b");
    server.enqueue(answer("fine"));
    await t.keys("Enter");
    await t.waitFor("fine");
    expect(asked()).toBe("👨‍👩‍👧b");
  },
  E2E_TIMEOUT,
);

test(
  "a paste taller than the screen: typing in it adds no copy of it to the scrollback; sent, it stays above the answer once, and is what the model gets",
  async () => {
    const t = await open(40, 6);
    // one line short of what is folded (PASTE_FOLD_LINES)
    const pasted = Array.from({ length: PASTE_FOLD_LINES - 1 }, (_, i) => `pasted line ${i + 1}`).join("\n");
    await t.paste(pasted);
    await t.waitFor((s) => lastLine(s) === "… pasted line 14");
    await t.type("x");
    await t.waitFor((s) => lastLine(s) === "… pasted line 14x");
    await t.keys("Left");
    await t.type("y");
    await t.waitFor((s) => lastLine(s) === "… pasted line 14yx");
    for (let i = 0; i < 7; i++) await t.keys("Up");
    await t.type("z");
    await t.waitFor("… pasted line 7z");
    const count = (screen: string, line: string) => screen.split("\n").filter((l) => l.endsWith(line)).length;
    const typing = await t.screen(SCROLLBACK);
    expect(count(typing, "pasted line 14yx")).toBeLessThanOrEqual(1);
    expect(count(typing, "pasted line 10")).toBeLessThanOrEqual(1);
    server.enqueue(answer("Got it."));
    await t.keys("Enter");
    const sent = await t.waitFor("Got it.", SCROLLBACK);
    for (const line of ["› pasted line 1", "… pasted line 5", "… pasted line 7z", "… pasted line 14yx"]) expect(count(sent, line)).toBe(1);
    expect(sent).toContain("… pasted line 14yx\nGot it.");
    expect(asked()).toBe(pasted.replace("pasted line 7\n", "pasted line 7z\n") + "yx");
  },
  E2E_TIMEOUT,
);

test(
  "after Ctrl-L the prompt is at the screen's top: typing there adds no copy of the line to the scrollback",
  async () => {
    const t = await open(40, 12);
    await t.keys("C-l");
    await t.waitFor((s) => s.trim() === "›");
    const before = (await t.screen(SCROLLBACK)).split("\n").filter((l) => l.startsWith("›")).length;
    for (const c of "abc") {
      await t.type(c);
      await t.waitFor((s) => lastLine(s).endsWith(c));
    }
    await t.keys("BSpace");
    await t.waitFor((s) => lastLine(s) === "› ab");
    const after = (await t.screen(SCROLLBACK)).split("\n").filter((l) => l.startsWith("›"));
    expect(after.length).toBe(before);
  },
  E2E_TIMEOUT,
);

test(
  "↑ and ↓ in a line the terminal wrapped go a row up and down it, at the same column; from its first row, through history",
  async () => {
    const t = await open(40, 12);
    server.enqueue(answer("noted"));
    await say(t, "an earlier line", "noted");
    await t.waitFor((s) => lastLine(s) === "›");
    const line = `${"word ".repeat(20)}end`; // with "› " three rows of 40, 40 and 25 columns
    await t.type(line);
    await t.waitFor((s) => lastLine(s).endsWith("word end"));
    const end = await t.cursor();
    await t.keys("Up");
    await cursorAt(t, end.col, end.row - 1);
    await t.type("X");
    const screen = await t.waitFor("X");
    expect(screen.split("\n").findIndex((l) => l.indexOf("X") === end.col)).toBeGreaterThan(-1); // typed where the cursor stood
    await t.keys("Down");
    await cursorAt(t, end.col + 1, end.row); // after X, a column on; the last row is a column longer too
    await t.keys("Up", "Up", "Up");
    await t.waitFor((s) => lastLine(s) === "› an earlier line");
    await t.keys("Down");
    await t.waitFor((s) => lastLine(s).endsWith("word end"));
  },
  E2E_TIMEOUT,
);

test(
  "Ctrl-L during a turn clears the screen but for the row the answer is being written on, which goes on at the top",
  async () => {
    const t = await open(60, 16);
    await say(t, "/help", /models$/m);
    // the rest of the answer waits until the test has seen the clear: the turn still runs when Ctrl-L arrives, however loaded the machine
    const rest = gate();
    server.enqueue(heldAnswer("alpha beta gamma delta epsilon zeta eta theta iota", 2, rest.passed));
    await t.type("go");
    await t.keys("Enter");
    await t.waitFor(/^alpha beta/m);
    await t.keys("C-l");
    const first = (s: string) => s.split("\n")[0] ?? "";
    const cleared = await t.waitFor((s) => first(s).startsWith("alpha beta") && !s.includes("this list"));
    expect(cleared.trimEnd().split("\n")).toHaveLength(1); // the answer's row alone
    rest.open();
    await t.waitFor((s) => lastLine(s) === "›");
    expect(first(await t.screen())).toBe("alpha beta gamma delta epsilon zeta eta theta iota");
  },
  E2E_TIMEOUT,
);

test(
  "widening the terminal leaves no stale row of the prompt when the cursor was on a row of its own after a full one",
  async () => {
    const t = await open(20, 12);
    await say(t, "/help", /models$/m); // the prompt at the screen's bottom
    // "… " and 18 characters fill the second row: the cursor goes on a row of its own below (the terminal's line ended)
    const full = `… ${"y".repeat(18)}`;
    await t.paste(`first line\n${"y".repeat(18)}`);
    const pasted = await t.waitFor((s) => s.includes(`› first line\n${full}`));
    const rows = pasted.split("\n");
    const above = rows[rows.indexOf("› first line") - 1]!; // the help's last row
    await t.resize(60, 12);
    // drawn again at 60 columns: the cursor after the y's (the terminal's reflow alone leaves it on the row below)
    await until(async () => (await t.cursor()).col === 20, "the line drawn again at 60 columns");
    const screen = await t.screen();
    // the line drawn again where it was: no stale row of it, and the output above it kept
    expect(screen).toContain(`${above}\n› first line\n${full}`);
    expect(screen.split("\n").filter((l) => l.includes("first line"))).toEqual(["› first line"]);
  },
  E2E_TIMEOUT,
);

test(
  "narrowing the terminal while a wrapped line of Chinese is edited: the line drawn again once, no stale copy of its first row",
  async () => {
    const t = await open(60, 20);
    await say(t, "/help", /models$/m); // output above the prompt, which a redraw must not touch
    // 100 characters of two columns: 4 rows at 60 columns, 6 at 41 (each row leaves a blank the next character did not fit in)
    const cjk = Array.from({ length: 100 }, (_, i) => String.fromCodePoint(0x4e00 + i)).join("");
    await t.paste(cjk);
    await t.waitFor((s) => s.includes("乣"));
    await t.resize(41, 20);
    // typed at once: on a loaded machine hey may read the key before its SIGWINCH (it draws at the width it asks the terminal)
    await t.type("X");
    await t.waitFor((s) => s.includes("乣X"));
    const screen = await t.screen(SCROLLBACK);
    expect(screen.split("\n").filter((l) => l.startsWith("› 一"))).toEqual(["› 一丁丂七丄丅丆万丈三上下丌不与丏丐丑丒"]);
    expect(screen).toContain("models\n› 一");
  },
  E2E_TIMEOUT,
);

test(
  "widening the terminal while a wrapped line of Chinese is edited: the output above the prompt is kept",
  async () => {
    const t = await open(41, 20);
    await say(t, "/help", /models$/m);
    // 100 characters of two columns: 6 rows at 41 columns (each but the last ends in a blank), 3 at 101
    const cjk = Array.from({ length: 100 }, (_, i) => String.fromCodePoint(0x4e00 + i)).join("");
    await t.paste(cjk);
    await t.waitFor((s) => s.includes("乣"));
    await t.resize(101, 20);
    await t.type("X");
    await t.waitFor((s) => s.includes("乣X"));
    const screen = await t.screen(SCROLLBACK);
    expect(screen).toContain("models\n› 一");
    expect(screen.split("\n").filter((l) => l.startsWith("› 一"))).toHaveLength(1);
  },
  E2E_TIMEOUT,
);

test(
  "/help at 20 columns: each command and each key on its own line, its description indented under it",
  async () => {
    const t = await open(20, 24);
    await say(t, "/help", /models$/m);
    const screen = await t.screen(SCROLLBACK);
    for (const entry of [
      "› /help\n/help\n  this list\n/model\n[provider/model]\n  show or switch the\n",
      "/quit\n  leave (also\n",
      "\nKeys:\nEnter\n  send; a trailing \\\n",
      "\nCtrl-Z\n  suspend (fg\n  resumes)\nCtrl-Y\n",
    ])
      expect(screen).toContain(entry);
    // no row is wider than the terminal (none is broken mid-word by it)
    for (const line of screen.split("\n")) expect(Bun.stringWidth(line)).toBeLessThanOrEqual(20);
  },
  E2E_TIMEOUT,
);
