// What a line that starts with `/` is (SPEC §24): a slash command only when its first word is a
// known command name; `/skill:NAME …` a skill message; `/mcp:SERVER:PROMPT …` an MCP server's
// prompt (a message too); an unknown `/word` alone a mistake (exit 2
// in one-shot); anything else — `/etc/hosts is weird, why?` — a prompt. Pure, and small enough to
// load on the way to a one-shot run's first request (ui/commands.ts is not).

/** The slash commands (Tab completes these; `/skill:` is followed by a skill name). */
export const COMMANDS = [
  "/help",
  "/model",
  "/effort",
  "/thinking",
  "/usage",
  "/compact",
  "/reload",
  "/trust",
  "/untrust",
  "/mcp",
  "/mcp:",
  "/skill:",
  "/sessions",
  "/resume",
  "/quit",
  "/exit",
];

export type LineKind = "command" | "skill" | "mcp-prompt" | "unknown" | "prompt";

export function lineKind(line: string): LineKind {
  const trimmed = line.trim();
  const first = trimmed.split(/\s/, 1)[0]!;
  if (first.startsWith("/skill:")) return "skill";
  if (first.startsWith("/mcp:")) return "mcp-prompt";
  if (first !== "/skill:" && COMMANDS.includes(first)) return "command";
  // one word of letters, digits, - and _ after the slash: a mistyped command, not a path
  return trimmed === first && /^\/[A-Za-z][\w-]*$/.test(first) ? "unknown" : "prompt";
}

/** The message for an unknown `/word`. */
export const unknownCommand = (line: string) => `unknown command ${line.trim()} (/help lists the commands)`;
