// How much of every request the instruction files may take. Each AGENTS.md, CLAUDE.md or imported
// file is cut at 32 KB (system.ts), but a CLAUDE.md importing twenty files of 40 KB each put 670 KB
// in the system prompt of "say hi", resent with every request. Together they may take a quarter of
// `[agent] budget_tokens` (at ~4 bytes a token: as many bytes as the budget has tokens), never less
// than one whole file. The rules nearest the work matter most: what is over goes first from the
// imports — a whole file at a time, the deepest, last ones first — and only then from the
// directories' own files, the farthest first, each cut to what is left (at a whole line, with a
// line saying where to read on) and left out only when under MIN_CUT_BYTES is left; the nearest
// directory's file is always kept. Said to the user once, to the model in a line. Pure:
// agents-md.ts reads, prompt/source.ts and nested-agents.ts apply this.
import { AGENTS_MD_MAX_BYTES, type AgentsFile } from "./system.ts";

/** The bytes instruction files may take of each request with a context budget of `budgetTokens`. */
export function instructionsMaxBytes(budgetTokens: number): number {
  return Math.max(AGENTS_MD_MAX_BYTES, budgetTokens);
}

/** Instruction files within the cap: those kept (some cut), in their order; when over, those left out with a line for the user and one for the model. */
export interface CappedInstructions {
  files: AgentsFile[];
  /** undefined when all fit. `note`: "" when no file was left out whole (a cut file says so where it is cut) */
  leftOut?: { files: AgentsFile[]; warning: string; note: string };
}

/** How many of the biggest files left out the warning names. */
const NAMED_MAX = 3;
/** A directory's file is cut to what is left of the share, unless less than this is: a few lines of a long file read as all of it. */
export const MIN_CUT_BYTES = 1024;

/** `files` (outermost first, each import after its importer) within `maxBytes` (`share` says what that is); `shown` writes a path for the user. Never throws. */
export function capInstructions(
  files: readonly AgentsFile[],
  maxBytes: number,
  shown: (path: string) => string = (p) => p,
  share = "a quarter of [agent] budget_tokens",
): CappedInstructions {
  const bytes = files.map((f) => utf8Size(f.text));
  const total = bytes.reduce((a, b) => a + b, 0);
  if (total <= maxBytes) return { files: [...files] };
  const byPath = new Map(files.map((f) => [f.path, f]));
  const depth = (f: AgentsFile): number => {
    let d = 0;
    for (let at: AgentsFile | undefined = f; at?.importedBy !== undefined && d <= files.length; at = byPath.get(at.importedBy)) d++;
    return d;
  };
  // imports first, deeper ones first, later ones first
  const imports = files.map((f, i) => ({ i, depth: depth(f) })).filter((x) => x.depth > 0);
  const dropped = new Set<number>();
  let kept = total;
  for (const { i } of imports.sort((a, b) => b.depth - a.depth || b.i - a.i)) {
    if (kept <= maxBytes) break;
    dropped.add(i);
    kept -= bytes[i]!;
  }
  const out = [...files];
  const cuts: string[] = [];
  if (kept > maxBytes) {
    // the directories' own files, nearest (last) first: each whole while it fits, then cut to what is left
    let left = maxBytes;
    let nearest = true;
    for (let i = files.length - 1; i >= 0; i--) {
      if (files[i]!.importedBy !== undefined) continue;
      if (bytes[i]! <= left) left -= bytes[i]!;
      else if (left >= MIN_CUT_BYTES || nearest) {
        out[i] = cutTo(files[i]!, left);
        cuts.push(`${unmistakable(shown(files[i]!.path))} to ${kb(utf8Size(out[i]!.text))} of its ${files[i]!.truncated ? "first " : ""}${kb(bytes[i]!)}`);
        left = Math.max(0, left - utf8Size(out[i]!.text));
      } else dropped.add(i);
      nearest = false;
    }
  }
  const gone = files.filter((_, i) => dropped.has(i));
  const biggest = [...dropped].sort((a, b) => bytes[b]! - bytes[a]!).slice(0, NAMED_MAX);
  const named = biggest.map((i) => `${unmistakable(shown(files[i]!.path))} (${kb(bytes[i]!)})`).join(", ");
  const more = dropped.size > biggest.length ? ` and ${dropped.size - biggest.length} more` : "";
  const said = [...(named ? [`left out: ${named}${more}`] : []), ...(cuts.length > 0 ? [`cut: ${cuts.join(", ")}`] : [])].join("; ");
  const warning =
    `instruction files (AGENTS.md, CLAUDE.md and their imports) come to ${kb(total)}, over the ${kb(maxBytes)} they may take of each request ` +
    `(${share}); ${said}. Trim them, or raise budget_tokens to let more in`;
  return { files: out.filter((_, i) => !dropped.has(i)), leftOut: { files: gone, warning, note: leftOutNote(gone) } };
}

/** The model's line for the files left out: imports to read when a task needs one, a directory's rules to read before changing anything there. */
function leftOutNote(gone: readonly AgentsFile[]): string {
  const imports = gone.filter((f) => f.importedBy !== undefined).map((f) => f.path);
  const own = gone.filter((f) => f.importedBy === undefined).map((f) => f.path);
  const lines = [
    ...(imports.length > 0 ? [`[Left out of these instructions for their size, to read with read_file when a task needs one: ${imports.join(", ")}]`] : []),
    ...(own.length > 0
      ? [
          `[Left out of these instructions for their size: ${own.join(", ")}, a directory's own rules; read it with read_file before you change anything below that directory]`,
        ]
      : []),
  ];
  return lines.join("\n");
}

/** `file` cut to at most `max` bytes, at its last whole line there, saying so (system.ts cutNote). */
function cutTo(file: AgentsFile, max: number): AgentsFile {
  const head = new TextDecoder().decode(new TextEncoder().encode(file.text).subarray(0, Math.max(0, max)));
  const end = head.lastIndexOf("\n");
  const text = (end > 0 ? head.slice(0, end) : head.replace(/\uFFFD$/, "")).trimEnd();
  return { ...file, text, truncated: true, cutAtLine: text === "" ? 0 : text.split("\n").length };
}

/** A path the user cannot take for another file: `./AGENTS.md` in the working directory, never a bare `AGENTS.md` that reads as the project's. */
const unmistakable = (path: string) => (/[/\\]/.test(path) ? path : `./${path}`);
/** The UTF-8 size of `text`, what the cap counts (counted, not encoded). */
export const utf8Size = (text: string) => Buffer.byteLength(text, "utf8");
const kb = (bytes: number) => `${Math.round(bytes / 1024)} KB`;
