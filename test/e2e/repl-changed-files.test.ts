// In a real terminal (tmux) through dist/hey: what the file tools saw of a file outlives /reload,
// so a save the user makes after the model read it is still kept from a whole-file write; a file a
// typed line brought whole (`@file`) counts as read.
import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { lastUserText, resultText, startModelServer, type ModelServer, type Turn } from "../helpers/model-server.ts";
import type { Term } from "../helpers/tmux.ts";
import { say, projectTerms } from "./repl-helpers.ts";

setDefaultTimeout(120_000); // the first test may build dist/hey

const dirs = projectTerms();
let server: ModelServer | undefined;
let term: Term | undefined;
afterEach(() => server?.stop());

test("read, /reload, the user saves a change: write_file of the file as the model remembers it is refused, the change kept", async () => {
  const app = join(dirs.project.path, "app.ts");
  writeFileSync(app, "export const a = 1;\n");
  const user = "export const a = 1;\nexport const user = true;\n";
  server = startModelServer((req): Turn => {
    if (req.messages.at(-1)!.role === "tool") return { text: `the tool said: ${resultText(req.messages.at(-1))}` };
    const ask = lastUserText(req);
    if (ask.startsWith("read")) return { calls: [["read_file", { path: "app.ts" }]] };
    return { calls: [["write_file", { path: "app.ts", content: "export const a = 2;\n" }]] };
  });
  term = await dirs.start(server);
  await say(term, "read app.ts", /the tool said: 1\s+export const a = 1;/);
  await say(term, "/reload", "reloaded");
  writeFileSync(app, user);
  await say(term, "write app.ts", "the tool said: app.ts has changed since it was last read or written");
  expect(readFileSync(app, "utf8")).toBe(user);
});

test("a line that brings @app.ts whole, then the user saves a change: write_file of the file as the model remembers it is refused, the change kept", async () => {
  const app = join(dirs.project.path, "app.ts");
  writeFileSync(app, "export const a = 1;\n");
  const user = "export const a = 1;\nexport const user = true;\n";
  server = startModelServer((req): Turn => {
    if (req.messages.at(-1)!.role === "tool") return { text: `the tool said: ${resultText(req.messages.at(-1))}` };
    if (lastUserText(req).startsWith("look")) return { text: "I see a = 1" };
    return { calls: [["write_file", { path: "app.ts", content: "export const a = 2;\n" }]] };
  });
  term = await dirs.start(server);
  await say(term, "look at @app.ts", "I see a = 1");
  writeFileSync(app, user);
  await say(term, "write app.ts", "the tool said: app.ts has changed since it was last read or written");
  expect(readFileSync(app, "utf8")).toBe(user);
});
