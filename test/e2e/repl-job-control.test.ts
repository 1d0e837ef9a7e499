// hey as a job of the shell (README "Keys": Ctrl-Z suspends hey, `fg` brings it back), through
// dist/hey in tmux under an interactive bash: a stop by the key at a start-up question, or from
// outside (`kill -TSTP`, `kill -STOP`) at the prompt or during a turn, leaves a hey that `fg` brings
// back whole — the question still asked, the line still editable, Enter sending it and Esc
// cancelling a turn, an answer stopped mid-line going on below the shell's lines — not a crashed
// run, a terminal left in the shell's cooked mode, or the rest of an answer written over the shell.
import { expect, test } from "bun:test";
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileReplayServer, fileTempDir } from "../helpers/fixtures.ts";
import type { Term } from "../helpers/tmux.ts";
import { answer, askedOf, heldAnswer, lastLine, replTerms } from "./repl-helpers.ts";

const E2E_TIMEOUT = 90_000;
const server = fileReplayServer();
const { start } = replTerms(server);
const asked = askedOf(server);
const projects = fileTempDir("hey-job-project-");

/** hey at its prompt under a shell with job control, in `cwd` (the terminal's HOME when not given) */
async function underShell(cwd?: string): Promise<Term> {
  return start({ args: ["--base-url", `${server.url}/v1`, "-m", "mock-model"], jobControl: true, cwd });
}

/**
 * A stop from outside as a user sends it to a hey the shell started itself: SIGTSTP to hey (`kill
 * -TSTP <pid>`), which stops its job as Ctrl-Z does; SIGSTOP, which no program sees, to the
 * process group (here the script that runs hey too, whose stop is the one the shell waits for).
 */
async function stopFromOutside(t: Term, signal: "SIGTSTP" | "SIGSTOP"): Promise<void> {
  const pid = await t.heyPid();
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  process.kill(signal === "SIGTSTP" ? pid : -Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]), signal);
}

/** `fg` typed at the shell once it shows hey stopped */
async function fg(t: Term): Promise<void> {
  await t.waitFor(/Stopped/);
  await t.type("fg");
  await t.keys("Enter");
}

/** hey under a shell, its answer `one two three four five` held after `one two` until `open` is called */
async function heldTurn(): Promise<{ t: Term; open: () => void }> {
  const t = await underShell();
  await t.waitFor((s) => lastLine(s) === "›");
  let open = () => {};
  server.enqueue(heldAnswer("one two three four five", 2, new Promise((resolve) => (open = resolve))));
  await t.type("count slowly");
  await t.keys("Enter");
  return { t, open: () => open() };
}

test(
  "Ctrl-Z at the start-up trust question, then fg: the question is asked again and its answer taken",
  async () => {
    const root = join(realpathSync(projects.path), "p");
    mkdirSync(join(root, ".git"), { recursive: true });
    mkdirSync(join(root, ".hey"), { recursive: true });
    writeFileSync(join(root, ".hey", "config.toml"), '[mcp.x]\ncommand = "/bin/cat"\n');
    const t = await underShell(root);
    await t.waitFor((s) => lastLine(s) === "Trust this project? (y/N)");
    await t.keys("C-z");
    await fg(t);
    await t.waitFor((s) => lastLine(s) === "Trust this project? (y/N)" && s.includes("$ fg"));
    await t.type("n");
    await t.keys("Enter");
    await t.waitFor((s) => lastLine(s) === "›");
    server.enqueue(answer("Still here."));
    await t.type("hello");
    await t.keys("Enter");
    const screen = await t.waitFor("Still here.");
    expect(screen).not.toContain("internal error");
    expect(asked().at(-1)).toStartWith("hello"); // a note that the project's MCP server was not started follows
  },
  E2E_TIMEOUT,
);

test.each(["SIGTSTP", "SIGSTOP"] as const)(
  "stopped from outside (%s) at the prompt, then fg: the line is drawn again, editable, and Enter sends it",
  async (signal) => {
    const t = await underShell();
    await t.waitFor((s) => lastLine(s) === "›");
    await t.type("half a line");
    await t.waitFor((s) => lastLine(s) === "› half a line");
    await stopFromOutside(t, signal);
    await fg(t);
    await t.waitFor((s) => lastLine(s) === "› half a line" && s.includes("$ fg"));
    server.enqueue(answer("Sent whole."));
    await t.type(" and the rest");
    await t.keys("Enter");
    await t.waitFor("Sent whole.");
    expect(asked().at(-1)).toBe("half a line and the rest");
  },
  E2E_TIMEOUT,
);

test(
  "stopped from outside during a turn (SIGSTOP), then fg: Esc still cancels the turn",
  async () => {
    const { t, open } = await heldTurn();
    await t.waitFor("one two");
    await stopFromOutside(t, "SIGSTOP");
    await fg(t);
    await t.waitFor((s) => s.includes("$ fg"));
    await t.keys("Escape");
    const screen = await t.waitFor((s) => lastLine(s) === "›");
    open();
    expect(screen).toMatch(/^interrupted by user$/m);
    expect(screen).not.toContain("^[");
  },
  E2E_TIMEOUT,
);

test.each(["C-z", "SIGSTOP"] as const)(
  "stopped (%s) in the middle of an answer's line while its status waits, then fg: the line goes on below the shell's lines, not over them",
  async (how) => {
    const { t, open } = await heldTurn();
    await t.waitFor(/waiting for the model/); // the quiet status under the unfinished line
    if (how === "C-z") await t.keys("C-z");
    else await stopFromOutside(t, "SIGSTOP");
    await fg(t);
    await t.waitFor((s) => s.includes("$ fg") && /waiting for the model/.test(s.slice(s.indexOf("$ fg"))));
    open();
    const screen = await t.waitFor((s) => lastLine(s) === "›");
    const after = screen.slice(screen.indexOf("$ fg")).split("\n");
    expect(after[1]).not.toContain("three"); // the command line bash shows for fg stays whole
    expect(after.filter((l) => /^ *one two three four five *$/.test(l))).toHaveLength(1);
    expect(after.join("\n")).not.toContain("waiting for the model");
    expect(screen).not.toContain("^[");
  },
  E2E_TIMEOUT,
);

test(
  "Ctrl-Z, the terminal narrowed while hey is stopped, fg: the line is drawn at the new width and typing in it leaves no stale copy of its first rows",
  async () => {
    // no SIGWINCH reaches a job stopped in the background: hey learns of the new width at fg
    const t = await start({ args: ["--base-url", `${server.url}/v1`, "-m", "mock-model"], jobControl: true, cols: 60, rows: 20 });
    await t.waitFor((s) => lastLine(s) === "›");
    // 100 characters of two columns: 4 rows at 60 columns, 6 at 41
    const cjk = Array.from({ length: 100 }, (_, i) => String.fromCodePoint(0x4e00 + i)).join("");
    await t.paste(cjk);
    await t.waitFor((s) => s.includes("乣"));
    await t.keys("C-z");
    await t.waitFor(/Stopped/);
    await t.resize(41, 20);
    await t.type("fg");
    await t.keys("Enter");
    await t.waitFor((s) => s.includes("$ fg") && s.slice(s.indexOf("$ fg")).includes("乣"));
    await t.type("X");
    await t.waitFor((s) => s.includes("乣X"));
    await t.type("Y");
    await t.waitFor((s) => s.includes("乣XY"));
    const screen = await t.screen({ scrollback: true });
    const after = screen.slice(screen.indexOf("$ fg")).split("\n");
    expect(after.filter((l) => l.startsWith("› 一"))).toEqual(["› 一丁丂七丄丅丆万丈三上下丌不与丏丐丑丒"]);
    expect(lastLine(screen)).toBe("乣XY"); // the line's last row, at 41 columns
  },
  E2E_TIMEOUT,
);
