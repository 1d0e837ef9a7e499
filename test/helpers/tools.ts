// Tests that need a Debian tool that a machine with only Node.js and npm may lack (issue 29):
// where the tool is absent the test is skipped, its name saying which tool and which apt package
// would bring it, and the run's summary (test/helpers/summary.ts) lists every such skip — unless
// CI is set: there a missing tool fails the test, because .ci/run installs them all.
import { describe, test } from "bun:test";

/** The apt package that brings each command the tests use beyond Node.js and npm. */
export const APT_PACKAGE: Record<string, string> = {
  shellcheck: "shellcheck",
  tinyproxy: "tinyproxy",
  microsocks: "microsocks",
  ruby: "ruby",
  dash: "dash",
  tmux: "tmux",
  openssl: "openssl",
  "ssh-keygen": "openssh-client",
  curl: "curl",
  wget: "wget",
  unzip: "unzip",
  cargo: "cargo",
  cp: "coreutils",
  sleep: "coreutils",
  csplit: "coreutils",
  split: "coreutils",
  patch: "patch",
  sed: "sed",
};

/** "name — needs X (apt-get install Y)" lines of the tests skipped so far, for the summary. */
export const skippedForTools: string[] = [];

const inCi = () => Boolean(process.env.CI);

/** The reason the commands cannot be run here ("shellcheck (apt-get install shellcheck)"), or undefined. */
export function missingTools(commands: string[]): string | undefined {
  const absent = commands.filter((c) => !Bun.which(c));
  if (!absent.length) return undefined;
  const packages = [...new Set(absent.map((c) => APT_PACKAGE[c] ?? c))];
  return `${absent.join(", ")} not found (apt-get install ${packages.join(" ")})`;
}

type Body = () => void | Promise<unknown>;

/**
 * `test` for a test that runs `commands`: when one is missing it is skipped with the reason (or,
 * with CI set, fails with it).
 */
export function testNeeding(commands: string[]) {
  return (name: string, fn: Body, timeout?: number) => {
    const why = missingTools(commands);
    if (!why) return test(name, fn, timeout);
    if (inCi())
      return test(name, () => {
        throw new Error(`${why}: CI runs every test, and .ci/run installs the tools they need`);
      });
    skippedForTools.push(`${name} — ${why}`);
    return test.skip(`${name} — skipped: ${why}`, fn);
  };
}

/** `describe` for a group of tests that all run `commands`, skipped (or failing under CI) as one. */
export function describeNeeding(commands: string[], name: string, body: () => void): void {
  const why = missingTools(commands);
  if (!why) return describe(name, body);
  if (inCi())
    return describe(name, () =>
      test(`needs ${commands.join(", ")}`, () => {
        throw new Error(`${why}: CI runs every test, and .ci/run installs the tools they need`);
      }),
    );
  skippedForTools.push(`${name} (all its tests) — ${why}`);
  describe.skip(`${name} — skipped: ${why}`, body);
}
