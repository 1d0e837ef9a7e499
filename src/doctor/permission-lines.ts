// `hey doctor`'s lines about the `[permission]` lists in force: each list with the file it comes
// from (`~/…` under the home directory), a trusted project's allow list as the one more every call
// must match, and the allow entries that wait for the user's approval. Pure.
import type { Settings } from "../config/settings.ts";
import { EXACT_NOTE, isExact } from "../permission/entries.ts";
import { ALLOWS_NOTHING } from "../permission/rules.ts";
import { shortPath } from "../ui/intro.ts";

const entries = (list: string[]) =>
  list.map((e) => (e === ALLOWS_NOTHING ? "nothing until an entry is approved" : isExact(e) ? `${e} (${EXACT_NOTE})` : e)).join(", ");

/** One line per list in force, or one saying there is none (every tool call runs). */
export function permissionLines(p: Settings["permission"], home: string): string[] {
  const at = (file: string | undefined) => (file ? ` (${shortPath(file, home)})` : "");
  const waiting = (file: string | undefined) => {
    const w = file ? p.waiting?.[file] : undefined;
    return w?.length ? `; waiting for your approval: ${entries(w)}` : "";
  };
  const lines: string[] = [];
  if (p.allow.length) lines.push(`permission: allow ${entries(p.allow)}${at(p.file)}${waiting(p.file)}`);
  for (const n of p.narrow) lines.push(`permission: allow ${entries(n.allow)}${at(n.source)}, which narrows the list above${waiting(n.source)}`);
  if (p.deny.length) lines.push(`permission: deny ${entries(p.deny)}`);
  for (const line of p.entryNotes ?? []) lines.push(`permission: ${line}`); // a read_file deny grep or edit does not keep, a glued `$`
  return lines.length ? lines : ["permission: no allow or deny list: every tool call runs"];
}
