// The `<think>` splitter on content pieces as servers without a reasoning parser stream them.
import { expect, test } from "bun:test";
import { thinkTags } from "../../src/providers/think-tags.ts";

/** Feeds `pieces`, then ends: all the thinking and all the text said, and whether any text came before the end. */
function split(pieces: string[]): { thinking: string; text: string } {
  const s = thinkTags();
  let thinking = "";
  let text = "";
  for (const p of [...pieces.map((c) => s.push(c)), s.end()]) {
    thinking += p.thinking;
    text += p.text;
  }
  return { thinking, text };
}

test.each<[string, string[], string, string]>([
  [
    "the reported stream: the closing tag split over two chunks",
    ["<think>\nI am pondering", " hard.</th", "ink>\n\nAnswer C."],
    "I am pondering hard.",
    "Answer C.",
  ],
  ["the opening tag split, white space before it", ["\n ", "<th", "ink>", "why", "</think>", "Because."], "why", "Because."],
  ["one chunk holding it all", ["<think>a\nb\n</think>\n\nDone."], "a\nb", "Done."],
  ["each character its own chunk", [..."<think>x</think>y"], "x", "y"],
  ["an unclosed <think>: all thinking, the answer empty", ["<think>\nStill going", " and going\n"], "Still going and going", ""],
  ["an empty thinking", ["<think></think>", "Hi."], "", "Hi."],
  ["white space between chunks of thinking is kept", ["<think>one", " ", "two</think>ok"], "one two", "ok"],
  ["a closing tag look-alike inside the thinking stays thinking", ["<think>a </thin", "g> b</think>c"], "a </thing> b", "c"],
  ["no tag: text as it came", ["Hello", " world"], "", "Hello world"],
  ["<think> later in an answer is text", ["The tag ", "<think>x</think> is XML"], "", "The tag <think>x</think> is XML"],
  ["a closing tag with no opening one is text", ["pondering</think>\nAnswer"], "", "pondering</think>\nAnswer"],
  ["<thinking> is not the tag", ["<thinking>x"], "", "<thinking>x"],
  ["only white space", ["\n", "  "], "", "\n  "],
  ["a start of the tag, then the end", ["<thi"], "", "<thi"],
  ["the answer's own leading blank lines after the tag are dropped, later ones kept", ["<think>t</think>", "\n", "\n", "A\n\nB"], "t", "A\n\nB"],
])("%s", (_name, pieces, thinking, text) => {
  expect(split(pieces)).toEqual({ thinking, text });
});

test("nothing that may still be a tag is said early, and everything else is said at once", () => {
  const s = thinkTags();
  expect(s.push("  <thi")).toEqual({ thinking: "", text: "" });
  expect(s.push("nk>Hmm, ")).toEqual({ thinking: "Hmm,", text: "" });
  expect(s.push("yes </")).toEqual({ thinking: " yes", text: "" });
  expect(s.push("think>\n")).toEqual({ thinking: "", text: "" });
  expect(s.push("\nSo: 4")).toEqual({ thinking: "", text: "So: 4" });
  expect(s.push(".")).toEqual({ thinking: "", text: "." });
  expect(s.end()).toEqual({ thinking: "", text: "" });
});

test("text without a tag streams unchanged, piece by piece", () => {
  const s = thinkTags();
  expect(s.push("Hel")).toEqual({ thinking: "", text: "Hel" });
  expect(s.push("lo")).toEqual({ thinking: "", text: "lo" });
});
