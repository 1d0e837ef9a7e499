// Where an embedded agent keeps files when the program names no place (README "Embed"): under
// hey's cache directory (fs/places.ts: $XDG_CACHE_HOME/hey, ~/.cache/hey, ~/Library/Caches/hey,
// %LOCALAPPDATA%\hey\cache), in `embed/`, apart from the CLI's own files. So a program's MCP server
// named like one of the user's never replaces the CLI's cached tool list for it (mcp/store.ts keeps
// one list per name), and the CLI's pruning of its bash outputs (tools/outputs.ts, by age and a
// byte budget) neither deletes a program's outputs nor counts them. A program's bash outputs are
// pruned by the same rules, among themselves, once per process. Nothing is written until needed.
import { homedir } from "node:os";
import { join } from "node:path";
import { homeOf, places } from "./fs/places.ts";
import { newId } from "./kernel/ir.ts";
import { pruneOutputs } from "./tools/outputs.ts";

/** Where a program's agents keep files by default: `cache` (createMcp's tool lists, MCP results in full) and `outputs` (bash's full outputs, a folder per agent). */
export function embeddedDirs(env: NodeJS.ProcessEnv = process.env): { cache: string; outputs: string } {
  const cache = join(places(env, homeOf(env, process.platform, homedir), process.cwd(), process.platform).cacheDir, "embed");
  return { cache, outputs: join(cache, "outputs") };
}

let pruned = false;

/** A folder of its own for one agent's bash outputs, under embeddedDirs().outputs; the first in a process prunes the others' old ones. */
export function ownOutputDir(): string {
  const root = embeddedDirs().outputs;
  const id = newId();
  if (!pruned) {
    pruned = true;
    void pruneOutputs(root, { current: id });
  }
  return join(root, id);
}
