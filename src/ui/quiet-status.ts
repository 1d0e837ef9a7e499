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
  /** the last line as written, styles and all; empty at a line's start: what is written again after a stop (Ctrl-Z, `fg`) */
  shown(): string;
}

/** `width`: the columns a string takes on the terminal. */
export function lineEnd(width: (text: string) => number): LineEnd {
  let styled = ""; // the last line written
  let tail = ""; // the same without its styles
  return {
    wrote(text) {
      const cut = Math.max(text.lastIndexOf("\n"), text.lastIndexOf("\r")); // a style sequence holds neither
      styled = cut >= 0 ? text.slice(cut + 1) : styled + text;
      tail = styled.replace(CSI, "");
    },
    shown: () => styled,
    status(columns) {
      if (tail === "") return { below: "", back: "" };
      const at = width(tail);
      if (columns > 0 && at >= columns) return undefined;
      return { below: "\n", back: `\x1b[1A\x1b[${at + 1}G` };
    },
  };
}
