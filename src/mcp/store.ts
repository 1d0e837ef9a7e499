// What hey keeps on disk for MCP, under the user's cache dir (`<cache>/mcp/`): each server's last
// tool list, keyed by a hash of its configuration, so the first request of a run can offer its
// tools before the server has started (SPEC §14), with the server's instructions (so the first
// request's system prompt holds them: mcp/guidance.ts) and the rename notices said of that list (so a
// later run does not say them again while it stays the same); and the full text of results cut for
// the model. Both are hey's own files: written atomically or exclusively, never through a link.
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
/** How long a server's failed start keeps the next runs from waiting for it (markFailed). */
export const FAILURE_HELD_MS = 10 * 60 * 1000;
/** Full-output files older than this are removed when a new one is written. */
const OUTPUT_MAX_AGE_MS = 7 * 24 * 3600 * 1000;

export interface ToolStore {
  /** the list cached for this configuration, or undefined (none, unreadable, another configuration) */
  load(settings: McpServerSettings): McpTool[] | undefined;
  /** replaces the cached list and instructions (and any for an older configuration of the server); never throws */
  save(settings: McpServerSettings, tools: McpTool[], instructions?: string): Promise<void>;
  /** the instructions cached with this configuration's list, or undefined */
  instructions(settings: McpServerSettings): string | undefined;
  /** the rename notices said of this list of this configuration (none when the list is another than the one they were said of) */
  said(settings: McpServerSettings, tools: readonly McpTool[]): ReadonlySet<string>;
  /** records `line` as said of this list, cached with it; never throws */
  remember(settings: McpServerSettings, tools: McpTool[], line: string): Promise<void>;
  /**
   * why this configuration's last start failed before it listed a tool, within FAILURE_HELD_MS,
   * with no list cached (markFailed; "" when no reason was recorded); undefined when it did not
   */
  failedLast(settings: McpServerSettings): string | undefined;
  /** when that failure was recorded (milliseconds since the epoch), while failedLast holds it; undefined otherwise */
  failedWhen(settings: McpServerSettings): number | undefined;
  /** records that this configuration failed to start and `why`, unless a list of it is cached (kept: its tools stay offered); never throws */
  markFailed(settings: McpServerSettings, why?: string): Promise<void>;
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

/** What a list's notices are remembered by: its tool names (what a rename depends on). */
const namesOf = (tools: readonly McpTool[]) => JSON.stringify(tools.map((t) => t.name).sort());

export function createToolStore(cacheDir: string): ToolStore {
  const dir = join(cacheDir, "mcp");
  const fileOf = (s: McpServerSettings) => join(dir, `${sanitizeName(s.name)}-${configKey(s)}.json`);
  let pruned = false;
  /** each file's list and the notices said of it, as this store last read or wrote them */
  const known = new Map<string, { names: string; said: Set<string> }>();
  /** each file's instructions, as this store last read or was given them */
  const told = new Map<string, string | undefined>();
  /** the file's JSON object, or undefined (none, unreadable, too large, not JSON) */
  const json = (file: string): { tools?: unknown; said?: unknown; failed?: unknown; error?: unknown; instructions?: unknown } | undefined => {
    try {
      const text = readOwnFile(file, MAX_CACHE_BYTES);
      return text && !text.truncated ? JSON.parse(text.text) : undefined;
    } catch {
      return undefined; // a broken cache is no cache
    }
  };
  const read = (file: string): McpTool[] | undefined => {
    try {
      const data = json(file);
      if (!data || !Array.isArray(data.tools) || !data.tools.every(isTool)) return undefined;
      const said = Array.isArray(data.said) ? data.said.filter((l): l is string => typeof l === "string") : [];
      known.set(file, { names: namesOf(data.tools), said: new Set(said) });
      told.set(file, typeof data.instructions === "string" ? data.instructions : undefined);
      return data.tools;
    } catch {
      return undefined; // a broken cache is no cache
    }
  };
  /** the notices said of `tools`, a fresh set when they were said of another list */
  const saidOf = (file: string, tools: readonly McpTool[]) => {
    const names = namesOf(tools);
    const entry = known.get(file) ?? (read(file), known.get(file));
    if (entry?.names === names) return entry.said;
    const fresh = { names, said: new Set<string>() };
    known.set(file, fresh);
    return fresh.said;
  };
  const write = (settings: McpServerSettings, tools: McpTool[]) => {
    const file = fileOf(settings);
    const said = saidOf(file, tools);
    const instructions = told.get(file);
    return inOrder(file, async () => {
      try {
        const kept = { ...(instructions ? { instructions } : {}), ...(said.size ? { said: [...said] } : {}) };
        await writeFileAtomic(file, JSON.stringify({ server: settings.name, tools, ...kept }) + "\n", { own: true, private: true });
        const prefix = `${sanitizeName(settings.name)}-`;
        for (const name of readdirSync(dir))
          if (name.startsWith(prefix) && name.endsWith(".json") && join(dir, name) !== file && /^[0-9a-f]{16}\.json$/.test(name.slice(prefix.length)))
            unlinkSync(join(dir, name));
      } catch {} // no cache next time: slower, not wrong
    });
  };
  return {
    load: (settings) => read(fileOf(settings)),
    save: (settings, tools, instructions) => (told.set(fileOf(settings), instructions), write(settings, tools)),
    instructions: (settings) => (read(fileOf(settings)) ? told.get(fileOf(settings)) : undefined),
    said: (settings, tools) => saidOf(fileOf(settings), tools),
    failedLast(settings) {
      const data = json(fileOf(settings));
      const failed = data?.failed;
      // an old failure is not held against the server: one that failed once, then starts too slowly for short runs to list it, is waited for again
      const held = typeof failed === "string" && Date.now() - Date.parse(failed) < FAILURE_HELD_MS && read(fileOf(settings)) === undefined;
      return held ? (typeof data?.error === "string" ? data.error : "") : undefined;
    },
    failedWhen(settings) {
      const failed = json(fileOf(settings))?.failed;
      return this.failedLast(settings) === undefined || typeof failed !== "string" ? undefined : Date.parse(failed);
    },
    markFailed(settings, why) {
      const file = fileOf(settings);
      return inOrder(file, async () => {
        try {
          const record = { server: settings.name, failed: new Date().toISOString(), ...(why ? { error: why } : {}) };
          if (read(file) === undefined) await writeFileAtomic(file, JSON.stringify(record) + "\n", { own: true, private: true });
        } catch {} // waited for next time: slower, not wrong
      });
    },
    remember(settings, tools, line) {
      saidOf(fileOf(settings), tools).add(line);
      return write(settings, tools);
    },
    forget(settings) {
      const file = fileOf(settings);
      known.delete(file);
      told.delete(file);
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
