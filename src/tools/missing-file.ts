// What read_file and edit do with a path that names no file: find the file when only the Unicode
// form of its name differs (a macOS-made `résumé.md` is stored decomposed, NFD; a model writes it
// composed, NFC), else say where hey looked and which files the model may have meant — the path
// taken from the project root instead of the working directory, a name that differs only in
// case, the same name elsewhere in the project — before suggesting to create one.
import { existsSync, readdirSync, type Stats } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, parse, relative, sep } from "node:path";
import { projectOf } from "../fs/root-probe.ts";
import { diskPath, namesIn } from "../fs/dir-names.ts";
import { CONTROL, readAsText, shownName } from "../fs/odd-names.ts";

// The same name elsewhere in the project is looked up by ripgrep, which lists 100,000 files in about
// 0.3 s with its ignore rules; without one, by a walk of the first files in path order.
const RG_MS = 1500; // ripgrep's listing is cut off after this (a home directory holding no project may be vast)
const WALK_FILES = 20_000; // files the walk looks at: a look costs little
const WALK_MS = 500; // and for no longer than this
const MEANT_MAX = 3; // files named as what the model may have meant

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

/**
 * The walk along `abs` that sameNameOnDisk and sameNameOnDiskSync take, reads left to the caller:
 * it yields each name with the directory it should be in and is answered with the name to go on
 * with (the name itself when it is there, one of the directory's in another Unicode form, or
 * undefined: none). Returns the path found when it differs from `abs`.
 */
function* sameNameWalk(abs: string): Generator<{ dir: string; name: string }, string | undefined, string | undefined> {
  const { root } = parse(abs);
  let found = root;
  for (const name of abs
    .slice(root.length)
    .split(sep)
    .filter((n) => n !== "")) {
    const next = yield { dir: found, name };
    if (next === undefined) return undefined;
    found = join(found, next);
  }
  return found === abs ? undefined : found;
}

/**
 * The file `abs` names when it is not there as written but one is whose path differs only in the
 * Unicode normalization (NFC or NFD) of its names, as macOS makes them alike; undefined when none.
 * Reads only the directories along the path.
 */
async function sameNameOnDisk(abs: string): Promise<string | undefined> {
  const walk = sameNameWalk(abs);
  for (let step = walk.next(); ; ) {
    if (step.done) return step.value;
    const { dir, name } = step.value;
    step = walk.next((await exists(join(dir, name))) ? name : sameName(await readdir(dir).catch(() => [] as string[]), name));
  }
}

/** The one of `entries` that is `name` in another Unicode form (NFC or NFD), or undefined. */
const sameName = (entries: string[], name: string) => entries.find((entry) => entry.normalize("NFC") === name.normalize("NFC"));

/** sameNameOnDisk, synchronous: for a user's `@` mention (prompt/input.ts), read as the message is sent. */
export function sameNameOnDiskSync(abs: string): string | undefined {
  const list = (dir: string) => {
    try {
      return readdirSync(dir);
    } catch {
      return [];
    }
  };
  const walk = sameNameWalk(abs);
  for (let step = walk.next(); ; ) {
    if (step.done) return step.value;
    const { dir, name } = step.value;
    step = walk.next(existsSync(join(dir, name)) ? name : sameName(list(dir), name));
  }
}

/** What stat says of `abs`, or, when it is not there, of the file sameNameOnDisk finds (then named by `abs`). */
export async function statNamed(abs: string): Promise<{ abs: string; info: Stats | NodeJS.ErrnoException }> {
  const info = await stat(diskPath(abs)).catch((e: NodeJS.ErrnoException) => e);
  const named = info instanceof Error && info.code === "ENOENT" ? await sameNameOnDisk(abs) : undefined;
  return named ? { abs: named, info: await stat(named).catch((e: NodeJS.ErrnoException) => e) } : { abs, info };
}

/** What read_file says of `path` found at `abs` by sameNameOnDisk: the form its name has on disk, which a command must use. */
export const otherForm = (path: string, abs: string) =>
  `[${path} is not there as written: this is ${abs}, whose name is the same in another Unicode form (${abs.normalize("NFD") === abs ? "NFD, decomposed, as macOS writes names" : "NFC, composed"}); a command must name it so]`;

/**
 * How the project is searched for a name: `rg`, the ripgrep to ask (`[tools] rg`; null: none, a walk
 * looks; default: as grep finds one, tools/ripgrep.ts), and `cacheDir`, where the embedded one is written.
 */
export interface NameLookup {
  rg?: string | null;
  cacheDir?: string;
}

/**
 * The tool error for `path` (as the model gave it) naming no file at `abs`, relative paths being
 * under `cwd`: `file not found`, where hey looked, and up to MEANT_MAX files it may have meant,
 * as paths the model can give; then `hint` (edit: how to create the file) when there are none.
 */
export async function fileNotFound(path: string, abs: string, cwd: string, home: string, hint = "", lookup: NameLookup = {}): Promise<string> {
  const project = projectOf(home)(cwd);
  const { files: meant, more } = await meantFiles(path, abs, cwd, project, async () => {
    const { ripgrepFor } = await import("./ripgrep.ts"); // loaded only now: most runs never miss a file
    return ripgrepFor(lookup.rg, home, lookup.cacheDir);
  });
  const looked = `file not found: ${path} (looked for ${abs})`;
  if (meant.length === 0) return looked + hint;
  const shown = (file: string) => {
    const rel = relative(cwd, file);
    return isAbsolute(rel) || relative(project, file).startsWith("..") ? file : rel; // in the project: as the model would write it
  };
  // so the model knows the list is not all of them, and that a guess among them may be wrong
  const rest = more > 0 ? ` (and ${more} more named ${basename(abs)}: narrow the path)` : "";
  const first = shown(meant[0]!);
  if (meant.length === 1) return `${looked}; did you mean ${first}${first === meant[0] ? "" : ` (${meant[0]})`}${rest}?`;
  return `${looked}; did you mean one of: ${meant.map(shown).join(", ")}${rest}?`;
}

/**
 * Files the model may have meant by `path`, at most MEANT_MAX, nearest first, none twice: the path
 * from a directory above, the name in another case beside it, then the same name anywhere in the
 * project ranked by closeness to `abs` (nearerFirst); `more`: how many more of those there are.
 */
async function meantFiles(
  path: string,
  abs: string,
  cwd: string,
  project: string,
  ripgrep: () => Promise<string | null>,
): Promise<{ files: string[]; more: number }> {
  const out: string[] = [];
  const add = (file: string) => {
    if (out.length < MEANT_MAX && !out.includes(file)) out.push(file);
  };
  // a path relative to the project root (or a directory between it and the working directory)
  if (!isAbsolute(path) && !path.startsWith("~"))
    for (let dir = cwd; dir !== project && dirname(dir) !== dir; ) {
      dir = dirname(dir);
      if (await isFile(join(dir, path))) add(join(dir, path));
    }
  // the name in another case in the same directory, or with bytes that are not UTF-8 read as U+FFFD or as Windows-1252
  const name = basename(abs);
  const key = (n: string) => n.normalize("NFC").toLowerCase();
  const like = (entry: string) => {
    if (key(entry) === key(name)) return true;
    const text = readAsText(entry);
    return text !== undefined && (text.lossy === name || key(text.latin) === key(name));
  };
  for (const entry of await namesIn(dirname(abs)))
    if (entry !== name && like(entry) && (await isFile(join(dirname(abs), entry)))) add(join(dirname(abs), entry));
  // the name anywhere in the project (the walker loaded only now: most runs never miss a file)
  const { ALWAYS_SKIP, walkFiles } = await import("./walk.ts");
  const rg = await ripgrep();
  let found = rg ? await listedLike(rg, project, ALWAYS_SKIP, like) : undefined;
  if (!found) {
    found = [];
    const stop = new AbortController();
    const timer = setTimeout(() => stop.abort(), WALK_MS);
    let looked = 0;
    for await (const file of walkFiles(project, stop.signal)) {
      if (like(basename(file))) found.push(file);
      if (++looked >= WALK_FILES) stop.abort();
    }
    clearTimeout(timer);
  }
  const elsewhere = nearerFirst(
    abs,
    found.filter((file) => file !== abs && !out.includes(file)),
  );
  for (const file of elsewhere) add(file);
  return { files: out, more: elsewhere.length - elsewhere.filter((file) => out.includes(file)).length };
}

/**
 * `files` (absolute paths) ordered by how close each is to `asked`, the path the model gave: most
 * directory names shared in the same order first (`packages/pkg150/src/mod3/file7` is nearest
 * `packages/pkg150/src/mod3/sub/file7`, not `packages/pkg0/…`), then most shared at the end and
 * at the start, then fewest other directories, then path order. In a monorepo every package has
 * its own index file: the first few in path order would be another package's. Pure.
 */
export function nearerFirst(asked: string, files: readonly string[]): string[] {
  const dirs = (file: string) =>
    dirname(file)
      .split(sep)
      .filter((d) => d !== "");
  const want = dirs(asked);
  const rank = (file: string) => {
    const have = dirs(file);
    let start = 0;
    while (start < want.length && start < have.length && want[start] === have[start]) start++;
    let end = 0;
    while (end < want.length && end < have.length && want[want.length - 1 - end] === have[have.length - 1 - end]) end++;
    const shared = inOrder(want, have);
    return [shared, end, start, -(have.length - shared)];
  };
  const ranked = files.map((file) => ({ file, rank: rank(file), order: file.replaceAll(sep, "\0") })); // a directory's files before the next name's
  return ranked
    .sort((a, b) => {
      for (let i = 0; i < a.rank.length; i++) if (a.rank[i] !== b.rank[i]) return b.rank[i]! - a.rank[i]!;
      return a.order < b.order ? -1 : a.order > b.order ? 1 : 0;
    })
    .map((r) => r.file);
}

/** How many of `a`'s names `b` holds in the same order (the longest common subsequence). */
function inOrder(a: readonly string[], b: readonly string[]): number {
  let row = new Array<number>(b.length + 1).fill(0);
  for (const name of a) {
    const next = [0];
    for (let j = 0; j < b.length; j++) next.push(name === b[j] ? row[j]! + 1 : Math.max(row[j + 1]!, next[j]!));
    row = next;
  }
  return row[b.length]!;
}

/**
 * The files under `project` whose name is `like` the one looked for, as ripgrep
 * lists the project's files (its ignore rules, dotfiles, not the `skip` names); what it listed in
 * RG_MS when it takes longer. Undefined when ripgrep could not run.
 */
async function listedLike(rg: string, project: string, skip: readonly string[], like: (name: string) => boolean): Promise<string[] | undefined> {
  const found: string[] = [];
  const take = (path: Uint8Array) => {
    const name = path.subarray(path.lastIndexOf(SLASH) + 1);
    if (like(shownName(name))) found.push(join(project, shownName(path)));
  };
  const { listFiles } = await import("./project-files.ts"); // loaded only when a file is missing
  if (!(await listFiles(rg, project, skip, RG_MS, take))) return undefined;
  return found;
}
const SLASH = 0x2f;

/**
 * Why write_file does not create the file `path` (as the model gave it) names at `abs`, or undefined:
 * its name holds a control character, written or escaped (`docs\notes.md` has `\n`, a newline, when
 * a backslash does not separate directories), or it is the name of a file beside it as a program
 * reading names as UTF-8 shows it (replacedName).
 */
export async function creationRefusal(path: string, abs: string): Promise<string | undefined> {
  const disk = diskPath(abs);
  const name = basename(typeof disk === "string" ? disk : disk.toString("latin1"));
  if (CONTROL.test(name))
    return `write_file: ${shownName(Buffer.from(path))} would create a file whose name holds a control character (\\n, \\t, \\r and \\xHH are how hey writes those); give the name without it; not written`;
  const right = await replacedName(abs);
  if (right)
    return `write_file: ${path} is ${join(dirname(path), right)} as a program reading names as UTF-8 shows it (each \\xHH is a byte that is not UTF-8); give that name; not written`;
  return undefined;
}

/**
 * The name (as hey writes it, fs/odd-names.ts) of the file beside `abs` whose name is not UTF-8 and
 * reads as `abs`'s when each such byte is read as U+FFFD, as `ls` or `cat` in a UTF-8 terminal show
 * it; undefined when `abs`'s name has no U+FFFD or no file beside it reads so.
 */
async function replacedName(abs: string): Promise<string | undefined> {
  const name = basename(abs);
  if (!name.includes("\uFFFD")) return undefined;
  return (await namesIn(dirname(abs))).find((entry) => readAsText(entry)?.lossy === name);
}

const isFile = (path: string) =>
  stat(diskPath(path)).then(
    (s) => s.isFile(),
    () => false,
  );
