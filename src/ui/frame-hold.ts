// Streamed text that comes while rows stand under it (the status, and what the user types during the turn: typed-ahead.ts). Each
// piece written there means the rows cleared before it and drawn again after it; a fast stream (a piece every few ms) had them
// redrawn after every piece, and a terminal showing the cleared rows between two writes flickers. Pieces that come less than a
// frame after the rows were drawn are held, and go out together at the frame's end, the rows cleared and drawn again once: at
// most one redraw a frame, the text at most a frame late, and never held past an event that is not more of the same stream. Pure.

/** a redraw of the rows under streamed text at most this often: the text stays smooth, and a terminal draws no faster */
export const TYPED_FRAME_MS = 40;

export interface FrameHold<S> {
  /** the rows were just drawn under the text: pieces in the next frame wait for its end */
  drawn(): void;
  /**
   * `text` for `to` (styled `color`), when `under` (rows stand under the stream): taken, to go out at the frame's end; false when it
   * must be written now (nothing stands under it, or it is for another stream than what is held: the caller releases first)
   */
  hold(to: S, text: string, under: boolean, color?: string): boolean;
  /** what is held goes out now (another event came, or the frame ended: `atFrame`); nothing when none is */
  release(atFrame?: boolean): void;
}

/**
 * `write`: clears the rows, writes the text held and, at a frame's end (`atFrame`), draws the rows again at once. `later` runs
 * a function once after some ms unless the function it returns is called first; `now` is the clock in ms.
 */
export function frameHold<S>(
  write: (to: S, text: string, color: string | undefined, atFrame: boolean) => void,
  now: () => number,
  later: (ms: number, run: () => void) => () => void,
): FrameHold<S> {
  let drawnAt = Number.NEGATIVE_INFINITY;
  let held: { to: S; text: string; color: string | undefined } | undefined;
  let cancel = () => {};
  const release = (atFrame = false) => {
    cancel();
    cancel = () => {};
    if (!held) return;
    const { to, text, color } = held;
    held = undefined;
    write(to, text, color, atFrame);
  };
  return {
    drawn: () => void (drawnAt = now()),
    hold(to, text, under, color) {
      if (!under || (held && (held.to !== to || held.color !== color))) return false;
      if (text === "") return true; // nothing to show yet (a word still coming): the rows stay as drawn
      if (held) held.text += text;
      else {
        held = { to, text, color };
        cancel = later(Math.max(0, drawnAt + TYPED_FRAME_MS - now()), () => release(true));
      }
      return true;
    },
    release,
  };
}
