// The prompt in the user's editor (Ctrl-G, Ctrl-X Ctrl-E), through dist/hey in tmux against a local
// mock model: the editor has the terminal (it reads what is typed), what it leaves is the line,
// not sent until Enter; with no editor set hey says so and keeps the line.
import { afterAll, expect, test } from "bun:test";
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers/e2e.ts";
import { fileReplayServer } from "../helpers/fixtures.ts";
import { answer, askedOf, lastLine, replTerms } from "./repl-helpers.ts";

const E2E_TIMEOUT = 90_000;
const server = fileReplayServer();
const { open } = replTerms(server);
const asked = askedOf(server);

const dir = tempDir("hey-editor-e2e-");
afterAll(() => dir.remove());
// an editor that shows the file, reads a line from the terminal and adds it to the file
const editor = join(dir.path, "editor.sh");
writeFileSync(
  editor,
  '#!/bin/sh\nprintf "EDITING: %s\\n" "$(cat "$1")"\nread more\nprintf "%s and %s\\n" "$(cat "$1")" "$more" > "$1.new"\nmv "$1.new" "$1"\n',
);
chmodSync(editor, 0o755);

test.each([
  ["Ctrl-G", ["C-g"]],
  ["Ctrl-X Ctrl-E", ["C-x", "C-e"]],
])(
  "%s writes the line in $EDITOR and brings it back unsent; Enter sends it",
  async (_name, keys) => {
    const t = await open({ env: { EDITOR: editor } });
    server.enqueue(answer("Noted."));
    const sent = asked().length;
    await t.type("long prompt draft");
    await t.keys(...keys);
    await t.waitFor("EDITING: long prompt draft");
    await t.type("a second thought");
    await t.keys("Enter");
    await t.waitFor((s) => lastLine(s) === "› long prompt draft and a second thought");
    expect(asked()).toHaveLength(sent);
    await t.keys("Enter");
    await t.waitFor("Noted.");
    expect(asked().at(-1)).toBe("long prompt draft and a second thought");
  },
  E2E_TIMEOUT,
);

test(
  "with no editor set, Ctrl-G says so and the line stays",
  async () => {
    const t = await open();
    const sent = asked().length;
    await t.type("draft");
    await t.keys("C-g");
    await t.waitFor((s) => s.includes("no editor set: export VISUAL or EDITOR") && lastLine(s) === "› draft");
    expect(asked()).toHaveLength(sent);
  },
  E2E_TIMEOUT,
);
