// trust.json (SPEC §15, §24): read and written by hey alone, atomically, never through a link;
// plus what in a project needs trust, and the flow that settles it for a run.
import { dirname, join, relative, sep } from "node:path";
import { writeFileAtomic } from "../fs/atomic.ts";
import { fileProblem } from "../fs/dir-problem.ts";
import { errnoCode } from "../kernel/errors.ts";
import { withFileLock } from "../fs/file-lock.ts";
import { readOwnFile } from "../fs/own-files.ts";
import { updateApprovals } from "../config/approval-store.ts";
import { withConfigs, withTrusted, type Approvals } from "../config/approvals.ts";
import { guardedOf } from "../config/guard.ts";
import { loadLayer, loadMcpJson } from "../config/read-layer.ts";
import { recordKey, seedMainCheckout } from "../config/record-key.ts";
import { checkLayer } from "../config/schema.ts";
import type { Table } from "../config/table.ts";
import { ConfigError } from "../config/settings.ts";
import { strayTaskNotes, type Places } from "../fs/places.ts";
import { gatedResources, realPathAt, rootProbe, storedCase } from "../fs/root-probe.ts";
import { inMainCheckout } from "../fs/worktree.ts";
import { effectLines } from "./effects.ts";
import { trustSkillsBlock } from "./instruction-approval.ts";
import { skillsForTrust, type ShownSkills } from "./instructions.ts";
import { shownSkills } from "./instruction-yes.ts";
import {
  declinedNotice,
  strayNotice,
  strayTaskNotice,
  decideTrust,
  emptyTrust,
  parseTrust,
  readAnswer,
  trustQuestion,
  unconfirmedTrustNotice,
  withDecision,
  type TrustFile,
} from "./policy.ts";
import { errorText } from "../kernel/errors.ts";

/** trust.json holds one short line per project; anything bigger is not hey's. */
const TRUST_FILE_MAX_BYTES = 4 * 1024 * 1024;

/**
 * The key of a project: its real path, so a link to it or `..` in the path name the same project;
 * a git worktree's is its main checkout's (fs/worktree.ts), so a worktree of a trusted project is trusted.
 */
export const projectKey = (cwd: string): string => inMainCheckout(realPath(cwd));

/** The project as hey names it to the user: its key, or in a git worktree the worktree and the key its trust is kept under. */
export function projectLabel(root: string): string {
  const [own, key] = [realPath(root), projectKey(root)];
  return own === key ? key : `${own} (a git worktree of ${key}: the answer holds for both)`;
}

function realPath(path: string): string {
  try {
    return storedCase(realPathAt(path));
  } catch {
    return path;
  }
}

/**
 * The project files (as gatedResources names them) in the directories from `cwd` up to the project
 * root, the root left out: never read — the project's are the root's — though written there by
 * the agent as easily as `.hey/skills/x/SKILL.md` relative to where hey runs. Absolute paths.
 */
export function strayResources(cwd: string, root: string): string[] {
  const out: string[] = [];
  for (let dir = cwd; dir !== root && dir.startsWith(root + sep); dir = dirname(dir)) out.push(...gatedResources(dir).map((r) => join(dir, r)));
  return out;
}

/** A `.hey/task.md` in each `.hey/` passed over for the project root (fs/places.ts), one line each: where the project's is. */
function strayTaskLines(cwd: string, root: string): string[] {
  return strayTaskNotes(cwd, root, rootProbe).map((t) => strayTaskNotice(relative(root, t), root, join(root, ".hey", "task.md")));
}

/**
 * What hey finds written between `cwd` and the project `root` that it never reads, one line each
 * (issue 26): strayTaskLines, then the project files strayResources finds. Said at start-up (a
 * run, the REPL, `hey mcp`) and at /reload; empty when nothing.
 */
export function strayNotices(cwd: string, root: string): string[] {
  const stray = strayResources(cwd, root);
  return [...strayTaskLines(cwd, root), ...(stray.length ? [strayNotice(stray, root)] : [])];
}

/** The project's config files as they are now, checked: `.mcp.json`, then `.hey/config.toml`; a file that cannot be read or parsed is in `problems`. */
export function readProjectFiles(here: Pick<Places, "projectConfig" | "projectMcpJson">): { files: { source: string; data: Table }[]; problems: string[] } {
  const files: { source: string; data: Table }[] = [];
  const problems: string[] = [];
  for (const path of [here.projectMcpJson, here.projectConfig]) {
    try {
      const layer = path === here.projectMcpJson ? loadMcpJson(path, () => {}) : loadLayer(path, { required: false });
      if (layer) files.push({ source: path, data: checkLayer(path, layer.data, layer.locate ?? layer.text).data });
    } catch (e) {
      if (!(e instanceof ConfigError)) throw e;
      problems.push(e.message);
    }
  }
  return { files, problems };
}

/** What the project's files would run or redirect once trusted (trust/effects.ts), read now. */
export function projectEffects(here: Pick<Places, "projectConfig" | "projectMcpJson">): string[] {
  return effectLines(readProjectFiles(here).files);
}

/**
 * Records a trust answer given at `/trust` or `hey trust`, which listed what the project's files
 * run: a yes also approves those files' guarded keys (config/guard.ts) as `shown` — the files as
 * they were read for the question, so a change made while the user read it is not approved with
 * it — and the next start or `/reload` uses them without asking again, and asks about anything
 * changed since.
 */
export async function trustProject(
  here: Pick<Places, "root" | "trustFile" | "approvalsFile" | "projectConfig" | "projectMcpJson">,
  trusted: boolean,
  shown: readonly { source: string; data: Table }[] = readProjectFiles(here).files,
): Promise<void> {
  await recordTrust(here.trustFile, projectKey(here.root), trusted, here.approvalsFile);
  if (!trusted) return;
  const approved = Object.fromEntries(shown.map((f) => [recordKey(f.source), guardedOf(f.data)]));
  // no record yet: the first one, written when the model first answers, takes the files as they are then
  if (Object.keys(approved).length) await updateApprovals(here.approvalsFile, (a) => withConfigs(a, seedMainCheckout(a, approved)), "existing");
}

/**
 * After a removed record (`approvals.lost`), a trust answer hey recorded in trust.json, kept in the
 * stand-in record too: recordTrust updates only a record on disk, and the one this run writes (at
 * the model's first answer, or at once after a yes) takes the stand-in's answers — else the next
 * start would find trust.json's yes unconfirmed and ask again. Changed in place: config/load.ts
 * tells the stand-in by its identity.
 */
export function keepWhileLost(approvals: { record: Approvals | undefined; lost?: boolean }, project: string, trusted: boolean): void {
  if (!approvals.lost || !approvals.record) return;
  const { trusted: list } = approvals.record;
  list.splice(0, list.length, ...withTrusted(approvals.record, project, trusted).trusted);
}

/** The file's decisions. Throws TrustFileError or OwnFileError (a link), or the system error. */
export function readTrust(file: string): TrustFile {
  const read = readOwnFile(file, TRUST_FILE_MAX_BYTES);
  return read ? parseTrust(read.text) : emptyTrust();
}

/**
 * Records one answer: re-reads the file (another hey may have written it) and replaces it
 * atomically, holding its lock from the read to the write (fs/file-lock.ts), so answers given at
 * once in other projects are kept; the approvals record at `approvals` keeps the same answer,
 * first, so a trust.json changed behind hey's back is told apart from one hey wrote (issue 24).
 * Throws as updateApprovals (trust.json then unchanged) or writeFileAtomic.
 */
export async function recordTrust(file: string, project: string, trusted: boolean, approvals: string, now = new Date()): Promise<void> {
  await withFileLock(
    file,
    async () => {
      const next = withDecision(readTrust(file), project, trusted, now);
      await updateApprovals(approvals, (a) => withTrusted(a, project, trusted), "existing"); // none yet: the first one takes trust.json's answers
      await writeFileAtomic(file, JSON.stringify(next, null, 2) + "\n", { own: true, private: true });
    },
    { private: true },
  ).catch((e: unknown) => {
    throw errnoCode(e) ? new Error(recordProblem(e, file, approvals)) : e; // a system call's failure, said as what to do
  });
}

/** What a failed write of the trust file (in XDG_CONFIG_HOME) or the approvals record (in XDG_STATE_HOME) means: the error's path tells which. */
function recordProblem(e: unknown, trustFile: string, approvals: string): string {
  const path = (e as { path?: unknown }).path;
  const under = (dir: string) => typeof path === "string" && (`${dir}${sep}`.startsWith(`${path}${sep}`) || path.startsWith(`${dir}${sep}`));
  return under(dirname(approvals)) && !under(dirname(trustFile)) ? fileProblem(approvals, e, "XDG_STATE_HOME") : fileProblem(trustFile, e, "XDG_CONFIG_HOME");
}

/** isTrusted, false where it would throw. */
function recordedQuietly(root: string, trustFile: string, approvals: Approvals | undefined): boolean {
  try {
    return isTrusted({ root, trustFile }, approvals);
  } catch {
    return false;
  }
}

/**
 * Whether the project is trusted as a run without --approve would find it: trust.json's yes counts
 * only when hey recorded it at its question (the approvals record in `approvals` says so). Throws
 * as readTrust.
 */
export function isTrusted(here: Pick<Places, "root" | "trustFile">, approvals: Approvals | undefined): boolean {
  const project = projectKey(here.root);
  return readTrust(here.trustFile).projects[project]?.trusted === true && (!approvals || approvals.trusted.includes(project));
}

export interface TrustOutcome {
  trusted: boolean;
  /** the project's resources that need trust (empty: nothing to guard) */
  resources: string[];
  /** the recorded answer, if any */
  stored: boolean | undefined;
  /** the user was just asked (and needs no notice about the answer) */
  asked: boolean;
  /** asked: the project's files as the question listed what they run (config/load.ts projectApproved) */
  shown?: { source: string; data: Table }[];
  /** asked and answered yes: the project's `.hey/skills` the question named, as it showed them (trust/instructions.ts skillsForTrust) */
  skills?: ShownSkills;
  /**
   * trusted in the REPL for this session only, unrecorded: the project had nothing to guard (see
   * decideTrust); a `/reload` that loads what appeared in it records it (trust/session.ts)
   */
  provisional: boolean;
  /** trusted by --approve alone, for this run: a run without it does not find the project trusted (no recorded yes of the user's) */
  approvedOnly?: boolean;
  /** trust.json */
  file: string;
  /** hey started in the home directory, which is no project: never trusted (trust/policy.ts HOME_NO_PROJECT) */
  home?: true;
}

/**
 * Settles trust for this run: `--approve`, a recorded answer, or — in the REPL, for a project
 * with something to guard — `ask`, whose y or n is recorded (anything else, Enter included, is a
 * no for this run only: see readAnswer). Problems with trust.json are
 * warnings (the project is then not trusted unless approved) — except in a run without a terminal
 * in a project with nothing to guard, which reads a recorded yes quietly. "cancelled": Ctrl-C at the question.
 */
export async function settleTrust(opts: {
  /**
   * the project (fs/places.ts): its root and its config files, whose effects the question lists,
   * and the user's folders, to tell a skill of the project's `.hey/skills` the question shows
   */
  here: Pick<Places, "root" | "projectConfig" | "projectMcpJson" | "home" | "configDir" | "claudeDir" | "codexDir">;
  /** trust.json (fs/places.ts) */
  trustFile: string;
  approve: boolean;
  interactive: boolean;
  /** the line typed; undefined: cancelled */
  ask(question: string): Promise<string | undefined>;
  warn(message: string): void;
  /** what the user approved (undefined: hey's first run, nothing recorded yet) and where it is kept; `lost`: `record` stands in for one removed, and takes the answer given here (keepWhileLost) */
  approvals: { record: Approvals | undefined; file: string; lost?: boolean };
}): Promise<TrustOutcome | "cancelled"> {
  const file = opts.trustFile;
  const project = projectKey(opts.here.root);
  const home = opts.here.root === opts.here.home;
  // in the home directory its .claude/ is the user's own (their skills load as the user's): nothing of a project's
  const resources = gatedResources(opts.here.root).filter((r) => !home || join(opts.here.root, r) !== join(opts.here.claudeDir, "skills/"));
  let stored: boolean | undefined;
  if (opts.approve) {
    // trusted whatever trust.json says: it is read below, quietly, only for what the guide names
  } else if (resources.length === 0 && !opts.interactive) {
    // nothing to guard: the recorded yes is read all the same (~0.1 ms, one small file), quietly — a problem with the
    // file is said by a run it changes something in — so the skill guide names the project's folders as the REPL's does:
    // a guide that differed gave one session two system prompts, billed in full at each move between them (x162)
    if (recordedQuietly(opts.here.root, file, opts.approvals.record)) stored = true;
  } else {
    try {
      stored = readTrust(file).projects[project]?.trusted;
    } catch (e) {
      opts.warn(`${file}: ${errorText(e)}; projects count as not trusted`);
    }
    // a yes hey did not record at its question is not the user's (the agent may have written it)
    const { record } = opts.approvals;
    if (stored === true && record && !record.trusted.includes(project)) {
      opts.warn(unconfirmedTrustNotice(project, file, opts.interactive, opts.approvals.lost));
      stored = undefined;
    }
  }
  const decision = decideTrust({ approve: opts.approve, stored, interactive: opts.interactive, resources, home });
  if (decision !== "ask") {
    // --approve: whether the next plain run trusts the project is asked quietly (a warning is that run's to say)
    const approvedOnly = opts.approve && !recordedQuietly(opts.here.root, file, opts.approvals.record);
    const atHome = home ? { home: true as const } : {};
    return {
      trusted: decision,
      resources,
      stored,
      asked: false,
      provisional: decision && stored === undefined && !opts.approve,
      approvedOnly,
      file,
      ...atHome,
    };
  }
  const shown = readProjectFiles(opts.here).files; // read once: a yes approves what the question listed
  const skills = skillsForTrust(opts.approvals, opts.here); // and the skills as it shows them
  const typed = await opts.ask(trustQuestion(projectLabel(opts.here.root), resources, effectLines(shown), trustSkillsBlock(skills, opts.here.root)));
  if (typed === undefined) return "cancelled";
  const answer = readAnswer(typed);
  const trusted = answer === "yes";
  let recorded = false;
  if (answer !== "not now") {
    try {
      await recordTrust(file, project, trusted, opts.approvals.file);
      keepWhileLost(opts.approvals, project, trusted);
      recorded = true;
    } catch (e) {
      opts.warn(`could not record the answer in ${file}: ${errorText(e)}`);
    }
  }
  if (!trusted) opts.warn(declinedNotice(resources, file, recorded));
  const approved = trusted && skills.length ? { skills: shownSkills(skills) } : {};
  return { trusted, resources, stored: recorded ? trusted : stored, asked: true, provisional: false, shown, ...approved, file };
}
