// Where a resume's window starts (reader.ts loadSession): at a boundary of the file that stays put from run to run. Pure.

/**
 * The window starts at the last multiple of this many bytes of the file before its 500th message, not at the 500th: the
 * next `hey -c` then starts where this one did, and its first request extends the last one sent (x163 #2: a start that
 * slid with each run reused 0.1 % of a raised budget's prefix). It moves once per this much growth (~500 typical
 * messages), and a session smaller than this is loaded whole (up to MAX_WINDOWS windows), as its live run sent it.
 * Windows of short messages snap to a smaller power of two (strideFor), one their MAX_WINDOWS reach.
 */
export const WINDOW_STRIDE = 1024 * 1024;
/**
 * A stride of short messages (a few hundred bytes each) still loads at most this many windows' worth: the replay of the
 * prompt cache goes over each request since the cache began (1,928 messages: 1.7 s and 151 MB to the first request).
 */
export const MAX_WINDOWS = 3;
/**
 * The messages a resume loads at most when it goes back to where the last run's history began (reader.ts, `history_from`),
 * so that its first request extends that run's last: the replay of the prompt cache rebuilds a view over the whole history
 * for each of the run's requests, a cost that grows as the square of the messages (r2, on a loaded 2-core machine: 1,002
 * messages 1.1 s to the first request, 1,354 messages 2.2–3.1 s, where the stride's ~700 took 0.2 s). Past it the window
 * starts at the stride's boundary, and the first request after the resume misses the cache once.
 */
export const LOOK_BACK_MOST = 1000;
/**
 * The stride holds about this many messages of the window's average size: the boundary then lies at most ~2 windows before
 * the window, inside MAX_WINDOWS, so the start stays put for short messages too (x167 #1: at ~260 B a message, a 1 MB stride
 * reached MAX_WINDOWS first and the start moved with every run: 60 starts in 60 runs, now 2).
 */
const STRIDE_MESSAGES = 1000;

/**
 * The stride the window's start snaps to (WINDOW_STRIDE): the largest power of two of `most` that holds STRIDE_MESSAGES
 * messages of `averageBytes`. A power of two, so that the small changes in the average from run to run seldom change it. Pure.
 */
export function strideFor(averageBytes: number, most: number = WINDOW_STRIDE): number {
  let stride = most;
  while (stride >= 2 && stride > averageBytes * STRIDE_MESSAGES) stride /= 2;
  return Math.floor(stride);
}
