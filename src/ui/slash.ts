// What a line that starts with `/` is (SPEC §24): a slash command only when its first word is a
// known command name; `/skill:NAME …` a skill message; `/mcp:SERVER:PROMPT …` an MCP server's
// prompt (a message too); an unknown `/word` alone a mistake (exit 2
// in one-shot; "did you mean" names a command two edits away), and so is `/word …` naming a skill
// or a command of another agent's that takes arguments (slashMistake); anything else —
// `/etc/hosts is weird, why?`, `/status endpoint returns 500` — a prompt. Pure, and small enough to
// load on the way to a one-shot run's first request (ui/commands.ts is not).
import { closest } from "../config/suggest.ts";
import { peerCommand } from "../peer-names.ts";

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
  "/plan",
  "/mcp",
  "/mcp:",
  "/skill:",
  "/skills",
  "/sessions",
  "/resume",
  "/last",
  "/diff",
  "/undo",
  "/jobs",
  "/clear",
  "/new",
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

/** The message for an unknown `/word`, with the command it is probably a misspelling of (`/modle`: /model). */
export function unknownCommand(line: string): string {
  const word = line.trim();
  const names = COMMANDS.filter((c) => !c.endsWith(":"));
  // a cut-off command (`/res`) means the one it starts, before any two edits away (`/new`)
  const started = names.filter((c) => c.startsWith(word.toLowerCase()));
  const near = started.length === 1 ? started[0] : closest(word, names);
  return `unknown command ${word}${near ? `; did you mean ${near}?` : ""} (/help lists the commands)`;
}

/** The `/NAME`s a line may mean that are no command of hey's. */
export interface SlashNames {
  /** the skills loaded */
  skills: readonly string[];
  /** what else `/NAME` is, said whole: a Claude Code command file, a skill that is not loaded; undefined: nothing */
  other(name: string): string | undefined;
}

/**
 * Why a line that starts with `/` is not sent to the model, or undefined when it is a command, a
 * skill or MCP prompt line, or a prompt. An unknown `/word` alone is a mistake; so is `/word …`
 * whose word is a skill's name (`/review src/main.ts` is `/skill:review src/main.ts`), a Claude
 * Code command file's, another agent's command that takes arguments (`/add-dir ../x`), or `/skill
 * NAME`; another agent's command that takes none (`/cost`: hey's is /usage) only alone. Any other
 * line — `/etc/hosts is weird, why?`, `/status endpoint returns 500` — is a prompt.
 */
export function slashMistake(line: string, names: SlashNames): string | undefined {
  const kind = lineKind(line);
  if (kind !== "unknown" && kind !== "prompt") return undefined;
  const trimmed = line.trim();
  const first = trimmed.split(/\s/, 1)[0]!;
  // Codex's `/prompts:NAME`, Claude Code's older `/project:NAME` and `/user:NAME`: another agent's command file, with or without words after it
  if (PEER_PREFIXED.test(first)) return names.other(first.slice(1)) ?? peerCommand(first, true);
  if (!/^\/[A-Za-z][\w-]*$/.test(first)) return undefined;
  const word = first.slice(1);
  const args = trimmed.slice(first.length).trim();
  const rest = args ? ` ${args}` : "";
  const skill = names.skills.find((s) => s.toLowerCase() === word.toLowerCase());
  if (skill) return `${first} is no command; the skill ${skill} is /skill:${skill}${rest}`;
  const other = names.other(word);
  if (other) return other;
  if (word === "skill" && args) return `a skill is /skill:NAME (no space): /skill:${args}`;
  const peer = peerCommand(word, args !== "");
  if (peer) return peer;
  return kind === "unknown" ? unknownCommand(line) : undefined;
}

/** `/prompts:NAME`, `/project:NAME`, `/user:NAME`: the ways other agents name their command files. */
const PEER_PREFIXED = /^\/(prompts|project|user):[\w.-]+$/i;

/** Commands that read and change nothing of the session whatever follows them (words after them are refused). */
const READING = new Set(["/help", "/usage", "/thinking", "/last", "/diff", "/undo", "/quit", "/exit"]); // a one-shot /undo is refused
/** Commands that only read when nothing follows them (`/model` lists, `/model NAME` switches). */
const READING_BARE = new Set(["/model", "/effort", "/mcp", "/jobs"]);

/**
 * Whether `line` sends the conversation to the model: a prompt, a skill's message (`/skill:NAME …`),
 * an MCP server's prompt (`/mcp:SERVER:PROMPT`), `/compact`'s summary; where nothing can be sent,
 * each is refused before anything starts (run.ts). Other commands only read or change hey's state.
 */
export function asksModel(line: string): boolean {
  const kind = lineKind(line);
  return kind === "prompt" || kind === "skill" || kind === "mcp-prompt" || line.trim().split(/\s+/, 1)[0] === "/compact";
}

/**
 * Whether the command `line` only reads the session (`/usage`, `/sessions`, `/mcp`…): run on its own
 * (`hey -c /usage`) it loads the session without taking it from another hey that has it open
 * (run.ts). `/compact` writes a summary and `/sessions prune` deletes files: those take it.
 */
export function readsOnly(line: string): boolean {
  const [name = "", ...rest] = line.trim().split(/\s+/);
  if (READING.has(name) || (READING_BARE.has(name) && rest.length === 0)) return true;
  return name === "/sessions" && (rest.length === 0 || (rest.length === 1 && rest[0] === "all"));
}
