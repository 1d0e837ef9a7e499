// AGENTS.md files deeper in the project than the system prompt reaches (issue 26). The system
// prompt holds the files from the git root down to the working directory (agents-md.ts); a
// subdirectory's own file — `sub/AGENTS.md` when hey runs at the root, `../lib/AGENTS.md` from a
// sibling — is given to the model when a file tool first reads or writes something under it, as
// Claude Code does with nested CLAUDE.md files. It rides at the end of that tool's result, not in
// the system prompt: the system prompt must stay byte-identical within a run (issue 23), and a
// result is appended history the prompt cache keeps serving. Should pruning later drop that
// result (a duplicate read, compress, a summary), the next touch of the subtree brings the file
// back: it is given whenever it is not in what the model saw last — as the model saw it: a tool
// result's secrets are redacted (wire.ts), so the text is looked for redacted too. A write is held
// back at most once for the same rules in a run, so no change on their way to the model can hold
// every write back. A directory of a dependency
// (node_modules/next) or one git ignores (build/) holds no instructions of the user's: its file is
// not read, the model gets one line that it exists, the user one line, once (git-ignored.ts).
import { realpathSync, statSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { agentsPlaces, placedFiles, PROJECT_NAMES, readAgentsFiles, type AgentsFile } from "./agents-md.ts";
import { agentsHeading, cutNote } from "./system.ts";
import { notTheProjects } from "./git-ignored.ts";
import { capInstructions, instructionsMaxBytes } from "./instruction-cap.ts";
import { TOOL } from "../kernel/tool-names.ts";
import { isWithin } from "../fs/within.ts";
import { toolError, type Tool } from "../kernel/tool.ts";
import type { Message } from "../kernel/ir.ts";

/** What the model saw in its last request: `id` changes with every request (the view object), `has` looks for a text in it. */
export interface LastRequest {
  id: unknown;
  has(text: string): boolean;
}

/**
 * The request `id` that sent `messages` as a LastRequest: a text is looked for in their text parts
 * as `shownAs` turns it into (the redaction tool results go through).
 */
export function lastRequestOf(id: unknown, messages: readonly Message[] | undefined, shownAs: (text: string) => string): LastRequest {
  return {
    id,
    has(text) {
      const shown = shownAs(text);
      return messages?.some((m) => m.content.some((p) => p.type === "text" && p.text.includes(shown))) === true;
    },
  };
}

export interface NestedAgents {
  /**
   * The text to append to the result of a tool that touched `path` (absolute): the nested
   * AGENTS.md files above it that the model has not seen in `last` (nor been given since),
   * outermost first, each under its path; undefined when there are none. `write`: before a write
   * there, the files the model has not seen in `last` even when a call of this turn was given them
   * (it wrote the call before it could read them), and no line about a dependency's file — except
   * those a write was held back for once already this run. Never throws; a file that cannot be
   * read is a warning.
   */
  forPath(path: string, last: LastRequest, write?: boolean): { text: string; files: string[] } | undefined;
}

/** The section a nested file is given as: the system prompt's AGENTS.md header, and what it covers. */
export function nestedSection(file: AgentsFile): string {
  const covers = file.importedBy ? "" : ` (for files under ${dirname(file.path)}${sep})`; // an import follows its importer
  return `${agentsHeading(file)}${covers}:\n${file.text}${cutNote(file)}`;
}

/**
 * The nested AGENTS.md of the project hey runs in at `cwd`: directories inside the top of the
 * system prompt's chain (the git root, else `cwd`) that the chain does not hold, or whose file the
 * system prompt left out for its size. `warn`: a file left out (unreadable, a link out of the
 * project, a dependency's, over the share of `budgetTokens` instruction files may take:
 * instruction-cap.ts), once each. `inPrompt`: what the system prompt's instruction files leave of
 * that share now (PromptSource.instructions): a directory's files get that, at least
 * NESTED_MIN_BYTES; without it, the share of `budgetTokens`.
 */
export function createNestedAgents(opts: {
  cwd: string;
  configDir: string;
  warn(message: string): void;
  budgetTokens?: number;
  inPrompt?(): { left: number; leftOut: readonly string[] };
}): NestedAgents {
  const chain = agentsPlaces(opts.cwd, opts.configDir).slice(1); // the user's file is not the project's
  const top = chain[0]?.dir ?? opts.cwd;
  const inChain = new Set(chain.map((p) => p.dir));
  const inPrompt = placedFiles(chain); // a nested CLAUDE.md's `@../AGENTS.md` is in the system prompt already
  const warned = new Set<string>();
  /** sections given since the request `givenAfter`, which cannot show them yet (parallel calls of one turn) */
  let given = new Set<string>();
  let givenAfter: unknown;
  /** the sections a write was held back for this run, with the request it answered: given then, so no reason to hold back a write of a later turn */
  const heldFor = new Map<string, unknown>();
  const heldBefore = (text: string, last: LastRequest) => heldFor.has(text) && heldFor.get(text) !== last.id;
  /** `dir` is the top or below it (a root top, `/` or `C:\`, ends with its separator already) */
  const under = (dir: string) => isWithin(dir, top);

  return {
    forPath(path, last, write = false) {
      const real = realDir(path);
      if (real === undefined || !under(real)) return undefined;
      const prompt = opts.inPrompt?.() ?? { left: opts.budgetTokens ? instructionsMaxBytes(opts.budgetTokens) : Infinity, leftOut: [] };
      // a directory of the chain whose file the system prompt left out for its size: given here, as a deeper one's
      const missing = chain.filter((p) => p.names.some((n) => prompt.leftOut.includes(join(p.dir, n))));
      const unseen = new Set(missing.map((p) => p.dir));
      const dirs: string[] = [];
      // up to the top, which may be the file system's root (a container's WORKDIR /): dirname("/") is "/"
      for (let dir = real; under(dir); dir = dirname(dir)) {
        if (!inChain.has(dir) || unseen.has(dir)) dirs.unshift(dir);
        if (dir === top || dirname(dir) === dir) break;
      }
      if (dirs.length === 0) return undefined;
      // a directory of a dependency, or one git ignores (build output), holds no instructions of the user's: it is not even read
      const held = dirs.flatMap((dir) => {
        const place = { dir, names: PROJECT_NAMES, within: top };
        const file = placedFiles([place])[0];
        return file === undefined ? [] : [{ place, file, why: notTheProjects(dir, top) }];
      });
      if (held.length === 0) return undefined;
      const theirs = held.filter((h) => h.why !== undefined);
      const read = readAgentsFiles(
        held.filter((h) => h.why === undefined).map((h) => h.place),
        { shown: inPrompt.filter((f) => !placedFiles(missing).includes(f)) }, // never outside the project
      );
      // what the system prompt's files leave of the share (a CLAUDE.md importing twenty big files; a 20 KB file after 30 KB of them)
      const share = Math.max(prompt.left, NESTED_MIN_BYTES);
      const capped = capInstructions(read.files, share, (p) => relative(opts.cwd, p), "what the system prompt's leave of a quarter of [agent] budget_tokens");
      for (const w of [...read.warnings, ...(capped.leftOut ? [capped.leftOut.warning] : [])]) if (!warned.has(w)) warned.add(w), opts.warn(w);
      for (const t of theirs) {
        const line = `${relative(opts.cwd, t.file)}: ${t.why}, so not given to the model as instructions`;
        if (!warned.has(line)) warned.add(line), opts.warn(line);
      }
      if (givenAfter !== last.id) (given = new Set()), (givenAfter = last.id);
      const notes = theirs.map((t) => ({ file: undefined, text: `${t.file}: ${t.why}, not the user's instructions; not given.` }));
      const cut = capped.leftOut?.note ? [{ file: undefined, text: capped.leftOut.note }] : [];
      const sections = [...capped.files.map((f) => ({ file: f.path, text: nestedSection(f) })), ...cut, ...(write ? [] : notes)].filter(
        (s) => (write ? !heldBefore(s.text, last) : !given.has(s.text)) && !last.has(s.text),
      );
      if (sections.length === 0) return undefined;
      for (const s of sections) given.add(s.text), write && !heldFor.has(s.text) && heldFor.set(s.text, last.id);
      const files = sections.flatMap((s) => (s.file === undefined ? [] : [relative(opts.cwd, s.file) || s.file]));
      return { text: sections.map((s) => s.text).join("\n\n"), files };
    },
  };
}

/** What a directory's files given with a tool result may take however much the system prompt's take: the rules where the work is are never all left out. */
export const NESTED_MIN_BYTES = 8 * 1024;

/** The real directory `path` is in (itself when it is one), through links; for a path not created yet, its nearest existing parent. */
function realDir(path: string): string | undefined {
  for (let p = path; ; p = dirname(p)) {
    try {
      const real = realpathSync(p);
      return p === path && !statSync(real).isDirectory() ? dirname(real) : real;
    } catch {
      if (dirname(p) === p) return undefined;
    }
  }
}

/** Tools whose `path` argument names the file or directory they read or write: the ones that bring a nested AGENTS.md. */
const PATH_TOOLS = new Set<string>([TOOL.readFile, TOOL.writeFile, TOOL.edit, TOOL.grep]);
/** Tools that change the file at `path`: not applied before the model has that directory's instructions. */
const WRITE_TOOLS = new Set<string>([TOOL.writeFile, TOOL.edit]);

/**
 * `tool`, whose result ends with the nested AGENTS.md files above the path it touched that the
 * model has not seen, with a line for the user naming them. A write there (edit, write_file) is
 * not applied while the model has not seen them: its result gives them and asks for the call
 * again, in their light — as Claude Code has a file read before an edit, so its nested
 * CLAUDE.md comes first. One extra call, at most once per directory and run; the user sees one line, no rules
 * inside the diff.
 */
export function withNestedAgents(
  tool: Tool,
  nested: NestedAgents,
  pathOf: (path: string) => string,
  last: () => LastRequest,
  notice: (line: string) => void,
): Tool {
  if (!PATH_TOOLS.has(tool.name)) return tool;
  const pathIn = (args: Record<string, unknown>) => (typeof args.path === "string" && args.path !== "" ? pathOf(args.path) : undefined);
  return {
    ...tool,
    async run(args, ctx) {
      const path = pathIn(args);
      if (WRITE_TOOLS.has(tool.name)) {
        const rules = path === undefined ? undefined : nested.forPath(path, last(), true);
        if (!rules) return tool.run(args, ctx);
        notice(`hey: ${rules.files.join(", ")}: instructions for that directory, given to the model first; its ${tool.name} waits for the call after`);
        return toolError(
          `not applied: the instructions for this directory, below, come first; make this ${tool.name} call again in their light\n\n${rules.text}`,
        );
      }
      const result = await tool.run(args, ctx);
      const found = path === undefined ? undefined : nested.forPath(path, last());
      if (!found) return result;
      if (found.files.length > 0) notice(`hey: ${found.files.join(", ")}: instructions for that directory, given to the model with this ${tool.name} result`);
      return { ...result, output: `${result.output}\n\n${found.text}` };
    },
  };
}
