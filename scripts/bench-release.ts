// bun run bench:release — what the release builds cost and what the embedded ripgrep buys
// (issue 15). Run after `bun run build --all`. Numbers, not pass/fail.
//   1. grep on a generated 40,000-file tree: the ripgrep embedded in hey (as extracted to the
//      cache dir), the built-in walker, and the rg on PATH, through the grep tool itself;
//   2. the linux-x64 release binary doing one grep through a mock model with an empty PATH;
//   3. per target: binary and archive size, and what hey adds over a compiled hello-world.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ToolContext } from "../src/kernel/tool.ts";
import { createGrepTool } from "../src/tools/grep.ts";
import { installRipgrep } from "../src/tools/ripgrep.ts";
import { assetName, builtName, hostTarget, TARGETS } from "../src/upgrade/targets.ts";
import { sseReply, startReplayServer } from "../test/helpers/replay-server.ts";
import { chatChunk, sse } from "../test/helpers/sse.ts";
import { packAsset } from "./pack.ts";
import { ripgrepBinary } from "./ripgrep-packages.ts";

const ROOT = join(import.meta.dir, "..");
const FILES = 40_000;
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
const ms = (t: number) => (t >= 1000 ? `${(t / 1000).toFixed(2)} s` : `${t.toFixed(0)} ms`);

/** 400 directories × 100 source-like files (~2 KB each), a .gitignore'd build dir, a few needles, a minified bundle. */
function generateTree(root: string): number {
  let bytes = 0;
  mkdirSync(join(root, ".git"), { recursive: true });
  writeFileSync(join(root, ".gitignore"), "build/\n*.log\n");
  const words = ["const", "value", "return", "function", "import", "export", "result", "config", "handler", "request"];
  for (let d = 0; d < FILES / 100; d++) {
    const dir = join(root, "src", `mod${d}`, d % 7 === 0 ? "build" : "lib");
    mkdirSync(dir, { recursive: true });
    for (let f = 0; f < 100; f++) {
      const lines: string[] = [];
      for (let l = 0; l < 60; l++) lines.push(`  ${words[(d + f + l) % 10]} ${words[(l * 7 + f) % 10]}_${l} = compute(${d}, ${f}, ${l}); // line ${l}`);
      if ((d * 100 + f) % 997 === 0) lines.push(`  // TODO needle_rare in mod${d}/f${f}`);
      const text = lines.join("\n") + "\n";
      bytes += text.length;
      writeFileSync(join(dir, `f${f}.ts`), text);
    }
  }
  // a minified bundle: one 4.8 MB line with a match of the query below every 6 characters
  const bundle = `${'"a":1,'.repeat(800_000)}\n`;
  writeFileSync(join(root, "src", "bundle.min.js"), bundle);
  return bytes + bundle.length;
}

const QUERIES: [string, Record<string, unknown>][] = [
  ["rare literal", { pattern: "needle_rare" }],
  ["common word (cap 100)", { pattern: "handler" }],
  ["regex, case-insensitive", { pattern: "RESULT_\\d+ = compute\\(1\\d, ", ignore_case: true }],
  ["no match", { pattern: "zzz_nothing_here" }],
  ["800k matches on one line", { pattern: '"a"', path: "src/bundle.min.js" }],
];

async function grepBench(tree: string, cache: string) {
  const ctx: ToolContext = { cwd: tree, signal: new AbortController().signal };
  const host = hostTarget(
    process.platform,
    process.arch,
    Boolean((process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header?.glibcVersionRuntime),
  );
  const bytes = host && (await ripgrepBinary(host.ripgrep, { fetch: false }));
  if (!bytes) throw new Error("no @vscode/ripgrep for this machine in node_modules: run npm ci");
  const rg = new Blob([bytes]);
  let t0 = performance.now();
  const embedded = (await installRipgrep(rg, cache, process.platform === "win32"))!;
  const extract = performance.now() - t0;
  t0 = performance.now();
  await installRipgrep(rg, cache, process.platform === "win32");
  const verify = performance.now() - t0;
  const version = (rg: string) => Bun.spawnSync([rg, "--version"]).stdout.toString().split("\n")[0];
  console.log(
    `grep      embedded ripgrep (${version(embedded)}): first use writes ${mb(bytes.length)} to the cache in ${ms(extract)}; later processes verify it in ${ms(verify)}`,
  );

  const onPath = Bun.which("rg");
  const engines: [string, ReturnType<typeof createGrepTool>][] = [
    ["embedded rg", createGrepTool({ rg: embedded })],
    ["walker", createGrepTool({ rg: null })],
    ...(onPath ? [[`rg on PATH (${version(onPath)})`, createGrepTool({ rg: onPath })] as [string, ReturnType<typeof createGrepTool>]] : []),
  ];
  if (!onPath) console.log("grep      no rg on PATH: that column is left out");
  for (const [name, args] of QUERIES) {
    const cells: string[] = [];
    const outputs = new Set<string>();
    for (const [engine, tool] of engines) {
      await tool.run(args, ctx); // warm the page cache and the process
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const t = performance.now();
        outputs.add((await tool.run(args, ctx)).output);
        times.push(performance.now() - t);
      }
      cells.push(`${engine} ${ms(median(times))}`);
    }
    console.log(`grep      ${name.padEnd(24)} ${cells.join("   ")}   ${outputs.size === 1 ? "(same output)" : "(OUTPUTS DIFFER)"}`);
  }
}

/** The linux-x64 release binary: one grep through a mock model, PATH empty, a fresh cache. */
async function releaseBinaryGrep(tree: string, dir: string) {
  const bin = join(ROOT, "dist", builtName("linux-x64"));
  if (process.platform !== "linux" || process.arch !== "x64" || !existsSync(bin)) return console.log("release   dist/hey-linux-x64 not runnable here: skipped");
  const server = startReplayServer();
  try {
    server.enqueue(
      sseReply(
        sse([
          chatChunk({ toolCall: { index: 0, id: "c1", name: "grep", arguments: JSON.stringify({ pattern: "needle_rare" }) } }),
          chatChunk({ finish: "tool_calls" }),
        ]),
      ),
      sseReply(sse([chatChunk({ content: "ok" }), chatChunk({ finish: "stop" })])),
    );
    mkdirSync(join(dir, "empty"));
    const t0 = performance.now();
    const proc = Bun.spawn([bin, "--base-url", `${server.url}/v1`, "-m", "m", "-p", "grep"], {
      cwd: tree,
      env: { PATH: join(dir, "empty"), HOME: dir, XDG_CACHE_HOME: join(dir, "xdg") },
      stdout: "pipe",
      stderr: "pipe",
    });
    const [out, code] = await Promise.all([proc.stdout.text(), proc.exited]);
    const elapsed = performance.now() - t0;
    const tool =
      (server.requests[1]?.body as { messages: { role: string; content: string }[] } | undefined)?.messages.find((m) => m.role === "tool")?.content ?? "";
    const extracted = existsSync(join(dir, "xdg", "hey"));
    console.log(
      `release   dist/hey-linux-x64, PATH empty: exit ${code}, answer ${JSON.stringify(out.trim())}, grep found ${tool.split("\n").filter((l) => l.includes("needle_rare")).length} lines, embedded rg extracted: ${extracted}; whole run ${ms(elapsed)}`,
    );
  } finally {
    server.stop();
  }
}

/** Binary and archive per target, against a compiled hello-world of the same target packed alike. */
async function sizes(dir: string) {
  writeFileSync(join(dir, "hello.ts"), 'console.log("hello");\n');
  const when = new Date();
  console.log("size      target           hey binary  archive   |  hello binary  archive  |  hey adds: binary  archive");
  for (const t of TARGETS) {
    const hey = join(ROOT, "dist", builtName(t.id));
    const archive = join(ROOT, "dist", "release", assetName(t.id));
    if (!existsSync(hey) || !existsSync(archive)) {
      console.log(`size      ${t.id}: not built (run bun run build --all)`);
      continue;
    }
    const out = join(dir, `hello-${t.id}`);
    const p = Bun.spawn([process.execPath, "build", "--compile", "--minify", `--target=${t.bun}`, join(dir, "hello.ts"), "--outfile", out], {
      stdout: "ignore",
      stderr: "pipe",
    });
    if ((await p.exited) !== 0) throw new Error(await p.stderr.text());
    const helloFile = existsSync(out) ? out : `${out}.exe`;
    const hello = new Uint8Array(readFileSync(helloFile));
    const helloArchive = packAsset(t.id, hello, when).bytes.length;
    const [hb, ha] = [statSync(hey).size, statSync(archive).size];
    console.log(
      `size      ${t.id.padEnd(15)}  ${mb(hb).padStart(9)}  ${mb(ha).padStart(8)}  |  ${mb(hello.length).padStart(9)}  ${mb(helloArchive).padStart(8)}  |  ${mb(hb - hello.length).padStart(9)}  ${mb(ha - helloArchive).padStart(8)}`,
    );
  }
}

const dir = realpathSync(mkdtempSync(join(tmpdir(), "hey-bench-release-")));
try {
  const tree = join(dir, "tree");
  const t0 = performance.now();
  const bytes = generateTree(tree);
  console.log(`hey bench:release — ${new Date().toISOString()}, medians of ${RUNS} warm runs`);
  console.log(`tree      ${FILES.toLocaleString("en-US")} files, ${mb(bytes)} (1 directory in 7 .gitignored), made in ${ms(performance.now() - t0)}`);
  await grepBench(tree, join(dir, "cache"));
  await releaseBinaryGrep(tree, dir);
  await sizes(dir);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
