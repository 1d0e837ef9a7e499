// A regex quoted as its writer wrote it, for grep's call line and its messages. JSON's quoting
// doubled each backslash (`add\(` read `"add\\("`, a regex that matches a backslash); here only
// what would break the line is escaped: the quote itself and control characters. Pure.

/** `pattern` in double quotes, its backslashes as written; `"`, line breaks, tabs and other control characters escaped. */
export function writtenPattern(pattern: string): string {
  const escaped = pattern.replace(/["\u0000-\u001f\u007f]/g, (c) =>
    c === '"' ? '\\"' : c === "\n" ? "\\n" : c === "\t" ? "\\t" : c === "\r" ? "\\r" : `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
  return `"${escaped}"`;
}
