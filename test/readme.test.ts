// The README a new user reads stays true to the tree: every `(#anchor)` link lands on a heading,
// every relative link on a file, and the architecture block names files and folders that exist
// (and every top-level file and folder of src/, and every file of a folder it lists), and the banner
// example shows the version hey is. Ten merges a day each edit the README; these are
// the parts of it a test can hold without reading prose.
import { expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import TOML from "@iarna/toml";
import { OPTIONS, VERSION } from "../src/cli.ts";
import { checkLayer } from "../src/config/schema.ts";
import { PROTOCOLS } from "../src/kernel/ir.ts";
import { peerNotices } from "../src/peers/found.ts";
import { peerHome } from "./helpers/peer-home.ts";

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

/** Each folder line of the architecture block: the folder and the names it lists — those outside parentheses, and those of a `(+ a, b)` group; other parentheses are prose. */
function folderLines(): { folder: string; names: string[] }[] {
  return architecture()
    .filter(({ entries }) => entries.length === 1 && entries[0]!.endsWith("/"))
    .map(({ entries, listed }) => ({
      folder: entries[0]!,
      names: listed
        .replace(/\((?!\+)[^()]*\)/g, "")
        .split(/[,()+:]/)
        .map((s) => s.trim())
        .filter((s) => /^[a-z][a-z0-9-]*(\*|\.md)?$/.test(s)),
    }));
}

const names = (file: string, name: string) => (name.endsWith("*") ? file.startsWith(name.slice(0, -1)) : file === name || file === `${name}.ts`);

test("the files the architecture block lists in a folder exist", () => {
  const missing: string[] = [];
  for (const { folder, names: listed } of folderLines()) {
    const files = readdirSync(join(SRC, folder));
    for (const name of listed) if (!files.some((f) => names(f, name))) missing.push(`${folder}${name}`);
  }
  expect(missing).toEqual([]);
});

test("the architecture block names every file of each folder it lists: a new file is added to its line", () => {
  const unnamed: string[] = [];
  for (const { folder, names: listed } of folderLines())
    for (const file of readdirSync(join(SRC, folder))) if (!listed.some((name) => names(file, name))) unnamed.push(`${folder}${file}`);
  expect(unnamed).toEqual([]);
});

test("the README's banner example shows the version hey is (package.json), so it does not go stale", () => {
  const banners = [...read("README.md").matchAll(/^hey (\d+\.\d+\.\d+) · /gm)].map((m) => m[1]);
  expect(banners.length).toBeGreaterThan(0);
  expect(new Set(banners)).toEqual(new Set([VERSION]));
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

test("the README's config examples show a provider of every protocol, so an Anthropic, Gemini or Responses user has one to copy", async () => {
  const blocks = [...read("README.md").matchAll(/^```toml\n([\s\S]*?)^```/gm)].map(
    (m) => TOML.parse(m[1]!) as { provider?: Record<string, { protocol?: string }> },
  );
  const shown = new Set(blocks.flatMap((b) => Object.values(b.provider ?? {}).map((p) => p.protocol ?? "openai")));
  expect(PROTOCOLS.filter((p) => !shown.has(p))).toEqual([]);
});

test("the README names every flag hey takes (hey --help lists them; a reader of the README should not have to)", () => {
  const readme = read("README.md");
  // the flag itself, not a longer one it begins (`--raw` is not in `--raw-field`)
  const named = (form: string) => new RegExp(`(^|[\\s\`(\\[])${form}(?![\\w-])`, "m").test(readme);
  const missing = Object.entries(OPTIONS)
    .filter(([name, spec]) => ![`--${name}`, ...("short" in spec ? [`-${spec.short}`] : [])].some(named))
    .map(([name]) => `--${name}`);
  expect(missing).toEqual([]);
});

test("the docs' example Claude models are none the installed Anthropic SDK calls deprecated (it prints a warning of its own for them)", () => {
  // the SDK's own table (not among its exports): `'claude-opus-4-5': 'January 22nd, 2027',`
  const table = read("node_modules/@anthropic-ai/sdk/internal/data/deprecated-models.js");
  const deprecated = new Set([...table.matchAll(/'(claude-[^']+)':/g)].map((m) => m[1]!));
  expect(deprecated.size).toBeGreaterThan(0);
  const named = DOCS.flatMap((f) => [...read(f).matchAll(/\bclaude-[a-z0-9.-]*[a-z0-9]/g)].map((m) => `${f}: ${m[0]}`));
  expect(named.filter((n) => deprecated.has(n.split(": ")[1]!))).toEqual([]);
});

test("the 'Coming from another agent' sample is what hey prints for its three Claude Code rules", () => {
  const { project, at, lay } = peerHome("hey-readme-peer-", "app");
  mkdirSync(join(project, ".git"), { recursive: true });
  lay(join(project, ".claude", "settings.json"), JSON.stringify({ permissions: { deny: ["Bash(rm:*)", "Bash(curl:*)", "Read(.env)"] } }));
  const said = peerNotices(at, false, {})
    .map((n) => `hey: ${n}`)
    .join("\n")
    .replaceAll(project, "/home/you/app");
  const block = /^ {2}\$ hey -p "clean up"\n([\s\S]*?)\n {2}```/m.exec(read("README.md"))?.[1];
  expect(block?.replace(/^ {2}/gm, "")).toBe(said);
});
