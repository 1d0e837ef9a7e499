// `/diff`'s view (x57): git's diff with the tools' diff colours, each line cut to the terminal and
// never wrapped, the untracked files named, and said to go nowhere.
import { expect, test } from "bun:test";
import { DIFF_VIEW_MAX_LINES, formatDiffView, NAMED_MAX, UNTRACKED_MAX } from "../../src/ui/diff-view.ts";
import { readsOnly } from "../../src/ui/slash.ts";

const DIFF = "diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-old\n+new\n";

test("the diff, then the untracked files, then that none of it is sent", () => {
  expect(formatDiffView(DIFF, "fresh.txt\nsrc/new.ts\n", false)).toBe(`${DIFF}untracked: fresh.txt, src/new.ts\n(shown only: nothing of it goes to the model)`);
});

test("coloured as the tools' diffs: removed red, added green, hunk headers cyan", () => {
  const shown = formatDiffView(DIFF, "", true).split("\n");
  expect(shown[4]).toBe("\x1b[31m-old\x1b[0m");
  expect(shown[5]).toBe("\x1b[32m+new\x1b[0m");
  expect(shown[3]).toBe("\x1b[36m@@ -1 +1 @@\x1b[0m");
});

test("a long line is cut to the terminal, keeping its + in front; a terminal escape in a file is shown, not run", () => {
  const shown = formatDiffView(`+${"x".repeat(300)}\n+\x1b]0;title\x07\n`, "", false, 80).split("\n");
  expect(shown[0]!.startsWith("+x")).toBe(true);
  expect(shown[0]!.length).toBeLessThanOrEqual(79);
  expect(shown[1]).toBe("+^[]0;title^G");
});

test("past DIFF_VIEW_MAX_LINES lines the rest is counted; nothing changed says so", () => {
  const big = Array.from({ length: DIFF_VIEW_MAX_LINES + 5 }, (_, i) => `+${i}`).join("\n");
  expect(formatDiffView(big, "", false)).toContain("… 5 more lines");
  expect(formatDiffView("", "", false)).toBe("no changes: the work tree is as git's index has it, and no untracked files");
});

test("hey -c /diff only reads: it takes no session another hey has open (a one-shot /undo is refused, and reads too)", () => {
  expect(readsOnly("/diff")).toBe(true);
  expect(readsOnly("/undo")).toBe(true);
});

test("a diff git was stopped in is shown as far as it came, then why, and nothing else; past UNTRACKED_MAX names the rest are counted", () => {
  expect(formatDiffView(DIFF, "fresh.txt\n", false, 0, { cut: "git diff was stopped: interrupted by user" })).toBe(
    `${DIFF}… git diff was stopped: interrupted by user`,
  );
  const names = Array.from({ length: UNTRACKED_MAX }, (_, i) => `f${i}`).join("\n");
  const shown = formatDiffView("", names, false, 0, { untracked: UNTRACKED_MAX + 7 }).split("\n")[0]!;
  expect(shown).toEndWith(`f${UNTRACKED_MAX - 1} and 7 more (git status lists them)`);
  expect(formatDiffView(`${DIFF}+more\n`, "", false, 0, { diffLines: DIFF_VIEW_MAX_LINES + 3 })).toContain("… 3 more lines");
});

test("files a repository's own driver holds back: those shown as git's own bytes said so, those its filter cleans named, past NAMED_MAX counted", () => {
  const held = (n: number, driver: string) => Array.from({ length: n }, (_, i) => ({ status: "M", path: `f${i}.bin`, driver }));
  const shown = formatDiffView(DIFF, "", false, 0, { bytes: held(1, "evil"), named: held(NAMED_MAX + 3, "lfs") }).split("\n");
  expect(shown).toContain(
    "shown as git's own bytes, without the textconv driver this repository's own config names for them (diff=evil), which /diff does not run: f0.bin",
  );
  expect(shown).toContain(
    "changed, not shown: this repository's own config names their filter (filter=lfs), which /diff does not run, and only it shows them truthfully:",
  );
  expect(shown).toContain(`M f${NAMED_MAX - 1}.bin`);
  expect(shown).not.toContain(`M f${NAMED_MAX}.bin`);
  expect(shown).toContain("and 3 more (git status lists them)");
  expect(formatDiffView("", "", false, 0, { named: held(1, "lfs") })).toStartWith("changed, not shown");
});
