// A test that needs a Debian tool the machine lacks (issue 29): skipped with the tool and its apt
// package in its name and in the closing summary, so `npm test` passes on a machine with only
// Node.js and npm; failing instead when CI is set. Run as bun test runs it, in a child process.
import { afterAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { missingTools } from "./helpers/tools.ts";
import { tempDir } from "./helpers/e2e.ts";

const dir = tempDir("hey-missing-tools-");
afterAll(() => dir.remove());
const helpers = join(import.meta.dir, "helpers");
writeFileSync(
  join(dir.path, "needs.test.ts"),
  `import { expect, test } from "bun:test";
import { testNeeding } from "${helpers}/tools.ts";
testNeeding(["sh"])("runs with sh", () => expect(1).toBe(1));
testNeeding(["shellcheck", "hey-no-such-tool"])("lints the script", () => expect(1).toBe(1));
`,
);

async function bunTest(env: Record<string, string>) {
  // no bunfig in the temp dir: the summary is preloaded by hand, and no JUnit report is written
  const proc = Bun.spawn([process.execPath, "test", "--preload", join(helpers, "summary.ts"), "./needs.test.ts"], {
    cwd: dir.path,
    env: { PATH: "/usr/bin:/bin", HOME: dir.path, ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([proc.stdout.text(), proc.stderr.text(), proc.exited]);
  return { code, text: out + err };
}

test("missingTools names each absent command and the package to install, or nothing", () => {
  expect(missingTools(["sh"])).toBeUndefined();
  expect(missingTools(["sh", "hey-no-such-tool", "tinyproxy-not-here"])).toBe(
    "hey-no-such-tool, tinyproxy-not-here not found (apt-get install hey-no-such-tool tinyproxy-not-here)",
  );
});

test("without CI the test is skipped, named with its reason, and the run's summary lists it; the run passes", async () => {
  const run = await bunTest({});
  expect(run.code).toBe(0);
  expect(run.text).toContain("(pass) runs with sh");
  expect(run.text).toMatch(/\(skip\) lints the script — skipped: (shellcheck, )?hey-no-such-tool not found \(apt-get install (shellcheck )?hey-no-such-tool\)/);
  expect(run.text).toMatch(
    /1 test\(s\) skipped because a tool is missing \(CI=true makes them fail; \.ci\/run installs the tools\):\n {2}- lints the script — /,
  );
});

test("with CI set the same test fails with the reason, and so does the run", async () => {
  const run = await bunTest({ CI: "true" });
  expect(run.code).toBe(1);
  expect(run.text).toContain("(fail) lints the script");
  expect(run.text).toContain("hey-no-such-tool not found (apt-get install");
  expect(run.text).toContain("CI runs every test, and .ci/run installs the tools they need");
});
