// read_file shows each line after its number and a tab (`  12\tconst x = 1;`). Models often copy
// that gutter into what they write, which would put the numbers into the file: the checks here
// spot it, pure, for edit and write_file.

/** read_file's prefix of a line: its number, right-aligned with spaces, and a tab. */
export const LINE_NUMBER = /^ *\d+\t/;

/**
 * The first line's prefix (`"  9\t"`) when every non-empty line of `text` starts with read_file's
 * line number and the numbers rise by one, as read_file prints them (a blank line the model left
 * bare still counts its place); undefined otherwise, or when `beside` — the file being replaced,
 * old_string — already has a line that starts so (a table of numbers and tabs is the file's own).
 */
export function lineGutter(text: string, beside: readonly string[] = []): string | undefined {
  const lines = text.split(/\r?\n/);
  let first: { prefix: string; n: number; at: number } | undefined;
  let prev: number | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line === "") continue;
    const prefix = LINE_NUMBER.exec(line)?.[0];
    if (prefix === undefined) return undefined;
    const n = Number(prefix.trim());
    first ??= { prefix, n, at: i };
    // numbered by place (bare blank lines counted) or one after the other (bare blank lines left out)
    if (prev !== undefined && n !== first.n + (i - first.at) && n !== prev + 1) return undefined;
    prev = n;
  }
  if (first === undefined) return undefined;
  if (beside.some((other) => other.split(/\r?\n/).some((line) => LINE_NUMBER.test(line)))) return undefined;
  return first.prefix;
}

/** What edit and write_file answer when `field` (content, new_string) carries read_file's gutter `prefix`. */
export const gutterRefusal = (field: string, prefix: string, unchanged: string) =>
  `${field}'s lines start with read_file's line numbers ("${prefix.replace("\t", "\\t")}"); ${unchanged}: leave the numbers out and give only each line's text ` +
  "(if the numbers and tabs belong in the file, make the same call again)";

/**
 * A tool's gutter check with a way past it: text refused once for `path` passes when the model
 * sends it again unchanged, since a numbered table (`1\tapple`) in a new file looks the same as a
 * copied gutter and the model is the one who knows. Answers the prefix to refuse, or undefined.
 */
export function gutterGate(): (path: string, text: string, beside: readonly string[]) => string | undefined {
  const refused = new Map<string, string>(); // path → the text last refused for it
  return (path, text, beside) => {
    const prefix = lineGutter(text, beside);
    if (prefix === undefined) return undefined;
    if (refused.get(path) === text) {
      refused.delete(path);
      return undefined;
    }
    refused.set(path, text);
    return prefix;
  };
}
