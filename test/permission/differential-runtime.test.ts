// Issue 24's proof: the runtime corpus (runtime-corpus.ts) runs under real dash and bash with PATH
// holding only logging stubs, in a working directory holding files named like options and an
// `./ls` that runs the payload; for every command the checker allows, each program the shell
// executed was seen and is allowed (differential-check.ts). Each class is live: some command the
// checker refuses did run the payload. `sudo` is a logging stub here (the tests do not run real
// sudo); what sudo -e runs is in the real-world corpus's record and the unit tables.
import { expect, test } from "bun:test";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { dirname, join } from "node:path";
import { createStubs } from "../helpers/shell-stubs.ts";
import { testNeeding } from "../helpers/tools.ts";
import { allowedAs, judge, SHELLS } from "./differential-check.ts";
import { FILES, generateRuntimeCorpus } from "./runtime-corpus.ts";

const WORKERS = Math.max(1, Math.floor(availableParallelism() / 2));
/** Only ever `.` or `0` (the test's own directories) is assigned to PATH; nothing else reaches outside them. */
const UNSAFE = /(^|[^\w./~-])\/(?!dev\/(null|stdin)\b)|\.\./;

function setup(cwd: string, bin: string): void {
  for (const [name, { text, mode }] of Object.entries(FILES(bin))) {
    mkdirSync(dirname(join(cwd, name)), { recursive: true });
    writeFileSync(join(cwd, name), text);
    if (mode) chmodSync(join(cwd, name), mode);
  }
}

test("the runtime corpus has at least 2,000 commands in every class of issue 24", () => {
  const corpus = generateRuntimeCorpus();
  expect(corpus.length).toBeGreaterThanOrEqual(2000);
  expect([...new Set(corpus.map((c) => c.cls))].sort()).toEqual(["assignments", "globs", "options", "runners", "xargs"]);
});

// this test runs commands under real shells (.ci/run installs them): skipped, saying so, without one
testNeeding(["dash", "bash"])(
  "no program dash or bash runs for an allowed command of the runtime corpus goes unseen or unallowed",
  async () => {
    const corpus = generateRuntimeCorpus();
    const jobs = corpus.flatMap((c) =>
      UNSAFE.test(c.command)
        ? []
        : SHELLS.filter((shell) => c.first || allowedAs(c.command, shell) || allowedAs(c.command, "sh")).map((shell) => ({ c, shell })),
    );
    const stubs = createStubs(WORKERS, (name) => Bun.which(name), setup);
    try {
      const runs = await Promise.all(jobs.map(async ({ c, shell }) => ({ command: c.command, cls: c.cls, shell, execs: await stubs.run(shell, c.command) })));
      const { violations, checked, live } = judge(runs, stubs.home);
      expect(violations).toEqual([]);
      expect(checked).toBeGreaterThanOrEqual(100);
      for (const cls of ["globs", "xargs", "assignments", "options", "runners"])
        expect({ cls, live: [...(live.get(cls) ?? [])] }).toEqual({ cls, live: expect.arrayContaining([expect.any(String)]) });
    } finally {
      stubs.cleanup();
    }
  },
  120_000,
);
