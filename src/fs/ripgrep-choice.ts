// Which ripgrep grep searches with, said without running or extracting anything: whether the
// program `[tools] rg` names can be run, and what grep uses otherwise — rg on PATH, the ripgrep
// inside the release binary, or its own walk. Read at config load (the line saying `[tools] rg`
// cannot be run), by `hey doctor` and by tools/ripgrep.ts, which finds and extracts the one it runs.
import { statSync } from "node:fs";

/** The names the release binary gives its embedded ripgrep (scripts/build.ts). */
export const EMBEDDED_NAMES = new Set(["rg", "rg.exe"]);

/** Why the program `rg` names cannot be run — not on PATH, not found, a directory, not executable — or undefined when it can. */
export function unrunnable(rg: string): string | undefined {
  if (Bun.which(rg)) return undefined;
  if (!/[\\/]/.test(rg)) return "not on PATH";
  const info = statSync(rg, { throwIfNoEntry: false });
  return !info ? "not found" : info.isDirectory() ? "a directory" : "not executable";
}

/** What grep searches with when `[tools] rg` is not set (or cannot be run), said without extracting anything. */
export function defaultRipgrep(): string {
  const found = Bun.which("rg");
  if (found) return `rg on PATH (${found})`;
  const inside = Bun.isStandaloneExecutable && Bun.embeddedFiles.some((b) => EMBEDDED_NAMES.has((b as Blob & { name?: string }).name ?? ""));
  return inside ? "the ripgrep inside hey" : "its built-in search (no rg on PATH; about ten times slower on a large tree)";
}

/**
 * `hey doctor`'s line on what grep searches with: `[tools] rg` (`rg`), marked `!` when it cannot be
 * run — then the config's own line for that (unrunnableRipgrep, with where the key is set) when
 * `warnings` holds it, so the doctor says it once, here — or the default.
 */
export function grepLine(rg: string | null | undefined, warnings: readonly string[] = []): string {
  if (typeof rg !== "string") return `grep: ${defaultRipgrep()}`;
  const trouble = unrunnableRipgrep(rg, "");
  if (!trouble) return `grep: ${rg} ([tools] rg)`;
  return `! grep: ${warnings.find((w) => w.endsWith(trouble)) ?? trouble.slice(2)}`;
}

/**
 * The line about `[tools] rg` = `rg` (set at `at`, `FILE:LINE`) when it cannot be run, saying what
 * grep uses instead; undefined when it is not set or can be run.
 */
export function unrunnableRipgrep(rg: string | null | undefined, at: string): string | undefined {
  const why = typeof rg === "string" ? unrunnable(rg) : undefined;
  return why && `${at}: [tools] rg ${JSON.stringify(rg)} cannot be run (${why}); grep uses ${defaultRipgrep()} instead`;
}
