// A file whose name macOS stored decomposed (NFD: `re\u0301sume\u0301.md`), named at the prompt as a
// Linux or Windows keyboard types it (composed, NFC): Tab completes it and sending attaches it,
// through dist/hey in tmux against a local mock model.
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileReplayServer } from "../helpers/fixtures.ts";
import { answer, askedOf, lastLine, replTerms } from "./repl-helpers.ts";

const E2E_TIMEOUT = 90_000;
const server = fileReplayServer();
const { open } = replTerms(server);
const asked = askedOf(server);

test(
  "@ré typed composed, then Tab: completed to the file stored decomposed, which is sent with the message",
  async () => {
    const t = await open();
    writeFileSync(join(t.home, "re\u0301sume\u0301.md"), "my CV: ten years of TypeScript\n");
    server.enqueue(answer("Summarized."));
    await t.type("summarize @r\u00e9");
    await t.keys("Tab");
    await t.waitFor((s) => lastLine(s).normalize("NFC") === "› summarize @r\u00e9sum\u00e9.md");
    await t.keys("Enter");
    const screen = await t.waitFor("Summarized.");
    expect(screen).not.toContain("is not a file here");
    expect(String(asked().at(-1))).toContain("my CV: ten years of TypeScript");
  },
  E2E_TIMEOUT,
);
