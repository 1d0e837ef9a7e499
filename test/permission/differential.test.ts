// Issue 9's proof: the generated corpus runs under real dash and bash with PATH holding only logging
// stubs, and for every command the checker allows — for the shell's own reading and for "sh" (both
// readings), under a narrow allow list, a broad one and a deny list — each program the shell
// actually executed was seen by the checker (a segment with the same name and words) and is
// allowed by the policy on its own argv. It also checks that the corpus is live: in each class,
// commands the checker refuses did run the payload in at least one shell.
import { expect, test } from "bun:test";
import { availableParallelism } from "node:os";
import { createStubs } from "../helpers/shell-stubs.ts";
import { generateCorpus } from "./corpus.ts";
import { allowedAs, judge, SHELLS } from "./differential-check.ts";
import { testNeeding } from "../helpers/tools.ts";

// one dash and one bash run per pair of cores: the runs are fork/exec-bound
const WORKERS = Math.max(1, Math.floor(availableParallelism() / 2));

/**
 * Commands run for real only when they cannot reach a real program or file outside the test's
 * directories: no absolute path but /dev/null and /dev/stdin (`~` is the test's HOME), no `..`, nothing that resets PATH
 * (`env -i`, `PATH=`, `command -p`). The others are still checked by the unit tables.
 */
const UNSAFE = /(^|[^\w./~-])\/(?!dev\/(null|stdin)\b)|\.\.|env -[i-]|\bPATH=|command -p|-u PATH/;

test("the corpus is generated with at least 300 commands in every class of the issue", () => {
  const corpus = generateCorpus();
  expect(corpus.length).toBeGreaterThanOrEqual(300);
  const classes = new Set(corpus.map((c) => c.cls));
  for (const cls of ["continuation", "dialect", "grammar", "subscript", "conditional", "deny", "wrappers", "bypass", "usable"])
    expect(classes.has(cls)).toBe(true);
});

// this test runs commands under real shells (.ci/run installs them): skipped, saying so, without one
testNeeding(["dash", "bash"])(
  "every program dash and bash run for a command the checker allows was seen and is allowed",
  async () => {
    const corpus = generateCorpus();
    // a shell runs what the property is about (commands allowed when read as that shell or as sh),
    // and the first spelling of each template, to show that the classes are live
    const jobs = corpus.flatMap((c) =>
      UNSAFE.test(c.command)
        ? []
        : SHELLS.filter((shell) => c.first || allowedAs(c.command, shell) || allowedAs(c.command, "sh")).map((shell) => ({ c, shell })),
    );
    const stubs = createStubs(WORKERS, (name) => Bun.which(name));
    try {
      const runs = await Promise.all(jobs.map(async ({ c, shell }) => ({ command: c.command, cls: c.cls, shell, execs: await stubs.run(shell, c.command) })));
      const { violations, checked, live } = judge(runs, stubs.home);
      expect(violations).toEqual([]);
      expect(checked).toBeGreaterThanOrEqual(300);
      for (const cls of ["continuation", "dialect", "grammar", "subscript", "conditional", "deny", "wrappers"])
        expect({ cls, live: (live.get(cls)?.size ?? 0) > 0 }).toEqual({ cls, live: true });
    } finally {
      stubs.cleanup();
    }
  },
  120_000,
);
