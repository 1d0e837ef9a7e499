// An @file's text reaches the model with its secrets hidden, as read_file's result would show it:
// the secrets hey knows as [redacted], values shaped like credentials as [secret: NAME]; what the
// user typed and piped is theirs to send, as written. A REPL line's placeholders count as shown.
import { afterAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createRedaction, redactText } from "../../src/config/secrets.ts";
import { expandPrompt } from "../../src/prompt/input.ts";
import type { Runtime } from "../../src/runtime.ts";
import { lineContent } from "../../src/user-input.ts";
import { tempDir } from "../helpers/e2e.ts";

const KEY = "gwkey_plainvalue_0001";
const TOKEN = "ghp_" + "Zq8Wn4Lk2Jh6Gf0Ds9Ap7Ox5Ic3Ub1Ty9Rz3";
const dir = tempDir("hey-mention-secrets-");
writeFileSync(join(dir.path, ".env.local"), `MYGW_KEY=${KEY}\nGITHUB_TOKEN=${TOKEN}\nPORT=3000\n`);
afterAll(() => dir.remove());

const FENCED = "```.env.local\nMYGW_KEY=[redacted]\nGITHUB_TOKEN=[secret: GITHUB_TOKEN]\nPORT=3000\n```";

test("the file's secrets hidden; the typed message and stdin as written", () => {
  const r = createRedaction(
    () => [KEY],
    () => true,
  );
  const [block] = expandPrompt(`@.env.local is ${KEY} right?`, {
    cwd: dir.path,
    home: dir.path,
    maxBytes: 1 << 20,
    warn: () => {},
    stdin: new TextEncoder().encode(`piped ${TOKEN}`),
    redact: (text) => redactText(text, r),
  });
  expect(block).toEqual({ type: "text", text: `@.env.local is ${KEY} right?\n\n${FENCED}\n\n\`\`\`stdin\npiped ${TOKEN}\n\`\`\`` });
  expect([...r.shown].sort()).toEqual(["[redacted]", "[secret: GITHUB_TOKEN]"]);
});

test("a REPL line: hidden by the run's redaction, whose placeholders then count as shown", async () => {
  const r = createRedaction(
    () => [KEY],
    () => true,
  );
  const runtime = {
    settings: { input: { maxBytes: 1 << 20 }, provider: { protocol: "openai" } },
    mcp: { status: () => [] },
    seen: new Map(),
    redact: (text: string) => redactText(text, r),
  } as unknown as Runtime;
  const here = { cwd: dir.path, home: dir.path } as Parameters<typeof lineContent>[2];
  const [block] = await lineContent("what port? @.env.local", runtime, here, false, () => {}, new AbortController().signal);
  expect(block).toEqual({ type: "text", text: `what port? @.env.local\n\n${FENCED}` });
  expect(r.shown.has("[redacted]")).toBe(true);
});
