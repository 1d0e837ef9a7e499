// `/clear` in the REPL while the disk refuses the session's lines (SPEC §19), through dist/hey in
// tmux. The "disk" is the file size limit of the running hey, set with prlimit (as in
// full-disk.test.ts): the session file cannot grow past it, a new small session still fits. The
// session left keeps what it holds, and writes it at a later turn's end once space is freed; only
// at exit is what is still held said lost, and then once.
import { afterAll, afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { startModelServer, textOf } from "../helpers/model-server.ts";
import { startTerm, type Term } from "../helpers/tmux.ts";
import { ALL, lastLine, say } from "./repl-helpers.ts";

setDefaultTimeout(120_000); // the first test may build dist/hey

const BIG = `${"word ".repeat(2000)}END`; // 10 KB: past the limit
const model = startModelServer((req) => {
  const asked = textOf(req.messages.at(-1));
  return { text: asked.includes("big") ? BIG : `answer to ${asked}` };
});
afterAll(() => model.stop());
let term: Term | undefined;
afterEach(async () => {
  await term?.close();
  term = undefined;
});

async function open(): Promise<Term> {
  term = await startTerm({ cols: 200, rows: 50, env: { NO_COLOR: "1" }, args: ["--base-url", model.baseUrl, "-m", "m"] });
  return term;
}
/** the file size hey may write: its session files grow no further (a full disk, as hey sees one) */
async function fileLimit(t: Term, limit: string): Promise<void> {
  const set = Bun.spawnSync(["prlimit", "--pid", String(await t.heyPid()), `--fsize=${limit}:unlimited`]);
  if (set.exitCode !== 0) throw new Error(`prlimit: ${set.stderr.toString()}`);
}
const sessionsDir = (t: Term) => join(t.home, ".local", "state", "hey", "sessions");
/** each session file's messages' text, by the first question */
function sessions(t: Term): Map<string, { id: string; texts: string[] }> {
  const dir = sessionsDir(t);
  const all = readdirSync(dir).filter((f) => f.endsWith(".jsonl"));
  const read = all.map((f) => {
    const lines = readFileSync(join(dir, f), "utf8")
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    const texts = lines.filter((l) => l.type === "message").map((l) => l.message.content[0].text as string);
    return [texts[0]!, { id: f.replace(".jsonl", ""), texts }] as const;
  });
  return new Map(read);
}
/** `text` as a pattern, its `(SIZE)` any size of about 10 KB: the big answer and its usage line, whose fields grow now and then */
const sized = (text: string) => new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace("\\(SIZE\\)", String.raw`\(10\.\d KB\)`));
const heldLine = sized(
  "new session; the last session has 1 message and 1 other entry (SIZE) not yet written (the disk is full); hey keeps trying at the end of each turn and writes them once there is space",
);

test("/clear on a full disk says what the last session still holds, and writes it once space is freed: nothing is lost", async () => {
  const t = await open();
  await say(t, "first", "answer to first");
  await fileLimit(t, "2000");
  await say(t, "big one", "END");
  await say(t, "/clear", heldLine);
  await say(t, "hello new", "answer to hello new"); // the new session fits; the last one's big answer still does not
  await t.waitFor((screen) => lastLine(screen) === "›"); // that turn's end tried it again, in vain
  const left = sessions(t).get("first")!.id;
  // read now, it would come back without what hey still holds of it
  await say(t, `/resume ${left}`, sized(`hey: session ${left} has 1 message and 1 other entry (SIZE) not yet written (the disk is full); hey keeps trying`));
  await fileLimit(t, "unlimited"); // space is freed
  await say(t, "again", `session saved again: ${join(sessionsDir(t), `${left}.jsonl`)} takes writes again; wrote the 1 message and 1 other entry held`);
  await t.keys("C-d");
  const screen = await t.waitFor("[exit 0]", ALL);
  expect(screen).not.toContain("the last one is saved");
  expect(screen).not.toContain("are lost");
  const saved = sessions(t);
  expect(saved.get("first")!.texts).toEqual(["first", "answer to first", "big one", BIG]);
  expect(saved.get("hello new")!.texts).toEqual(["hello new", "answer to hello new", "again", "answer to again"]);
});

/** hey run to a full disk with a big answer, maybe `/clear` and a turn of the new session, then Ctrl-D: the screen and the first session's id */
async function exitWhileFull(clear: boolean): Promise<{ screen: string; id: string; dir: string }> {
  const t = await open();
  await say(t, "first", "answer to first");
  await fileLimit(t, "2000");
  await say(t, "big one", "END");
  if (clear) await say(t, "/clear", heldLine);
  if (clear) await say(t, "hello new", "answer to hello new");
  await t.keys("C-d");
  const screen = (await t.waitFor("[exit 0]", ALL)).replaceAll("\n", " "); // the warning as hey broke it between words to the width
  return { screen, id: sessions(t).get("first")!.id, dir: sessionsDir(t) };
}
const lost = (path: string, resume: string) =>
  sized(
    `hey: ${path} still cannot be written as hey ends: the 1 message and 1 other entry (SIZE) held since the disk was full are lost; ${resume} goes on from what was saved before the disk was full`,
  );

test("what a session left by /clear still holds at exit is said lost once, naming how to resume it (`hey -c` goes on with the new one)", async () => {
  const { screen, id, dir } = await exitWhileFull(true);
  expect(screen.split("still cannot be written").length - 1).toBe(1);
  expect(screen).toMatch(lost(join(dir, `${id}.jsonl`), `\`hey --resume ${id}\``));
});

test("what the session still holds at exit is said lost once, not twice", async () => {
  const { screen, id, dir } = await exitWhileFull(false);
  expect(screen.split("still cannot be written").length - 1).toBe(1);
  expect(screen).toMatch(lost(join(dir, `${id}.jsonl`), "`hey -c`"));
});
