// Project trust (SPEC §15): a project's `.hey/config.toml` (with any MCP servers it starts) and its skills
// can redirect the user's keys or tell the agent what to run, so they load only in a trusted
// project. AGENTS.md is plain text and is read everywhere. The answers live in trust.json, keyed
// by the project's real path. Pure: the decision, the file's format and the messages.
import { visible } from "../ui/visible.ts";
import { errorText } from "../kernel/errors.ts";

/** trust.json: one decision per project directory (its real path). */
export interface TrustFile {
  version: 1;
  projects: Record<string, { trusted: boolean; decided: string }>;
}

/** trust.json that is not what hey writes: the message says what is wrong with it. */
export class TrustFileError extends Error {
  override name = "TrustFileError";
}

export const emptyTrust = (): TrustFile => ({ version: 1, projects: {} });

/** Parses trust.json. Throws TrustFileError when it is not JSON or not its shape. */
export function parseTrust(text: string): TrustFile {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new TrustFileError(`not valid JSON (${errorText(e)})`);
  }
  const projects = (data as { projects?: unknown } | null)?.projects;
  if (typeof data !== "object" || data === null || typeof projects !== "object" || projects === null || Array.isArray(projects))
    throw new TrustFileError('expected {"version": 1, "projects": {...}}');
  const out = emptyTrust();
  for (const [key, entry] of Object.entries(projects)) {
    const trusted = (entry as { trusted?: unknown } | null)?.trusted;
    if (typeof trusted !== "boolean") throw new TrustFileError(`projects["${key}"].trusted must be true or false`);
    const decided = (entry as { decided?: unknown }).decided;
    out.projects[key] = { trusted, decided: typeof decided === "string" ? decided : "" };
  }
  return out;
}

/** A copy of `file` with the decision for `project` recorded. */
export function withDecision(file: TrustFile, project: string, trusted: boolean, now: Date): TrustFile {
  return { version: 1, projects: { ...file.projects, [project]: { trusted, decided: now.toISOString() } } };
}

/**
 * Whether this run loads the project's resources, or "ask" (the REPL asks once, before the first
 * turn). `--approve` trusts for this run; a recorded answer stands; a project with nothing to
 * guard is trusted in the REPL — what appears during the session (a skill the agent wrote) was
 * made in it — and not asked about; a run without a terminal never asks and loads nothing.
 */
export function decideTrust(i: {
  approve: boolean;
  stored: boolean | undefined;
  interactive: boolean;
  resources: readonly string[];
  home?: boolean;
}): boolean | "ask" {
  if (i.home) return false; // the home directory is no project: never trusted, never asked about (HOME_NO_PROJECT)
  if (i.approve) return true;
  if (i.stored !== undefined) return i.stored;
  if (!i.interactive) return false;
  return i.resources.length === 0 ? true : "ask";
}

const list = (items: readonly string[]) => (items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`);
const are = (items: readonly string[]) => (items.length === 1 ? "is" : "are");

/**
 * An answer to trustQuestion. y/yes and n/no are recorded; anything else — above all a bare
 * Enter, the (y/N) default — is a no for this session only, so a key pressed in passing does not
 * become a permanent decision that only hand-editing trust.json undoes.
 */
export type TrustAnswer = "yes" | "no" | "not now";

export function readAnswer(text: string): TrustAnswer {
  if (/^\s*y(es)?\s*$/i.test(text)) return "yes";
  if (/^\s*no?\s*$/i.test(text)) return "no";
  return "not now";
}

/**
 * Whether `text` answers a (y/N) question at all: y, yes, n, no or nothing (Enter, the default).
 * Anything else — `yhi there`, a message typed on after the y — is no answer: asked again, not
 * taken as a no (ask.ts).
 */
export const answersYesNo = (text: string): boolean => /^\s*(?:y(?:es)?|no?)?\s*$/i.test(text);

/** What the project's files would do once trusted (trust/effects.ts), one indented line each; "" when nothing. */
export function effectsBlock(effects: readonly string[]): string {
  return effects.length ? ` Trusted, it would:\n${effects.map((e) => `  ${visible(e)}`).join("\n")}` : "";
}

/** `skills`: what the question says of the project's `.hey/skills` (trust/instruction-approval.ts trustSkillsBlock), "" at `/trust` and `hey trust`. */
export function trustQuestion(project: string, resources: readonly string[], effects: readonly string[] = [], skills = ""): string {
  // a directory name is text hey did not write: an escape sequence in it must not reach the terminal
  return `${visible(project)} has ${list(resources)}: project settings and skills can send your keys elsewhere and tell the agent what to run.${effectsBlock(effects)}${skills}\nTrust this project? (y/N) `;
}

/**
 * What `/trust`, `/untrust` and `hey trust` say they did (what the files run was listed in the
 * question before); `running`: said inside hey (then /reload applies it).
 */
export function trustedNotice(project: string, trusted: boolean, resources: readonly string[], trustFile: string, running: boolean, loaded = false): string {
  const when = running ? "/reload" : "the next start of hey (or /reload in a running one)";
  if (!trusted)
    return `${visible(project)} is not trusted now (recorded in ${trustFile})${resources.length ? `: ${when} leaves out its ${list(resources)}` : ""}`;
  const has = !resources.length ? "" : loaded ? `; its ${list(resources)} ${are(resources)} loaded` : `: ${when} loads its ${list(resources)}`;
  return `${visible(project)} is trusted now (recorded in ${trustFile})${has}.`;
}

/**
 * `/trust` or `hey trust` (`running`: false) not answered yes at its question: nothing recorded;
 * `trusted`: the project was trusted before, and stays so ("approved": by --approve for this run
 * only, trust.json does not trust it).
 */
export function untouchedTrustNotice(project: string, trusted: boolean | "approved", running = true): string {
  const after = running ? "/reload asks about the rest" : "hey trust --revoke takes it back";
  if (trusted === "approved") return `nothing recorded: ${visible(project)} is approved for this run (--approve), not trusted (/trust asks again)`;
  if (trusted) return `nothing recorded: ${visible(project)} stays trusted with what you approved before (${after})`;
  return `${visible(project)} is not trusted: nothing recorded (${running ? "/trust" : "hey trust"} asks again)`;
}

/** `/trust` or `hey trust` in a project trusted already, when its files run nothing and its `.hey/skills` hold nothing new or changed: no question. */
export const nothingNewNotice = (project: string, skills: boolean, running = true) =>
  `${visible(project)} is trusted already, and nothing in it is new to approve${skills ? ": its .hey/skills are as you approved them" : ""} (${running ? "/untrust" : "hey trust --revoke"} takes the trust back)`;

/** `hey trust` in a project trusted already, before its question. */
export const alreadyTrustedNotice = (project: string) => `${visible(project)} is trusted already; trusting it again approves its files as listed`;

/** A project trusted for the session only (nothing to guard at start) whose files a `/reload` loaded: its trust is recorded (trust/session.ts). */
export function grownTrustNotice(project: string, resources: readonly string[], trustFile: string): string {
  return `${visible(project)} is trusted now (recorded in ${trustFile}): this /reload loaded its ${list(resources)}, which appeared in this session, and the next start loads ${resources.length === 1 ? "it" : "them"} too, asking only about a change you did not approve (/untrust takes it back)`;
}

/** A `/reload` in a project that is not trusted, which has files it then may not load: what they are and how to load them (`home`: none, HOME_NO_PROJECT). */
export function untrustedReloadNotice(resources: readonly string[], oneShot = false, home = false): string {
  if (home) return `not loaded: ${list(resources)} (${HOME_NO_PROJECT})`;
  return `not loaded: ${list(resources)} (this project is not trusted: ${oneShot ? "hey trust trusts it, --approve for one run" : "/trust, then /reload, loads them"})`;
}

/**
 * Why hey started in the home directory loads none of its `.hey/` (README "Grow it": the home
 * directory is no project), said by /trust, `hey trust`, a /reload and the start there.
 */
export const HOME_NO_PROJECT =
  "the home directory is no project: hey never trusts it nor loads its .hey/; skills and MCP servers for every directory go in your user config folder (~/.config/hey/)";

/** What follows "unknown provider NAME" when `[provider.NAME]` is in the project's config `file` (relative to its root), not loaded for want of trust. */
export function unloadedProviderHint(name: string, file: string): string {
  return `; [provider.${name}] is in this project's ${visible(file)}, which is not loaded: the project is not trusted (hey trust, or --approve for one run)`;
}

/**
 * Project files below the project root (trust/store.ts strayResources), never read: said at
 * start-up (a run, the REPL, `hey mcp`), in the REPL's /mcp (its server files) and at /reload — a
 * package's own .mcp.json (Claude Code reads one where it starts) would otherwise just be missing.
 */
export function strayNotice(paths: readonly string[], root: string): string {
  // a .hey/ below the root makes its folder the project at the next start there, the root's files then unread
  const moves = paths.some((p) => /[\\/]\.hey[\\/]/.test(p)) ? " (a .hey/ there would make its folder the project at the next start)" : "";
  return `not read: ${list(paths.map(visible))}: hey reads a project's skills, .hey/config.toml and .mcp.json at its root, ${visible(root)}; move them there${moves}`;
}

/**
 * A `.hey/task.md` in a `.hey/` passed over for the project root (fs/places.ts strayTaskNotes):
 * the model wrote it relative to a subdirectory; the project's is `rootTask`. `shown`: its path
 * as the user reads it (relative to the root).
 */
export function strayTaskNotice(shown: string, root: string, rootTask: string): string {
  return `${visible(shown)} is not this project's task.md: the project root is ${visible(root)} (hey keeps ${visible(rootTask)}); move it there or remove it`;
}

/**
 * trust.json trusts the project, but not at hey's question (the approvals record does not say so):
 * the file was changed behind hey's back — possibly by the agent — so the answer is not used.
 * `recordLost`: the record itself was removed, so whether the yes was given at hey's question cannot
 * be known — that is said, not a change to trust.json.
 */
export function unconfirmedTrustNotice(project: string, trustFile: string, interactive: boolean, recordLost = false): string {
  const then = interactive ? "hey asks again" : "its files are not loaded; the interactive prompt asks again, --approve trusts it for one run";
  const why = recordLost
    ? "the record of your answer was removed with the approvals record"
    : "that was not answered at hey's question (the file was changed outside hey)";
  return `${trustFile} trusts ${visible(project)}, but ${why}: ${then}`;
}

/** A config file whose guarded keys give the agent more than the user approved, and what. */
export interface Widening {
  file: string;
  lines: string[];
  /** the file is gone: `lines` are the lists it no longer sets (config/vanished.ts) */
  gone?: true;
  /** gone, and the record of it removed: what it set cannot be known, so nothing of it counts as approved */
  lost?: true;
  /** an untrusted project's file: only its deny entries apply, and only they were weighed */
  untrusted?: true;
  /** a file above the project (fs/places.ts outerConfigs), trusted or not: likewise only its deny entries apply */
  outer?: true;
}

/**
 * The REPL's question before a config change that gives the agent more takes effect. `agentWrites`
 * false: a permission list keeps the agent from writing the files (config/control-files.ts), and
 * the question does not say it could: the change may well be the user's own.
 */
export function approvalQuestion(pending: readonly Widening[], agentWrites = true): string {
  const files = pending.map((w) => `${visible(w.file)} ${questionHead(w)}:\n${w.lines.map((l) => `  ${visible(l)}`).join("\n")}`);
  const them = pending.reduce((n, w) => n + w.lines.length, 0) === 1 ? "this change" : "these changes";
  const why = agentWrites
    ? `The agent can write ${pending.length === 1 ? "this file" : "these files"}, so hey asks.`
    : "hey asks before any change that gives the agent more takes effect, whoever made it.";
  return `${files.join("\n")}\n${why} Use ${them}? (y/N) `;
}

/** What approvalQuestion says of one file before its lines. */
function questionHead(w: Widening): string {
  if (w.lost) return "is not there, and the record of what you approved was removed (what it set cannot be known); going on without it";
  if (w.gone)
    return `is gone: ${w.outer ? "its deny entries recorded" : w.untrusted ? "the project's deny entries recorded" : "the lists you approved"} there would no longer apply`;
  return w.untrusted || w.outer ? "no longer has deny entries recorded of it" : "would give the agent more than you approved";
}

/** A widening's line as its table names it (`+ [mcp.db]`), for an MCP server or a provider; another as it is. */
const tableOnly = (line: string) => /^[+~-] \[(?:mcp|provider)\.[^\]]+\]/.exec(line)?.[0] ?? line;

/**
 * One line per file whose widening is not used: in a one-shot run (never asked), or after the
 * REPL's question was not answered yes.
 */
export function approvalNotice(pending: readonly Widening[], asked: boolean, agentWrites = true): string[] {
  const gone = pending.filter((w) => w.gone).map((w) => goneNotice(w, asked));
  // asked: named again, as /reload's note carries the line to the model, which never saw the question: by
  // name alone, as a server's command, env and URL and a provider's URL may hold credentials
  if (asked)
    return gone.concat(
      pending
        .filter((w) => !w.gone)
        .map(
          (w) =>
            `not used, not approved: ${visible(w.lines.map(tableOnly).join(", "))} in ${visible(w.file)}; ${restOf(w)} (hey asks again at the next start or /reload)`,
        ),
    );
  const left = pending
    .filter((w) => !w.gone)
    .map((w) => {
      // a base_url never approved has no approved value to use: its provider gets no request
      const none = w.lines.some((l) => /^\+ \[provider\.[^\]]+\] base_url = /.test(l)) ? "; a provider whose base_url was never approved gets no request" : "";
      // the record keeps only a fingerprint of a server's approved table: a changed one has no approved values to start with
      const server = w.lines.some((l) => /^~ \[mcp\./.test(l)) ? "; a changed MCP server does not start until its change is approved" : "";
      const writes = agentWrites ? ", and the agent can write that file" : "";
      const more = w.untrusted || w.outer ? "it drops deny entries recorded of it, which still apply" : "it gives the agent more than you approved";
      return `not used: ${visible(w.lines.join(", "))} in ${visible(w.file)}: ${more}${writes}; ${restOf(w)}${none}${server} (the interactive prompt asks about it: start \`hey\` at a terminal)`;
    });
  return gone.concat(left);
}

/** What is used of a file a change of which is left out: the rest of it, or — one above the project, or an untrusted project's — nothing else, and why. */
function restOf(w: Widening): string {
  if (w.outer) return "nothing else in the file is used here (it is above this project: only its deny entries apply)";
  return w.untrusted ? "nothing else in the file is used (the project is not trusted)" : "the rest of the file is used";
}

/**
 * A config file that is gone, its recorded lists kept (config/vanished.ts): one line; an untrusted
 * project's deny entries were recorded without a question, and are named so. `asked`: the REPL's
 * question was not answered yes.
 */
function goneNotice(w: Widening, asked: boolean): string {
  const then = asked ? "hey asks again at the next start or /reload" : "run hey at a terminal to drop them";
  if (w.lost)
    return `${visible(w.file)} is not there, and the record of what you approved was removed: what it set cannot be known, so no tool call runs by an allow list in this run (read-only commands still run); it is not recorded so: the record hey writes next (at the model's first answer, or at your yes to a question) leaves it out, and the starts after that go without the file; ${asked ? "/reload asks again" : "to go on without it now, run `hey` at a terminal and answer its question"}`;
  const lists = w.outer
    ? "its deny entries recorded (it is above this project)"
    : w.untrusted
      ? "the project's deny entries recorded there"
      : "the lists you approved there";
  return `${visible(w.file)} is gone; ${lists} still apply; ${then}`;
}

/**
 * No approvals record, though hey ran before (`trace` holds what it left): the record was removed,
 * and nothing in the user's and a trusted project's files counts as approved (config/vanished.ts
 * RECORD_LOST) until the user's yes at the interactive question.
 */
export function lostRecordNotice(record: string, trace: string, interactive = true): string {
  const exits = interactive ? "" : `; ${lostRecordExits(record, trace)}`;
  return `${visible(record)} is missing, though hey ran here before (${visible(trace)}): it was removed, so nothing in your config files counts as approved and no tool call runs by their allow lists (read-only commands still run; a --config file you name is taken as it is) until you confirm the files: run \`hey\` at a terminal and answer its question${exits}`;
}

/**
 * The ways out of a removed record's loss where no terminal will ever answer (a CI job that keeps
 * its state): `record` (approvals.json) and `sessions` go together. Rewritten once, the record keeps
 * the loss, so removing it alone brings the loss back; the agent cannot write it, so this is no route of its.
 */
export function lostRecordExits(record: string, sessions: string): string {
  return `without a terminal (CI), restore ${visible(record)} together with ${visible(sessions)} as they were kept, or remove both for a first run, which takes your config files as they are`;
}

/** A removed record and `--approve` in a run that asks nothing: what the flag does not do (only a person's yes at the question confirms the files). */
export const APPROVE_LEAVES_LOST =
  "--approve does not confirm your config files after a removed approvals record (a flag is as easy for the agent to pass as for you): it trusts the project for this run alone; run `hey` at a terminal and answer its question to confirm them, or, without one, restore or remove the record with the sessions as said above";

/** A run without a terminal whose record still keeps a removed record's loss (config/vanished.ts RECORD_LOST): what ends it there. */
export const keptLossNotice = (record: string, sessions: string) =>
  `the approvals record still holds that an earlier record was removed: your config files' allow lists wait for your yes at a terminal; ${lostRecordExits(record, sessions)}`;

/** After the notices of changes left out in a `--approve` run: what the flag does not cover, so the user does not take it for a yes. */
export const APPROVE_LEAVES =
  "--approve covers only the project's .hey/config.toml for this run, not the changes above: start hey at a terminal once to approve them";

/** On hey's first run (no approvals record yet) the files' guarded keys are taken as the user's. */
export function adoptedNotice(files: readonly string[], record: string): string {
  return `recorded ${list(files.map(visible))} as approved (no earlier record in ${record}); from now on hey asks before using a change there that gives the agent more`;
}

/**
 * The one stderr line of a run that leaves the project's resources out; `trustFile` holds a
 * recorded "no"; `deny`: the `.hey/config.toml` deny entries that apply all the same (config/load.ts).
 */
export function untrustedNotice(
  trust: { resources: readonly string[]; stored: boolean | undefined; file: string; home?: boolean },
  interactive = false,
  deny?: readonly string[],
): string {
  const { resources, stored, file: trustFile } = trust;
  const how = trust.home
    ? HOME_NO_PROJECT
    : stored === false
      ? `you said no in ${trustFile}; ${interactive ? "/trust (or hey trust)" : "hey trust"} changes it, --approve trusts it for one run`
      : "this project is not trusted; hey trust trusts it, --approve for one run, and the interactive prompt asks";
  const narrowing = deny?.length ? `; .hey/config.toml's [permission] deny entries apply all the same: they only narrow what runs` : "";
  return `not loaded: ${list(resources)} (${how})${narrowing}`;
}

/**
 * The REPL's line right after a no to trustQuestion: what was left out, and — as the no was
 * recorded or held for this session only — where the answer is and how to be asked again.
 */
export function declinedNotice(resources: readonly string[], trustFile: string, recorded: boolean): string {
  const how = recorded
    ? `your no is recorded in ${trustFile}: /trust (or hey trust) changes it`
    : "not trusted for this session only: nothing is recorded, and hey asks again next time; /trust, then /reload, loads them";
  return `not loaded: ${list(resources)} (${how}; --approve trusts it for one run)`;
}
