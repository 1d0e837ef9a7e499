// `/skills` and `hey skills` (x45 finding 7): each skill with the folder it comes from, the start
// of its description and whether the model sees it, then what was left out and why (a folder one
// level too deep, broken frontmatter, a link out of the project, a name another folder's skill
// took), so a missing skill is explained without reading the start-up lines again. Pure.
import type { Skill, SkillProblem } from "../skills/frontmatter.ts";

export interface SkillsListing {
  /** the skill folders in precedence order (skills/load.ts skillFolders), with whose they are ("project", "yours") */
  folders: readonly { dir: string; whose: string }[];
  /** what the folders this run reads hold now (skills/load.ts loadSkills) */
  found: readonly Skill[];
  /** the project's skills that wait on its trust (`leftOut` says why), when it is not trusted */
  untrusted: readonly Skill[];
  problems: readonly SkillProblem[];
  /** the skills this run loaded (at start or the last /reload): the model's list */
  loaded: readonly Skill[];
  /** the skills listed by name only, past the list's cap (prompt/skill-listing.ts listSkills) */
  nameOnly: ReadonlySet<string>;
  /** the skills not even named in the model's list, past its cap: it is told which folder to list */
  unlisted?: ReadonlySet<string>;
  /** the names of your own skills held out of this run, new or changed since you approved them (trust/instructions.ts) */
  awaiting?: ReadonlySet<string>;
  /** the names of your own skills whose text you said no to at `/reload`: out until it changes or the next start */
  declined?: ReadonlySet<string>;
  /** why the project's skills are not loaded (trust), if they are not */
  leftOut?: string;
  /** `~`- and working-directory-relative form of a path */
  shown(path: string): string;
  /** the terminal's width; 0: none (a pipe) */
  columns: number;
}

/** A description is shown to this many characters when no terminal width cuts it sooner. */
const DESCRIPTION_SHOWN = 80;
/** Narrower than this, a description says too little: the state moves to its own line instead. */
const MIN_DESCRIPTION = 20;

/** The `/skills` text. */
export function formatSkills(l: SkillsListing): string {
  const out: string[] = [];
  const loaded = new Map(l.loaded.map((s) => [s.name, s]));
  const found = new Set(l.found.map((s) => s.name));
  const waiting = new Set(l.untrusted);
  const rows = [...l.found, ...l.loaded.filter((s) => !found.has(s.name)), ...l.untrusted].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  if (rows.length === 0) out.push("No skills.");
  else
    out.push(
      `${rows.length} skill${rows.length === 1 ? "" : "s"} (the model sees each one's name and description in every request; /skill:NAME sends one whole):`,
    );
  const sources = rows.map((s) => source(s.path, l));
  const nameWidth = Math.max(0, ...rows.map((s) => s.name.length));
  const sourceWidth = Math.max(0, ...sources.map((s) => s.length));
  rows.forEach((s, i) => {
    const state = waiting.has(s)
      ? " [not loaded: the project is not trusted (below)]"
      : !found.has(s.name)
        ? " [gone from its folder: /reload drops it]"
        : !loaded.has(s.name)
          ? l.declined?.has(s.name)
            ? " [left out: you said no at /reload; the next start asks again, or /reload once it changes]"
            : l.awaiting?.has(s.name)
              ? " [waiting for your yes: new or changed since you approved it; /reload or the next start asks]"
              : " [not loaded yet: /reload loads it]"
          : loaded.get(s.name)!.path !== s.path
            ? ` [loaded from ${l.shown(loaded.get(s.name)!.path)}: /reload changes it]`
            : loaded.get(s.name)!.disableModelInvocation
              ? " [not in the model's list (disable-model-invocation): /skill:NAME runs it]"
              : l.nameOnly.has(s.name)
                ? " [listed by name only: the list is over its cap]"
                : l.unlisted?.has(s.name)
                  ? " [not in the model's list, past its cap: the model is told which folder to list]"
                  : "";
    const head = `  ${s.name.padEnd(nameWidth)}  ${sources[i]!.padEnd(sourceWidth)}  `;
    const description = s.description.replace(/\s+/g, " ").trim();
    // a narrow terminal: the state goes on a line of its own rather than past the edge
    const apart = l.columns > 0 && head.length + state.length + MIN_DESCRIPTION > l.columns;
    const room = l.columns <= 0 ? DESCRIPTION_SHOWN : Math.max(MIN_DESCRIPTION, l.columns - head.length - (apart ? 0 : state.length));
    out.push(`${head}${cut(description, room)}${apart ? "" : state}`);
    if (apart && state) out.push(`    ${state.trim()}`);
  });
  const problems = l.problems.filter((p) => p.level !== "note");
  const notes = l.problems.filter((p) => p.level === "note");
  if (problems.length > 0 || l.leftOut) {
    out.push("Left out or with problems:");
    if (l.leftOut) out.push(`  ${l.leftOut}`);
    for (const p of problems) out.push(`  ${p.message}`);
  }
  if (notes.length > 0) {
    out.push("Replaced (a later folder's skill of the same name wins):");
    for (const p of notes) out.push(`  ${p.message}`);
  }
  out.push(`Folders, later winning a name: ${l.folders.map((f) => l.shown(f.dir)).join(", ")}`);
  return out.join("\n");
}

/** The folder a skill comes from and whose it is. */
function source(path: string, l: SkillsListing): string {
  const folder = l.folders.find((f) => path.startsWith(f.dir + "/"));
  return folder ? `${l.shown(folder.dir)} (${folder.whose})` : l.shown(path);
}

const cut = (text: string, room: number) => (text.length <= room ? text : `${text.slice(0, room - 1)}…`);
