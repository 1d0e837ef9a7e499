// What the user is told when `/undo`'s copy of a file, or a step of its record, cannot be saved
// (x117: a full cache disk was said only at /undo, which then said "undid"). Pure.
import { relative } from "node:path";

/** A copy (`path`: of that file) or a step of the record that could not be saved in `where`, and why. */
export interface Unsaved {
  path?: string;
  where: string;
  why: string;
  /** The file itself could not be read (no read permission): no fault of hey's cache, but /undo has nothing to put back all the same. */
  unread?: boolean;
}

/** The one line said the first time in a turn that something of it could not be saved; paths relative to `cwd`. */
export function unsavedNotice(unsaved: Unsaved, cwd: string): string {
  if (unsaved.path === undefined)
    return `hey: /undo's record of this turn could not be saved in ${unsaved.where}: ${unsaved.why}; this hey can still undo it, a hey started again on this session (hey -c) cannot until it is saved (hey tries again with each change)`;
  const name = unsaved.path.startsWith(`${cwd}/`) ? relative(cwd, unsaved.path) : unsaved.path;
  if (unsaved.unread) return `hey: /undo will not be able to restore ${name}: hey could not read it to keep a copy: ${unsaved.why}`;
  return `hey: /undo will not be able to restore ${name}: its copy could not be saved in ${unsaved.where}: ${unsaved.why}`;
}
