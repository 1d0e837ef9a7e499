// A deny entry's words that are not options compare as the paths they may name (SPEC §8): `./build`,
// `build/` and `src/../build` are `build`, and where file names ignore case `BUILD` is too. Pure.

/** How a deny entry's words other than options compare: see pathForm. */
export interface Form {
  /** the file system ignores case (Windows, macOS): `BUILD` is `build` */
  caseless: boolean;
  /** `\\` separates names (PowerShell) */
  backslash: boolean;
}

export const WINDOWS_FORM: Form = { caseless: true, backslash: true };

/**
 * A word as a path names a file, so that `./build`, `build/`, `build/.`, `x/../build` and `.//build`
 * are `build` (and, where the file system ignores case, `BUILD` is too). `..` is taken lexically:
 * through a link it may name another file, and a deny entry then refuses more, never less. Words
 * that are not paths pass through unchanged but for case.
 */
export function pathForm(s: string, form: Form): string {
  const text = form.caseless ? s.toLowerCase() : s;
  const p = form.backslash ? text.replace(/\\/g, "/") : text;
  if (!p.includes("/") && p !== ".") return text;
  const out: string[] = [];
  for (const part of p.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === ".." && out.length && out[out.length - 1] !== "..") out.pop();
    else if (part === ".." && p.startsWith("/"))
      continue; // `/..` is `/`
    else out.push(part);
  }
  return (p.startsWith("/") ? "/" : "") + out.join("/") || (p.startsWith("/") ? "/" : ".");
}
