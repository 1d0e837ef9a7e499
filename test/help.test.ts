// `hey --help` lists every flag the parser takes, and every exit code hey can end with is named
// where a user looks for it: the help, the README and docs/json-events.md (a new code, such as
// 131 for SIGQUIT, had to be added in all three by hand).
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { EXIT, HELP, OPTIONS } from "../src/cli.ts";

const ROOT = join(import.meta.dir, "..");

test("hey --help names every flag, with its short form", () => {
  const missing = Object.entries(OPTIONS).flatMap(([name, spec]) => {
    const forms = [`--${name}`, ...("short" in spec ? [`-${spec.short}, --${name}`] : [])];
    return forms.filter((form) => !new RegExp(`(^|[\\s\\[(])${form.replace(/[-[\]]/g, "\\$&")}\\b`, "m").test(HELP));
  });
  expect(missing).toEqual([]);
});

/** The text from a line starting `Exit codes:` up to the next blank line. */
function exitCodes(text: string): string {
  const at = text.search(/^Exit codes:/m);
  return at < 0 ? "" : text.slice(at).split(/\n\s*\n/)[0]!;
}

test.each([
  ["hey --help", HELP],
  ["README.md", readFileSync(join(ROOT, "README.md"), "utf8")],
  ["docs/json-events.md", readFileSync(join(ROOT, "docs", "json-events.md"), "utf8")],
])("%s names every exit code", (_, text) => {
  const said = exitCodes(text);
  expect(said).not.toBe("");
  const missing = Object.entries(EXIT).filter(([, code]) => !new RegExp(`(^|\\D)${code}(\\D|$)`).test(said));
  expect(missing).toEqual([]);
});

test("a key on the command line is said to be readable by every user: --help and the README point to HEY_API_KEY, and the README's /proc promise says root reads it anyway", () => {
  const flag = HELP.slice(HELP.indexOf("--api-key KEY")).split("\n").slice(0, 3).join("\n");
  expect(flag).toContain("every user can read it in ps: prefer HEY_API_KEY=KEY");
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  expect(readme.match(/^(?:[A-Z_]+=\S+ )?hey .*--api-key .*$/gm) ?? []).toEqual([]); // no example puts a key in hey's arguments
  const proc = readme.slice(readme.indexOf("PR_SET_DUMPABLE"), readme.indexOf("The `--verbose` log is written"));
  expect(proc).toContain("**Not as root**");
  expect(proc).toContain("cat /proc/$PPID/environ");
});
