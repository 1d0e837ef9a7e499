// Tab completion in the REPL (SPEC §17): slash commands, skill names after /skill:, model names, @paths.
import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { completions } from "../../src/ui/commands.ts";
import { expandPrompt } from "../../src/prompt/input.ts";
import { filesByName } from "../../src/prompt/file-match.ts";
import { complete, emptyEditor, insert } from "../../src/ui/line-editor.ts";
import { lineKind } from "../../src/ui/slash.ts";
import { tempDir } from "../helpers/e2e.ts";
import { defaultSettingsForTest } from "../helpers/settings.ts";

const from = { cwd: "/nonexistent", providers: defaultSettingsForTest().providers, skills: ["deploy", "docs-style", "release-notes"], remoteServers: [] };

test.each([
  ["/re", ["/reload", "/resume"]],
  ["/sk", ["/skill:", "/skills"]],
  ["/skill", ["/skill:", "/skills"]],
  ["/skill:", ["/skill:deploy", "/skill:docs-style", "/skill:release-notes"]],
  ["/skill:d", ["/skill:deploy", "/skill:docs-style"]],
  ["/skill:x", []],
  ["/model cli/te", ["cli/test-model"]],
  ["/model test-m", ["test-model"]], // the model alone, as -m takes it
  ["/model x", []],
  ["/model ", ["cli/test-model", "ollama/qwen3"]], // each model once, not again without its provider
  ["say /skill:d", []],
])("completions(%p)", (line, want) => {
  expect(completions(line, from)).toEqual(want);
});

test("@paths from the files here: a name with a space is quoted, others are as before", () => {
  const dir = tempDir();
  try {
    mkdirSync(join(dir.path, "src"));
    mkdirSync(join(dir.path, "My Documents"));
    writeFileSync(join(dir.path, "my notes.txt"), "x");
    writeFileSync(join(dir.path, "My Documents", "plan b.md"), "x");
    const here = { ...from, cwd: dir.path };
    expect(completions("see @sr", here)).toEqual(["@src/"]);
    expect(completions("see @my", here)).toEqual(['@"my notes.txt"']);
    expect(completions("see @My", here)).toEqual(['@"My Documents/']);
    expect(completions('see @"My Documents/', here)).toEqual(['Documents/plan b.md"']);
    expect(completions("mail me@my", here)).toEqual([]);
  } finally {
    dir.remove();
  }
});

test("@paths in CJK text: Tab completes an @ typed right after CJK text, and quotes a name a bare mention would cut", () => {
  const dir = tempDir();
  try {
    writeFileSync(join(dir.path, "中文.txt"), "x");
    writeFileSync(join(dir.path, "报告，最终版.docx"), "x");
    const here = { ...from, cwd: dir.path };
    let s = insert(emptyEditor([]), "请看@中");
    s = complete(s, completions(s.text, here)).state;
    expect(s.text).toBe("请看@中文.txt ");
    expect(completions("请看 @报", here)).toEqual(['@"报告，最终版.docx"']);
    expect(completions("mail me@中", here)).toEqual([]);
  } finally {
    dir.remove();
  }
});

test("`/sk` Tab: `/skill` (or `/skills`, the list); `:` Tab: the skill's name, which runs as a skill", () => {
  const one = { ...from, skills: ["demo-one"] };
  let s = insert(emptyEditor([]), "/sk");
  s = complete(s, completions(s.text, one)).state;
  expect(s.text).toBe("/skill");
  s = insert(s, ":");
  s = complete(s, completions(s.text, one)).state;
  expect(s.text).toBe("/skill:demo-one ");
  expect(lineKind(s.text)).toBe("skill");
});

test("/model NAME<Tab> for a name several providers list offers each provider/model, not the bare name that picks one unseen", () => {
  const listed = (name: string, models: string[]) => ({ ...defaultSettingsForTest().providers[0]!, name, models });
  const shared = { ...from, providers: [listed("ds", ["shared-model", "deepseek-chat"]), listed("gpt", ["shared-model"])] };
  expect(completions("/model shared", shared)).toEqual(["ds/shared-model", "gpt/shared-model"]);
  expect(completions("/model deep", shared)).toEqual(["deepseek-chat"]);
});

test("@paths with odd names: Tab writes a mention that is read back as the file, for a name with both quotes, one not UTF-8, one with a newline", () => {
  const dir = tempDir();
  try {
    writeFileSync(join(dir.path, `it's "q".txt`), "quotes\n");
    writeFileSync(Buffer.from(`${dir.path}/caf\xe9.txt`, "latin1"), "latin\n");
    writeFileSync(join(dir.path, "new\nline.txt"), "newline\n");
    const here = { ...from, cwd: dir.path };
    const typed = (start: string) => {
      let s = insert(emptyEditor([]), `see @${start}`);
      s = complete(s, completions(s.text, here)).state;
      return s.text;
    };
    expect(typed("it")).toBe(`see @"it's \\"q\\".txt" `);
    expect(typed("ca")).toBe("see @caf\\xE9.txt ");
    expect(typed("ne")).toBe("see @new\\nline.txt ");
    const warnings: string[] = [];
    const message = [typed("it"), typed("ca"), typed("ne")].join("and ");
    const [content] = expandPrompt(message, { cwd: dir.path, home: dir.path, maxBytes: 1000, warn: (w) => warnings.push(w) });
    expect(warnings).toEqual([]);
    const text = (content as { text: string }).text;
    for (const body of ["quotes", "latin", "newline"]) expect(text).toContain(body);
  } finally {
    dir.remove();
  }
});

test("@word with no path starting so: the project's files by name, a single one completed, several listed with the word kept", () => {
  const dir = tempDir();
  try {
    mkdirSync(join(dir.path, "src", "deep"), { recursive: true });
    const files = ["src/deep/cli.ts", "src/cli-args.ts", "README.md"];
    const here = { ...from, cwd: dir.path, projectFiles: () => files };
    expect(completions("explain @cli", here)).toEqual(["@src/deep/cli.ts", "@src/cli-args.ts"]);
    let s = insert(emptyEditor([]), "explain @deep");
    s = complete(s, completions(s.text, here)).state;
    expect(s.text).toBe("explain @src/deep/cli.ts "); // the one file whose path holds the word
    s = insert(emptyEditor([]), "explain @cli");
    const step = complete(s, completions(s.text, here));
    expect(step.state.text).toBe("explain @cli"); // `@src/` would lose what was typed: kept, the files listed
    expect(completions("explain @sr", here)).toEqual(["@src/"]); // a path that starts so comes first, as before
    expect(completions("explain @zzz", here)).toEqual([]);
  } finally {
    dir.remove();
  }
});

test("a message's @name that is no path attaches the one project file of that name and says which; several: listed, none attached", () => {
  const dir = tempDir();
  try {
    mkdirSync(join(dir.path, "src", "deep"), { recursive: true });
    mkdirSync(join(dir.path, "a"));
    mkdirSync(join(dir.path, "b"));
    writeFileSync(join(dir.path, "src", "deep", "cli.ts"), "export const cli = 1;\n");
    writeFileSync(join(dir.path, "a", "index.ts"), "a\n");
    writeFileSync(join(dir.path, "b", "index.ts"), "b\n");
    const projectFiles = ["src/deep/cli.ts", "a/index.ts", "b/index.ts"];
    const warnings: string[] = [];
    const opts = { cwd: dir.path, home: dir.path, maxBytes: 1000, warn: (w: string) => warnings.push(w), byName: filesByName(projectFiles) };
    const [content] = expandPrompt("explain @cli.ts and @index.ts", opts);
    expect(content).toEqual({ type: "text", text: "explain @cli.ts and @index.ts\n\n```src/deep/cli.ts\nexport const cli = 1;\n```" });
    expect(warnings).toEqual(["@cli.ts → src/deep/cli.ts", "@index.ts names 2 files: a/index.ts, b/index.ts; none attached, mention one by its path"]);
    expect(() => expandPrompt("explain @index.ts", { ...opts, required: ["index.ts"] })).toThrow("@index.ts names 2 files");
  } finally {
    dir.remove();
  }
});
