// Windows refuses to rename over a file another program holds open without sharing its deletion
// (an editor, a running job, a log tailer), and refuses for a moment while a virus scanner or the
// search indexer reads a freshly written temporary file. The second passes within a second or so,
// so the rename is tried again a few times, as npm's graceful-fs and VS Code do on Windows; when it
// still fails the reader is told what happened in words, not with a temporary file's name.
// Pure: the rename, the platform and the wait are passed in.
import { errnoCode } from "../kernel/errors.ts";

/**
 * The waits between tries of a refused rename on Windows, growing: 1.27 s in all, long enough for a
 * scanner to let go of a new file, short enough that a file held open does not stall the turn.
 * graceful-fs waits up to 60 s, which suits a package install, not an edit the model waits on.
 */
export const BUSY_RENAME_WAITS_MS = [10, 20, 40, 80, 160, 320, 640] as const;

/** The codes Windows gives (through libuv) for a rename over a file in use, or locked for a moment. */
const BUSY_CODES = new Set(["EPERM", "EACCES", "EBUSY"]);

/**
 * Runs `rename` (which replaces `file`); on `platform` win32, while it throws EPERM, EACCES or
 * EBUSY, waits with `sleep` (BUSY_RENAME_WAITS_MS) and runs it again. When every try was refused
 * this throws a FileInUseError naming `file`; any other error, and every error elsewhere than on
 * Windows, is thrown at once as it came. `rename` may check anything it needs before renaming at
 * each try (that the file is still as it was read): its own errors are not retried.
 */
export async function renameRetrying(rename: () => void | Promise<void>, file: string, platform: string, sleep: (ms: number) => Promise<void>): Promise<void> {
  for (let tried = 0; ; tried++) {
    try {
      return await rename();
    } catch (error) {
      const code = errnoCode(error);
      if (platform !== "win32" || code === undefined || !BUSY_CODES.has(code)) throw error;
      const wait = BUSY_RENAME_WAITS_MS[tried];
      if (wait === undefined) throw new FileInUseError(file, code);
      await sleep(wait);
    }
  }
}

/**
 * A file Windows would not replace, after every try: most likely open in another program. The file
 * is as it was, and the new content's temporary file is removed (writeFileAtomic's cleanup).
 */
export class FileInUseError extends Error {
  constructor(
    readonly file: string,
    readonly code: string,
  ) {
    super(fileInUse(file, code));
  }
}

const TRIES = BUSY_RENAME_WAITS_MS.length + 1;
const WAITED_S = (BUSY_RENAME_WAITS_MS.reduce((a, b) => a + b, 0) / 1000).toFixed(1);

/** What a FileInUseError says, with the file named as the reader knows it. */
export const fileInUse = (name: string, code: string) =>
  `${name} is not changed: Windows would not replace it (${code}, ${TRIES} tries over ${WAITED_S} s), most likely because another program has it open (an editor, a running command, a virus scan). Nothing was lost: the file is as it was. Close it in that program, or stop the command holding it, then try again`;
