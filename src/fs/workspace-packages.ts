// The packages of a workspace whose root is a directory, for the deny checks (SPEC §8): an install
// at a workspace's root (or in one of its packages) runs the lifecycle scripts of every package it
// declares — npm 11.19 and bun 1.4.5 ran each package's preinstall…prepare — so their package.json
// is read too. The packages are the directories the globs of package.json's `workspaces` (an
// array, or yarn's `{ "packages": [...] }`) and of pnpm-workspace.yaml's `packages` name. A glob
// segment with `*` and `?` is matched against the directory's entries; a `**` segment (pnpm's own
// example has `components/**`) is the directory and every directory below it, but node_modules and
// hidden ones (as pnpm and npm leave them out), up to MAX_WALKED; `[…]`, `{…}` and a `**` inside a
// segment are not expanded, so they give why the packages are unknown, as does a read that does not
// answer in time (fs/bounded-reads.ts). An exclusion (`!…`) is not applied: more packages read
// refuse more, never less.
import { join } from "node:path";
import { boundedHead, boundedList, boundedLstat, Hung } from "./bounded-reads.ts";
// package.json read as package-scripts.ts reads it: within one check the same read is answered once (bounded-reads.ts)
import { MAX_BYTES } from "./package-scripts.ts";

const MAX_PACKAGES = 500; // directories matched before the checker stops counting
const MAX_WALKED = 2000; // directories a `**` lists, in all, before the checker stops walking

/** The absolute directories a workspace rooted at the absolute `dir` declares (none when it is no workspace's root), or why they are unknown. */
export function workspacePackages(dir: string): string[] | { unknown: string } {
  try {
    const globs = [...packageGlobs(dir), ...pnpmGlobs(dir)];
    const out = new Set<string>();
    for (const glob of globs) {
      if (typeof glob !== "string") return { unknown: "its workspaces name a package that is not a string" };
      if (glob.startsWith("!")) continue;
      const parts = glob
        .replace(/^\.\//, "")
        .split("/")
        .filter((p) => p && p !== ".");
      if (parts.some((p) => p === ".." || (p !== "**" && /\*\*|[[\]{}]/.test(p))))
        return { unknown: `its workspaces pattern \`${glob}\` is not one hey expands` };
      let dirs = [dir];
      for (const part of parts) {
        if (part === "**") {
          const all = dirs.flatMap((d) => [d, ...below(d)]);
          if (all.length > MAX_WALKED) return { unknown: `its workspaces pattern \`${glob}\` names more than ${MAX_WALKED} directories, more than hey reads` };
          dirs = all;
          continue; // directories, not yet packages: counted once those with a package.json are kept
        } else if (!/[*?]/.test(part)) dirs = dirs.map((d) => join(d, part));
        else {
          const like = new RegExp(
            `^${part
              .replace(/[.+^$()|\\]/g, "\\$&")
              .replace(/\*/g, "[^/]*")
              .replace(/\?/g, "[^/]")}$`,
          );
          dirs = dirs.flatMap((d) =>
            listed(d)
              .filter((n) => like.test(n) && !n.startsWith("."))
              .map((n) => join(d, n)),
          );
        }
        if (dirs.length > MAX_PACKAGES) return { unknown: `its workspaces name more than ${MAX_PACKAGES} packages, more than hey reads` };
      }
      for (const d of parts.includes("**") ? dirs.filter(hasPackageJson) : dirs) out.add(d);
      if (out.size > MAX_PACKAGES) return { unknown: `its workspaces name more than ${MAX_PACKAGES} packages, more than hey reads` };
    }
    return [...out];
  } catch (e) {
    if (e instanceof Hung) return { unknown: `its workspace ${e.message}, so its packages' scripts are unknown` };
    return { unknown: `its workspace's packages cannot be listed (${(e as Error).message})` };
  }
}

/** Whether `dir` has a package.json (of a directory a `**` matched: most are none). */
function hasPackageJson(dir: string): boolean {
  try {
    boundedLstat(join(dir, "package.json"));
    return true;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return false;
    throw e;
  }
}

/** Every directory below `dir` (none when it is not there), but node_modules and hidden ones; stops past MAX_WALKED. */
function below(dir: string): string[] {
  const out: string[] = [];
  for (let next = [dir]; next.length && out.length <= MAX_WALKED; ) {
    next = next.flatMap((d) => listed(d, true).flatMap((n) => (n === "node_modules" || n.startsWith(".") ? [] : [join(d, n)])));
    out.push(...next);
  }
  return out;
}

/** The entries of `dir` (`dirs`: its directories only), none when it is not there or not a directory. */
function listed(dir: string, dirs = false): string[] {
  try {
    return boundedList(dir, dirs);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return [];
    throw e;
  }
}

/** The text of `file`, undefined when it is not there; a file too large is an error. */
function text(file: string): string | undefined {
  try {
    const { bytes, size } = boundedHead(file, MAX_BYTES);
    if (size > bytes.length) throw new Error(`${file} is over ${MAX_BYTES / 1048576} MB, more than hey reads`);
    return Buffer.from(bytes)
      .toString("utf8")
      .replace(/^\uFEFF/, "");
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw e;
  }
}

/** package.json's `workspaces` (npm, yarn, bun); none when it has none or is not JSON (the managers fail on it). */
function packageGlobs(dir: string): unknown[] {
  const json = text(join(dir, "package.json"));
  if (json === undefined) return [];
  let field: unknown;
  try {
    field = (JSON.parse(json) as { workspaces?: unknown }).workspaces;
  } catch {
    return [];
  }
  const globs = Array.isArray(field) ? field : (field as { packages?: unknown } | undefined)?.packages;
  return Array.isArray(globs) ? globs : [];
}

/** pnpm-workspace.yaml's `packages`: a block list (`- 'packages/*'`) or a flow one (`[a, b]`); another form is an error. */
function pnpmGlobs(dir: string): string[] {
  const yaml = text(join(dir, "pnpm-workspace.yaml"));
  if (yaml === undefined) return [];
  const lines = yaml.split(/\r?\n/);
  const at = lines.findIndex((l) => /^packages\s*:/.test(l));
  if (at < 0) return [];
  const unquote = (s: string) => s.trim().replace(/^(['"])(.*)\1$/, "$2");
  const inline = lines[at]!.replace(/^packages\s*:/, "")
    .replace(/\s#.*$/, "")
    .trim();
  if (/^\[.*\]$/.test(inline)) return inline.slice(1, -1).split(",").map(unquote).filter(Boolean);
  if (inline) throw new Error(`pnpm-workspace.yaml's packages (\`${inline}\`) is not a list hey reads`);
  const out: string[] = [];
  for (const line of lines.slice(at + 1)) {
    if (/^\s*(#.*)?$/.test(line)) continue;
    const item = /^\s*-\s*(.*?)\s*(\s#.*)?$/.exec(line);
    if (!item) {
      if (/^\s/.test(line)) throw new Error(`pnpm-workspace.yaml's packages has a line hey does not read: \`${line.trim()}\``);
      break; // the next key
    }
    out.push(unquote(item[1]!));
  }
  return out;
}
