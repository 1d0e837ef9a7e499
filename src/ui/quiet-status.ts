// The status under an answer that has gone quiet (SPEC §17): a model that stalls mid-sentence, or
// streams a big tool call's arguments (nothing shows until the call is whole), still shows a sign
// of life. The spinner is drawn on the row under the text's last line, and taken away before the
// text goes on, the cursor back where the text stopped. Pure: it follows what was written and says
// what to write.

/** How long a stream may say nothing after its text before the status comes back: a healthy stream's pauses are shorter. */
export const QUIET_MS = 1000;

/** styles and other CSI sequences, which take no columns */
const CSI = /\x1b\[[0-9;?]*[@-~]/g;

export interface LineEnd {
  /** `text` was written to the terminal as it is (styles and all) */
  wrote(text: string): void;
  /**
   * What takes the cursor from where the text stopped to a row of its own for the status (nothing
   * when the text ended its line), and what takes it back once that row is cleared; undefined when
   * the text's last line fills the `columns` (0: unknown) and the way back cannot be told.
   */
  status(columns: number): { below: string; back: string } | undefined;
}

/** `width`: the columns a string takes on the terminal. */
export function lineEnd(width: (text: string) => number): LineEnd {
  let tail = ""; // the last line written, without its styles
  return {
    wrote(text) {
      const plain = text.replace(CSI, "");
      const cut = Math.max(plain.lastIndexOf("\n"), plain.lastIndexOf("\r"));
      tail = cut >= 0 ? plain.slice(cut + 1) : tail + plain;
    },
    status(columns) {
      if (tail === "") return { below: "", back: "" };
      const at = width(tail);
      if (columns > 0 && at >= columns) return undefined;
      return { below: "\n", back: `\x1b[1A\x1b[${at + 1}G` };
    },
  };
}
