// grep with ripgrep counts the matches of the whole tree first, then reads the lines of the files
// it shows (grep-ripgrep.ts). What the result shows must not depend on which files were given lines
// under a different order, nor trust a file that changed between the two: one that lost its matches
// or was deleted is counted as read, one swapped for a link shows nothing of where the link leads,
// one that turned binary gives its share to the others. And an old ripgrep (before 12) is turned
// away before it searches.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ToolContext } from "../../src/kernel/tool.ts";
import { createGrepTool } from "../../src/tools/grep.ts";
import { callTool } from "../helpers/call-tool.ts";
import { bothGreps, findRg, NO_RG } from "../helpers/find-rg.ts";

let root: string;
let rg: string | undefined;
beforeAll(async () => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "hey-grep-passes-")));
  rg = await findRg();
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const ctxAt = (cwd: string, refusedFile?: (abs: string) => boolean): ToolContext => ({
  cwd,
  signal: new AbortController().signal,
  ...(refusedFile ? { refusedFile } : {}),
});

/**
 * A ripgrep that runs `after` (shell) once its `--count` run is done, `before3` before its first run
 * with `--max-count`, and `before2` before the run that looks for NUL bytes.
 */
function wrapper(name: string, after: string, before3 = "", before2 = ""): string {
  if (!rg) throw new Error(NO_RG);
  const path = join(root, `${name}.sh`);
  writeFileSync(
    path,
    `#!/bin/sh
case " $* " in
*" --count "*) '${rg}' "$@"; code=$?; ${after || ":"}; exit $code ;;
*" --files-with-matches "*) ${before2 || ":"} ;;
*" --max-count "*) if [ ! -e '${path}.ran3' ]; then touch '${path}.ran3'; ${before3 || ":"}; fi ;;
esac
exec '${rg}' "$@"
`,
  );
  chmodSync(path, 0o755);
  return path;
}

describe.each(await bothGreps())("%s search", (_, tool) => {
  test("a search of the folder above the cwd shows max_results lines, from the first files by the paths shown", async () => {
    const top = join(root, "above");
    for (const [pkg, letter] of [
      ["app", "a"],
      ["lib", "b"],
    ]) {
      mkdirSync(join(top, `packages/${pkg}/src`), { recursive: true });
      for (let i = 0; i < 4; i++) writeFileSync(join(top, `packages/${pkg}/src/${letter}${i}.ts`), "needle\nneedle\n");
    }
    const out = (await callTool(tool, { pattern: "needle", path: "..", max_results: 5 }, ctxAt(join(top, "packages/app")))).output;
    const shown = out.split("\n").filter((l) => /:\d+: needle$/.test(l));
    // a path outside the cwd is shown absolute, and sorts before the cwd-relative ones
    expect(shown).toEqual([0, 1, 2, 3].map((i) => `${top}/packages/lib/src/b${i}.ts:1: needle`).concat("src/a0.ts:1: needle"));
  });
});

describe("ripgrep, files changed between its passes", () => {
  test("a file swapped for a link to a denied file after the count shows none of the denied file's lines", async () => {
    const dir = join(root, "swap");
    mkdirSync(join(dir, "secret"), { recursive: true });
    mkdirSync(join(dir, "proj"));
    writeFileSync(join(dir, "secret/.env"), "API_TOKEN=hunter2-very-secret\n");
    writeFileSync(join(dir, "proj/notes.txt"), "TOKEN goes here\n");
    const swapping = createGrepTool({ rg: wrapper("swap", `ln -sf '${dir}/secret/.env' '${dir}/proj/notes.txt'`) });
    const out = (
      await callTool(
        swapping,
        { pattern: "TOKEN" },
        ctxAt(join(dir, "proj"), (abs) => abs.includes("/secret/")),
      )
    ).output;
    expect(out).not.toContain("hunter2");
    expect(out).toContain("notes.txt (changed while grep searched)");
  });

  test("a file with a long line swapped for a link once its lines are read shows none of the link's long line", async () => {
    const dir = join(root, "swap-long");
    mkdirSync(join(dir, "secret"), { recursive: true });
    mkdirSync(join(dir, "proj"));
    // lines over ripgrep's --max-columns are read again from the file, to cut around the match
    writeFileSync(join(dir, "secret/.env"), `API_TOKEN=hunter2-very-secret ${"s".repeat(5000)}\n`);
    writeFileSync(join(dir, "proj/notes.txt"), `TOKEN goes here ${"x".repeat(5000)}\n`);
    const swap = `ln -sf '${dir}/secret/.env' '${dir}/proj/notes.txt'`;
    const swapping = createGrepTool({ rg: wrapper("swap-long", "", `'${rg}' "$@"; code=$?; ${swap}; exit $code`) });
    const out = (
      await callTool(
        swapping,
        { pattern: "TOKEN" },
        ctxAt(join(dir, "proj"), (abs) => abs.includes("/secret/")),
      )
    ).output;
    expect(out).not.toContain("hunter2");
  });

  test("a folder swapped for a link after the count shows none of where it leads", async () => {
    const dir = join(root, "swap-dir");
    mkdirSync(join(dir, "secret"), { recursive: true });
    mkdirSync(join(dir, "proj/docs"), { recursive: true });
    writeFileSync(join(dir, "secret/notes.txt"), "API_TOKEN=hunter2-very-secret\n");
    writeFileSync(join(dir, "proj/docs/notes.txt"), "TOKEN goes here\n");
    const swapping = createGrepTool({ rg: wrapper("swap-dir", `rm -rf '${dir}/proj/docs' && ln -s '${dir}/secret' '${dir}/proj/docs'`) });
    const out = (
      await callTool(
        swapping,
        { pattern: "TOKEN" },
        ctxAt(join(dir, "proj"), (abs) => abs.includes("/secret/")),
      )
    ).output;
    expect(out).not.toContain("hunter2");
  });

  test("a file deleted and one that lost its matches after the count are not said to hold matches left out", async () => {
    const dir = join(root, "changed");
    mkdirSync(dir);
    writeFileSync(join(dir, "a.txt"), "needle 1\nneedle 2\n");
    writeFileSync(join(dir, "b.txt"), "needle 3\n");
    writeFileSync(join(dir, "c.txt"), "needle 4\nneedle 5\n");
    const changing = createGrepTool({ rg: wrapper("changed", `rm -f '${dir}/a.txt'; echo nothing > '${dir}/c.txt'`) });
    const out = (await callTool(changing, { pattern: "needle" }, ctxAt(dir))).output;
    expect(out).toContain("b.txt:1: needle 3");
    expect(out).not.toContain("more matches not shown");
    expect(out).not.toContain("raise max_results");
  });

  test("a shown file that turns binary while its lines are read gives its share to the other files", async () => {
    const dir = join(root, "turned");
    mkdirSync(dir);
    for (const name of ["a", "b", "c"]) writeFileSync(join(dir, `${name}.txt`), "needle\nneedle\nneedle\n");
    // a.txt holds a NUL only while the first line-reading run reads it
    const a = join(dir, "a.txt");
    // (the NUL search waits for that run to end, so that only the line-reading run sees the NUL)
    const done = join(root, "turned.done");
    const changing = createGrepTool({
      rg: wrapper(
        "turned",
        "",
        `printf 'needle\\0\\nneedle\\nneedle\\n' > '${a}'; '${rg}' "$@"; code=$?; printf 'needle\\nneedle\\nneedle\\n' > '${a}'; touch '${done}'; exit $code`,
        `until [ -e '${done}' ]; do sleep 0.01; done`,
      ),
    });
    const out = (await callTool(changing, { pattern: "needle", max_results: 3 }, ctxAt(dir))).output;
    expect(out.split("\n").filter((l) => /^[bc]\.txt:\d+: needle$/.test(l))).toHaveLength(3);
  });
});

test("a ripgrep before 12 is turned away before it searches, when grep asks for context", async () => {
  if (!rg) throw new Error(NO_RG);
  const dir = join(root, "old-rg");
  mkdirSync(dir);
  writeFileSync(join(dir, "a.txt"), "x\nneedle\ny\n");
  const log = join(root, "old-rg.log");
  writeFileSync(log, "");
  const old = join(root, "old-rg.sh");
  writeFileSync(
    old,
    `#!/bin/sh
case " $* " in
*" --no-context-separator "*) echo rejected >> '${log}'; echo "error: Found argument '--no-context-separator' which wasn't expected" >&2; exit 2 ;;
*" --count "*) echo searched >> '${log}' ;;
esac
exec '${rg}' "$@"
`,
  );
  chmodSync(old, 0o755);
  const out = (await callTool(createGrepTool({ rg: old }), { pattern: "needle", context: 1 }, ctxAt(dir))).output;
  expect(out).toContain("a.txt:2: needle");
  expect(readFileSync(log, "utf8")).not.toContain("searched");
});
