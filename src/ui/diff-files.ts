// What `/diff` does with each changed file of a repository whose own config names a filter or a
// textconv driver (ui/diff-view.ts). Only the files whose attributes select such a driver are
// touched by it: a file a repository filter cleans is named, not shown, as only the filter shows it
// truthfully; a file with a repository textconv driver is shown as git's own bytes; every other file
// is diffed in full (before, one `git lfs install --local` turned all of /diff into a list of names).
// A driver the repository defines exactly as the user's own config does (`git lfs install` once
// globally and once `--local`) is the user's program, not the repository's: it runs, with the
// user's values. Pure.

/** A driver, as `.gitattributes` selects it: `filter=NAME` or `diff=NAME`. */
export interface Driver {
  kind: "filter" | "diff";
  name: string;
}

/** The filters and textconv drivers among `programs` (permission/repository-programs.ts keys: `filter.lfs.clean`, `diff.evil.textconv`), each once. */
export function driversOf(programs: string[]): Driver[] {
  const found = new Map<string, Driver>();
  for (const key of programs) {
    const driver = driverOf(key);
    // a diff driver's `command` never runs at /diff (`--no-ext-diff`); only its textconv does
    if (driver && (driver.kind === "filter" || key.endsWith(".textconv"))) found.set(`${driver.kind}.${driver.name}`, driver);
  }
  return [...found.values()];
}

/** The driver `key` (`filter.NAME.clean`, `diff.NAME.textconv`…) belongs to, if it is one. */
function driverOf(key: string): Driver | undefined {
  const [section, last] = [key.slice(0, key.indexOf(".")), key.lastIndexOf(".")];
  if ((section !== "filter" && section !== "diff") || last <= section.length) return undefined;
  return { kind: section, name: key.slice(section.length + 1, last) };
}

/** git's config scopes that are the user's (or the machine's), not the repository's: `--show-scope`'s words. */
const USER_SCOPES = new Set(["system", "global", "command"]);

/**
 * The git-lfs settings by which a repository's own config has the user's git-lfs run a program
 * (an extension's clean or smudge, a transfer agent) or keep its objects and reach its server
 * elsewhere: git-lfs reads them from the repository, whoever's filter runs it. `git lfs install
 * --local`, `git lfs fetch` and locking write none of them.
 */
const LFS_OWN =
  /^(lfs\.extension\..*\.(clean|smudge)|lfs\.customtransfer\..*\.(path|args)|lfs\.standalonetransferagent|lfs\.storage|lfs\.(push)?url|remote\..*\.lfs(push)?url)$/i;

/**
 * The keys of `programs` (permission/repository-programs.ts) that are the user's own, with the
 * user's values: those of a driver each of whose keys git takes in this repository at the user's
 * last value for it (the last value `listing` gives, `git config --list --show-scope -z
 * --includes`, is the one git takes). A driver with one key that is not (the repository sets it
 * alone, or to something else) keeps all its keys the repository's. None where the repository sets
 * one of git-lfs's programs or places (LFS_OWN). Given as command-scope config, these values then win in every repository git
 * reads at /diff, its submodules' too: what runs is always the user's own program.
 */
export function usersOwnKeys(listing: string, programs: string[]): [string, string][] {
  const user = new Map<string, string>();
  const last = new Map<string, string>();
  const words = listing.split("\0");
  let lfsSetHere = false;
  for (let i = 0; i + 1 < words.length; i += 2) {
    const record = words[i + 1]!;
    const cut = record.indexOf("\n");
    const [name, value] = cut < 0 ? [record, undefined] : [record.slice(0, cut), record.slice(cut + 1)];
    const users = USER_SCOPES.has(words[i]!);
    if (!users && LFS_OWN.test(name)) lfsSetHere = true;
    // a bare `key` with no `=` names no program: none is the user's then
    if (value === undefined) {
      last.delete(name);
      if (users) user.delete(name);
    } else {
      last.set(name, value);
      if (users) user.set(name, value);
    }
  }
  if (lfsSetHere) return []; // git-lfs, if the user's filter is it, would run or write where the repository says
  const keys = programs.filter((key) => driverOf(key));
  const mine = (key: string) => user.has(key) && user.get(key) === last.get(key);
  const theirs = new Set(keys.filter((key) => !mine(key)).map((key) => driverKey(driverOf(key)!)));
  return keys.filter((key) => !theirs.has(driverKey(driverOf(key)!))).map((key) => [key, user.get(key)!]);
}

const driverKey = (d: Driver) => `${d.kind}.${d.name}`;

/** A changed file: git's status letter (`M`, `A`, `D`…) and its path from the work tree's top. */
export interface Changed {
  status: string;
  path: string;
}

/** The files of `git diff --name-status --no-renames -z`. */
export function parseChanged(out: string): Changed[] {
  const words = out.split("\0");
  const changed: Changed[] = [];
  for (let i = 0; i + 1 < words.length; i += 2) changed.push({ status: words[i]!, path: words[i + 1]! });
  return changed;
}

/** The `filter` and `diff` attributes of each path, from `git check-attr -z filter diff` (`path\0attribute\0value\0`…). */
export function parseAttributes(out: string): Map<string, { filter?: string; diff?: string }> {
  const words = out.split("\0");
  const attributes = new Map<string, { filter?: string; diff?: string }>();
  for (let i = 0; i + 2 < words.length; i += 3) {
    const [path, name, value] = [words[i]!, words[i + 1]!, words[i + 2]!];
    if (name !== "filter" && name !== "diff") continue;
    attributes.set(path, { ...attributes.get(path), [name]: value });
  }
  return attributes;
}

/**
 * How /diff shows a file whose attributes are `attributes` (undefined: git gave none, which is
 * read as naming every filter and driver), given the repository's `drivers`: "diff", in full;
 * `{textconv}`, with `--no-textconv`, as its diff driver's textconv is the repository's; or
 * `{filter}`, named, not shown. `set`, `unset` and `unspecified` are check-attr's words for no
 * driver's name, unless the repository names a driver so.
 */
export function fileView(attributes: { filter?: string; diff?: string } | undefined, drivers: Driver[]): "diff" | { textconv: string } | { filter: string } {
  const names = (kind: Driver["kind"]) => drivers.filter((d) => d.kind === kind).map((d) => d.name);
  const pick = (kind: Driver["kind"]) => (attributes ? names(kind).find((name) => name === attributes[kind]) : names(kind).join(", ") || undefined);
  const filter = pick("filter");
  if (filter !== undefined) return { filter };
  const textconv = pick("diff");
  return textconv !== undefined ? { textconv } : "diff";
}

/** A changed file /diff does not diff in full, and the repository's driver that keeps it from it. */
export type Held = Changed & { driver: string };

/** The changed files sorted by fileView: those diffed in full, those shown as git's own bytes, and those named with their filter. */
export function sortChanged(changed: Changed[], attributes: ReturnType<typeof parseAttributes>, drivers: Driver[]) {
  const sorted = { diff: [] as string[], bytes: [] as Held[], named: [] as Held[] };
  for (const file of changed) {
    const view = fileView(attributes.get(file.path), drivers);
    if (view === "diff") sorted.diff.push(file.path);
    else if ("filter" in view) sorted.named.push({ ...file, driver: view.filter });
    else sorted.bytes.push({ ...file, driver: view.textconv });
  }
  return sorted;
}

/** A path as a pathspec git takes as it is, from the work tree's top, whatever directory git runs in. */
const literal = (path: string, exclude = false) => `:(top,literal${exclude ? ",exclude" : ""})${path}`;

const encoder = new TextEncoder();

/** Bytes of pathspecs given to one git at most: Linux takes 2 MB of arguments and environment in all. */
export const PATHSPEC_BYTES = 256 << 10;

/**
 * The pathspecs of each `git diff` that together show `include` and none of `exclude`, the other
 * changed files (all from the work tree's top): one call with the whole tree but `exclude` where
 * that is the shorter list (git matches each path against every pathspec), else `include` in as
 * many calls as PATHSPEC_BYTES takes. None where `include` is empty.
 */
export function pathspecCalls(include: string[], exclude: string[]): string[][] {
  if (include.length === 0) return [];
  const size = (specs: string[]) => specs.reduce((n, s) => n + encoder.encode(s).length + 1, 0);
  const excluding = [":(top)", ...exclude.map((path) => literal(path, true))];
  if (exclude.length < include.length && size(excluding) <= PATHSPEC_BYTES) return [excluding];
  const calls: string[][] = [[]];
  let bytes = 0;
  for (const spec of include.map((path) => literal(path))) {
    if (bytes + size([spec]) > PATHSPEC_BYTES && calls.at(-1)!.length > 0) calls.push([]), (bytes = 0);
    calls.at(-1)!.push(spec);
    bytes += size([spec]);
  }
  return calls;
}
