// Trust while the REPL runs (README "Trust"): `/trust` shows what trusting would run and asks
// before it records anything, as `hey trust` does — the agent can write `.mcp.json` and
// `.hey/config.toml`, and a yes approves the servers they name — while `/untrust` only takes away.
import type { Places } from "../fs/places.ts";
import { rereadApprovals, type ApprovalState } from "./approve.ts";
import { effectLines } from "./effects.ts";
import { readAnswer, trustedNotice, trustQuestion, untouchedTrustNotice } from "./policy.ts";
import { gatedResources, projectLabel, readProjectFiles, trustProject } from "./store.ts";

/** What of a run the REPL's trust reads and changes (runtime.ts's parts). */
export interface SessionTrust {
  project: Pick<Places, "root" | "trustFile" | "approvalsFile" | "projectConfig" | "projectMcpJson">;
  /** as runtime.ts's RuntimeParts.trust */
  trust: { trusted: boolean; loaded: boolean };
  approvals: ApprovalState;
  warn(message: string): void;
}

/**
 * `/trust` (true) and `/untrust` (false). Trusting a project whose files would run or redirect
 * something asks first with `ask`, listing each (none given: nothing is recorded); a yes records
 * the trust and approves the files as listed. Returns what to tell the user; throws when the
 * records cannot be written.
 */
export async function setSessionTrust(
  parts: SessionTrust,
  trusted: boolean,
  ask: ((question: string) => Promise<string | undefined>) | undefined,
): Promise<string> {
  const { root, trustFile } = parts.project;
  const { files, problems } = readProjectFiles(parts.project);
  const effects = trusted ? effectLines(files) : [];
  const [label, resources] = [projectLabel(root), gatedResources(root)];
  if (effects.length > 0) {
    for (const p of problems) parts.warn(p);
    const typed = ask ? await ask(trustQuestion(label, resources, effects)) : undefined;
    if (typed === undefined || readAnswer(typed) !== "yes") return untouchedTrustNotice(label, parts.trust.trusted);
  }
  await trustProject(parts.project, trusted, files);
  rereadApprovals(parts.approvals, parts.warn); // a yes approved the project's files
  parts.trust.trusted = trusted;
  return trustedNotice(label, trusted, resources, trustFile, true, trusted && parts.trust.loaded);
}
