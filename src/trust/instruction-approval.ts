// The user's own instruction files under the approvals rule (README "Skills", "AGENTS.md"): while
// a permission list is set, a user-level AGENTS.md or skill that is new or changed since the user
// last approved it is prompt text the agent may have written — it loads in every later session of
// every project, past the untrusted-project gate — so it waits for a yes at the next interactive
// start or the REPL's `/reload` (trust/instruction-yes.ts), and a one-shot run leaves it out, saying so. Pure: the weighing and the words;
// trust/instructions.ts reads the files and asks.
import { basename, dirname } from "node:path";
import { diffLines } from "diff";
import type { UserInstruction } from "../prompt/user-instructions.ts";
import { visible } from "../ui/visible.ts";

/** A file that waits for the user's yes: never approved (`new`), or changed since; `shown`: what the question shows of it (instructionChange). */
export type PendingInstruction = UserInstruction & {
  was: "new" | "changed";
  shown?: string[];
  /** why a folder skill too big to hash waits at every start, with what to do (trust/instructions.ts): said in place of "new" or "changed", which hey cannot know */
  unchecked?: string;
  /** when only Python's bytecode cache changed in a folder skill's folder: which, why it counts, and the way out (trust/python-cache.ts) */
  pythonCache?: string;
};

/**
 * The files of `now` the prompt would read against `approved`: every skill, and of the user's
 * AGENTS.md files (in the prompt's order) the first, and while it waits the next one — read in its
 * place — up to the first approved one. Undefined `approved` (all taken as they are): the first alone.
 */
export function inUse(now: readonly UserInstruction[], approved: Readonly<Record<string, string>> | undefined): UserInstruction[] {
  let found = false;
  return now.filter((f) => {
    if (f.kind !== "AGENTS.md") return true;
    if (found) return false;
    found = approved === undefined || approved[f.path] === f.hash;
    return true;
  });
}

/**
 * The files of `now` that wait for a yes against `approved` (the record's path → hash). Undefined
 * `approved`: every file is taken as it is (hey's first run, or a record kept before hey weighed
 * these files: trust/instructions.ts approvedBefore).
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

/** Changed lines the question shows of a file at most; past them a count. */
const CHANGE_LINES_MAX = 12;
/** A new file is shown whole up to this many lines; past them its first and last lines. */
const NEW_LINES_MAX = 12;
/** Files the question shows lines of; past them one line each, and past QUESTION_FILES_MAX a count per folder. */
const SHOWN_FILES_MAX = 6;
const QUESTION_FILES_MAX = 20;

/**
 * What the question shows of a file (`now`, its text; `approved`, the copy of what the user
 * approved, when hey has one): a changed file's added (`+`) and removed (`-`) lines, a new one's
 * text — each bounded (`max` lines: the trust question shows fewer), what is past the bound counted.
 * `folder`: a folder skill, whose other files changed when its SKILL.md did not.
 */
export function instructionChange(was: "new" | "changed", now: string, approved: string | undefined, folder = false, max = CHANGE_LINES_MAX): string[] {
  const lines = splitLines(now);
  if (was === "changed" && approved !== undefined) {
    const changed: { line: string; at: number }[] = [];
    let at = 1; // the line of `now` a change is at
    const parts = diffLines(approved, now);
    parts.forEach((part, i) => {
      const these = splitLines(part.value);
      // a line changed past a long common start: shown from a little before where it differs, so an edit at column 200 is seen
      const other = part.added ? parts[i - 1] : part.removed ? parts[i + 1] : undefined;
      const pair = other && (part.added ? other.removed : other.added) ? splitLines(other.value) : [];
      if (part.added || part.removed)
        for (const [j, l] of these.entries()) changed.push({ line: `${part.added ? "+" : "-"} ${fromDifference(l, pair[j])}`, at: at + (part.added ? j : 0) });
      if (!part.removed) at += these.length;
    });
    if (changed.length === 0)
      return [folder ? "(SKILL.md as you approved it; other files in its folder changed)" : "(only its line endings or encoding changed)"];
    if (changed.length <= max) return changed.map((c) => c.line);
    const hidden = changed.slice(max);
    return [
      ...changed.slice(0, max).map((c) => c.line),
      `… ${hidden.length} more changed lines not shown, at lines ${hidden[0]!.at}–${hidden.at(-1)!.at} of the file: open it to read them before answering`,
    ];
  }
  const missing = was === "changed" ? ["(hey kept no copy of what you approved: the whole file)"] : [];
  const most = Math.min(max, NEW_LINES_MAX);
  if (lines.length <= most) return [...missing, ...lines];
  const half = Math.floor(most / 2);
  return [
    ...missing,
    ...lines.slice(0, half),
    `… lines ${half + 1}–${lines.length - half} not shown (${lines.length - 2 * half} lines): open the file to read them …`,
    ...lines.slice(-half),
  ];
}

/** Columns of common start kept before where two lines differ, when the line is shown from there. */
const LEAD_COLUMNS = 40;

/** `line` from a little before where it first differs from `other` (its removed or added counterpart), when that is far in. */
function fromDifference(line: string, other: string | undefined): string {
  if (other === undefined) return line;
  let same = 0;
  while (same < line.length && same < other.length && line[same] === other[same]) same++;
  return same > LINE_COLUMNS - LEAD_COLUMNS ? `…(from column ${same - LEAD_COLUMNS + 1}) ${line.slice(same - LEAD_COLUMNS)}` : line;
}

const splitLines = (text: string) => {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  return lines.at(-1) === "" ? lines.slice(0, -1) : lines;
};

/** `path` as the user reads it: `~/…` under `home`. */
/** `path` as the user is shown it: under the home directory with `~`. */
export const tilde = (path: string, home: string) => (home && path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path);

/** The skills folder a skill file is in: a folder skill's SKILL.md is one level deeper. */
const skillsFolder = (path: string) => (basename(path) === "SKILL.md" ? dirname(dirname(path)) : dirname(path));

/** Columns of a row of the question: a longer line wraps onto more rows, never cut. */
const LINE_COLUMNS = 160;
/** Rows one line wraps onto at most; past them how many characters are not shown is said. */
const LINE_ROWS_MAX = 12;

/** A line shown in the question, as rows: control characters made visible, a long line wrapped in full up to LINE_ROWS_MAX rows. */
function shownRows(line: string): string[] {
  const text = visible(line);
  const rows: string[] = [];
  for (let i = 0; i < text.length && rows.length < LINE_ROWS_MAX; i += LINE_COLUMNS) rows.push(text.slice(i, i + LINE_COLUMNS));
  const left = text.length - LINE_ROWS_MAX * LINE_COLUMNS;
  return [...(rows.length ? rows : [""]), ...(left > 0 ? [`… ${left} more characters of this line not shown: open the file to read them`] : [])];
}
const shownLines = (lines: readonly string[]) =>
  lines
    .flatMap(shownRows)
    .map((r) => `      ${r}`)
    .join("\n");

/** What the question says of one file: what it is, whether new or changed, where. */
const fileLine = (f: PendingInstruction, home: string) =>
  `${f.was === "new" ? "+" : "~"} ${f.kind === "AGENTS.md" ? "instructions" : f.kind === "skill" ? "skill" : "project skill"} ${visible(tilde(f.path, home))} (${f.was === "new" ? "new" : "changed since you approved it"})`;

/**
 * The interactive start's question: each file on one line with what changed in it below — the
 * first SHOWN_FILES_MAX with their lines, then the names alone, then a count per folder — and why hey asks.
 */
export function instructionQuestion(pending: readonly PendingInstruction[], home: string): string {
  const named = pending.slice(0, QUESTION_FILES_MAX);
  const files = named.map((f, i) => (i < SHOWN_FILES_MAX && f.shown?.length ? `  ${fileLine(f, home)}:\n${shownLines(f.shown)}` : `  ${fileLine(f, home)}`));
  const rest = new Map<string, number>();
  for (const f of pending.slice(QUESTION_FILES_MAX)) {
    const folder = tilde(skillsFolder(f.path), home);
    rest.set(folder, (rest.get(folder) ?? 0) + 1);
  }
  for (const [folder, n] of rest) files.push(`  … and ${n} more in ${visible(folder)}`);
  if (pending.length > SHOWN_FILES_MAX)
    files.push(`  (past the first ${SHOWN_FILES_MAX} files their lines are not shown: e asks about each file with its lines)`);
  const one = pending.length === 1;
  // a trusted project's .hey/skills alone: read by every session of this project, not of every project
  const project = pending.every((f) => f.kind === "project skill");
  const whose = project
    ? `This project's .hey/skills: ${one ? "a skill is" : `${pending.length} skills are`}`
    : `Your own instruction ${one ? "file is" : `files (${pending.length}) are`}`;
  return (
    `${whose} new or changed since you last approved ${one ? "it" : "them"}; every session in ${project ? "this project" : "every project"} reads ${one ? "it" : "them"} as instructions:\n` +
    `${files.join("\n")}\n` +
    `A permission list is set, and the agent may have written ${one ? "this file" : "these files"}, so hey asks before ${one ? "it loads" : "they load"}. Use ${one ? "it? (y/N) " : "them? y: all, n: none, e: each on its own (y/N/e) "}`
  );
}

/** After `e` at instructionQuestion: the question about one file, with what changed in it. */
export function oneFileQuestion(f: PendingInstruction, home: string): string {
  return `  ${fileLine(f, home)}${f.shown?.length ? `:\n${shownLines(f.shown)}\n` : "\n"}  Use it? (y/N) `;
}

/**
 * One line per file left out of this run: a one-shot run (never asked), or `asked` and not
 * answered yes; with how to approve it. `instead`: the user AGENTS.md read in place of a held one.
 */
export function instructionNotices(pending: readonly PendingInstruction[], home: string, asked: boolean, instead?: string): string[] {
  const how = asked ? "hey asks again at /reload or the next start" : "to use it, start `hey` at a terminal and answer its question";
  return pending.map(
    (f) =>
      `left out: ${visible(tilde(f.path, home))}, ${f.kind === "AGENTS.md" ? "your AGENTS.md" : f.kind === "skill" ? "a skill" : "a skill of this project's .hey/skills"} ` +
      (f.unchecked
        ? `${f.unchecked}${asked ? `; ${how}` : ""}`
        : f.pythonCache
          ? `changed since you last approved your instruction files: ${f.pythonCache}; or ${how}`
          : `${f.was === "new" ? "new" : "changed"} since you last approved your instruction files (the agent may have written it, and every session would read it); ${how}`) +
      (f.kind === "AGENTS.md" && instead ? `; ${visible(tilde(instead, home))}, as you approved it, is read in its place` : ""),
  );
}

/** On the first run with a list where nothing of them was recorded yet: the files taken as they are, counted per folder. */
export function adoptedInstructionsNotice(files: readonly UserInstruction[], home: string, record: string): string {
  const skills = new Map<string, number>();
  for (const f of files.filter((f) => f.kind !== "AGENTS.md")) {
    const folder = tilde(skillsFolder(f.path), home);
    skills.set(folder, (skills.get(folder) ?? 0) + 1);
  }
  const named = [
    ...files.filter((f) => f.kind === "AGENTS.md").map((f) => tilde(f.path, home)),
    ...[...skills].map(([folder, n]) => `${n} skill${n === 1 ? "" : "s"} in ${folder}`),
  ];
  return `recorded your instruction files (${named.map(visible).join(", ")}) as approved in ${record}; from now on a new or changed one waits for your yes while a permission list is set`;
}

/** One skill of a project's `.hey/skills` as the trust question shows it (trust/instructions.ts skillsForTrust). */
export type TrustSkill = UserInstruction & {
  /** what `/skill:` takes and the prompt lists it by (skills/load.ts), and what it says it is for */
  name: string;
  description: string;
  /** against the approvals record: `same` as the user approved it (no lines shown), else what changed in it */
  was: "new" | "changed" | "same";
  shown?: string[];
  /** why the loader leaves it out whatever the answer (a link outside the project): listed as not loaded, never approved */
  leftOut?: string;
};

/** Body lines of one skill the trust question shows at most: the question is about the project, each skill's text a part of it. */
export const TRUST_SKILL_LINES = 8;
/** Skills the trust question shows the lines of; past them name and description alone, and a yes does not approve those. */
const TRUST_SHOWN_SKILLS = 3;
/** Columns of a description in the trust question; past them it is cut. */
const DESCRIPTION_COLUMNS = 160;

/**
 * What the trust question says of a new skill's text (`where`: its path as the question names it):
 * its body's first `max` lines, the rest counted with where to read it — the name and description
 * are in the skill's head line already — and its frontmatter's other keys (`allowed-tools`, `model`…),
 * which change what it does, on one line.
 */
export function skillText(text: string, max: number, where: string): string[] {
  const lines = splitLines(text);
  const close = lines[0]?.trim() === "---" ? lines.findIndex((l, i) => i > 0 && l.trim() === "---") : -1;
  const keys: string[] = [];
  let own = false; // inside the name or description key, whose value may go on over indented lines
  for (const line of lines.slice(1, Math.max(close, 1))) {
    const key = /^([A-Za-z0-9_-]+)\s*:/.exec(line)?.[1];
    if (key !== undefined) own = key === "name" || key === "description";
    if (own || line.trim() === "") continue;
    if (key !== undefined || keys.length === 0) keys.push(line.trim());
    else keys[keys.length - 1] += ` ${line.trim()}`;
  }
  let start = close + 1;
  while (start < lines.length && lines[start]!.trim() === "") start++;
  const body = lines.slice(start);
  const head = keys.length ? [`(frontmatter: ${keys.join("; ")})`] : [];
  if (body.length <= max) return [...head, ...(body.length ? body : ["(no text below its frontmatter)"])];
  return [
    ...head,
    ...body.slice(0, max),
    `… ${body.length - max} more lines (${start + max + 1}–${lines.length}) not shown: open ${visible(where)} to read them before answering`,
  ];
}

/** Whether the trust question shows `s`'s text (or it is as the user approved it): what a yes may approve. */
const textShown = (s: TrustSkill, i: number) => s.was === "same" || (i < TRUST_SHOWN_SKILLS && (s.shown?.length ?? 0) > 0);

/** The skills the question names, in order: those the loader would load, up to QUESTION_FILES_MAX; each new or changed one numbered for textShown. */
function namedRows(skills: readonly TrustSkill[]): { s: TrustSkill; i: number }[] {
  let changed = 0;
  return skills
    .filter((s) => s.leftOut === undefined)
    .slice(0, QUESTION_FILES_MAX)
    .map((s) => ({ s, i: s.was === "same" || !s.shown?.length ? Number.POSITIVE_INFINITY : changed++ }));
}

/**
 * The skills a yes to the trust question approves, as shown: those it showed the text of (the first
 * TRUST_SHOWN_SKILLS new or changed) and those as the user approved them. The rest it named, counted
 * or listed as not loaded are asked about on their own (the skills question, with `e`).
 */
export const approvedAtTrust = <T extends TrustSkill>(skills: readonly T[]): T[] => {
  const rows = namedRows(skills);
  return skills.filter((s) => rows.some((r) => r.s === s && textShown(s, r.i)));
};

/**
 * What the trust question says of the project's `.hey/skills` (paths relative to `root`): each
 * skill by name and description with whether it is new, changed or as approved — the first
 * TRUST_SHOWN_SKILLS new or changed ones with their lines, which alone a yes approves, said — up
 * to QUESTION_FILES_MAX, then a count; those the loader leaves out, with why; "" when there is none.
 */
export function trustSkillsBlock(skills: readonly TrustSkill[], root: string): string {
  if (skills.length === 0) return "";
  const rel = (s: TrustSkill) => visible(s.path.startsWith(`${root}/`) ? s.path.slice(root.length + 1) : s.path);
  const rows = namedRows(skills).map(({ s, i }) => {
    const said = visible(s.description.replace(/\s+/g, " ").trim());
    const description = said.length > DESCRIPTION_COLUMNS ? `${said.slice(0, DESCRIPTION_COLUMNS)}…` : said;
    const state = s.was === "same" ? "as you approved it" : s.was === "new" ? "new" : "changed since you approved it";
    const hidden = textShown(s, i) ? "" : "; its text not shown";
    const head = `  ${s.was === "same" ? "=" : s.was === "new" ? "+" : "~"} ${visible(s.name)}${description ? `: ${description}` : ""} (${rel(s)}, ${state}${hidden})`;
    return s.was === "same" || hidden ? head : `${head}:\n${shownLines(s.shown ?? [])}`;
  });
  const loads = skills.filter((s) => s.leftOut === undefined);
  const unshown = namedRows(skills).filter(({ s, i }) => !textShown(s, i)).length;
  if (unshown > 0)
    rows.push(
      unshown === 1
        ? "  (a yes approves the skills shown with their text; the one whose text is not shown gets its own question after, with its text)"
        : `  (a yes approves the skills shown with their text; the ${unshown} whose text is not shown get their own question after, with their text: e there goes through each)`,
    );
  const rest = loads.length - Math.min(loads.length, QUESTION_FILES_MAX);
  if (rest > 0)
    rows.push(`  … and ${rest} more, not named here: while a permission list is set, a yes does not approve them, and hey asks about them on their own`);
  for (const s of skills.filter((s) => s.leftOut !== undefined)) rows.push(`  not loaded: ${visible(s.name)} (${rel(s)}: ${visible(s.leftOut!)}; left out)`);
  const one = loads.length === 1;
  const what =
    loads.length === 0
      ? "no skill: its only ones are left out"
      : `${one ? "this skill" : `these ${loads.length} skills`}, whose text the agent follows as instructions in every session here`;
  return `\nTrusted, it would load its .hey/skills: ${what}:\n${rows.join("\n")}`;
}
