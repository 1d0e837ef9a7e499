// What holds when a file behind the approvals disappears (README "The agent never widens its own
// rules"). A config file that is gone removed every list it set: a widening like any other, so the
// lists the record holds for it keep applying until the user says yes. An approvals record that is
// gone while hey plainly ran before is no first run: nothing counts as approved, not even the allow
// lists, until the user confirms. Pure.
import type { Guarded, LayerRole } from "./guard.ts";
import type { ConfigLayer } from "./settings.ts";
import { ALLOWS_NOTHING } from "../permission/rules.ts";

/**
 * What a user or project file is approved in when the approvals record was removed (approval-store.ts
 * earlierRunTrace): nothing, and its allow list lets nothing through — so an allow list set there,
 * or none, waits for the user's yes as a widening, and until then no tool call runs. What the
 * record held cannot be known; the file may be the agent's.
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
