// Where the REPL history of a project is kept (issue 28): one file per project root (fs/places.ts
// computes the root), the global history read where it runs out. Pure.
import { join } from "node:path";

/**
 * Where the REPL history of the project at `root` is kept, under `dir` (`<state>/hey/histories`):
 * the path made a readable name (`home-ana-src-app`, its last 60 characters, never starting with
 * `-` or `.`, so shell tools take it for a file, not an option or a hidden one) and a hash of it,
 * so two roots never share a file.
 */
export function projectHistoryFile(dir: string, root: string): string {
  const readable = root
    .replace(/[^A-Za-z0-9._]+/g, "-")
    .slice(-60)
    .replace(/^[-.]+/, "");
  return join(dir, `${readable ? `${readable}-` : ""}${fnv1a(root)}`);
}

/** FNV-1a, 32 bits, in hex: a short stable name for a path (not a secret, not security). */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
  return hash.toString(16).padStart(8, "0");
}
