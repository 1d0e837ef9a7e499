// Trust while the REPL runs (README "Trust"): `/trust` shows what trusting would run and load and
// asks before it records anything, as `hey trust` does — the agent can write `.mcp.json`,
// `.hey/config.toml` and `.hey/skills`, and a yes approves the servers they name and the skills as
// shown (trust/instruction-yes.ts) — while `/untrust` only takes away;
// and a project trusted for the session because it had nothing to guard at start, which grew in
// it, keeps the trust its `/reload` used, so the next start does not ask again about what the user
// approved there.
import type { Places } from "../fs/places.ts";
import { errorText } from "../kernel/errors.ts";
import type { Approvals } from "../config/approvals.ts";
import { recordOnAnswer, rereadApprovals, type ApprovalState } from "./approve.ts";
import { effectLines } from "./effects.ts";
import {
  grownTrustNotice,
  HOME_NO_PROJECT,
  nothingNewNotice,
  readAnswer,
  trustedNotice,
  trustQuestion,
  untouchedTrustNotice,
  untrustedReloadNotice,
} from "./policy.ts";
import { trustSkillsBlock } from "./instruction-approval.ts";
import { projectSkillsLoad, skillsForTrust } from "./instructions.ts";
import { recordShownSkills, weighProjectSkills } from "./instruction-yes.ts";
import { movedFrom } from "../fs/work-dir.ts";
import { gatedResources } from "../fs/root-probe.ts";
import { isTrusted, keepWhileLost, projectKey, projectLabel, readProjectFiles, recordTrust, strayNotices, trustProject } from "./store.ts";

/** What of a run the REPL's trust reads and changes (runtime.ts's parts). */
export interface SessionTrust {
  /** the project, hey's records of it, and the user's folders (to tell a skill of the project's `.hey/skills` the question shows) */
  project: Pick<Places, "root" | "trustFile" | "approvalsFile" | "projectConfig" | "projectMcpJson" | "home" | "configDir" | "claudeDir" | "codexDir"> &
    Partial<Pick<Places, "cwd">>;
  /** as runtime.ts's RuntimeParts.trust; `provisional`: as TrustOutcome's (trust/store.ts) */
  trust: { trusted: boolean; loaded: boolean; provisional: boolean; approvedOnly?: boolean };
  approvals: ApprovalState;
  warn(message: string): void;
}

/**
 * `/trust` (true) and `/untrust` (false). Trusting a project whose files would run or redirect
 * something, or that has `.hey/skills`, asks first with `ask`, listing each and showing the skills
 * as the start's trust question does (none given: nothing is recorded); a yes records the trust and
 * approves the files as listed and the skills as shown. `record`: writes the approvals record as the run
 * uses its files (recordApprovals), at once after a yes while the record is a removed one's
 * stand-in. Returns what to tell the user; throws when the records cannot be written.
 */
export async function setSessionTrust(
  parts: SessionTrust,
  trusted: boolean,
  ask: ((question: string) => Promise<string | undefined>) | undefined,
  record?: () => Promise<Approvals>,
): Promise<string> {
  // the trust would be a ghost's, made at the old path; taking it away makes nothing there, and leaves no trust for what came in its place
  const told: string[] = [];
  const moved = trusted && parts.project.cwd && movedFrom(parts.project.cwd, (line) => told.push(line));
  if (moved) return `/trust recorded nothing: ${moved}`;
  const said = await changeTrust(parts, trusted, ask, record);
  return told.length === 0 ? said : `${told[0]}\n${said}`;
}

/** setSessionTrust's change, once the project is known to be the one hey started in (or trust is taken away). */
async function changeTrust(
  parts: SessionTrust,
  trusted: boolean,
  ask: ((question: string) => Promise<string | undefined>) | undefined,
  record: (() => Promise<Approvals>) | undefined,
): Promise<string> {
  const { root, trustFile } = parts.project;
  if (trusted && root === parts.project.home) return `/trust recorded nothing: ${HOME_NO_PROJECT}`;
  const { files, problems } = readProjectFiles(parts.project);
  const effects = trusted ? effectLines(files) : [];
  const skills = trusted ? skillsForTrust(parts.approvals, parts.project) : []; // read once: a yes approves them as shown
  const [label, resources] = [projectLabel(root), gatedResources(root)];
  // every skill as approved (or one that never loads) and nothing run: there is nothing for a yes to approve
  const asks = effects.length > 0 || skills.some((s) => s.was !== "same" && s.leftOut === undefined);
  // a trust for this session only (nothing to guard at start) is recorded by /trust, as before: it is no trust of before
  if (trusted && !asks && !parts.trust.provisional && trustedBefore(parts) === true) return nothingNewNotice(label, skills.length > 0);
  if (asks) {
    for (const p of problems) parts.warn(p);
    const typed = ask ? await ask(trustQuestion(label, resources, effects, trustSkillsBlock(skills, root))) : undefined;
    if (typed === undefined || readAnswer(typed) !== "yes") return untouchedTrustNotice(label, trustedBefore(parts));
  }
  await trustProject(parts.project, trusted, files);
  if (trusted) weighProjectSkills(parts.approvals, root); // from now on, as in a session that started trusted
  if (skills.length > 0) await recordShownSkills(parts.approvals.file, skills, parts.approvals); // the next /reload and start ask nothing of them
  keepWhileLost(parts.approvals, projectKey(root), trusted);
  // after a removed record the yes is the user's act, written at once as the start's trust yes is (run.ts): a
  // session quit before the model answers would else leave it in trust.json alone, and the next start asks again
  if (trusted && parts.approvals.lost && record) await recordOnAnswer(parts.approvals, record, true);
  rereadApprovals(parts.approvals, parts.warn); // a yes approved the project's files
  parts.trust.trusted = trusted;
  parts.trust.provisional = parts.trust.approvedOnly = false; // recorded: a run `/clear` or `/resume` builds names the project's folders
  const said = trustedNotice(label, trusted, resources, trustFile, true, trusted && parts.trust.loaded);
  return said;
}

/** Whether the project was trusted before `/trust`: "approved" when only --approve made it so (trust.json does not say it). */
function trustedBefore(parts: SessionTrust): boolean | "approved" {
  if (!parts.trust.trusted || parts.trust.provisional) return parts.trust.trusted;
  try {
    return isTrusted(parts.project, parts.approvals.record) || "approved";
  } catch {
    return "approved"; // an unreadable trust.json trusts nothing: only --approve loaded the files
  }
}

/**
 * After a `/reload` that applied: a project trusted for this session only (nothing to guard when
 * hey started) whose files it loaded — written in the session; what they add that gives the agent
 * more was asked about — is recorded as trusted, said in one line. The next start then loads what
 * was approved without a question, and asks about what was not.
 */
export async function keepGrownTrust(parts: SessionTrust): Promise<void> {
  const { root, trustFile } = parts.project;
  // a `.hey/skills/` whose every skill the user said no to at this /reload loaded nothing: no trust is kept for it
  const loaded = (r: string) => r !== ".hey/skills/" || projectSkillsLoad(parts.approvals, parts.project);
  const resources = parts.trust.provisional && parts.trust.trusted ? gatedResources(root).filter(loaded) : [];
  if (resources.length === 0) return;
  parts.trust.provisional = false;
  weighProjectSkills(parts.approvals, root); // the start weighed them already, as the project was trusted then: kept so
  try {
    await recordTrust(trustFile, projectKey(root), true, parts.approvals.file);
    keepWhileLost(parts.approvals, projectKey(root), true);
  } catch (e) {
    parts.warn(`could not record the trust in ${trustFile}: ${errorText(e)}; the next start asks about this project`);
    return;
  }
  rereadApprovals(parts.approvals, parts.warn);
  parts.warn(grownTrustNotice(projectLabel(root), resources, trustFile));
}

/**
 * The project's files whose loading waits on trust (`.hey/skills/`, `.mcp.json`…) as runtime.ts's
 * leftOut says them, with how to load them; undefined when none. `trust`: as SessionTrust's.
 */
export function leftOutNotice(trust: SessionTrust["trust"], root: string, oneShot: boolean): string | undefined {
  const { trusted, loaded } = trust;
  const gated = trusted && loaded ? [] : gatedResources(root);
  if (gated.length === 0) return undefined;
  if (loaded && !trusted) return `this project is no longer trusted: /reload leaves out its ${gated.join(", ")}, loaded until then`;
  const files = `this project's ${gated.join(", ")} ${gated.length === 1 ? "is" : "are"} not loaded`;
  if (trusted) return `${files} yet: it was trusted after they were read (/reload loads them)`;
  const how = oneShot ? "hey trust trusts it, --approve for one run" : "/trust, then /reload, loads them";
  return `${files}: it is not trusted (${how})`;
}

/** What a `/reload` may not load of the project's files (untrusted) or never reads (below the root), one line each with what to do (issue 26). */
export function reloadLeftOut(trusted: boolean, at: Pick<Places, "cwd" | "root" | "home">, oneShot: boolean): string[] {
  const gated = trusted ? [] : gatedResources(at.root);
  return [...(gated.length ? [untrustedReloadNotice(gated, oneShot, at.root === at.home)] : []), ...strayNotices(at.cwd, at.root)];
}
