// grep's collector keeps a search of a big repository near-linear: with 100,000 matching files and
// max_results 1000 it used to re-share and re-trim every kept file for each file found, and hey
// froze for a minute. The work is counted here (reads of each file's lines), never timed.
import { expect, test } from "bun:test";
import { comparePaths, createCollector, type FileHits, format, type Line } from "../../src/tools/grep-results.ts";

/** A file's lines that count every read of them. */
class CountedLines extends Map<number, Line> {
  static reads = 0;
  override get(n: number) {
    CountedLines.reads++;
    return super.get(n);
  }
  override has(n: number) {
    CountedLines.reads++;
    return super.has(n);
  }
  override keys() {
    CountedLines.reads++;
    return super.keys();
  }
  override entries() {
    CountedLines.reads++;
    return super.entries();
  }
  override [Symbol.iterator]() {
    CountedLines.reads++;
    return super[Symbol.iterator]();
  }
}

const hitsOf = (path: string, matches: number): FileHits => {
  const lines = new CountedLines();
  for (let n = 1; n <= matches; n++) lines.set(n, { text: `TODO ${n}`, match: true });
  return { path, count: matches, lines };
};

test("collecting 5,000 matching files under max_results 1000 reads each file's lines a bounded number of times", () => {
  CountedLines.reads = 0;
  const found = createCollector(1000);
  // found out of path order, as ripgrep's threads print them
  for (let i = 0; i < 5000; i++) found.add(hitsOf(`pkg${(i * 7919) % 5000}/file.ts`, 1));
  const files = found.files;
  expect(files).toHaveLength(1000);
  expect(CountedLines.reads).toBeLessThan(10 * 5000);
  // the first 1000 in path order (component by component: pkg0, pkg1, pkg10, pkg100, pkg1000…), one match each
  expect(files.slice(0, 4).map((f) => f.path)).toEqual(["pkg0/file.ts", "pkg1/file.ts", "pkg10/file.ts", "pkg100/file.ts"]);
  const text = format(found, 1000, 0).split("\n");
  expect(text).toHaveLength(1001);
  // the files left out are named as before: most left out first, then in path order
  const after = files.at(-1)!.path;
  const next = Array.from({ length: 5000 }, (_, i) => `pkg${i}/file.ts`)
    .filter((p) => comparePaths(p, after) > 0)
    .sort(comparePaths)
    .slice(0, 3);
  expect(text.at(-1)).toBe(
    `… 4000 more matches not shown (5000 in all, in 5000 files); left out: ${next.map((p) => `${p} 1`).join(", ")} and 3997 more files; narrow with path, glob or a more specific pattern, or raise max_results`,
  );
});

test("the fair shares and the lines held come out as when each file was shared on arrival", () => {
  const found = createCollector(10);
  found.add(hitsOf("b/lock.json", 500));
  found.add(hitsOf("a/x.ts", 3));
  found.add(hitsOf("a.ts", 2));
  const files = found.files;
  // `a/x.ts` before `a.ts`: paths compare by component
  expect(files.map((f) => [f.path, f.lines.size])).toEqual([
    ["a/x.ts", 3],
    ["a.ts", 2],
    ["b/lock.json", 5],
  ]);
});

test("a path that sorts between components (`a-b` against `a/b`) keeps comparePaths' order", () => {
  const found = createCollector(100);
  for (const path of ["a-b/x", "a/b/x", "a.b", "a/c", "a"]) found.add(hitsOf(path, 1));
  expect(found.files.map((f) => f.path)).toEqual(["a", "a/b/x", "a/c", "a-b/x", "a.b"]);
});
