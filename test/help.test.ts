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
