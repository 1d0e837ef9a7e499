// The system prompt of every request (SPEC §11): the core prompt, the skills (list and creation
// guide), the AGENTS.md files, read at start-up, and the MCP servers' instructions — what comes
// from files and servers redacted as tool results are. Within a run it stays byte-identical, so the
// provider's prompt cache can reuse it (issue 23): the date is the run's first, and edits to
// AGENTS.md — and what the guide says, which follows the project's trust and the permission lists
// — switch in at `/reload` (or the next run), after validation. Skills a `/reload` adds, changes
// or removes do not touch it: the model keeps a note of them in its conversation
// (skillsChangedNote), and the list catches up when the prompt is rewritten anyway (an AGENTS.md
// change, the next run, /new, /resume), when a note the model was sent is no longer in a request
// (a summary or trim left it out), or when the note would be over its cap. The two are Reloadables
// for `/reload`. `hey -c` within the prompt cache's lifetime sends the session's last prompt again
// (sentWith, prompt-record.ts), and what changed since goes in the same notes.
import * as nodePath from "node:path";
import { declinedLine, KEPT_AS_APPROVED, LEFT_OUT_CHANGED, waitingLine } from "./held-lines.ts";
import { isAbsolute, join } from "node:path";
import { readHeadText } from "../fs/read-head.ts";
import { gatedResources } from "../fs/root-probe.ts";
import type { PeerDirs } from "../fs/places.ts";
import type { Reloadable, Staged } from "../config/reload.ts";
import { skillChanges } from "../skills/catalog.ts";
import { modelHears, type Skill, type SkillProblem } from "../skills/frontmatter.ts";
import { loadSkills, skillFolders } from "../skills/load.ts";
import { agentsChanges, agentsPlaces, readAgentsFiles, type AgentsMd, type AgentsReading } from "./agents-md.ts";
import { skillStartNote } from "./start-note.ts";
import { capInstructions, instructionsMaxBytes, utf8Size } from "./instruction-cap.ts";
import { buildSystemPrompt, grantFacts, type GuideFacts, type GuideGrants } from "./system.ts";
import { listSkills, skillsChangedNote, skillsListCut, type ListedSkill, type ShownSkills } from "./skill-listing.ts";
import type { Message } from "../kernel/ir.ts";
import { decodeText, wholeCharacters } from "../fs/text-encoding.ts";
import type { InstructionGate } from "./user-instructions.ts";
import { fixedHash } from "../context/window.ts";
import { promptSkills, shownPath } from "./shown-path.ts";
import { promptRecord, resumeWith, withPromptRecord, type PromptRecord } from "./prompt-record.ts";
import type { Output } from "../kernel/output.ts";

export type { ShownSkills } from "./skill-listing.ts";
export { promptSkills, shownPath } from "./shown-path.ts";

/** What the system prompt is made of; `claudeDir` and `codexDir` (PeerDirs) hold the user's CLAUDE.md and skills, and AGENTS.md, of Claude Code and Codex. */
export interface PromptSourceOptions extends PeerDirs {
  core: string;
  cwd: string;
  /** the project root (fs/places.ts): its `.hey/skills`, `.agents/skills` and `.claude/skills`; named in the prompt when it is not `cwd` */
  root: string;
  home: string;
  /** ~/.config/hey (or $XDG_CONFIG_HOME/hey): the user's AGENTS.md and skills */
  configDir: string;
  os: string;
  /** the shell bash runs now (`/reload` may change it) */
  shell(): string;
  /**
   * undefined = `--no-skills`: no skills are read, listed or explained; `trusted()`: whether the
   * project's skills load — asked at start-up and at each `/reload` (`/trust` changes it between);
   * `everyRun`: trusted at start by a recorded yes, as a run without --approve finds it (not for the
   * REPL's session alone, nor by --approve alone): the guide names the project's folders; undefined: as `trusted()` at start
   */
  skills: { trusted(): boolean; everyRun?: boolean } | undefined;
  /** where a CLAUDE.md's imports may lead outside the project (agents-md.ts), asked at start-up and at each `/reload` */
  importsOutside(): AgentsReading["outside"];
  /**
   * `text` (an AGENTS.md, a skill's description, a server's instructions) as the model may see it:
   * the secrets hey knows and, when on, values shaped like credentials hidden, as in tool results
   * (config/secrets.ts redactText); the same text for the same input, so the prompt cache holds
   */
  redact(text: string): string;
  /**
   * whether the agent may write the config files (no permission list is set), asked at start-up and at each `/reload`;
   * or that with whether a tool that writes files is offered and MCP servers run (system.ts GuideGrants)
   */
  writable(): boolean | GuideGrants;
  /**
   * one line per problem found; at start-up every skill problem is only a warning. `once`: a line
   * of the project's that is no fault of this run (an import a CLAUDE.md leaves out, a skill that
   * replaces another), to say once until it changes (peers/said.ts)
   */
  warn(message: string, once?: boolean): void;
  /** the MCP servers' instructions (mcp/guidance.ts: the same text all run, until /reload changes the servers) */
  servers?(): string;
  /**
   * the run's approvals: the user's instruction files (their AGENTS.md, a user-level skill) as
   * approved at the start and as this session wrote them; any other text of theirs is held out
   * (trust/instructions.ts loadable: held) until the user's yes — asked at the REPL's `/reload` (which
   * approves them before these parts read them again) or at the next interactive start; undefined: none is
   */
  approvals?: InstructionGate;
  /** the absolute paths a resumed session's write_file and edit calls named: a broken skill among them is the model's to fix (start-note.ts) */
  written?: readonly string[];
  /** `[agent] budget_tokens`, asked at start-up and at each `/reload`: instruction files take at most a quarter (instruction-cap.ts); undefined: no cap */
  budget?(): number;
  /**
   * what the system prompt of a resumed session's last request was built from, when it was made
   * within the prompt cache's lifetime: built again when the AGENTS.md files, the shell and the
   * guide's places come out as then (its hash matches), the changes since told in notes
   */
  sentWith?: PromptRecord;
}

export interface PromptSource {
  /**
   * the system prompt for the next request; files are re-read only when they changed. `sent`: the
   * messages that request carries; when a skills note of /reload's that an earlier request carried
   * is not among them (a summary or trim left it out), the skills list catches up. Without: as it is
   */
  system(sent?: readonly Message[]): string;
  /** what the model is shown of the skills: the list the system prompt was built with and the kept notes since (/skills, the next message's notes) */
  shown(): ShownSkills;
  /** the skills loaded now, sorted by name (none with `--no-skills`) */
  skills(): readonly Skill[];
  /**
   * why no skill named `name` is loaded, when its file is there: written since the skills were
   * loaded (the next `/reload` loads it), or left out for a mistake in it (the mistake, with its
   * line); else undefined
   */
  unloadedSkill(name: string): string | undefined;
  /** skills and AGENTS.md, for `/reload` */
  reloadables: Reloadable[];
  /** the problems start-up found in the skill files the session wrote (start-note.ts), for the model's first request; undefined: none */
  startNote: string | undefined;
  /** the bytes the system prompt's instruction files leave now of their share (instruction-cap.ts; Infinity without a budget), and the directories' own files it left out for their size */
  instructions(): { left: number; leftOut: readonly string[] };
  /** `output` with what the system prompt was built from on a request's usage where it changed, for the session to keep (prompt-record.ts) */
  recording(output: Output): Output;
}

export function createPromptSource(opts: PromptSourceOptions): PromptSource {
  const { cwd, configDir, warn } = opts;
  const folders = (trusted: boolean) => skillFolders({ ...opts, project: trusted });
  const held = (path: string) => ((now) => now !== undefined && "held" in now)(opts.approvals?.loadable(path, opts));
  const declined = (path: string) => ((now) => now !== undefined && "held" in now && now.declined === true)(opts.approvals?.loadable(path, opts));
  /** the skills said to be left out after the user's no at /reload: said once, not at every later /reload */
  const saidDeclined = new Set<string>();
  /** the user's files loaded as approved in place of their text now (loadable `kept`), since the last look: said, one line each */
  let kept: string[] = [];
  /** the user's files approved at the start, changed since, with no copy of what was approved: left out, said once */
  let dropped: string[] = [];
  const weigh = (path: string) => {
    const now = opts.approvals?.loadable(path, opts);
    if (now && "bytes" in now && now.kept) kept.push(path);
    if (now && "held" in now && now.changed) dropped.push(path);
    return now;
  };
  const heldNow = (path: string) => ((now) => now !== undefined && "held" in now)(weigh(path));
  const gate = (path: string) => ((now) => (now === undefined ? undefined : "held" in now ? ("held" as const) : now.bytes))(weigh(path));
  const saidKept = new Set<string>(); // said once a run: it stays so until the next start
  const keptLines = () => {
    const said = (paths: string[], why: string) => {
      const fresh = [...new Set(paths)].filter((path) => !saidKept.has(path));
      for (const path of fresh) saidKept.add(path);
      return fresh.map((path) => `${mine(path)} ${why}`);
    };
    const lines = [...said(kept, KEPT_AS_APPROVED), ...said(dropped, LEFT_OUT_CHANGED)];
    [kept, dropped] = [[], []];
    return lines;
  };
  const load = (trusted: boolean) => loadSkills(folders(trusted), gate);
  const shown = (path: string) => shownPath(path, cwd, opts.home);
  const mine = (path: string) => shownPath(path, "", opts.home); // the user's files: ~/… wherever hey runs
  // in the home directory, no project: what the agent keeps is the user's, for every directory (fs/places.ts projectRoot
  // never finds ~/.hey from below home: saved there, it would load only in ~ itself), and there is nothing to /trust
  const atHome = opts.root === opts.home;
  // what the guide says of the project is settled at start, true of it in any run (system.ts GuideFacts): the project's
  // folders once it is trusted for every run; else the user's, and why, when it has files left out. A /trust or /untrust
  // since is a note's (trust-note.ts), so the system prompt, and the provider's cached prefix, stay
  let project = !atHome && (opts.skills?.everyRun ?? opts.skills?.trusted() ?? false);
  let leftOut = opts.skills !== undefined && !atHome && !project && !opts.skills.trusted() && gatedResources(opts.root).length > 0;
  // the project root's folders as the model writes them from a subdirectory too (~/proj/.hey/skills, never .hey/skills there)
  const places = {
    projectSkills: shown(join(opts.root, ".hey", "skills")),
    projectConfig: shown(join(opts.root, ".hey", "config.toml")),
    userSkills: mine(join(configDir, "skills")),
    userConfig: mine(join(configDir, "config.toml")),
  };
  const guideOf = (project: boolean, leftOut: boolean): GuideFacts => ({
    skillsDir: project ? places.projectSkills : places.userSkills,
    ...(project ? { projectConfig: places.projectConfig } : {}),
    userConfig: places.userConfig,
    ...grantFacts(opts.writable()),
    ...(leftOut ? { untrusted: true as const } : {}),
  });
  const startTrusted = opts.skills?.trusted() ?? false;
  const first = opts.skills ? load(startTrusted) : { skills: [], problems: [] };
  for (const p of first.problems) warn(p.message, p.level === "note");
  const own = [join(configDir, "skills"), ...(startTrusted ? [join(opts.root, ".hey", "skills")] : [])]; // where the model writes them: the guide's folder, and the project's while its skills load
  const startNote = skillStartNote(first.problems, own, opts.written ?? []);
  const listed = (list: readonly Skill[]) => promptSkills(list, { cwd, home: opts.home, redact: opts.redact });
  let skills: readonly Skill[] = first.skills;
  /** the skills the system prompt lists: those of the start, until something else rewrites the prompt */
  let inPrompt: readonly Skill[] = skills;
  /** the list of a resumed session's prompt sent again (sentWith), in place of inPrompt's until the prompt is rewritten */
  let resumedList: ListedSkill[] | undefined;
  const listedInPrompt = () => resumedList ?? listed(inPrompt);
  let sizeSaid = skillsListCut(listed(first.skills));
  if (sizeSaid) warn(sizeSaid, true);
  let skillWarnings = new Set(first.problems.map(problemKey));
  let guide = guideOf(project, leftOut);
  /** whether the project's skills and config load, as of start-up or the last /reload: what the trust note tells the model */
  let loads = startTrusted;
  const readAgents = (): AgentsMd & { leftOut?: string; dirsLeftOut?: string[] } => {
    const [user, ...project] = agentsPlaces(cwd, configDir, opts); // a `git init` since the start moves the root
    // a held AGENTS.md of yours gives way to the next you approved; one changed while it is read is left out (readHeadText's text is then dropped)
    const places = [{ ...user!, names: user!.names.filter((name) => !heldNow(isAbsolute(name) ? name : join(user!.dir, name))) }, ...project];
    const gated = (path: string, max: number) =>
      ((now) => (now === undefined ? readHeadText(path, max) : "held" in now ? NOTHING : headOf(now.bytes, max)))(weigh(path));
    const read = readAgentsFiles(places, { outside: opts.importsOutside(), read: gated });
    const files = read.files.map((f) => ({ ...f, text: opts.redact(f.text) }));
    const capped = opts.budget ? capInstructions(files, instructionsMaxBytes(opts.budget()), shown) : { files };
    if (!capped.leftOut) return { ...read, files };
    const { warning, note } = capped.leftOut; // the project's to fix: said once until it changes, as an import left out
    const dirsLeftOut = capped.leftOut.files.filter((f) => f.importedBy === undefined).map((f) => f.path);
    return {
      ...read,
      files: capped.files,
      warnings: [...read.warnings, warning],
      imports: [...read.imports, warning],
      leftOut: note || undefined,
      dirsLeftOut,
    };
  };
  let agents = readAgents();
  for (const w of agents.warnings) warn(w, agents.imports.includes(w));
  for (const line of keptLines()) warn(line);

  const today = new Date().toISOString().slice(0, 10);
  let date = today;
  let built: { key: unknown[]; text: string } | undefined;
  let rewrite = false; // a note the model was sent is left out, or /reload's note would be over its cap: the list catches up
  const buildWith = (list: readonly ListedSkill[], mcp: string, at = { guide, date }) =>
    buildSystemPrompt({
      core: opts.core,
      cwd,
      root: opts.root,
      date: at.date,
      os: opts.os,
      shell: opts.shell(),
      agentsMd: agents.files,
      agentsLeftOut: agents.leftOut,
      skills: opts.skills ? list : undefined,
      guide: at.guide,
      mcp: opts.redact(mcp),
    });
  // a resumed session's prompt sent again, when it comes out as then with this run's AGENTS.md files, shell and guide's places
  const resumed =
    opts.sentWith && resumeWith(opts.sentWith, { skills: listed(skills), today, guide: guideOf, hash: (l, at) => fixedHash(buildWith(l, "", at)) });
  if (resumed) [project, leftOut, guide, date, resumedList] = [resumed.project, resumed.leftOut, resumed.guide, resumed.date, resumed.list];
  // the kept notes told since the list in the prompt was built, and whether a request carried each; a resumed session's
  // count as sent once a request carries them: the replay's earlier requests may predate them
  let notes = (resumed?.notes ?? []).map((text) => ({ text, sent: false }));
  /** the notes the resumed prompt needs (the skills changed since, today's date), for the next message until the prompt is rewritten */
  let resumeNotes = resumed?.told ?? [];
  const system = (sent?: readonly Message[]) => {
    const texts = new Set(notes.length ? sent?.flatMap((m) => (m.role === "user" ? m.content.flatMap((b) => (b.type === "text" ? [b.text] : [])) : [])) : []);
    for (const n of sent ? notes : []) {
      if (texts.has(n.text)) n.sent = true;
      else if (n.sent) [built, rewrite] = [undefined, true]; // the model can no longer see it: rebuilt below, with the skills loaded now
    }
    const mcp = opts.servers?.() ?? "";
    const key = [agents.files, guide, opts.shell(), mcp];
    if (built?.key.every((k, i) => k === key[i])) return built.text;
    let text = buildWith(listedInPrompt(), mcp);
    // rewritten anyway (an AGENTS.md, the guide, a server's instructions): the list catches up with the skills loaded now, and
    // a resumed session's date with today's
    const anyway = rewrite || (built !== undefined && text !== built.text);
    if (anyway && (inPrompt !== skills || resumedList || date !== today)) {
      [inPrompt, resumedList, date, notes, resumeNotes] = [skills, undefined, today, [], []];
      text = buildWith(listed(skills), mcp);
    }
    built = { key, text };
    rewrite = false;
    return text;
  };
  let recorded: { of: typeof built; record: PromptRecord } | undefined;
  /** what the last prompt built was made of, its hash without the servers' instructions (prompt-record.ts) */
  const record = () => {
    if (built && recorded?.of !== built) {
      const [list, known] = [listedInPrompt(), listed(skills)];
      const facts = { date, guide, list, known, notes: notes.map((n) => n.text) };
      recorded = { of: built, record: promptRecord(opts.skills ? facts : { ...facts, list: [], known: [] }, fixedHash(buildWith(list, ""))) };
    }
    return recorded?.record;
  };

  const skillsPart: Reloadable = {
    name: "skills",
    async check(): Promise<Staged> {
      if (!opts.skills) return { errors: [], warnings: [], changes: [], apply() {} };
      const trusted = opts.skills.trusted();
      const next = load(trusted);
      // start-up's rules: a skill that cannot be used is left out with a warning, the others load.
      // A problem said before is not said again — unless its file was edited since: after an edit
      // that did not fix it, "nothing changed" alone would read as fixed
      const problems = next.problems.map(problemKey);
      // a skill that was not loaded before, and loses its name to another folder's: likely the one the model just wrote, so it is told too
      const was = new Set(skills.map((s) => s.path));
      const hidden = (p: SkillProblem) => p.replaced !== undefined && !was.has(p.replaced);
      const fresh = next.problems
        .filter((p) => !skillWarnings.has(problemKey(p)))
        .map((p) => (hidden(p) ? { ...p, message: `${p.message}, so ${p.replaced} is not used: give it another name to use it` } : p));
      const nextGuide = guideOf(project, leftOut);
      const size = skillsListCut(listed(next.skills));
      const note = skillsChangedNote(listed(skills), listed(next.skills));
      // a skill left out for want of the user's yes: "nothing changed" alone would read as if /reload had missed it
      const waiting = opts.approvals?.weighing() ? loadSkills(folders(trusted)).skills.filter((s) => held(s.path)) : [];
      return {
        errors: [],
        warnings: [...fresh.map((p) => p.message), ...(size && size !== sizeSaid ? [size] : []), ...keptLines(), ...waitingLines(waiting.map((s) => s.path))],
        userOnly: fresh.filter((p) => !modelHears(p) && !hidden(p)).map((p) => p.message), // on the user's screen alone, as at start-up
        changes: skillChanges(skills, next.skills),
        ...(note && note !== "rebuild" ? { note } : {}),
        apply() {
          skills = next.skills;
          // past the note's cap the next request lists the skills anew; else the model keeps the note
          if (note === "rebuild") [built, rewrite] = [undefined, true];
          else if (note) notes.push({ text: note, sent: false });
          skillWarnings = new Set(problems);
          sizeSaid = size;
          if (JSON.stringify(nextGuide) !== JSON.stringify(guide)) guide = nextGuide;
          loads = trusted;
        },
      };
    },
  };

  const agentsPart: Reloadable = {
    name: "AGENTS.md",
    async check(): Promise<Staged> {
      const fresh = readAgents();
      const known = new Set(agents.warnings);
      return {
        errors: [],
        warnings: [...fresh.warnings.filter((w) => !known.has(w)), ...keptLines()],
        userOnly: fresh.userOnly,
        changes: agentsChanges(agents.files, fresh.files),
        apply() {
          agents = fresh;
        },
      };
    },
  };

  /** One line per held skill: waiting for the user's yes, or — once after the user's no at /reload — left out, with when hey asks again. */
  const waitingLines = (paths: readonly string[]) => {
    const no = paths.filter(declined);
    for (const path of saidDeclined) if (!no.includes(path)) saidDeclined.delete(path);
    const lines = paths.flatMap((p) => (!no.includes(p) ? [waitingLine(mine(p))] : saidDeclined.has(p) ? [] : [declinedLine(mine(p))]));
    for (const path of no) saidDeclined.add(path);
    return lines;
  };

  const unloadedSkill = (name: string) => {
    if (!opts.skills || skills.some((s) => s.name === name)) return undefined;
    const all = loadSkills(folders(opts.skills.trusted()));
    const waiting = all.skills.find((s) => s.name === name && held(s.path))?.path;
    if (waiting) return declined(waiting) ? declinedLine(waiting) : waitingLine(waiting);
    const now = load(opts.skills.trusted());
    // written since, in a folder that was read then: one of the project's, trusted since, is the trust's to say (user-input.ts)
    const written = load(loads).skills.find((s) => s.name === name)?.path;
    if (written) return `${written} was written after the skills were loaded: /reload loads it`;
    // a skill is named by its folder (or file): the mistake that left `NAME/SKILL.md` or `NAME.md` out says why
    // (or its link out of the project, which the user alone reads: this is a usage error, on their screen)
    const files = [`${nodePath.sep}${name}${nodePath.sep}SKILL.md`, `${nodePath.sep}${name}.md`].flatMap((f) => [`${f}:`, `${f} is a link`]);
    return now.problems.find((p) => (p.level === "error" || p.userOnly) && files.some((f) => p.message.includes(f)))?.message;
  };
  const instructions = () => ({
    left: opts.budget ? instructionsMaxBytes(opts.budget()) - agents.files.reduce((n, f) => n + utf8Size(f.text), 0) : Infinity,
    leftOut: agents.dirsLeftOut ?? [],
  });
  // what the guide told the model of the project's files: they load (its folders named), they do not (said so), or nothing —
  // a note since may have said either (trust-note.ts), and one a later /untrust or `hey trust --revoke` makes untrue is corrected
  const said = project ? true : leftOut ? false : undefined;
  const trust = () => (opts.skills ? { trust: { ...(said === undefined ? {} : { said }), loads, ...places } } : {});
  const shownSkills = () => ({
    list: listSkills(opts.skills ? listedInPrompt() : []),
    notes: notes.map((n) => n.text),
    ...trust(),
    ...(resumeNotes.length ? { resumed: resumeNotes } : {}),
  });
  return {
    system,
    shown: shownSkills,
    skills: () => skills,
    unloadedSkill,
    reloadables: [skillsPart, agentsPart],
    startNote,
    instructions,
    recording: (output) => withPromptRecord(output, record),
  };
}

const NOTHING = { text: "", truncated: false, encoding: "utf-8" as const };

/** The first `max` bytes of `bytes` as readHeadText reads a file's. */
function headOf(bytes: Uint8Array, max: number): ReturnType<typeof readHeadText> {
  const truncated = bytes.length > max;
  return { ...decodeText(truncated ? wholeCharacters(bytes.subarray(0, max)) : bytes), truncated };
}

/** A skill problem as it was said: its words and the version of its file. */
const problemKey = (p: SkillProblem) => `${p.message}\n${p.version ?? ""}`;
