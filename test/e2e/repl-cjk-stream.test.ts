// A Chinese answer in the REPL, through dist/hey in tmux against a local mock model that streams it
// three characters at a time with no spaces: what came shows while the rest is still on its way,
// wrapped between characters with the list item's indent on every row.
import { expect, setDefaultTimeout, test } from "bun:test";
import { sseReply } from "../helpers/replay-server.ts";
import { fileReplayServer } from "../helpers/fixtures.ts";
import { chatChunk, sseEvents } from "../helpers/sse.ts";
import { gate } from "../helpers/wait.ts";
import { replTerms } from "./repl-helpers.ts";

setDefaultTimeout(90_000); // the first test may build dist/hey

const server = fileReplayServer();
const { open } = replTerms(server);
const SENTENCE = "这是一个没有空格的中文段落，模型正在逐字输出。";

test("CJK text streamed without spaces shows as it arrives, wrapped between characters under its list marker", async () => {
  const text = `- ${SENTENCE.repeat(6)}`;
  const pieces = text.match(/.{1,3}/gsu)!;
  const rest = gate();
  const held = 10; // the pieces from here on wait for the gate: the paragraph is surely not over
  server.enqueue({
    ...sseReply(sseEvents([...pieces.map((p) => chatChunk({ content: p })), chatChunk({ finish: "stop" })])),
    hold: { at: held, until: rest.passed },
  });
  const term = await open({ cols: 40 });
  await term.type("讲一讲");
  await term.keys("Enter");
  const early = text.slice(2, held * 3 - 2); // what came, but the last character or two (a line may not break before what follows)
  const during = await term.waitFor((s) => s.includes(early.slice(0, 12)));
  expect(during).not.toContain("working…"); // the text replaced the spinner
  rest.open();
  const screen = await term.waitFor((s) => s.includes("逐字输出。\n") && s.trimEnd().endsWith("›"));
  const rows = screen.split("\n").filter((r) => /[\u4e00-\u9fff]/.test(r) && !r.includes("讲一讲"));
  expect(rows[0]).toStartWith("• 这是一个");
  for (const row of rows.slice(1)) expect(row).toMatch(/^ {2}\S/); // the hanging indent, not the terminal's wrap at column 0
  expect(rows.map((r) => r.replace(/^(• | {2})/, "").trimEnd()).join("")).toBe(SENTENCE.repeat(6));
});
