// What the file tools know of each file the agent read or wrote this run, so that write_file never
// replaces content it has not seen (the user's, saved in an editor while the agent worked, or a
// command's): the decisions, pure. The tools hash the bytes (read-file.ts contentHash), as does an
// `@file` the user's message brought whole (user-input.ts).

/**
 * A hash of the bytes the agent last saw of each file this run, by real path (links resolved):
 * what read_file read (a window of it counts as seeing the whole file as it then was), what
 * write_file wrote, what edit made of a file it had seen. Shared by the file tools of one run; a
 * resumed run starts with none.
 */
export type SeenFiles = Map<string, string>;

/**
 * Why write_file must not replace `path`, whose bytes now hash to `now` (undefined: no such file),
 * when the agent last saw them hash to `seen` (undefined: it never read or wrote the file this
 * run): the file changed since, or the agent never saw it (as after `hey -c`, when its copy is
 * from an earlier run), and what it holds would be lost unseen. Undefined when it may: a new file,
 * one unchanged, or one gone (writing it back loses no content).
 */
export function writeRefusal(path: string, seen: string | undefined, now: string | undefined): string | undefined {
  if (now === undefined || now === seen) return undefined;
  if (seen === undefined)
    return (
      `${path} exists and has not been read or written in this run; not written, so what it holds is kept: ` +
      "read it with read_file and make your change to what it holds now"
    );
  return (
    `${path} has changed since it was last read or written (by the user, a command or another program); not written, so that change is kept: ` +
    "read it again with read_file and make your change to what it holds now"
  );
}

/**
 * What the agent has seen of a file after edit changed its bytes from `before` to `after`: `after`
 * when it had seen `before` (or never saw the file), since it then knows the new file too; else
 * still `seen`, as edit kept a change the agent has not read, which a whole-file write from its
 * memory would undo.
 */
export function seenAfterEdit(seen: string | undefined, before: string, after: string): string {
  return seen === undefined || seen === before ? after : seen;
}

/**
 * What edit says first when old_string is not in `path` and the file's bytes (hashing to `now`)
 * are not those the agent last saw (`seen`): the likely reason, someone changed it since. Undefined
 * when the agent never saw it this run, or saw it as it is.
 */
export function changedSinceRead(path: string, seen: string | undefined, now: string): string | undefined {
  if (seen === undefined || seen === now) return undefined;
  return `${path} has changed since you last read it (by the user, a command or another program): read it again with read_file and take old_string from what it holds now`;
}
