// Where a line may break inside text without spaces (line-breaks.ts): between CJK characters, never
// before closing punctuation or after opening punctuation, never inside an English word.
import { expect, test } from "bun:test";
import { breakUnits, firstBreak, wrapText } from "../../src/ui/line-breaks.ts";

test.each([
  ["an English word stays whole", "internationalization", ["internationalization"]],
  ["between ideographs; a comma goes with what it follows", "中文，abc", ["中", "文，", "abc"]],
  ["corner brackets: none after an opening one, none before a closing one", "他说「好的」。", ["他", "说", "「好", "的」。"]],
  ["katakana: the prolonged sound mark never starts a line", "コーヒー", ["コー", "ヒー"]],
  ["small kana never start a line", "ちょっと", ["ちょっ", "と"]],
  ["Korean is written with spaces: a word stays whole", "한국어를", ["한국어를"]],
  ["a file name in Chinese text: its ASCII part whole", "文件.txt和", ["文", "件.txt", "和"]],
  ["a percentage before CJK text", "100%中", ["100%", "中"]],
  ["nothing next to emphasis markers (emphasis reads both sides)", "这是**重点：**内容", ["这", "是**重", "点：**内", "容"]],
  // a newline inside one would break a copied path and a terminal's link
  ["a path with CJK names stays whole", "/home/me/项目/设计文档/需求说明书.md", ["/home/me/项目/设计文档/需求说明书.md"]],
  ["an address with CJK in it stays whole", "https://example.com/路径/文件", ["https://example.com/路径/文件"]],
  ["a Windows path too", "C:\\用户\\文档.txt", ["C:\\用户\\文档.txt"]],
  ["inline code stays whole", "`中文变量名`", ["`中文变量名`"]],
])("breakUnits: %s", (_, word, units) => {
  expect(breakUnits(word)).toEqual(units);
});

test("firstBreak: only where both sides are known; 0 while the next character may still forbid the break", () => {
  expect(firstBreak("中文")).toBe(1);
  expect(firstBreak("中")).toBe(0); // a ， may follow
  expect(firstBreak("hello")).toBe(0);
  expect(firstBreak("src/中文文件")).toBe(0); // a path: written once it ends
  expect(firstBreak("请看src/a.ts，然后总结")).toBe(1); // the text before a path breaks as ever
  expect(firstBreak("src/a.ts，然后总结")).toBe("src/a.ts，".length); // and the text after it
});

test.each([
  ["a path amid Chinese text is one piece; the text around it breaks", "打开src/main.ts文件，好", ["打", "开", "src/main.ts", "文", "件，", "好"]],
  ["inline code amid Chinese text: one piece with its neighbours (no break next to a backtick)", "请改`config.ts`里的", ["请", "改`config.ts`里", "的"]],
  ["a slash between words is no path: the words break", "和/或者，好", ["和", "/", "或", "者，", "好"]],
  ["a date", "于2024/01/01发布", ["于", "2024/01/01", "发", "布"]],
])("breakUnits: %s", (_, word, units) => {
  expect(breakUnits(word)).toEqual(units);
});

test("wrapText: hey's notice naming a CJK path keeps the path whole on its line", () => {
  expect(wrapText("hey: could not read /home/me/项目/设计文档/需求说明书.md: permission denied", 40, Bun.stringWidth, false)).toEqual([
    "hey: could not read",
    "/home/me/项目/设计文档/需求说明书.md:",
    "permission denied",
  ]);
});

test("wrapText: CJK fills each line; a piece wider than the width is cut, or left whole when told not to cut", () => {
  expect(wrapText("这是一个没有空格的句子。", 8, Bun.stringWidth)).toEqual(["这是一个", "没有空格", "的句子。"]);
  expect(wrapText("see https://example.com/long", 10, Bun.stringWidth, false)).toEqual(["see", "https://example.com/long"]);
  expect(wrapText("abcdefghij", 4, Bun.stringWidth)).toEqual(["abcd", "efgh", "ij"]);
});
