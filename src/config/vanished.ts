// What holds when a file behind the approvals disappears (README "The agent never widens its own
// rules"). A config file that is gone removed every list it set: a widening like any other, so the
// lists the record holds for it keep applying until the user says yes; so do the deny entries of an
// untrusted project's file, the one part of it that applies. An approvals record that is
// gone while hey plainly ran before is no first run: nothing counts as approved, not even the allow
// lists, until the user confirms. Pure.
import { NOTHING_APPROVED, type Guarded, type LayerRole } from "./guard.ts";
import { isTable, type Table } from "./table.ts";
import { readEntry } from "../permission/entries.ts";
import type { ConfigLayer } from "./settings.ts";
import { ALLOWS_NOTHING } from "../permission/rules.ts";

/**
 * What a user or project file is approved in when the approvals record was removed (approval-store.ts
 * earlierRunTrace): nothing, and its allow list lets nothing through — so an allow list set there,
 * or none, waits for the user's yes as a widening, and until then no tool call runs. What the
 * record held cannot be known; the file may be the agent's — or it may be gone too (load.ts: a
 * missing user or trusted project's file is weighed against this as well).
 */
export const RECORD_LOST: Guarded = { mcp: {}, endpoints: {}, vars: [], allow: [ALLOWS_NOTHING] };

/**
 * A config file at `path` that is no longer there, as a layer holding nothing, weighed against
 * `recorded` (what the user approved of it): every list the record holds is then a widening left
 * out, so the approved lists apply. Undefined when the record holds no list for it: a file that
 * set none took nothing away by going.
 */
export function goneLayer(path: string, recorded: Guarded | undefined, role: LayerRole, project: boolean): ConfigLayer | undefined {
  if (!recorded?.allow?.length && !recorded?.deny?.length) return undefined;
  return { source: path, data: {}, gone: true, ...(project ? { project: true } : {}), guard: { approved: recorded, role } };
}

/** The `[permission] deny` entries of a project's file that are rules: all of it an untrusted project's file applies. */
export function denyEntries(data: Table): string[] {
  const permission = data.permission;
  const written = isTable(permission) && Array.isArray(permission.deny) ? permission.deny : [];
  return written.filter((e): e is string => typeof e === "string" && !("error" in readEntry(e, "deny")));
}

/** What an untrusted project's file is weighed against: the deny entries recorded of it, nothing else (none of the rest applies). */
export const denyApproved = (recorded: Guarded | undefined): Guarded => ({ ...NOTHING_APPROVED, ...(recorded?.deny ? { deny: recorded.deny } : {}) });

/** `used` of an untrusted project's file (its deny entries alone were weighed) over the rest of what the record holds of it. */
export function withRecordedRest(used: Guarded, recorded: Guarded | undefined): Guarded {
  const { deny: _, ...rest } = recorded ?? NOTHING_APPROVED;
  return { ...rest, ...(used.deny ? { deny: used.deny } : {}) };
}
