// Where a call opener in an answer's text is something the model shows or quotes rather than a call
// it makes (text-tool-calls.ts asks): inside code as Markdown reads it, or not at the start of a
// line (a `>` quote, a sentence going on around it). Pure.

/**
 * Whether position `at` of `text` is in a code block as Markdown reads one: inside a ``` or ~~~
 * fence (closed by a line of only the same character, as many or more), or on a line indented 4
 * spaces or a tab that comes after a blank line or such a line (an indented block cannot interrupt
 * a paragraph).
 */
export function insideCode(text: string, at: number): boolean {
  const lineStart = text.lastIndexOf("\n", at - 1) + 1;
  let fence = "";
  let blank = true; // the line before is blank (or there is none)
  let indented = false; // the line before is in an indented code block
  for (const line of text.slice(0, lineStart).split("\n").slice(0, -1)) {
    const marker = /^[ \t]*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence) {
      if (marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = "";
    } else if (marker) fence = marker;
    const empty = line.trim() === "";
    indented = !fence && !marker && (empty ? indented : INDENT.test(line) && (indented || blank));
    blank = empty;
  }
  return fence !== "" || (INDENT.test(text.slice(lineStart, at)) && (indented || blank));
}

const INDENT = /^(?: {4}|\t)/;

/**
 * Whether a call opener at `at` of `text` is placed as a model writes a call: starting its line (after
 * spaces), or, a template `token` (DeepSeek's, Mistral's, which their templates write right after the
 * answer's text), after text on a line that is no `>` quote and not right after a backtick.
 */
export function placedAsCall(text: string, at: number, token: boolean): boolean {
  const line = text.slice(text.lastIndexOf("\n", at - 1) + 1, at);
  return line.trim() === "" || (token && !/^\s*>/.test(line) && !line.endsWith("`"));
}
