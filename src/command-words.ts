// A command line of one word that names none of hey's commands but is a slip for one (`hey doctr`,
// `hey upgrdae`, `hey sesions`): refused with the command meant rather than sent to the model as a
// prompt and saved as a session. Kept tight — a word a prompt would be (`hey test`, `hey rust`)
// still goes to the model. Pure.
import { editDistance } from "./kernel/spelling.ts";

/** hey's commands of their own (main.ts) that a one-word slip is checked against. */
const COMMANDS = ["doctor", "upgrade", "trust", "mcp", "skills"];

/** Words one or two edits from a command that are words of their own, sent as prompts. */
const PROMPT_WORDS = new Set([
  ...["docker", "doctors", "doctoral", "doctored", "donor", "decor", "dolor", "dotcom"],
  ...["trusts", "trusty", "truss", "thrust", "tryst", "truest"],
  ...["spills", "stills", "shills", "sills", "skulls", "skiers", "spells"],
]);

/** Words that ask for sessions, which are flags of hey's (`--sessions`, `-c`, `--resume ID`), not commands. */
const SESSION_WORDS = ["sessions", "session", "resume"];

/**
 * Whether `word` (lower case) is a slip for `command`: the same first letter and at most two edits
 * for a long command (`doctr`, `upgrdae`), one for `trust`, the same letters in another order for
 * `mcp` (a three-letter word one edit away is too often a word of its own: `map`).
 */
function slipFor(word: string, command: string): boolean {
  if (command.length <= 3) return word.length === command.length && [...word].sort().join("") === [...command].sort().join("");
  return word[0] === command[0] && editDistance(word, command, true) <= (command.length >= 6 ? 2 : 1);
}

/**
 * What a command line of one word means when it is no prompt: "help" (`hey help`, as git does), or
 * the error that refuses a slip for a command or a word asking for sessions; undefined otherwise.
 */
export function oneWordCommand(argv: readonly string[]): "help" | { error: string } | undefined {
  const [word] = argv;
  if (argv.length !== 1 || !word || !/^[a-z]+$/i.test(word)) return undefined;
  const lower = word.toLowerCase();
  if (lower === "help") return "help";
  if (PROMPT_WORDS.has(lower)) return undefined;
  const asPrompt = `(to send it as a prompt: hey -p "${word}")`;
  if (SESSION_WORDS.some((w) => editDistance(lower, w, true) <= 1))
    return {
      error: `unknown command hey ${word}: hey --sessions lists this directory's sessions, hey -c continues the last one, hey --resume ID another ${asPrompt}`,
    };
  const meant = COMMANDS.find((c) => c !== word && slipFor(lower, c));
  return meant ? { error: `unknown command hey ${word}; did you mean hey ${meant}? ${asPrompt}` } : undefined;
}

/**
 * The error for Codex's one-shot form typed to hey (`hey exec "fix the tests"`): hey's is `hey -p`.
 * Only `exec` first and alone, or with one word (the quoted prompt) or a flag after it: `hey exec
 * into the pod and tail the logs` stays a prompt. Undefined for any other command line.
 */
export function codexExec(argv: readonly string[]): string | undefined {
  const [first, next] = argv;
  if (first !== "exec" || (argv.length > 2 && !next!.startsWith("-"))) return undefined;
  const prompt = argv.length === 2 && !next!.startsWith("-") ? next! : "…";
  // Codex's --json (events as JSON lines) is hey's --output json: kept in the line hey gives back
  const json = argv.includes("--json") ? "--output json " : "";
  return `hey has no exec command (Codex's); a one-shot run is hey ${json}-p ${JSON.stringify(prompt)}`;
}
