// What of an MCP server's stderr is shown when it failed or stopped (a warning, /mcp): the line
// that says what went wrong, which Node prints above its stack and its version line (`Error:
// Cannot find module …`), then the last lines; stack frames never. Pure.

/** A line that names an error: `Error: …`, `ModuleNotFoundError: …`, `error: …`, `fatal: …`, `panic: …`. */
const ERROR_LINE = /^\s*(?:[\w.$]*(?:Error|Exception)\b|(?:error|fatal|panic)\b\s*[:[])/i;
/** A frame of a stack trace: Node's `    at f (file:1:2)`. */
const FRAME = /^\s+at\s/;

/**
 * At most `max` lines of `stderr` worth showing: its first error line (when the last lines miss it), then the last ones.
 * A line a carriage return rewrote (curl's progress meter, a spinner) is what a terminal would have left: the text after its last CR.
 */
export function stderrLines(stderr: string, max: number): string[] {
  const lines = stderr
    .split("\n")
    .map((l) => l.replace(/\r+$/, "")) // CRLF line ends
    .map((l) => l.slice(l.lastIndexOf("\r") + 1))
    .filter((l) => l.trim() !== "" && !FRAME.test(l));
  const error = lines.find((l) => ERROR_LINE.test(l));
  const tail = lines.slice(-max);
  if (error === undefined || tail.includes(error)) return tail;
  return [error, ...lines.slice(lines.length - (max - 1))];
}

/** A server's error with the lines of its stderr worth showing under it (a warning about a failure). */
export function withTail(s: { error?: string; stderr?: string }): string {
  const lines = stderrLines(s.stderr ?? "", 5);
  return lines.length ? `${s.error}\n${lines.map((l) => `  ${l}`).join("\n")}` : (s.error ?? "");
}
