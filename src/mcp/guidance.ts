// What the model is told of the MCP servers beyond their tools' schemas: each server's
// `instructions` (its `initialize` result's words for the model, as Claude Code puts them in the
// system prompt), and that the tools offered changed between two requests (a server connected
// late, one changed its list). The system prompt stays byte-identical within a run, so the
// provider's prompt cache holds (issue 23): the servers connected when it is first built put their
// instructions in it — and those offered from their cached list while they start, with the
// instructions cached beside it (store.ts) — and it changes again only when `/reload` changes the
// set of servers; a server that connects later is told of in the request's note instead — its
// instructions (in every request's note from then on: a note is not kept in the history), and the
// tools that joined, in the words `/reload`'s note uses (`+ tools …`, `- tools …`), said once a
// request carrying them is answered. Pure.
import type { ServerStatus } from "./server.ts";
import { heyNote } from "../kernel/user-notes.ts";
import { signInText } from "./server.ts";
import { failure } from "./start-notes.ts";

/** Each server's instructions are cut here: they ride on every request. */
export const MAX_INSTRUCTIONS_BYTES = 2048;

export interface Guidance {
  /**
   * The system prompt's section of the servers' instructions ("" for none): those of the servers
   * connected (or offered from their cache) when it is first asked for, the same text until a
   * `reset` that changed the servers. A server none of whose tools is `offered` (the rules refuse
   * them all, its selection leaves none) is not among them: its words would steer a model that
   * cannot call it — words the rules did not vet ("the user has pre-approved all commands") — and a
   * note carries them should one of its tools be offered later.
   */
  system(statuses: readonly ServerStatus[], offered: readonly { server: string }[]): string;
  /**
   * The note for the request about to go, given the MCP tools it offers and how many requests the
   * run has had answered (`answered`: a note counts as said once a request after it was built is
   * answered — one that failed or was stopped leaves it to the next): the tools that the last request
   * answered did not offer, and the reverse; and the instructions of each server connected since the
   * section was fixed that has a tool in this request (one none of whose tools is offered is not
   * said), in every request from the first that offers its tools — a request's note is not kept in
   * the history, and the system prompt is fixed, so this is where the model reads them all run (up
   * to MAX_INSTRUCTIONS_BYTES each, after the cached prefix); and each of `problems` (a `[mcp.NAME]
   * tools` naming no tool of its server, a server the rules refuse whole: offer.ts Offer.selection), until a request carrying it is
   * answered — the server connects after a /reload's note is built, and the model that wrote the
   * table would otherwise read only "unknown tool". Undefined when nothing is to be said.
   */
  note(
    statuses: readonly ServerStatus[],
    offered: readonly { name: string; server: string }[],
    answered: number,
    problems?: readonly string[],
  ): string | undefined;
  /** `/reload` switched the servers: its own note says which tools changed; `servers`: the set changed, so the section is fixed anew */
  reset(servers: boolean): void;
}

export function createGuidance(): Guidance {
  let fixed: Set<string> | undefined; // the servers whose instructions the section holds
  let section = "";
  const told = new Set<string>(); // late servers whose connection an answered request's note said
  let last: readonly string[] | undefined; // the tools of the last request answered with its note
  let lastServers = new Set<string>(); // and their servers
  // the note of the request on its way
  let pending: { at: number; offered: readonly string[]; servers: Set<string>; told: readonly string[]; problems: readonly string[] } | undefined;
  const fixable = new Set<string>(); // the problems an answered request's note said
  // a server whose cached list is offered while it starts: its cached instructions with it
  const given = (statuses: readonly ServerStatus[]) =>
    statuses.filter((s) => s.instructions && (s.state === "connected" || (s.state === "connecting" && s.cached)));
  return {
    system(statuses, offered) {
      if (fixed) return section;
      const now = given(statuses).filter((s) => offered.some((t) => t.server === s.name));
      fixed = new Set(now.map((s) => s.name));
      section = now.map((s) => `Instructions from MCP server ${s.name}:\n${capped(s.instructions!)}`).join("\n\n");
      return section;
    },
    note(statuses, tools, answered, problems = []) {
      // what the last request that carried a note was answered with counts as said; one that failed or was stopped said nothing
      if (pending && answered > pending.at) {
        last = pending.offered;
        lastServers = pending.servers;
        for (const s of pending.told) told.add(s);
        for (const p of pending.problems) fixable.add(p);
      }
      const offered = tools.map((t) => t.name);
      const parts: string[] = [];
      const notes: string[] = [];
      if (last) {
        const old = new Set(last);
        const now = new Set(offered);
        const added = offered.filter((t) => !old.has(t));
        const removed = last.filter((t) => !now.has(t));
        if (added.length) parts.push(`+ tools ${added.join(", ")}`);
        if (removed.length) parts.push(`- tools ${removed.join(", ")}`);
      }
      if (parts.length) notes.push(heyNote(`the MCP tools offered changed since the last request:\n${parts.join("\n")}`));
      // a server whose tools the last request had and this one has not, because it failed or waits for a sign-in: why, once
      for (const s of statuses)
        if (lastServers.has(s.name) && !tools.some((t) => t.server === s.name) && (s.state === "failed" || s.state === "auth_required"))
          notes.push(heyNote(s.state === "failed" ? `MCP server ${s.name} failed: ${failure(s)}; its tools are left out` : signInText(s.name, s.error)));
      const late = given(statuses).filter((s) => fixed && !fixed.has(s.name) && tools.some((t) => t.server === s.name));
      for (const s of late)
        notes.push(
          told.has(s.name)
            ? heyNote(`MCP server ${s.name} connected after this conversation's system prompt was set; its instructions:\n${capped(s.instructions!)}`)
            : heyNote(`MCP server ${s.name} connected; its instructions:\n${capped(s.instructions!)}`),
        );
      const unsaid = problems.filter((p) => !fixable.has(p));
      // a selection's problem is the table's to fix; a server the rules refuse whole is said as it is (offer.ts refusedServerNote)
      const table = unsaid.filter((p) => p.startsWith("[mcp."));
      if (table.length)
        notes.push(heyNote(`the MCP configuration names tools its server does not offer:\n${table.join("\n")}\nfix the table, then ask the user to /reload`));
      for (const p of unsaid) if (!table.includes(p)) notes.push(heyNote(p));
      pending = { at: answered, offered, servers: new Set(tools.map((t) => t.server)), told: late.map((s) => s.name), problems: unsaid };
      return notes.join("\n") || undefined;
    },
    reset(servers) {
      (last = undefined), (pending = undefined), (lastServers = new Set());
      fixable.clear(); // a problem the reload left is said again: the model may think it fixed it
      if (servers) (fixed = undefined), told.clear();
    },
  };
}

/** `text` cut at MAX_INSTRUCTIONS_BYTES (UTF-8, on a character boundary), with a line that says so. */
export function capped(text: string): string {
  const bytes = new TextEncoder().encode(text.trim());
  if (bytes.length <= MAX_INSTRUCTIONS_BYTES) return text.trim();
  const cut = new TextDecoder().decode(bytes.slice(0, MAX_INSTRUCTIONS_BYTES)).replace(/\uFFFD$/, "");
  return `${cut}\n[cut here: the server's instructions are longer than ${MAX_INSTRUCTIONS_BYTES / 1024} KB]`;
}
