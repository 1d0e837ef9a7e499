// The file a path really names (issue 24): links resolved, also for a file not created yet (its
// nearest existing directory resolved, the rest appended), so a guard comparing paths cannot be
// passed by a link or a `..` that names the same file differently.
import { realpathSync } from "node:fs";
import { basename, dirname, join } from "node:path";

/** `abs` with every link on the way resolved; the missing tail of the path kept as written. Never throws. */
export function realTarget(abs: string): string {
  try {
    return realpathSync(abs);
  } catch {
    const parent = dirname(abs);
    return parent === abs ? abs : join(realTarget(parent), basename(abs));
  }
}
