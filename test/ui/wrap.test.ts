// Command output word-wrapped at the interactive prompt: narrow terminals keep words and columns.
import { expect, test } from "bun:test";
import { wrapColumns } from "../../src/ui/wrap.ts";

const width = Bun.stringWidth;

test("a /help line breaks between words and goes on under its description column", () => {
  const line = "/reload                   re-read config, skills and AGENTS.md, restart MCP servers (checked first; the conversation is kept)";
  const wrapped = wrapColumns(line, 60, width);
  expect(wrapped).toBe(
    [
      "/reload                   re-read config, skills and",
      "                          AGENTS.md, restart MCP servers",
      "                          (checked first; the conversation",
      "                          is kept)",
    ].join("\n"),
  );
  for (const l of wrapped.split("\n")) expect(width(l)).toBeLessThanOrEqual(60);
  expect(wrapped.replace(/\s+/g, " ")).toBe(line.replace(/\s+/g, " ")); // nothing lost
});

test("a session table row goes on under its last column; lines that fit are untouched", () => {
  const text = "ID  LAST USED  FIRST PROMPT\nk3f9a  2026-12-04 09:00  fix the failing test in the parser and then update the docs\nshort  x  y";
  expect(wrapColumns(text, 50, width)).toBe(
    [
      "ID  LAST USED  FIRST PROMPT",
      "k3f9a  2026-12-04 09:00  fix the failing test in",
      "                         the parser and then",
      "                         update the docs",
      "short  x  y",
    ].join("\n"),
  );
});

test("prose breaks under its own indentation; a last column that leaves too little room goes below the columns before it", () => {
  expect(wrapColumns("Keys: Esc or Ctrl-C cancels a running turn; text typed meanwhile waits", 30, width)).toBe(
    ["Keys: Esc or Ctrl-C cancels a", "running turn; text typed", "meanwhile waits"].join("\n"),
  );
  expect(wrapColumns("  fs: connected · 14 tools  read_file, read_text_file, write_file", 30, width)).toBe(
    ["  fs: connected · 14 tools", "    read_file, read_text_file,", "    write_file"].join("\n"),
  );
});

test("/help at 20 columns: every entry the same shape, its name then its description indented under it", () => {
  const help = [
    "/help                      this list",
    "/model [provider/model]    show or switch the model (the conversation is kept)",
    "/mcp:SERVER:PROMPT [args]  send the server's prompt",
  ].join("\n");
  expect(wrapColumns(help, 20, width)).toBe(
    [
      "/help",
      "  this list",
      "/model",
      "[provider/model]",
      "  show or switch the",
      "  model (the",
      "  conversation is",
      "  kept)",
      "/mcp:SERVER:PROMPT",
      "[args]",
      "  send the server's",
      "  prompt",
    ].join("\n"),
  );
});

test("when one entry's description must go below its name, every entry with that column does, even one that fits", () => {
  const help = ["/help                      this list", "/usage                     tokens of the session and of this run, context size"].join("\n");
  expect(wrapColumns(help, 50, width)).toBe(["/help", "  this list", "/usage", "  tokens of the session and of this run, context", "  size"].join("\n"));
  expect(wrapColumns("/help                      this list\nplain prose  that fits", 50, width)).toBe(
    "/help                      this list\nplain prose  that fits",
  );
});

test("a word wider than the room is left whole; width 0 (not a terminal) changes nothing", () => {
  const url = "see https://example.com/a/very/long/path/that/does/not/fit";
  expect(wrapColumns(url, 20, width)).toBe("see\nhttps://example.com/a/very/long/path/that/does/not/fit");
  expect(wrapColumns(url, 0, width)).toBe(url);
});

test("wide characters count by their display width; CJK breaks between characters, not before closing punctuation", () => {
  expect(wrapColumns("修复 解析器 的 测试", 10, width)).toBe("修复 解析\n器 的 测试"); // 解析器 would end at column 11
  expect(wrapColumns("提示：配置文件里的服务器，已经全部连接成功。", 20, width)).toBe("提示：配置文件里的服\n务器，已经全部连接成\n功。");
  expect(wrapColumns("提示：配置文件里的服，务已经全部连接成功。", 20, width)).toBe("提示：配置文件里的\n服，务已经全部连接成\n功。"); // ， never starts a row
});

test("a notice's CJK text goes on under its column, and English words stay whole beside it", () => {
  const line = "  fs: connected · 14 tools  已连接的服务器提供了这些工具，可以使用 read_file write_file";
  const wrapped = wrapColumns(line, 60, width);
  expect(wrapped).toBe(["  fs: connected · 14 tools  已连接的服务器提供了这些工具，可", "                            以使用 read_file write_file"].join("\n"));
  for (const l of wrapped.split("\n")) expect(width(l)).toBeLessThanOrEqual(60);
});

test("a config snippet's lines are never broken (a break pasted into config.toml is no TOML); the prose around them is", () => {
  const url = "https://gateway.internal.example.com/teams/platform/llm/openai-compatible/v1";
  const help = [
    "or add a provider to ~/.config/hey/config.toml, the file hey reads its providers from:",
    "  [provider.NAME]",
    `  base_url = "${url}"`,
    "  # api_key names the variable that holds its key; none for a local server",
    '  api_key = "${YOUR_KEY_VAR}"',
  ].join("\n");
  const wrapped = wrapColumns(help, 40, width);
  const rows = wrapped.split("\n");
  expect(rows.slice(0, 3)).toEqual(["or add a provider to", "~/.config/hey/config.toml, the file hey", "reads its providers from:"]);
  expect(rows.slice(3)).toEqual(help.split("\n").slice(1)); // whole: the terminal's own wrap copies back as one line
  expect(Bun.TOML.parse(rows.slice(3).join("\n"))).toEqual({ provider: { NAME: { base_url: url, api_key: "${YOUR_KEY_VAR}" } } });
  // prose that merely has an " = " in it is not a config line: it still breaks
  expect(wrapColumns("a = b and the rest of a long sentence that goes on", 20, width)).toBe("a = b and the rest\nof a long sentence\nthat goes on");
});
