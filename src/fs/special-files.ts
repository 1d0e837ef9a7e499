// What the file tools say of a path that is no regular file, and which kernel files they never
// read. Pure: the callers stat and resolve the path.

/** What stat says of a file's kind (node:fs Stats has these). */
export interface FileKind {
  isFIFO(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
  isSocket(): boolean;
}

/** What a file that is neither a regular file nor a directory is, for a message: `a named pipe (FIFO)`. */
export function specialKind(stat: FileKind): string {
  if (stat.isFIFO()) return "a named pipe (FIFO)";
  if (stat.isCharacterDevice()) return "a character device";
  if (stat.isBlockDevice()) return "a block device";
  if (stat.isSocket()) return "a socket";
  return "a special file";
}

/**
 * read_file's and grep's words for `path`, which is no regular file and no directory: what it is
 * and, for a link, what it leads to (`linkTo`), so the model does not try another way to open it.
 * Opening one could wait forever (a FIFO with no writer) or never end (`/dev/zero`).
 */
export const notRegularFile = (path: string, stat: FileKind, linkTo?: string): string =>
  `${path} is not a regular file: ${specialKind(stat)}${linkTo ? ` (a link to ${linkTo})` : ""}`;

/**
 * Whether `real` (links resolved) is a process's environment, `/proc/PID/environ` (also a thread's,
 * `/proc/PID/task/TID/environ`): hey's own holds the user's API keys, a shell's holds its exports.
 * Its size is 0 to stat but reading it gives every variable: never read for the model.
 */
export const isProcessEnvironment = (real: string): boolean => /^\/proc\/(?:\d+|self|thread-self)(?:\/task\/\d+)?\/environ$/.test(real);

/** What read_file and a mention say of a process's environment (isProcessEnvironment), after the path's name. */
export const ENVIRONMENT_REFUSED = "a process's environment, which holds its secrets (API keys, tokens); never read";

/**
 * Why grep does not search `real` (its path, links resolved), or undefined: a process's environment,
 * whose matches would tell the model a key a guess at a time; a directory of /proc, which holds
 * every process's environment (root reads them all) and files whose read waits for ever (/proc/kmsg).
 */
export function unsearchedKernelPath(real: string, isDirectory: boolean): string | undefined {
  if (isProcessEnvironment(real)) return ENVIRONMENT_REFUSED;
  if (isDirectory && (real === "/proc" || real.startsWith("/proc/")))
    return "a directory of /proc, which holds the environments of processes (their API keys) and files that wait for ever to be read: grep searches none; name a file in it";
  return undefined;
}
