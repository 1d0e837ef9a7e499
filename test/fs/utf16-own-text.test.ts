// Text files a person writes for hey (config.toml, .mcp.json, AGENTS.md and CLAUDE.md imports,
// SKILL.md, .hey/task.md) saved by Windows PowerShell 5.1's `>` or Out-File are UTF-16 LE with a
// byte-order mark and CRLF line ends (x79 #1): hey reads them as text, as read_file does, instead
// of sending the model every character followed by a NUL or stopping on `Unknown character "�"`.
import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadLayer, loadMcpJson } from "../../src/config/read-layer.ts";
import { ConfigError } from "../../src/config/settings.ts";
import { readTaskNote, saveHandOff } from "../../src/context/task-note.ts";
import { readOwnFile } from "../../src/fs/own-files.ts";
import { readHeadText } from "../../src/fs/read-head.ts";
import { readAgentsFiles } from "../../src/prompt/agents-md.ts";
import { loadSkills } from "../../src/skills/load.ts";
import { tempDir } from "../helpers/e2e.ts";

let dir: ReturnType<typeof tempDir>;
beforeEach(() => (dir = tempDir("hey-utf16-")));
afterEach(() => dir.remove());

/** `text` as PowerShell 5.1's `>` writes it: UTF-16 LE with a byte-order mark, CRLF line ends; or big-endian. */
function utf16(text: string, order: "le" | "be" = "le"): Buffer {
  const body = Buffer.from(text.replace(/\n/g, "\r\n"), "utf16le");
  if (order === "be") body.swap16();
  return Buffer.concat([Buffer.from(order === "le" ? [0xff, 0xfe] : [0xfe, 0xff]), body]);
}

function put(path: string, bytes: Uint8Array | string): string {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, bytes);
  return path;
}

test.each(["le", "be"] as const)("a UTF-16 %s config.toml is read as its settings, and a mistake in it is placed on its own line", (order) => {
  const file = put(join(dir.path, "config.toml"), utf16("# my config\n[agent]\nmax_turns = 7\n", order));
  expect(loadLayer(file, { required: true })!.data).toEqual({ agent: { max_turns: 7 } });
  const bad = put(join(dir.path, "bad.toml"), utf16("# my config\n[agent]\nmax_turns = = 7\n", order));
  expect(() => loadLayer(bad, { required: true })).toThrow(ConfigError);
  expect(() => loadLayer(bad, { required: true })).toThrow(new RegExp(`^${bad}:3:\\d+: `));
});

test("a UTF-16 .mcp.json is read as its servers", () => {
  const file = put(join(dir.path, ".mcp.json"), utf16('{"mcpServers": {"fs": {"command": "npx", "args": ["-y", "server-fs"]}}}\n'));
  const warnings: string[] = [];
  const layer = loadMcpJson(file, (w) => warnings.push(w));
  expect(layer?.data).toMatchObject({ mcp: { fs: { command: "npx", args: ["-y", "server-fs"] } } });
  expect(warnings).toEqual([]);
});

test("a UTF-16 AGENTS.md, and a UTF-16 file a CLAUDE.md imports, reach the prompt as their text, without NULs", () => {
  put(join(dir.path, "AGENTS.md"), utf16("# Rules\nAlways run npm test.\n"));
  const sub = join(dir.path, "sub");
  put(join(sub, "CLAUDE.md"), utf16("See @style.md\n", "be"));
  put(join(sub, "style.md"), utf16("Use tabs.\n"));
  const read = readAgentsFiles([
    { dir: dir.path, names: ["AGENTS.md"], within: dir.path },
    { dir: sub, names: ["CLAUDE.md"], within: dir.path },
  ]);
  expect(read.warnings).toEqual([]);
  expect(read.files.map((f) => f.text)).toEqual(["# Rules\nAlways run npm test.", "See @style.md", "Use tabs."]);
});

test("a UTF-16 SKILL.md is a skill, with its name and description", () => {
  const folder = join(dir.path, "skills");
  put(join(folder, "deploy", "SKILL.md"), utf16("---\nname: deploy\ndescription: Ships the app.\n---\nRun the deploy.\n"));
  const loaded = loadSkills([folder]);
  expect(loaded.problems).toEqual([]);
  expect(loaded.skills.map((s) => [s.name, s.description])).toEqual([["deploy", "Ships the app."]]);
});

test("a UTF-16 .hey/task.md is read as the note, its end too when long, and a hand-off is appended in its own encoding and line ends", async () => {
  const note = put(join(dir.path, ".hey", "task.md"), utf16("# Task\n\nPort the build.\n\n## Done\n\n- step one\n"));
  expect(readTaskNote(dir.path)).toBe("# Task\n\nPort the build.\n\n## Done\n\n- step one");
  await saveHandOff(dir.path, "Port the build.", "Next: step two.", "max_turns", new Date("2026-01-02T03:04:05Z"));
  const bytes = readFileSync(note);
  expect([...bytes.subarray(0, 2)]).toEqual([0xff, 0xfe]);
  const text = new TextDecoder("utf-16le").decode(bytes);
  expect(text).toContain("- step one\r\n\r\n## Stopped at");
  expect(text).toEndWith("Next: step two.\r\n");
  expect(text.replace(/\r\n/g, "")).not.toContain("\n");
  // longer than what is read of its end: the end is found from the byte-order mark at its start, on a whole character
  const long = `# Task\n\nBig.\n\n${"## Step\n\nsome words here\n\n".repeat(4000)}## Last\n\nthe newest hand-off\n`;
  put(note, utf16(long));
  const read = readTaskNote(dir.path)!;
  expect(read).toStartWith("# Task\n\nBig.");
  expect(read).toEndWith("the newest hand-off");
  expect(read).not.toContain("\0");
  expect(read).not.toContain("\uFFFD");
});

test("a read cut at its limit leaves out the character the cut split, in UTF-8 and in UTF-16", () => {
  const eight = put(join(dir.path, "eight.md"), "ab\u00e9cd");
  expect(readHeadText(eight, 3)).toEqual({ text: "ab", truncated: true, encoding: "utf-8" });
  const sixteen = put(join(dir.path, "sixteen.md"), utf16("abc"));
  expect(readHeadText(sixteen, 5)).toEqual({ text: "\uFEFFa", truncated: true, encoding: "utf-16le" });
  const tail = put(join(dir.path, "tail.md"), utf16("abcdef"));
  expect(readOwnFile(tail, 5, { tail: true, text: true })?.text).toBe("ef");
});
