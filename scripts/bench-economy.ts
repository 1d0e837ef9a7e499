// SPEC §22 token economy: one scripted 30-request session through the real agent (createAgent,
// the real tools of createTools, the real system prompt) in a temporary git repository, with
// noisy tool output: a test runner printing ~1,700 lines per run, a build printing ~440 lines of
// progress and warnings, repeated reads, failing calls and edits. The same script runs with the
// context mechanisms on (defaults) and off, and once each with only some of them, and the
// request tokens the provider receives are summed.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { platform } from "node:os";
import { join } from "node:path";
import { createAgent, type Agent } from "../src/agent.ts";
import { emptyUsage, newId, textOf, type Message, type Protocol } from "../src/kernel/ir.ts";
import type { ModelRequest, Provider, StreamEvent } from "../src/kernel/provider.ts";
import { resolveConfig } from "../src/config/resolve.ts";
import type { Settings } from "../src/config/settings.ts";
import { estimateTokens } from "../src/context/view.ts";
import { isSummaryRequest } from "../test/helpers/summary-requests.ts";
import { chooseShell } from "../src/tools/shell.ts";
import { buildSystemPrompt } from "../src/prompt/system.ts";
import corePrompt from "../src/prompt/system.md" with { type: "text" };
import { toRequest } from "../src/providers/openai.ts";
import { createCompressTool } from "../src/tools/compress.ts";
import { agentSettings } from "../src/runtime.ts";
import { createTools } from "../src/builtin-tools.ts";

// ---------------------------------------------------------------------------------------------
// The repository: a config parser with three bugs, its tests, a noisy test runner and build.

const PARSER = `// Parsing of the config mini-language: numbers, lists and key=value pairs.

/** A number; a leading "-" makes it negative. */
export function parseNumber(text) {
  const s = String(text).trim();
  if (s === "") throw new Error("empty number");
  if (s.startsWith("-")) return Number(s.slice(1));
  const n = Number(s);
  if (Number.isNaN(n)) throw new Error(\`not a number: \${text}\`);
  return n;
}

/** A comma-separated list of numbers; an empty text is an empty list. */
export function parseList(text) {
  if (String(text).trim() === "") return [];
  return text.split(";").map(parseNumber);
}

/** key=value pairs, one per line; # starts a comment; later keys win. */
export function parsePairs(text) {
  const out = {};
  for (const raw of String(text).split("\\n")) {
    const line = raw.replace(/#.*/, "").trim();
    if (line === "") continue;
    const eq = line.indexOf("=");
    if (eq < 0) throw new Error(\`missing "=" in: \${line}\`);
    out[line.slice(0, eq).trim()] = line.slice(eq + 1).trim();
  }
  return out;
}

/** Splits a line into words, keeping "quoted strings" whole. */
export function tokenize(line) {
  const tokens = [];
  const re = /"([^"]*)"|(\\S+)/g;
  for (let m = re.exec(line); m; m = re.exec(line)) tokens.push(m[1] ?? m[2]);
  return tokens;
}
`;
const PARSER_FIXED = PARSER.replace("return Number(s.slice(1));", "return -Number(s.slice(1));").replace('text.split(";")', 'text.split(",")');

const FORMAT = `// Plain-text tables for the CLI.

/** \`text\` padded with spaces to \`width\` characters. */
export function padCell(text, width) {
  return String(text).padEnd(width - 1);
}

/** One row: cells padded to their column widths, separated by " | ". */
export function formatRow(cells, widths) {
  return cells.map((cell, i) => padCell(cell, widths[i])).join(" | ");
}

/** Rows of cells as lines, every column as wide as its widest cell. */
export function formatTable(rows) {
  const widths = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, String(cell).length)));
  return rows.map((row) => formatRow(row, widths).trimEnd()).join("\\n");
}
`;
const FORMAT_FIXED = FORMAT.replace("padEnd(width - 1)", "padEnd(width)");

const README = `# confkit

A tiny parser and formatter for the confkit configuration language, used by the deploy CLI.

## Usage

\`\`\`js
import { parsePairs, parseList } from "./src/parser.mjs";
const config = parsePairs(readFileSync("deploy.conf", "utf8"));
const ports = parseList(config.ports); // "80,443" → [80, 443]
\`\`\`

## Language

- one \`key = value\` pair per line; \`#\` starts a comment
- lists are comma-separated: \`ports = 80,443,8080\`
- numbers may be negative: \`offset = -5\`

## Development

- \`node run-tests.mjs [suite]\` runs the tests (all suites, or the ones whose name contains \`suite\`)
- \`node build.mjs\` type-checks and bundles into dist/

Keep changes small and covered by a test; note user-visible changes in CHANGELOG.md.
`;
const README_FIXED = README.replace(
  "- numbers may be negative: `offset = -5`",
  "- numbers may be negative: `offset = -5` (fixed in 1.4.1: the sign was dropped)",
);
const CHANGELOG =
  "# Changelog\n\n## 1.4.1\n\n- parseNumber keeps the sign of negative numbers\n- parseList splits on commas, as documented\n- padCell pads to the full column width\n";

const PARSER_TEST = `import { describe, expect, test } from "./testkit.mjs";
import { parseList, parseNumber, parsePairs, tokenize } from "../src/parser.mjs";

describe("parser", () => {
  test("parseNumber › reads integers", () => expect(parseNumber("42")).toBe(42));
  test("parseNumber › reads decimals", () => expect(parseNumber(" 2.5 ")).toBe(2.5));
  test("parseNumber › handles negatives", () => expect(parseNumber("-5")).toBe(-5));
  test("parseNumber › rejects words", () => expect(() => parseNumber("ten")).toThrow("not a number"));
  test("parseList › splits on commas", () => expect(parseList("1,2,3")).toEqual([1, 2, 3]));
  test("parseList › empty text is an empty list", () => expect(parseList("  ")).toEqual([]));
  test("parsePairs › skips comments", () => expect(parsePairs("a=1 # x\\n# y\\nb = 2")).toEqual({ a: "1", b: "2" }));
  test("parsePairs › later keys win", () => expect(parsePairs("a=1\\na=2")).toEqual({ a: "2" }));
  test("tokenize › keeps quoted strings", () => expect(tokenize('run "a b" c')).toEqual(["run", "a b", "c"]));
});
`;

/** A jest-like runner: 12 suites, 1,500 tests (7 real ones), console.log noise, failure details, a summary. */
const RUN_TESTS = `import assert from "node:assert/strict";
import { parseList, parseNumber, parsePairs, tokenize } from "./src/parser.mjs";
import { formatRow, padCell } from "./src/format.mjs";
const only = process.argv[2];
const real = {
  parser: [
    ["parseNumber › reads integers", () => assert.equal(parseNumber("42"), 42)],
    ["parseNumber › handles negatives", () => assert.equal(parseNumber("-5"), -5)],
    ["parseList › splits on commas", () => assert.deepEqual(parseList("1,2,3"), [1, 2, 3])],
    ["parsePairs › skips comments", () => assert.deepEqual(parsePairs("a=1 # x\\n# y\\nb = 2"), { a: "1", b: "2" })],
    ["tokenize › keeps quoted strings", () => assert.deepEqual(tokenize('run "a b" c'), ["run", "a b", "c"])],
  ],
  format: [
    ["padCell › pads to the width", () => assert.equal(padCell("ab", 4), "ab  ")],
    ["formatRow › joins padded cells", () => assert.equal(formatRow(["a", "b"], [2, 2]), "a  | b ")],
  ],
};
const suites = ["lexer", "parser", "format", "config", "cli", "cache", "io", "graph", "render", "schema", "utils", "watch"];
const verbs = ["handles", "parses", "rejects", "normalizes", "caches", "renders", "resolves", "validates"];
const things = ["empty input", "nested blocks", "unicode keys", "trailing commas", "long lines", "windows paths", "deep includes", "duplicate keys"];
let passed = 0, failed = 0, failedSuites = 0;
const failures = [];
for (const [s, suite] of suites.entries()) {
  if (only && !suite.includes(only)) continue;
  const lines = [];
  let suiteFailed = false;
  for (let i = 0; i < 124 + (s < 5 ? 1 : 0); i++) {
    lines.push(\`  ✓ \${suite} › case \${i + 1}: \${verbs[(i + s) % 8]} \${things[(i * 3 + s) % 8]} (\${(i * 7 + s * 3) % 23 + 1} ms)\`);
    passed++;
    if (i % 40 === 17) lines.push("  console.log", \`    [\${suite}] fixture cache warm: \${(i * 13) % 97 + 3} entries\`, "", \`      at Object.<anonymous> (test/\${suite}.test.mjs:\${i + 10}:11)\`, "");
  }
  for (const [name, fn] of real[suite] ?? []) {
    try {
      fn();
      lines.push(\`  ✓ \${suite} › \${name} (1 ms)\`);
      passed++;
    } catch (e) {
      lines.push(\`  ✕ \${suite} › \${name} (2 ms)\`);
      failures.push([\`\${suite} › \${name}\`, e.message, suite]);
      failed++;
      suiteFailed = true;
    }
  }
  if (suiteFailed) failedSuites++;
  console.log(\`\${suiteFailed ? "FAIL" : "PASS"} test/\${suite}.test.mjs (\${(0.2 + s / 10).toFixed(3)} s)\`);
  console.log(lines.join("\\n"));
}
for (const [name, message, suite] of failures) {
  console.log(\`\\n  ● \${name}\\n\\n    AssertionError [ERR_ASSERTION]: \${message.split("\\n").join("\\n    ")}\\n\\n      at test/\${suite}.test.mjs:42:15\\n      at runTest (node_modules/testkit/lib/run.js:88:7)\\n      at node:internal/process/task_queues:95:5\`);
}
const total = passed + failed;
const ran = only ? suites.filter((s) => s.includes(only)).length : suites.length;
console.log(\`\\nTest Suites: \${failedSuites ? failedSuites + " failed, " : ""}\${ran - failedSuites} passed, \${ran} total\`);
console.log(\`Tests:       \${failed ? failed + " failed, " : ""}\${passed} passed, \${total} total\`);
console.log("Snapshots:   0 total");
console.log(\`Time:        \${(1.5 + total / 1000).toFixed(3)} s\`);
console.log("Ran all test suites" + (only ? \` matching /\${only}/i.\` : "."));
process.exit(failed ? 1 : 0);
`;

/** A bundler-like build: progress for 420 modules, a few warnings (some repeated), the output sizes. */
const BUILD = `const out = ["", "> confkit@1.4.0 build", "> tsc -p . && bundle", ""];
const warn = [
  "src/legacy/shim.ts:12:5 - warning TS6133: 'unused' is declared but its value is never read.",
  "src/cli/args.ts:88:11 - warning TS6133: 'raw' is declared but its value is never read.",
  "warning: src/io/watch.ts: dynamic import of './platform/' + os cannot be analyzed; it is left as is",
];
for (let i = 1; i <= 420; i++) {
  out.push(\`[\${String(i).padStart(3)}/420] Compiling src/\${["components", "io", "cli", "parser", "render"][i % 5]}/module\${String(i).padStart(3, "0")}.ts\`);
  if (i % 60 === 0) out.push(warn[(i / 60) % 3]);
}
out.push("Bundling 420 modules…", "  dist/confkit.js       412.31 kB │ gzip: 120.12 kB", "  dist/confkit.cjs      418.90 kB │ gzip: 121.40 kB", "  dist/confkit.d.ts      12.04 kB", "✓ built in 12.84s (7 warnings)");
console.log(out.join("\\n"));
`;

function makeEconomyRepo(dir: string): void {
  mkdirSync(join(dir, "src"));
  mkdirSync(join(dir, "test"));
  const files: Record<string, string> = {
    "README.md": README,
    "src/parser.mjs": PARSER,
    "src/format.mjs": FORMAT,
    "test/parser.test.mjs": PARSER_TEST,
    "run-tests.mjs": RUN_TESTS,
    "build.mjs": BUILD,
    ".gitignore": "dist/\nnode_modules/\n",
  };
  for (const [path, text] of Object.entries(files)) writeFileSync(join(dir, path), text);
  for (const cmd of [
    ["git", "init", "-q"],
    ["git", "add", "."],
    ["git", "-c", "user.email=b@b", "-c", "user.name=b", "commit", "-qm", "init"],
  ])
    Bun.spawnSync(cmd, { cwd: dir });
}

// ---------------------------------------------------------------------------------------------
// The script: 29 tool turns and the answer. Fixed, whatever the model is shown.

type Step = { text?: string; call?: [string, Record<string, unknown>] };
const TESTS: Step["call"] = ["bash", { command: "node run-tests.mjs" }];
const BUILD_CMD: Step["call"] = ["bash", { command: "node build.mjs" }];
const SCRIPT: Step[] = [
  { text: "I'll read the README first, then run the tests.", call: ["read_file", { path: "README.md" }] },
  { call: TESTS },
  { text: "Four failures in parser and format. Reading the parser tests.", call: ["read_file", { path: "test/parser.test.mjs" }] },
  { call: ["read_file", { path: "src/parser.mjs" }] },
  { call: ["grep", { pattern: "parseList|parseNumber", path: "src" }] },
  { call: ["read_file", { path: "src/parsers.mjs" }] }, // a typo: fails
  {
    text: "parseNumber drops the sign.",
    call: ["edit", { path: "src/parser.mjs", old_string: "return Number(s.slice(1));", new_string: "return -Number(s.slice(1));" }],
  },
  { call: TESTS },
  { call: ["read_file", { path: "src/parser.mjs" }] },
  { call: ["edit", { path: "src/parser.mjs", old_string: 'text.split(",").map(parseNumber)', new_string: 'text.split(", ").map(parseNumber)' }] }, // wrong old_string: fails
  {
    text: "The list splits on semicolons, not commas.",
    call: ["edit", { path: "src/parser.mjs", old_string: 'text.split(";")', new_string: 'text.split(",")' }],
  },
  { call: TESTS },
  { text: "Two format failures left.", call: ["read_file", { path: "src/format.mjs" }] },
  { call: BUILD_CMD },
  { text: "padCell pads one short.", call: ["edit", { path: "src/format.mjs", old_string: "padEnd(width - 1)", new_string: "padEnd(width)" }] },
  { call: TESTS },
  { call: BUILD_CMD },
  { call: ["bash", { command: "git status" }] },
  { call: ["bash", { command: "git diff" }] },
  { call: ["read_file", { path: "src/parser.mjs" }] },
  { call: ["bash", { command: "node run-tests.mjs parser" }] },
  { call: ["read_file", { path: "src/format.mjs" }] },
  { text: "Recording the fixes.", call: ["write_file", { path: "CHANGELOG.md", content: CHANGELOG }] },
  { call: ["read_file", { path: "docs/parser.md" }] }, // no such file: fails
  { call: BUILD_CMD },
  { call: ["read_file", { path: "README.md" }] },
  {
    call: [
      "edit",
      {
        path: "README.md",
        old_string: "- numbers may be negative: `offset = -5`",
        new_string: "- numbers may be negative: `offset = -5` (fixed in 1.4.1: the sign was dropped)",
      },
    ],
  },
  { call: TESTS },
  { call: ["bash", { command: "git diff --stat" }] },
  {
    text: "Fixed three bugs: parseNumber kept no sign (src/parser.mjs:7), parseList split on ';' (src/parser.mjs:16), padCell padded one short (src/format.mjs:5). All 1,500 tests pass; the build is clean apart from the known warnings; CHANGELOG.md and README.md updated.",
  },
];
/** Script steps whose call must fail (error purge material): three mistakes, and the test runs that exit 1 while tests still fail. */
const FAILING = [1, 5, 7, 9, 11, 23];

// ---------------------------------------------------------------------------------------------

interface Count {
  requests: number;
  summaries: number;
  /** Σ chat-completions body bytes / 4 (toRequest, as the OpenAI-compatible adapter sends it) */
  wire: number;
  /** Σ estimateTokens(messages) + (system + JSON of tool schemas) / 4: hey's own estimate at 0.25 tokens/char */
  estimate: number;
  maxWire: number;
}

const tokensOf = (request: ModelRequest) => ({
  wire: Math.ceil(Buffer.byteLength(JSON.stringify(toRequest(request, { model: "m" }))) / 4),
  estimate: estimateTokens(request.messages, 0.25) + Math.ceil((request.system.length + JSON.stringify(request.tools).length) * 0.25),
});

/** Plays SCRIPT, one step per agent request; a summary request (either kind) gets a summary and takes no step. */
function scriptedProvider(count: Count, seen?: (request: ModelRequest) => void, protocol: Protocol = "openai"): Provider {
  let step = 0;
  return {
    protocol,
    model: "m",
    async *stream(request: ModelRequest): AsyncGenerator<StreamEvent> {
      seen?.(request);
      const t = tokensOf(request);
      count.requests++;
      count.wire += t.wire;
      count.estimate += t.estimate;
      count.maxWire = Math.max(count.maxWire, t.wire);
      const summary = isSummaryRequest(request);
      if (summary) count.summaries++;
      const s: Step = summary
        ? {
            text: "Fixing parser and format bugs found by node run-tests.mjs (4 failures at the start); parseNumber sign fixed in src/parser.mjs; remaining: parseList separator, padCell width.",
          }
        : (SCRIPT[step++] ?? { text: "(script exhausted)" });
      const message: Message = { id: newId(), role: "assistant", content: s.text ? [{ type: "text", text: s.text }] : [] };
      if (s.text) yield { type: "text", delta: s.text };
      if (s.call) {
        const call = { id: `call_${newId()}`, name: s.call[0], arguments: JSON.stringify(s.call[1]) };
        message.toolCalls = [call];
        yield { type: "tool_call", call };
      }
      // usage input 0: no correction of the estimate, hey's budget works at the SPEC's 0.25 tokens/char
      yield { type: "done", message, usage: emptyUsage(), stop: s.call ? "tool_calls" : "stop" };
    },
  };
}

export interface Mechanisms {
  filter: boolean;
  dedup: boolean;
  purge: boolean;
  compress: boolean;
  budget: boolean;
}

/** One session in a fresh repository under `dir`; throws unless the task was completed. */
/** `seen` gets every request; `protocol` is the one the provider says it speaks (what the cache prices are taken from). */
export async function session(dir: string, m: Mechanisms, seen?: (request: ModelRequest) => void, protocol?: Protocol): Promise<Count & { toolChars: number }> {
  makeEconomyRepo(dir);
  const base = resolveConfig([], {}, { baseUrl: "http://127.0.0.1:9/v1", model: "m" }).settings;
  const settings: Settings = {
    ...base,
    agent: { ...base.agent, maxTurns: 50, budgetTokens: m.budget ? base.agent.budgetTokens : 100_000_000 },
    compaction: {
      ...base.compaction,
      dedup: m.dedup && base.compaction.dedup,
      purgeErrorsAfter: m.purge ? base.compaction.purgeErrorsAfter : 0,
      compressTool: m.compress && base.compaction.compressTool,
    },
  };
  const shell = chooseShell({ platform: process.platform, findOnPath: (n) => Bun.which(n) ?? undefined });
  const count: Count = { requests: 0, summaries: 0, wire: 0, estimate: 0, maxWire: 0 };
  const tools = createTools(settings, { shell, raw: !m.filter, outputDir: `${dir}-outputs` });
  const agent: Agent = createAgent({
    settings: agentSettings(settings),
    provider: scriptedProvider(count, seen, protocol),
    tools: () => (settings.compaction.compressTool ? [...tools, createCompressTool(() => agent.messages)] : tools),
    output: { emit: () => {} },
    cwd: dir,
    system: () => buildSystemPrompt({ core: corePrompt, cwd: dir, date: "2026-01-01", os: platform(), shell: shell.name, agentsMd: [], skills: [] }),
    permission: () => undefined,
    taskNote: () => undefined,
  });
  const result = await agent.send(
    "The tests fail. Fix the bugs in src/, keep the build clean, and note the fixes in CHANGELOG.md and README.md.",
    new AbortController().signal,
  );

  // completed: the answer given, the files as intended, the calls that should fail failed, the last test run passed
  const problems: string[] = [];
  if (result.stop !== "end" || result.turns !== SCRIPT.length) problems.push(`stopped ${result.stop} after ${result.turns} turns`);
  const expected: Record<string, string> = {
    "src/parser.mjs": PARSER_FIXED,
    "src/format.mjs": FORMAT_FIXED,
    "README.md": README_FIXED,
    "CHANGELOG.md": CHANGELOG,
  };
  for (const [path, text] of Object.entries(expected)) if (readFileSync(join(dir, path), "utf8") !== text) problems.push(`${path} is not as expected`);
  const results = agent.messages.filter((x) => x.role === "tool");
  const failing = results.flatMap((r, i) => (r.isError ? [i] : []));
  if (JSON.stringify(failing) !== JSON.stringify(FAILING)) problems.push(`failed calls at steps ${failing.join(",")}, expected ${FAILING.join(",")}`);
  const lastTests = results[SCRIPT.findLastIndex((s) => s.call === TESTS)];
  if (!lastTests || !textOf(lastTests).includes("[exit code 0]") || !textOf(lastTests).includes("1500 passed, 1500 total"))
    problems.push("the last test run did not pass");
  if (problems.length) throw new Error(`economy session ${JSON.stringify(m)} did not complete the task: ${problems.join("; ")}`);
  return { ...count, toolChars: results.reduce((n, r) => n + textOf(r).length, 0) };
}

/**
 * The sessions: all mechanisms off, filter only, dedup + error purge only, all on (defaults).
 * TMPDIR points into `dir` meanwhile (the commands' temporary files); bash keeps the full outputs it cut
 * beside each session's folder (`off-outputs`…), not in the user's cache.
 */
export async function economyBench(dir: string) {
  const saved = process.env.TMPDIR;
  process.env.TMPDIR = join(dir, "tmp");
  mkdirSync(process.env.TMPDIR, { recursive: true });
  const none = { filter: false, dedup: false, purge: false, compress: false, budget: false };
  const run = (name: string, m: Mechanisms) => {
    mkdirSync(join(dir, name));
    return session(join(dir, name), m);
  };
  try {
    const off = await run("off", none);
    const filter = await run("filter", { ...none, filter: true });
    const dcp = await run("dcp", { ...none, dedup: true, purge: true });
    const on = await run("on", { filter: true, dedup: true, purge: true, compress: true, budget: true });
    return { off, filter, dcp, on, turns: SCRIPT.length };
  } finally {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
  }
}
