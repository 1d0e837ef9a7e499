// What hey's MCP client does with what a server sends it unasked (SPEC §14), set on each SDK
// client by client.ts:
// - notifications/tools/list_changed: the new list is read at once, every page of it (the SDK's own
//   refresh waits 300 ms and reads only the first page). A tool call that the notice came before or
//   during returns its result only once that read is done (LIST_WAIT_MS at most), so the request
//   built next offers the new list: "enable X", then a call of X's new tools, works in one go
//   (a remote server's notice on its separate event stream may come after the answer: read as it comes);
// - roots/list: the project root as a file:// URI (hey's working directory is the root or below
//   it, so it is inside), so a server that works in its client's roots (server-filesystem started
//   with no directory, as editors start it) works in the project; a local server whose args name
//   directories is told those instead (serverRoots);
// - any other request (elicitation/create, sampling/createMessage): hey declares neither and
//   answers that it does not support them, in words a tool's error can pass on.
// Pure: the list is read by the `read` it is given.
import { isAbsolute, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { McpTool } from "./names.ts";
import type { CallResult } from "./results.ts";

/** The most a call waits for a changed tool list to be read (a server that never lists must not hold the run up). */
export const LIST_WAIT_MS = 3_000;

/** A server's tool list as its change notices keep it. */
export interface ListWatch {
  /** a notice came: read the list (again, once the read on its way ends) */
  changed(): void;
  /** settles when no read is on its way, or after `ms`: false when a list the server changed is not read (a read that failed, or still on its way) */
  settled(ms: number): Promise<boolean>;
}

/** `read` reads the whole list (rejects: the old list stays); `onTools` gets each list read after a notice. */
export function watchList(read: () => Promise<McpTool[]>, onTools: (tools: McpTool[]) => void): ListWatch {
  let reading: Promise<boolean> | undefined;
  let again = false;
  return {
    changed() {
      if (reading) return void (again = true);
      reading = (async () => {
        let tools: McpTool[] | undefined;
        do {
          again = false;
          tools = await read().catch(() => undefined); // the old list stays; the next notice reads it again
          if (tools && !again) onTools(tools);
        } while (again);
        return tools !== undefined;
      })().finally(() => (reading = undefined));
    },
    async settled(ms) {
      const p = reading;
      if (!p) return true;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const done = await Promise.race([p, new Promise<false>((resolve) => (timer = setTimeout(resolve, ms, false)))]);
      clearTimeout(timer);
      return done;
    },
  };
}

/** `result` with a line saying the server's new tool list did not come in time (the next request offers the old one). */
export function withListNote(result: CallResult, server: string, ms: number): CallResult {
  const note = `[hey: MCP server ${server} said its tools changed, but did not list them within ${ms / 1000} s: the next request still offers its old tools]`;
  const content = Array.isArray(result.content) ? result.content : [];
  return { ...result, content: [...content, { type: "text", text: note }] };
}

/**
 * `result` with a note that hey named the server no roots (projectRoots: where hey runs holds hey's
 * own files), for a server that asked for them: one that works in its client's roots (the filesystem
 * server without a directory) refuses every path, and the model and user are told why, and the fix.
 */
export function withRootsNote(result: CallResult, server: string): CallResult {
  const note = `[hey: MCP server ${server} asked hey for its roots and got none: hey runs in a directory that holds hey's own configuration (your home directory, or /), so a server that works in its client's roots may work nowhere; to give it one, name the directory in its table's args (e.g. args = [..., "/path/to/dir"]) and /reload]`;
  const content = Array.isArray(result.content) ? result.content : [];
  return { ...result, content: [...content, { type: "text", text: note }] };
}

/**
 * The directories named to a server as its roots: those its args name, when it is local and they
 * are directories (`isDir`): the table pointed it at them, and server-filesystem takes roots in
 * place of its arguments, so the project root would move what the table limited it to. Else the
 * project's (`project`). Args are read as the server reads them: `~/` from `home`, relative to
 * its `cwd`, else hey's (`cwd`). A directory that is an option's value (`uv --directory DIR run
 * server.py`, `npx --prefix DIR`, `-C DIR`) is where the server's program lives, not one it works in.
 */
export function serverRoots(
  s: { command?: string; args: string[]; cwd?: string },
  project: string[],
  where: { cwd: string; home: string | undefined; isDir(path: string): boolean },
): string[] {
  if (s.command === undefined) return project;
  const paths = s.args
    .filter((a, i) => !a.startsWith("-") && !OPTION_WITH_DIR.test(s.args[i - 1] ?? ""))
    .map((a) => resolve(s.cwd ?? where.cwd, where.home ? a.replace(/^~(?=$|[\\/])/, where.home) : a));
  const dirs = paths.filter((p) => where.isDir(p));
  return dirs.length > 0 ? dirs : project;
}

/**
 * For the guard of hey's control files (config/control-files.ts): the directories each server may
 * read a relative path argument from — where it runs (a project's server runs in the project root,
 * config/server-dir.ts), each of its roots (server-filesystem resolves a relative path against
 * those) and hey's own directory, to be safe. A server named nowhere: hey's directory and the
 * project's roots. Worked out at a server's first check (its roots look at the disk), then kept.
 */
export function serverBases(
  servers: readonly { name: string; command?: string; args: string[]; cwd?: string }[],
  project: string[],
  where: { cwd: string; home: string | undefined; isDir(path: string): boolean },
): (server: string) => string[] {
  const known = new Map<string, string[]>();
  return (name) => {
    const found = known.get(name);
    if (found) return found;
    const s = servers.find((x) => x.name === name);
    const runsIn = s?.command === undefined ? where.cwd : resolve(where.cwd, s.cwd ?? ".");
    const bases = [...new Set([runsIn, ...(s ? serverRoots(s, project, where) : project), where.cwd])];
    known.set(name, bases);
    return bases;
  };
}

/**
 * The project root as the root hey names to servers, unless it holds hey's own configuration or
 * state (`configDir`, `stateDir`: hey started in the home directory, or at /): a server working in
 * its client's roots (the filesystem server without arguments) could then rewrite hey's config and
 * approvals record, which the agent may not change. Then none: such a server works nowhere. `real`
 * names each directory as the file system does (links resolved, also below a part not made yet):
 * an XDG_CONFIG_HOME or a home reached through a link is inside the root all the same.
 */
export function projectRoots(here: { root: string; configDir: string; stateDir: string }, real = (dir: string) => dir): string[] {
  const root = real(here.root);
  const holds = (dir: string) => {
    const below = relative(root, real(dir));
    return below === "" || (!below.startsWith("..") && !isAbsolute(below));
  };
  return holds(here.configDir) || holds(here.stateDir) ? [] : [here.root];
}

/** Options whose value is a directory a launcher runs the server from (uv, npm/npx, pnpm, git, make, cargo). */
const OPTION_WITH_DIR = /^(?:--directory|--project|--prefix|--cwd|--dir|--manifest-path|-C|-d)$/;

/** The roots hey names to servers: each directory as a file:// URI, named after its last part. */
export function rootsOf(dirs: string[]): { roots: { uri: string; name: string }[] } {
  return { roots: dirs.map((d) => ({ uri: pathToFileURL(d).href, name: d.split(/[\\/]/).filter(Boolean).at(-1) ?? d })) };
}

/** The capability a request of a server's needs: `elicitation`, `sampling`, else the method itself. */
export function capabilityOf(method: string): string {
  return method === "elicitation/create" ? "elicitation" : method === "sampling/createMessage" ? "sampling" : method;
}

const WHAT: Record<string, string> = {
  elicitation: "elicitation (a server asking the user a question mid-call)",
  sampling: "sampling (a server asking the model for a completion)",
};

/** What hey answers a request it has no handler for: elicitation and sampling are not supported (README, MCP servers). */
export function unsupported(method: string): string {
  const what = capabilityOf(method);
  return `hey does not support ${WHAT[what] ?? what}: it declares no such capability`;
}
