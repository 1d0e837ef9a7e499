// Size aims of STYLE.md as a check (run by .ci/run and `bun run check-sizes`): no source file
// over 400 lines, an adapter (one file per vendor SDK) over 450, and no folder of src/ holding
// more than about a fifth of the code. Prints every offender and exits 1 when there is one.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

const SRC = join(import.meta.dir, "..", "src");
const FILE_LIMIT = 400;
/** the four vendor adapters: one file per SDK holds its request mapping, stream mapping and errors */
const ADAPTERS = new Set(["providers/openai.ts", "providers/responses.ts", "providers/anthropic.ts", "providers/google.ts"]);
const ADAPTER_LIMIT = 450;
/** "~20 %": a folder past this share of src/ is a domain that should be split */
const FOLDER_SHARE = 0.22;

const files = readdirSync(SRC, { withFileTypes: true, recursive: true })
  .filter((e) => e.isFile() && e.name.endsWith(".ts"))
  .map((e) => relative(SRC, join(e.parentPath, e.name)));
const lines = new Map(files.map((f) => [f, readFileSync(join(SRC, f), "utf8").split("\n").length - 1]));
const total = [...lines.values()].reduce((a, b) => a + b, 0);

const problems: string[] = [];
for (const [file, n] of lines) {
  const limit = ADAPTERS.has(file) ? ADAPTER_LIMIT : FILE_LIMIT;
  if (n > limit) problems.push(`src/${file}: ${n} lines (limit ${limit}); split it by responsibility`);
}
const folders = new Map<string, number>();
for (const [file, n] of lines) if (file.includes("/")) folders.set(file.split("/")[0]!, (folders.get(file.split("/")[0]!) ?? 0) + n);
for (const [folder, n] of folders)
  if (n / total > FOLDER_SHARE) problems.push(`src/${folder}/: ${n} of ${total} lines (${((100 * n) / total).toFixed(1)} %, limit ${FOLDER_SHARE * 100} %)`);

const biggest = [...lines].sort((a, b) => b[1] - a[1]).slice(0, 3);
console.log(`sizes: ${files.length} files, ${total} lines; largest ${biggest.map(([f, n]) => `${f} ${n}`).join(", ")}`);
for (const p of problems) console.log(`  ${p}`);
process.exit(problems.length ? 1 : 0);
