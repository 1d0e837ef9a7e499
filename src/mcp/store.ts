// What hey keeps on disk for MCP, under the user's cache dir (`<cache>/mcp/`): each server's last
// tool list, keyed by a hash of its configuration, so the first request of a run can offer its
// tools before the server has started (SPEC §14); and the full text of results cut for the model.
// Both are hey's own files: written atomically or exclusively, never through a link.
import { readdirSync, statSync, unlinkSync } from "node:fs";
import { mkdir, open } from "node:fs/promises";
import { join } from "node:path";
import type { McpServerSettings } from "../config/settings.ts";
import { writeFileAtomic } from "../fs/atomic.ts";
import { readOwnFile } from "../fs/own-files.ts";
import { newId } from "../kernel/ir.ts";
import { sanitizeName, type McpTool } from "./names.ts";

/** A cached list larger than this is not read (no server lists megabytes of tools). */
const MAX_CACHE_BYTES = 4 * 1024 * 1024;
/** Full-output files older than this are removed when a new one is written. */
const OUTPUT_MAX_AGE_MS = 7 * 24 * 3600 * 1000;

export interface ToolStore {
  /** the list cached for this configuration, or undefined (none, unreadable, another configuration) */
  load(settings: McpServerSettings): McpTool[] | undefined;
  /** replaces the cached list (and any for an older configuration of the server); never throws */
  save(settings: McpServerSettings, tools: McpTool[]): Promise<void>;
  /**
   * drops the cached list of this configuration (a server that wants a sign-in offers nothing until
   * it has one), after any save of it still under way; never throws
   */
  forget(settings: McpServerSettings): Promise<void>;
  /** writes a result's full text to a private file and returns its path; throws on failure */
  saveFull(server: string, text: string): Promise<string>;
}

/** The hash of everything that decides which server runs and what it offers. */
export function configKey(s: McpServerSettings): string {
  const identity = { command: s.command, args: s.args, env: s.env, cwd: s.cwd, url: s.url, headers: s.headers };
  return new Bun.CryptoHasher("sha256").update(JSON.stringify(identity)).digest("hex").slice(0, 16);
}

// A list saved when the server connected can still be being written when a sign-in that ran out
// forgets it a moment later, in this store or in another one of the process (a REPL's /new or
// /resume starts a run, and its store, while the last run's servers close in the background):
// each file's writes and removals run one after another, in order, whichever store asked.
const last = new Map<string, Promise<void>>();
function inOrder(file: string, op: () => Promise<void>): Promise<void> {
  const p = (last.get(file) ?? Promise.resolve()).then(op);
  last.set(file, p);
  void p.finally(() => last.get(file) === p && last.delete(file));
  return p;
}

export function createToolStore(cacheDir: string): ToolStore {
  const dir = join(cacheDir, "mcp");
  const fileOf = (s: McpServerSettings) => join(dir, `${sanitizeName(s.name)}-${configKey(s)}.json`);
  let pruned = false;
  return {
    load(settings) {
      try {
        const read = readOwnFile(fileOf(settings), MAX_CACHE_BYTES);
        if (!read || read.truncated) return undefined;
        const data = JSON.parse(read.text) as { tools?: unknown };
        return Array.isArray(data.tools) && data.tools.every(isTool) ? data.tools : undefined;
      } catch {
        return undefined; // a broken cache is no cache
      }
    },
    save(settings, tools) {
      const file = fileOf(settings);
      return inOrder(file, async () => {
        try {
          await writeFileAtomic(file, JSON.stringify({ server: settings.name, tools }) + "\n", { own: true, private: true });
          const prefix = `${sanitizeName(settings.name)}-`;
          for (const name of readdirSync(dir))
            if (name.startsWith(prefix) && name.endsWith(".json") && join(dir, name) !== file && /^[0-9a-f]{16}\.json$/.test(name.slice(prefix.length)))
              unlinkSync(join(dir, name));
        } catch {} // no cache next time: slower, not wrong
      });
    },
    forget(settings) {
      const file = fileOf(settings);
      return inOrder(file, async () => {
        try {
          unlinkSync(file);
        } catch {} // none cached
      });
    },
    async saveFull(server, text) {
      const outDir = join(dir, "output");
      await mkdir(outDir, { recursive: true, mode: 0o700 });
      if (!pruned) {
        pruned = true;
        pruneOld(outDir);
      }
      const path = join(outDir, `${sanitizeName(server)}-${newId()}.txt`);
      // 0600 and O_EXCL: results can hold secrets; a name that exists (a planted link) is refused
      const file = await open(path, "wx", 0o600);
      try {
        await file.writeFile(text);
      } finally {
        await file.close();
      }
      return path;
    },
  };
}

function isTool(t: unknown): t is McpTool {
  if (typeof t !== "object" || t === null) return false;
  const o = t as Record<string, unknown>;
  return (
    typeof o.name === "string" &&
    (o.description === undefined || typeof o.description === "string") &&
    typeof o.inputSchema === "object" &&
    o.inputSchema !== null
  );
}

function pruneOld(dir: string): void {
  const now = Date.now();
  try {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (now - statSync(path).mtimeMs > OUTPUT_MAX_AGE_MS) unlinkSync(path);
    }
  } catch {} // pruning is housekeeping
}
