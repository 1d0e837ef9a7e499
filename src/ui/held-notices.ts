// A `-p` run at a terminal streams the answer on stdout while MCP servers still connect in the
// background: their lines (`connected: fs (14 tools)`, a tool renamed) would land inside the
// answer, breaking its line and ending its markdown mid-block (a code fence or a table cut in
// two, the rest rendered as the wrong thing). Such a line waits until the answer's text ends —
// the next event that ends it anyway (a tool call, thinking, an error, the run's end) — and is
// said then, on its own line. Pure.
import type { AgentEvent } from "../kernel/output.ts";
import type { TerminalOutput } from "./terminal.ts";

/** The events after which the answer's text has ended: the terminal closes it before showing them. */
const ENDS_TEXT = new Set<AgentEvent["type"]>(["turn_start", "thinking_delta", "tool_call", "notice", "fallback", "retry", "compaction", "error", "done"]);

/** `terminal`, its `notice` held while the answer's text streams and said before the event that ends it. */
export function holdNoticesInText(terminal: TerminalOutput): TerminalOutput {
  let streaming = false;
  const held: string[] = [];
  return {
    ...terminal,
    notice(line) {
      if (streaming) held.push(line);
      else terminal.notice(line);
    },
    emit(event) {
      if (event.type === "text_delta") streaming = true;
      else if (streaming && ENDS_TEXT.has(event.type)) {
        streaming = false;
        for (const line of held.splice(0)) terminal.notice(line);
      }
      terminal.emit(event);
    },
  };
}
