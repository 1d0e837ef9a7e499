// Whether a path is a directory or lies below it, by name (callers resolve links first). Pure.
import { sep } from "node:path";

/** `path` is `dir` or lies below it; `dir` may end with a separator. */
export function isWithin(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}
