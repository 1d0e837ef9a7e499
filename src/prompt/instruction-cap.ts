// How much of every request the instruction files may take. Each AGENTS.md, CLAUDE.md or imported
// file is cut at 32 KB (system.ts), but a CLAUDE.md importing twenty files of 40 KB each put 670 KB
// in the system prompt of "say hi", resent with every request. Together they may take a quarter of
// `[agent] budget_tokens` (at ~4 bytes a token: as many bytes as the budget has tokens), never less
// than one whole file; what is over is left out a whole file at a time — the deepest, last imports
// first, then the deepest directory's file — and named, to the user once and to the model in a line
// (it can read one when a task needs it). Pure: agents-md.ts reads, prompt/source.ts and
// nested-agents.ts apply this.
import { AGENTS_MD_MAX_BYTES, type AgentsFile } from "./system.ts";

/** The bytes instruction files may take of each request with a context budget of `budgetTokens`. */
export function instructionsMaxBytes(budgetTokens: number): number {
  return Math.max(AGENTS_MD_MAX_BYTES, budgetTokens);
}

/** Instruction files within the cap: those kept, in their order; those left out with a line for the user and one for the model. */
export interface CappedInstructions {
  files: AgentsFile[];
  /** undefined when all fit */
  leftOut?: { files: AgentsFile[]; warning: string; note: string };
}

/** How many of the biggest files left out the warning names. */
const NAMED_MAX = 3;

/** `files` (outermost first, each import after its importer) within `maxBytes`; `shown` writes a path for the user. Never throws. */
export function capInstructions(files: readonly AgentsFile[], maxBytes: number, shown: (path: string) => string = (p) => p): CappedInstructions {
  const bytes = files.map((f) => new TextEncoder().encode(f.text).length);
  const total = bytes.reduce((a, b) => a + b, 0);
  if (total <= maxBytes) return { files: [...files] };
  const byPath = new Map(files.map((f) => [f.path, f]));
  const depth = (f: AgentsFile): number => {
    let d = 0;
    for (let at: AgentsFile | undefined = f; at?.importedBy !== undefined && d <= files.length; at = byPath.get(at.importedBy)) d++;
    return d;
  };
  // imports before the files of a directory, deeper ones first, later ones first
  const order = files.map((f, i) => ({ i, depth: depth(f) })).sort((a, b) => b.depth - a.depth || b.i - a.i);
  const dropped = new Set<number>();
  let kept = total;
  for (const { i } of order) {
    if (kept <= maxBytes) break;
    dropped.add(i);
    kept -= bytes[i]!;
  }
  const out = files.filter((_, i) => dropped.has(i));
  const biggest = [...dropped].sort((a, b) => bytes[b]! - bytes[a]!).slice(0, NAMED_MAX);
  const named = biggest.map((i) => `${shown(files[i]!.path)} (${kb(bytes[i]!)})`).join(", ");
  const more = dropped.size > biggest.length ? ` and ${dropped.size - biggest.length} more` : "";
  const warning =
    `instruction files (AGENTS.md, CLAUDE.md and their imports) come to ${kb(total)}, over the ${kb(maxBytes)} they may take of each request ` +
    `(a quarter of [agent] budget_tokens); left out: ${named}${more}. Trim them, or raise budget_tokens to let more in`;
  const note = `[Left out of these instructions for their size, to read with read_file when a task needs one: ${out.map((f) => f.path).join(", ")}]`;
  return { files: files.filter((_, i) => !dropped.has(i)), leftOut: { files: out, warning, note } };
}

const kb = (bytes: number) => `${Math.round(bytes / 1024)} KB`;
