// Ctrl-R's search (ui/history-search.ts): the nearest entry holding the query, smart case, the line
// already shown skipped, and how typing, Backspace and Ctrl-R move the match.
import { expect, test } from "bun:test";
import { again, findEntry, matchAt, narrow, newSearch, searchPrompt, widen } from "../../src/ui/history-search.ts";

const history = ["make test", "git push", "Git commit -m x", "make test", "git status"];

test.each([
  ["git", "Git commit", 0], // a lower-case query ignores case
  ["Git", "git status", -1], // a query with a capital does not
  ["Git", "a Git b", 2],
  ["", "anything", 0],
])("matchAt(%p in %p) = %p", (query, line, at) => {
  expect(matchAt(line, query)).toBe(at);
});

test("findEntry: the nearest from `from` in either direction, skipping a given text", () => {
  expect(findEntry(history, "git", 4, -1)).toEqual({ at: 4, offset: 0 });
  expect(findEntry(history, "git", 3, -1)).toEqual({ at: 2, offset: 0 });
  expect(findEntry(history, "make", 4, -1, "make test")).toBeUndefined(); // the same line twice is not two matches
  expect(findEntry(history, "push", 0, 1)).toEqual({ at: 1, offset: 4 });
  expect(findEntry(history, "nothing", 4, -1)).toBeUndefined();
});

test("typing keeps the match while it still matches, else moves to an older one; no match fails and keeps it", () => {
  let s = narrow(newSearch(), history, "t");
  expect(s).toEqual({ query: "t", at: 4, offset: 2, failed: false }); // "git status"
  s = narrow(s, history, "e");
  expect(s).toMatchObject({ query: "te", at: 3, failed: false }); // "make test"
  const failed = narrow(s, history, "z");
  expect(failed).toMatchObject({ query: "tez", at: 3, failed: true });
  expect(searchPrompt(failed)).toBe("(failing reverse-i-search)'tez': ");
  expect(widen(failed, history)).toMatchObject({ query: "te", at: 3, failed: false });
});

test("Ctrl-R skips a line equal to the one shown; an empty query takes up the previous one", () => {
  const first = narrow(newSearch(), history, "make");
  expect(first.at).toBe(3);
  expect(again(first, history, -1, "")).toMatchObject({ at: 3, failed: true }); // index 0 is the same text
  expect(again(newSearch(), history, -1, "push")).toMatchObject({ query: "push", at: 1 });
  expect(again(newSearch(), history, -1, "")).toEqual(newSearch());
});
