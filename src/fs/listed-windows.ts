// What the endpoints' model lists said of a model's window (providers/server-window.ts
// ServerOf.listed), kept in `<cache>/model-windows.json` for a week: a hosted list can be megabytes
// (OpenRouter's names hundreds of models), and a run that calls a tool would fetch it again each
// time. A list that states no window is remembered too (null), so it is not fetched for nothing.
// Keyed by protocol, base URL without credentials, and model; no key or header is written. hey's
// own file: written atomically, never through a link; a broken or foreign file is no cache.
import { join } from "node:path";
import { writeFileAtomic } from "./atomic.ts";
import { readOwnFile } from "./own-files.ts";

/** How long what a list said is used before the list is asked again. */
export const LISTED_WINDOW_MS = 7 * 24 * 3600 * 1000;
/** At most this many endpoints' models are kept (the oldest go first). */
const MAX_ENTRIES = 200;
const MAX_BYTES = 256 * 1024;

interface Entry {
  tokens: number | null;
  at: number;
}

/** One endpoint's model as the cache names it. */
export function listedKey(protocol: string, baseUrl: string, model: string): string {
  let url = baseUrl;
  try {
    const u = new URL(baseUrl);
    u.username = "";
    u.password = "";
    url = u.href.replace(/\/+$/, "");
  } catch {} // not a URL: kept as it is (it names no credentials hey could strip)
  return `${protocol} ${url} ${model}`;
}

/**
 * What the list said of `key` within the last week: `{ tokens }` (undefined: it stated none), or
 * undefined when it was not asked that recently. Never throws.
 */
export function cachedWindow(cacheDir: string, key: string, now: number): { tokens: number | undefined } | undefined {
  const entry = readAll(cacheDir)[key];
  if (!entry || now - entry.at > LISTED_WINDOW_MS || entry.at > now) return undefined;
  return { tokens: entry.tokens ?? undefined };
}

/** Records what the list said of `key` (`undefined`: no window stated); dropped entries: expired ones, then the oldest. Never throws. */
export async function rememberWindow(cacheDir: string, key: string, tokens: number | undefined, now: number): Promise<void> {
  const kept = Object.entries({ ...readAll(cacheDir), [key]: { tokens: tokens ?? null, at: now } })
    .filter(([, e]) => now - e.at <= LISTED_WINDOW_MS)
    .sort(([, a], [, b]) => b.at - a.at)
    .slice(0, MAX_ENTRIES);
  try {
    await writeFileAtomic(fileIn(cacheDir), `${JSON.stringify(Object.fromEntries(kept))}\n`, { own: true, private: true });
  } catch {} // no cache next time: the list is asked again, nothing is wrong
}

const fileIn = (cacheDir: string) => join(cacheDir, "model-windows.json");

function readAll(cacheDir: string): Record<string, Entry> {
  try {
    const read = readOwnFile(fileIn(cacheDir), MAX_BYTES);
    if (!read || read.truncated) return {};
    const data: unknown = JSON.parse(read.text);
    if (typeof data !== "object" || data === null || Array.isArray(data)) return {};
    const out: Record<string, Entry> = {};
    for (const [k, v] of Object.entries(data)) if (isEntry(v)) out[k] = v;
    return out;
  } catch {
    return {}; // unreadable, a link, not JSON: no cache
  }
}

function isEntry(v: unknown): v is Entry {
  if (typeof v !== "object" || v === null) return false;
  const e = v as Record<string, unknown>;
  return typeof e.at === "number" && (e.tokens === null || (typeof e.tokens === "number" && Number.isInteger(e.tokens) && e.tokens > 0));
}
