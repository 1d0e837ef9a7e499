// `hey --sessions [--all]`: this directory's sessions, or every directory's, as a table (and any
// unreadable session named); with `--output json` a `command` event carrying the listing as data,
// then `done`. Foreign text is made visible.
import { basename } from "node:path";
import { formatSessionList } from "../sessions/format.ts";
import { scanSessions, sessionShortIds, unreadableNote } from "../sessions/reader.ts";
import { doneEvent } from "./json.ts";
import { visible } from "./visible.ts";

/** What `hey --sessions` prints on stdout. */
export function sessionsListing(opts: { all: boolean; json: boolean; dir: string; cwd: string; home: string }): string {
  const { sessions, unreadable } = scanSessions(opts.dir);
  const note = unreadableNote(unreadable);
  const shown = opts.all ? sessions : sessions.filter((s) => s.cwd === opts.cwd);
  const short = sessionShortIds(opts.dir);
  const table = shown.length === 0 && sessions.length > 0 ? `No sessions in this directory; hey --sessions --all lists all ${sessions.length}.\n` : visible(formatSessionList(shown, opts.home, undefined, short));
  const list = table + (note ? `\nhey: ${note}\n` : "");
  if (!opts.json) return list;
  // for scripts, the listing as data too: `jq '.sessions[].id'`
  const rows = shown.map((s) => ({ id: s.id, short: short.get(basename(s.path, ".jsonl")) ?? s.id, cwd: s.cwd, modified: new Date(s.modified).toISOString(), size: s.size, first_prompt: s.firstPrompt }));
  return JSON.stringify({ type: "command", name: "--sessions", ok: true, output: list.trimEnd(), sessions: rows }) + "\n" + JSON.stringify(doneEvent("end")) + "\n";
}
