// The user's own instruction files under the approvals rule (README "Skills", "AGENTS.md"): while
// a permission list is set, a user-level AGENTS.md or skill that is new or changed since the user
// last approved it is prompt text the agent may have written — it loads in every later session of
// every project, past the untrusted-project gate — so it waits for a yes at the next interactive
// start, and a one-shot run leaves it out, saying so. Pure: the weighing and the words;
// trust/instructions.ts reads the files and asks.
import { visible } from "../ui/visible.ts";

/** One user-level instruction file as found now (prompt/user-instructions.ts). */
export interface UserInstruction {
  path: string;
  kind: "AGENTS.md" | "skill";
  /** of its text (32 hex digits) */
  hash: string;
}

/** A file that waits for the user's yes: never approved (`new`), or changed since; `head`: its first lines, for the question. */
export type PendingInstruction = UserInstruction & { was: "new" | "changed"; head?: string[] };

/**
 * The files of `now` that wait for a yes against `approved` (the record's path → hash). Undefined
 * `approved`: nothing recorded yet (hey's first run, or a record kept before hey hashed these
 * files): every file is taken as it is, as a first run takes the config files.
 */
export function pendingInstructions(now: readonly UserInstruction[], approved: Readonly<Record<string, string>> | undefined): PendingInstruction[] {
  if (approved === undefined) return [];
  return now.filter((f) => approved[f.path] !== f.hash).map((f) => ({ ...f, was: approved[f.path] === undefined ? "new" : "changed" }));
}

/** The hashes to record: each file of `now` that this run uses (not among `held`). */
export function approvedHashes(now: readonly UserInstruction[], held: readonly UserInstruction[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of now) if (!held.some((h) => h.path === f.path)) out[f.path] = f.hash;
  return out;
}

/** `path` as the user reads it: `~/…` under `home`. */
const tilde = (path: string, home: string) => (home && path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path);

/** A head line shown in the question: control characters made visible, long lines cut. */
const shownLine = (line: string) => visible(line.length > 160 ? `${line.slice(0, 159)}…` : line);

/** What the question says of one file: what it is, whether new or changed, where. */
const fileLine = (f: PendingInstruction, home: string) =>
  `${f.was === "new" ? "+" : "~"} ${f.kind === "skill" ? "skill" : "instructions"} ${visible(tilde(f.path, home))} (${f.was === "new" ? "new" : "changed since you approved it"})`;

/** The interactive start's question: each file, its first lines, and why hey asks. */
export function instructionQuestion(pending: readonly PendingInstruction[], home: string): string {
  const files = pending.map((f) => `  ${fileLine(f, home)}:\n${(f.head ?? []).map((l) => `      ${shownLine(l)}`).join("\n")}`);
  const one = pending.length === 1;
  return (
    `Your own instruction ${one ? "file is" : "files are"} new or changed since you last approved ${one ? "it" : "them"}; every session in every project reads ${one ? "it" : "them"} as instructions:\n` +
    `${files.join("\n")}\n` +
    `A permission list is set, and the agent may have written ${one ? "this file" : "these files"}, so hey asks before ${one ? "it loads" : "they load"}. Use ${one ? "it" : "them"}? (y/N) `
  );
}

/**
 * One line per file left out of this run: a one-shot run (never asked), or `asked` and not
 * answered yes; with how to approve it.
 */
export function instructionNotices(pending: readonly PendingInstruction[], home: string, asked: boolean): string[] {
  const how = asked ? "hey asks again at the next start" : "to use it, start `hey` at a terminal and answer its question";
  return pending.map(
    (f) =>
      `left out: ${visible(tilde(f.path, home))}, ${f.kind === "skill" ? "a skill" : "your AGENTS.md"} ${f.was === "new" ? "new" : "changed"} since you last approved your instruction files (the agent may have written it, and every session would read it); ${how}`,
  );
}

/** On the first run with a list where nothing of them was recorded yet: the files taken as they are. */
export function adoptedInstructionsNotice(files: readonly UserInstruction[], home: string, record: string): string {
  return `recorded your instruction files (${files.map((f) => visible(tilde(f.path, home))).join(", ")}) as approved in ${record}; from now on a new or changed one waits for your yes while a permission list is set`;
}
