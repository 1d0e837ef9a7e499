// The grep tool's search (SPEC §7): grep.ts holds the tool (its description and arguments) and
// loads this file at the first grep call, so a run that never searches does not load it. ripgrep
// does the work when it is installed or inside the binary (ripgrep.ts); otherwise a built-in walker
// (walk.ts) does. Both feed the same collector and formatter, and ripgrep runs with flags that make
// it see the same files, so the model gets the same text either way:
//   --hidden                  dotfiles are searched (.github/, .env.example…); ALWAYS_SKIP is not
//   ignore files              ripgrep's own: .gitignore, .ignore, .rgignore, .git/info/exclude; git's
//                             global excludes file as git finds it (fs/ignore-files.ts), for both
//   --crlf --encoding auto    `$` matches before CRLF; a byte-order mark is no text (`^` matches after
//                             it) and a UTF-16 file with one is searched as text; other bytes as they are
//   binary files              any other file with a NUL byte is dropped (ripgrep warns when it finds
//                             one after a match)
//   context                   taken from ripgrep's context lines, cut to the shown matches here;
//                             no `--` between groups: the line numbers say where one ends
//   long lines                ripgrep leaves out lines over RG_MAX_COLUMNS; they are read from the file
//   permission rules          a file they keep from grep (ToolContext.refusedFile) is passed by in both, and
//                             counted (grep-left-out.ts), never named
// Patterns are compiled as JS regexes first (grep-regex.ts: so a bad pattern fails the same way in
// both); one ripgrep's Rust dialect rejects (look-around, backreferences) runs with ripgrep's PCRE2,
// which writes those as JavaScript does, and on the built-in path only when PCRE2 rejects it too or
// this ripgrep has none.
import { stat } from "node:fs/promises";
import { dirname, isAbsolute, relative, resolve, sep } from "node:path";
import { resolveUserPath } from "../fs/user-path.ts";
import { type ToolContext, type ToolResult, toolError } from "../kernel/tool.ts";
import { globFilter } from "./grep-glob.ts";
import { hasPcre2, ripgrepFor } from "./ripgrep.ts";
import { rgScope, type Search, searchWithRg } from "./grep-ripgrep.ts";
import { countLeftOut, dropKept, ignoredDirs, keptFromGrep, type LeftOut, leftOutNote } from "./grep-left-out.ts";
import { scopeOf, walkFiles } from "./walk.ts";
import { kernelDirsIn, mountTable, rgKeptOut } from "./kernel-dirs.ts";
import { globalExcludes } from "../fs/ignore-files.ts";
import { errorText } from "../kernel/errors.ts";
import { binaryNote, type Collector, createCollector, createHits, format, ignoredNote, reasonOf, unreadableNote } from "./grep-results.ts";
import { binaryMatches, isBinaryFile, readLines } from "./file-lines.ts";
import type { Query } from "./grep-args.ts";
import { bareClassNote, compilePattern } from "./grep-regex.ts";
import { diskPath } from "../fs/dir-names.ts";
import { notRegularFile, unsearchedKernelPath } from "../fs/special-files.ts";
import { procPath } from "../fs/mounts.ts";
import { realTarget } from "../fs/real-target.ts";
import { writtenPattern } from "./written-pattern.ts";

export interface GrepToolOptions {
  /** the ripgrep binary; null forces the built-in walker; default: `rg` on PATH, else the embedded one */
  rg?: string | null;
  /** what a leading `~` in `path` means (default: the user's home) */
  home?: string;
  /** ripgrep's environment: the one the model's commands get, without API keys (default: hey's) */
  env?: Record<string, string | undefined>;
  /** where the embedded ripgrep is written on first use (default: hey's cache dir, fs/places.ts) */
  cacheDir?: string;
}

/**
 * The grep tool's answer to a checked `query` (grep-args.ts parseArgs); `home` is what a leading
 * `~` in its path means. Errors are results, never thrown.
 */
export async function searchFiles(query: Query, ctx: ToolContext, options: GrepToolOptions & { home: string }): Promise<ToolResult> {
  // looked up on each search, not at start-up (a PATH scan on every run otherwise): the embedded
  // ripgrep is checked again before each use (ripgrep.ts), since something may have rewritten it
  const { rg, home } = options;
  const { pattern, glob, ignoreCase, context, cap } = query;
  const where = query.path ?? ".";

  let regex: RegExp;
  try {
    regex = compilePattern(pattern, ignoreCase);
  } catch (e) {
    return toolError(`grep: invalid regex ${writtenPattern(pattern)}: ${errorText(e)}`);
  }
  const show = (abs: string) => display(abs, ctx.cwd);

  const at = resolveUserPath(where, ctx.cwd, home);
  if ("error" in at) return toolError(`grep: ${at.error}`);
  const root = at.abs;
  const info = await stat(diskPath(root)).catch(() => undefined);
  if (!info) return toolError(`path not found: ${where}`);
  // named, ripgrep and the built-in search would open it and read on forever (a FIFO with no
  // writer, /dev/zero); walking a directory, both pass such files by, as they pass links by
  const real = realTarget(root);
  if (!info.isFile() && !info.isDirectory()) return toolError(notRegularFile(where, info, real !== root ? real : undefined));
  const mounts = await mountTable();
  const kernel = unsearchedKernelPath(procPath(real, mounts), info.isDirectory());
  if (kernel) return toolError(`${where}${real !== where ? ` (${real})` : ""} is ${kernel}`);
  const filter = glob === undefined ? undefined : await globFilter(glob, { root, rootDir: info.isFile() ? dirname(root) : root, cwd: ctx.cwd }, isDir);
  if (glob !== undefined && !filter) return toolError(`grep: invalid glob ${JSON.stringify(glob)}`);
  // /proc and /sys below a searched directory (`/`) are never entered (kernel-dirs.ts), and
  // nothing in them is named should a ripgrep go in all the same: a match count on
  // /proc/PID/environ told a key a guess at a time
  const away = info.isDirectory() ? (await kernelDirsIn(root, real, mounts)).map((dir) => resolve(dir)) : [];
  const searched = (abs: string) => !away.some((dir) => abs.startsWith(`${dir}/`)) && (!filter || filter.keep(abs));
  // a file the permission rules keep from grep (a `.env` under `deny = ["grep: **/.env"]`) is passed by, and counted
  const refused = ctx.refusedFile;
  if (refused && info.isFile() && refused(root)) return toolError(`blocked by permission rules: grep of \`${where}\` is a file the rules keep from grep`);
  const leftOut: LeftOut = new Set();
  const keep = !refused ? searched : (abs: string) => searched(abs) && !(refused(abs) && leftOut.add(abs));
  const rgGlob = filter ?? { rgArgs: [], rgPaths: [root] };
  const rgAway = await rgKeptOut(root, real, rgGlob.rgPaths, ctx.cwd, mounts);
  if (info.isFile() && keep(root) && (await isBinaryFile(root).catch(() => false))) return await namedBinary(root, where, pattern, regex, ctx.signal);

  const scope = scopeOf(root, ctx.cwd);
  const global = scope.gitignore ? await globalExcludes(options.env ?? process.env, home, ctx.cwd, root) : undefined;
  if (global?.rules) scope.global = global.rules;
  const search = {
    root,
    scope,
    isFile: info.isFile(),
    regex,
    pattern,
    ignoreCase,
    context,
    rgGlob: { rgArgs: [...rgGlob.rgArgs, ...rgAway.args], rgPaths: rgAway.paths },
    rgExcludes: global?.rgArgs ?? [],
    cap,
    keep,
    show,
  };
  // a path named by bytes that are not UTF-8 cannot be given to ripgrep: the built-in search reads it
  const bin = diskPath(root) !== root ? null : await ripgrepFor(rg, home, options.cacheDir);
  // ripgrep names only the files that match: the files the rules keep out are counted from a listing, made while it searches
  const listing = bin && refused && !info.isFile() ? new AbortController() : undefined;
  const listed: LeftOut = new Set();
  const counted = listing
    ? countLeftOut(
        bin!,
        { scope: rgScope(search), paths: search.rgGlob.rgPaths, cwd: ctx.cwd, env: options.env, signal: AbortSignal.any([ctx.signal, listing.signal]) },
        searched,
        refused!,
        listed,
      )
    : undefined;
  let found = bin ? await searchWithRg(bin, search, ctx, options.env) : undefined;
  // a pattern ripgrep's own engine rejects (look-around, backreferences): PCRE2 reads those as
  // JavaScript does, at ripgrep's speed (the built-in walker took 20 s where it takes 2 in 100k files)
  if (bin && !found && !ctx.signal.aborted && (await hasPcre2(bin, options.env))) found = await searchWithRg(bin, { ...search, pcre2: true }, ctx, options.env);
  if (found && counted) {
    await counted;
    leftOut.clear(); // the listing's count alone: the matches ripgrep named depend on what the files hold
    for (const abs of listed) leftOut.add(abs);
  } else listing?.abort(); // ripgrep did not finish: the walk meets every file and counts them itself
  if (!found && !ctx.signal.aborted) {
    leftOut.clear();
    found = await searchBuiltin(search, ctx.signal);
  }
  if (!found || ctx.signal.aborted) return toolError("grep interrupted");
  const kept = keptFromGrep(refused); // counted, never named, even when grep could not read it (a mode-000 .env)
  const folders: LeftOut = new Set(); // folders left out are counted as folders, not files
  found.unreadable = await dropKept(found.unreadable, ctx.cwd, kept, leftOut, folders);
  // a line never holds a line break: a pattern asking for one cannot match, whatever the files hold
  const multiline = /\n|\\n|\\r/.test(pattern.replace(/\[(?:\\.|[^\]])*\]/g, ""))
    ? "; grep matches one line at a time, so a pattern with \\n never matches: search for one of its lines"
    : "";
  const binary = binaryNote(found);
  const none = `no matches for ${writtenPattern(pattern)} in ${where}${glob ? ` (glob ${glob})` : ""}${binary}${multiline}`;
  const text = found.total > 0 ? `${format(found, cap, context)}${binary ? `\n${binary}` : ""}` : none;
  // nothing found: the directories left out may hold it (a library's code in node_modules, a build/)
  const ignored = found.total === 0 && !info.isFile() && !multiline ? ignoredNote((await ignoredDirs(root, scope, (abs) => kept(abs, folders))).map(show)) : "";
  return { output: [text, leftOutNote(leftOut.size, folders.size), unreadableNote(found), bareClassNote(pattern), ignored].filter(Boolean).join("\n") };
}

/**
 * grep's answer for a binary file named in `path`: whether its lines match and how many, as
 * ripgrep's `--binary` search cuts them (at each "\n" and NUL byte), never the lines.
 */
async function namedBinary(abs: string, where: string, pattern: string, regex: RegExp, signal: AbortSignal) {
  let n: number;
  try {
    n = await binaryMatches(abs, regex, signal);
  } catch (e) {
    return toolError(`cannot read ${where}: ${reasonOf(e)}`);
  }
  if (signal.aborted) return toolError("grep interrupted");
  if (n === 0) return { output: `no matches for ${writtenPattern(pattern)} in ${where} (a binary file)` };
  return {
    output: `binary file ${where} matches ${writtenPattern(pattern)}: ${n} ${n === 1 ? "line" : "lines"} (cut at line breaks and NUL bytes), not shown`,
  };
}

const isDir = async (path: string) => (await stat(path).catch(() => undefined))?.isDirectory() === true;

/** Paths in results: relative to the project root when inside it, `/`-separated. */
function display(abs: string, cwd: string): string {
  const rel = relative(cwd, abs);
  const path = rel === "" ? "." : rel.startsWith("..") || isAbsolute(rel) ? abs : rel;
  return sep === "/" ? path : path.replaceAll(sep, "/");
}

async function searchBuiltin(search: Search, signal: AbortSignal): Promise<Collector> {
  const found = createCollector(search.cap, search.context);
  const unreadable = (abs: string, e: unknown) => found.unreadable.push({ path: search.show(abs), why: reasonOf(e) });
  const files = search.isFile ? [search.root] : walkFiles(search.root, signal, unreadable, search.scope);
  for await (const abs of files) {
    if (signal.aborted) break;
    const path = search.show(abs);
    if (!search.keep(abs)) continue;
    // read a chunk at a time, so a file of any size costs little memory (logs, dumps, datasets)
    const file = createHits(path, search.regex, search.cap, search.context);
    const read = await readLines(abs, file.line, signal).catch((e: unknown) => void unreadable(abs, e));
    if (read === "text") found.add(file.hits);
    // as ripgrep's --binary: a file with a NUL is left out, and named when it matches anywhere
    else if (read === "binary" && (await binaryMatches(abs, search.regex, signal, true).catch(() => 0)) > 0) found.binary.push(path);
  }
  return found;
}
