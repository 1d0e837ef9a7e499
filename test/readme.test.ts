// The README a new user reads stays true to the tree: every `(#anchor)` link lands on a heading,
// every relative link on a file, and the architecture block names files and folders that exist
// (and every top-level file and folder of src/). Ten merges a day each edit the README; these are
// the parts of it a test can hold without reading prose.
import { expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import TOML from "@iarna/toml";
import { checkLayer } from "../src/config/schema.ts";

const ROOT = join(import.meta.dir, "..");
const SRC = join(ROOT, "src");
const DOCS = ["README.md", ...readdirSync(join(ROOT, "docs")).map((f) => `docs/${f}`)].filter((f) => f.endsWith(".md"));
const read = (file: string) => readFileSync(join(ROOT, file), "utf8");

/** The text outside fenced code blocks (a `# comment` in a shell block is no heading). */
const prose = (md: string) => md.replace(/^```[\s\S]*?^```/gm, "");

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchors(md: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const [, title] of prose(md).matchAll(/^#{1,6} +(.+?) *#*$/gm)) {
    const base = title!
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, "")
      .replace(/ /g, "-");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

test("the anchor of a heading is GitHub's", () => {
  expect([...anchors("# hey\n## Grow it: AGENTS.md, skills, MCP servers, /reload\n### Use\n### Use\n```sh\n# not one\n```")]).toEqual([
    "hey",
    "grow-it-agentsmd-skills-mcp-servers-reload",
    "use",
    "use-1",
  ]);
});

test.each(DOCS)("every link in %s lands on a heading or a file", (file) => {
  const md = prose(read(file));
  const broken: string[] = [];
  for (const [, target] of md.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^[a-z]+:/.test(target!)) continue; // https:, mailto:
    const [path, anchor] = target!.split("#") as [string, string | undefined];
    const to = path === "" ? file : join(dirname(file), path);
    if (!existsSync(join(ROOT, to))) broken.push(`${target} (no file ${to})`);
    else if (anchor !== undefined && to.endsWith(".md") && !anchors(read(to)).has(anchor)) broken.push(`${target} (no heading in ${to})`);
  }
  expect(broken).toEqual([]);
});

/** The README's architecture block: each line's entries (`main.ts`, `kernel/`) and what it lists of them. */
function architecture(): { entries: string[]; listed: string }[] {
  const readme = read("README.md");
  const block = readme.slice(readme.indexOf("### Architecture")).split("```text\n")[1]!.split("```")[0]!;
  return block
    .split("\n")
    .filter((line) => line.startsWith("  "))
    .map((line) => {
      const [, entries, listed] = line.trim().match(/^((?:\S+(?:\.ts|\/) *)+)(.*)$/) ?? ["", "", ""];
      return { entries: entries!.trim().split(/ +/), listed: listed! };
    });
}

test("the architecture block names every top-level file and folder of src/, and only those", () => {
  const named = architecture()
    .flatMap((l) => l.entries)
    .map((e) => e.replace(/\/$/, ""))
    .sort();
  const actual = readdirSync(SRC, { withFileTypes: true })
    .filter((e) => e.isDirectory() || (e.name.endsWith(".ts") && !e.name.endsWith(".d.ts")))
    .map((e) => e.name)
    .sort();
  expect(named).toEqual(actual);
});

test("the files the architecture block lists in a folder exist", () => {
  const missing: string[] = [];
  for (const { entries, listed } of architecture()) {
    if (entries.length !== 1 || !entries[0]!.endsWith("/")) continue;
    const dir = join(SRC, entries[0]!);
    // the names outside parentheses, and those of a `(+ a, b)` group; other parentheses are prose
    const names = listed
      .replace(/\((?!\+)[^()]*\)/g, "")
      .split(/[,()+]/)
      .map((s) => s.trim())
      .filter((s) => /^[a-z][a-z0-9-]*(\*|\.md)?$/.test(s));
    for (const name of names) {
      const found = name.endsWith("*")
        ? readdirSync(dir).some((f) => f.startsWith(name.slice(0, -1)))
        : existsSync(join(dir, name.endsWith(".md") ? name : `${name}.ts`)) || existsSync(join(dir, name));
      if (!found) missing.push(`${entries[0]}${name}`);
    }
  }
  expect(missing).toEqual([]);
});

test("every config example in the README is one a new user can copy: it parses, with no unknown key or wrong value", () => {
  const readme = read("README.md");
  const problems: string[] = [];
  for (const m of readme.matchAll(/^```toml\n([\s\S]*?)^```/gm)) {
    const fence = readme.slice(0, m.index).split("\n").length;
    const text = "\n".repeat(fence) + m[1]; // its lines numbered as the README's
    const where = `README.md (the block at line ${fence})`;
    try {
      const checked = checkLayer("README.md", TOML.parse(text) as Record<string, unknown>, text);
      problems.push(...checked.errors, ...checked.warnings);
    } catch (e) {
      problems.push(`${where}: ${(e as Error).message.split("\n")[0]}`);
    }
  }
  expect(problems).toEqual([]);
});
