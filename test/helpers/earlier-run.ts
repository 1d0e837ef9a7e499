// The approvals record a run of hey leaves beside its sessions (trust/approve.ts: written at the
// model's first answer, with every config file it read as it was). A test that writes a session by
// hand writes this record too: sessions without a record are what a removed record looks like
// (config/approval-store.ts earlierRunTrace), and hey then approves nothing until the user confirms.
import { existsSync, mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { guardedOf, type Guarded } from "../../src/config/guard.ts";
import { loadLayer } from "../../src/config/read-layer.ts";
import { checkLayer } from "../../src/config/schema.ts";

/**
 * Writes `stateHome`/hey/approvals.json unless there is one: `configs` (the user's config, for
 * one) recorded as a first run records them, as they are now; files that are not there are left out.
 */
export function recordEarlierRun(stateHome: string, configs: readonly string[] = []): void {
  const file = join(stateHome, "hey", "approvals.json");
  if (existsSync(file)) return;
  const recorded: Record<string, Guarded> = {};
  for (const path of configs) {
    const layer = loadLayer(path, { required: false });
    if (layer) recorded[realpathSync(path)] = guardedOf(checkLayer(path, layer.data, layer.text).data);
  }
  mkdirSync(join(stateHome, "hey"), { recursive: true });
  writeFileSync(file, `${JSON.stringify({ version: 1, configs: recorded, trusted: [] }, null, 2)}\n`);
}
