// The agent never widens its own rules (issue 24): the flow that settles, for one run or one
// `/reload`, what the config files' guarded keys may give the agent. A widening (config/guard.ts)
// is shown and asked about in the REPL; a one-shot run never asks and uses the approved values,
// saying so. What is used is then recorded in the approvals record, so a change the user did not
// approve is found again next time, whoever wrote it.
import { earlierRunTrace, readApprovalsForRun, updateApprovals } from "../config/approval-store.ts";
import { emptyApprovals, withConfigs, withInstructions, type Approvals } from "../config/approvals.ts";
import { aboutServer, NOTHING_APPROVED, pendingCaFile, sameGuarded, type Guarded } from "../config/guard.ts";
import type { LoadedConfig } from "../config/load.ts";
import { recordedFor, seedMainCheckout } from "../config/record-key.ts";
import { ConfigError, type Settings } from "../config/settings.ts";
import { adoptedNotice, approvalNotice, approvalQuestion, lostRecordNotice, readAnswer, type Widening } from "./policy.ts";
import { listsSet } from "../config/control-files.ts";
import { readTrust } from "./store.ts";
import type { InstructionState } from "./instructions.ts";
import { copiesDir, keepCopies, keptBefore } from "./instruction-copies.ts";
import { errnoCode, errorText } from "../kernel/errors.ts";
import { identityOf, ProviderError, type Provider } from "../kernel/provider.ts";
import { fileProblem } from "../fs/dir-problem.ts";
import { FileLockedError } from "../fs/file-lock.ts";
import { ALLOWS_NOTHING } from "../permission/rules.ts";
import { childEnv, missingCommand } from "../mcp/stdio.ts";
import { sameServer } from "../mcp/takeover.ts";

export { decideInstructions, guardingInstructions, instructionGate, withProjectSkills } from "./instructions.ts"; // the start's question beside decideWidenings

/** The approvals record as this run knows it: undefined before hey's first run wrote one. */
export interface ApprovalState extends InstructionState {
  record: Approvals | undefined;
  file: string;
  /**
   * the first record, owed until this run's model first answers (recordOnAnswer): no record is
   * created by a run the agent could not act in — one that failed before the model answered, or
   * ran only a command — so such a run does not use up "the first run"; "answered" once it did
   */
  owed?: { write(): Promise<void> } | "answered";
  /**
   * no record, though hey ran here before (a session): the record was removed, and `record` stands
   * in for it empty. This is no first run: nothing is taken as approved (config/vanished.ts
   * RECORD_LOST), a file that is gone included; the record is written, whatever this run uses, at
   * the model's first answer as a first record is (recordOnAnswer), and what it then holds of each
   * file (RECORD_LOST's list) keeps the loss until the user's yes.
   */
  lost?: true;
}

/**
 * Reads the record. A broken one (or a link) is a warning and approves nothing; it is rewritten
 * when hey records next. None while one of `traces` shows hey ran before (config/approval-store.ts
 * earlierRunTrace): the record was removed, which is said to `warn` (not `interactive`: with the ways
 * out that need no terminal), and an empty one stands in
 * (`lost`) until the user's yes at the question or the model's first answer rewrites it.
 */
export function readApprovalState(file: string, warn: (message: string) => void, traces: readonly string[] = [], interactive = true): ApprovalState {
  const record = readApprovalsForRun(file, warn);
  const trace = record === undefined ? earlierRunTrace(traces) : undefined;
  if (trace === undefined) return { record, file };
  warn(lostRecordNotice(file, trace, interactive));
  // nothing of the user's instruction files counts as approved either: the next run with a list asks about each
  return { record: { ...emptyApprovals(), instructions: {} }, file, lost: true };
}

/**
 * The record as it is on disk now, kept in `state`: a yes another hey recorded since (a second
 * terminal in the same project) counts at `/reload` as it would at a new start. No record on disk
 * (removed since) keeps the one this run knows: no record at all approves everything, as on hey's
 * first run. Returns the record.
 */
export function rereadApprovals(state: ApprovalState, warn: (message: string) => void): Approvals | undefined {
  state.record = readApprovalState(state.file, warn).record ?? state.record;
  return state.record;
}

/**
 * What in `config` gives the agent more than the user approved; without `servers` (--no-mcp: no
 * server starts, so a server left out is no news) the changes to MCP servers are not counted.
 */
export const widenings = (config: LoadedConfig, servers = true): Widening[] =>
  config.guards
    .map((g) => ({
      file: g.source,
      lines: servers ? g.widenings : g.widenings.filter((l) => !aboutServer(l)),
      ...(g.gone ? { gone: true as const } : {}),
      ...(g.lost ? { lost: true as const } : {}),
      ...(g.untrusted ? { untrusted: true as const } : {}),
      ...(g.outer ? { outer: true as const } : {}),
    }))
    .filter((w) => w.lines.length > 0);

/**
 * `config.settings`, with `network.pendingCa` naming a `[network] ca_file` that is left out for
 * want of approval, when there is one: a certificate error then says it is there but not used yet.
 */
export function withPendingCa(config: LoadedConfig): Settings {
  const pendingCa = pendingCaFile(config.guards);
  return pendingCa ? { ...config.settings, network: { ...config.settings.network, pendingCa } } : config.settings;
}

/**
 * `config` with its widenings approved when the user says yes to the question (`ask` given: the
 * REPL), or as it is — the approved values in their place — with a notice for each (no `ask`: a
 * one-shot run, or the question answered otherwise). `servers` false (--no-mcp): changes to MCP
 * servers are neither asked nor told about, and a yes leaves them unapproved. Throws ConfigError
 * when the approved files do not resolve (a server definition that only the left-out part made
 * whole).
 */
export async function decideWidenings(
  config: LoadedConfig,
  ask: ((question: string) => Promise<string | undefined>) | undefined,
  warn: (message: string) => void,
  servers = true,
  env?: Record<string, string | undefined>,
): Promise<LoadedConfig> {
  // a new server whose command is not found is never asked about, as /reload refuses it: its error instead, and the question leaves servers out
  const cannot = ask && servers && env ? [...unstartable(config, env).values()] : [];
  for (const line of cannot) warn(`${line}; hey asks about MCP server changes once that is fixed (then /reload)`);
  if (cannot.length) servers = false;
  const pending = widenings(config, servers);
  if (pending.length === 0) return config;
  // the settings as used (the approved lists): while a list is set the agent's tools cannot write hey's config files
  const agentWrites = !listsSet(config.settings.permission);
  const typed = ask ? await ask(approvalQuestion(pending, agentWrites)) : undefined;
  if (typed !== undefined && readAnswer(typed) === "yes") return config.approve(servers);
  for (const line of approvalNotice(pending, ask !== undefined, agentWrites)) warn(line);
  return config;
}

/**
 * The servers a yes would start that are not running as approved and whose command is not found
 * (`FILE:LINE: [mcp.x] command "y" not found on PATH`), looked for as their start looks (mcp/stdio.ts).
 */
export function unstartable(config: LoadedConfig, env: Record<string, string | undefined>): Map<string, string> {
  const approved = config.settings.mcp.servers;
  const out = new Map<string, string>();
  if (!widenings(config).some((w) => w.lines.some(aboutServer))) return out;
  let all: LoadedConfig;
  try {
    all = config.approve(true);
  } catch {
    return out; // files that do not resolve approved: the question (or /reload) says why
  }
  for (const s of all.settings.mcp.servers) {
    if (!s.enabled || s.command === undefined || approved.some((a) => sameServer(a, s))) continue;
    const why = missingCommand(s.command, childEnv(env, s.env), s.cwd);
    if (why) out.set(s.name, `${s.at} ${why}`);
  }
  return out;
}

/**
 * Records what `config` uses of each guarded file, when that differs from `state.record` (a "no"
 * here never undoes a "yes" another session recorded since this one read the record); on the
 * first run (no record) every file's keys and trust.json's trusted projects are taken as the
 * user's — said in one line when `announce` (the REPL: a one-shot run in a fresh home, as in CI,
 * would say it every time) and there was something to take. Returns the record as it now is.
 * A record that cannot be written is a warning: the next run asks (or refuses) again.
 */
export async function recordApprovals(
  config: LoadedConfig,
  state: ApprovalState,
  trustFile: string,
  warn: (message: string) => void,
  announce = true,
): Promise<Approvals> {
  // a linked file under the link's path too (config/load.ts keysOf): found when the link is removed with the file
  // a file not there when the record was removed lets nothing run in this run, yet is not recorded so: most users never
  // had one (hey runs without), and one never created would lock them out of every tool that writes for good
  const recorded = config.guards.filter((g) => !(state.lost && g.gone && g.lost && g.used.allow?.includes(ALLOWS_NOTHING)));
  const used: Record<string, Guarded> = Object.fromEntries(recorded.flatMap((g) => [...(g.alias ? [[g.alias, g.used]] : []), [g.key, g.used]]));
  const first = state.record === undefined;
  const before = state.record ?? emptyApprovals();
  // hashes not in the record yet — or none where it keeps none: from now on a file that appears is new, not taken as it is
  const hashes = state.instructions;
  const newHashes =
    hashes !== undefined && (before.instructions === undefined || Object.entries(hashes).some(([path, hash]) => before.instructions![path] !== hash));
  const changed = first || state.lost || newHashes || Object.entries(used).some(([key, g]) => !sameGuarded(before.configs[key], g));
  if (!changed) {
    if (hashes && !keptBefore(state.file)) keepCopies(state.file, hashes, state.texts); // a record from before hey kept copies
    return before;
  }
  // after a removed record, only the answers given at hey's question in this run (trust/store.ts keepWhileLost): trust.json's others are unconfirmed
  const trusted = first ? trustedIn(trustFile) : state.lost ? before.trusted : undefined;
  // a file another session recorded since this one read the record keeps that entry, unless this
  // session approved more of it: its view of the file is stale, and a "no" here must not undo a yes there
  const stale = (a: Approvals, key: string) =>
    !first && !sameGuarded(a.configs[key], before.configs[key]) && sameGuarded(before.configs[key] ?? NOTHING_APPROVED, used[key]);
  const update = (a: Approvals) =>
    withInstructionHashes(
      withConfigs(
        trusted ? { ...a, trusted: [...new Set([...a.trusted, ...trusted])] } : a,
        seedMainCheckout(a, Object.fromEntries(Object.entries(used).filter(([key]) => !stale(a, key)))),
      ),
      state,
    );
  try {
    const next = await updateApprovals(state.file, update);
    if (next.instructions) keepCopies(state.file, hashes ?? {}, state.texts); // what the question diffs against next time, and the mark that hashes were kept
    const adopted = config.guards.filter((g) => hasAny(g.used)).map((g) => g.source);
    if (first && announce && adopted.length > 0) warn(adoptedNotice(adopted, state.file));
    return next;
  } catch (e) {
    // another hey that keeps the record locked (stopped, hung): a run whose record is lost would let
    // the next run take these files as new, widened or not, so this one does not go on (exit 2)
    if (e instanceof FileLockedError) throw new ConfigError(`could not record approvals: ${e.message}`);
    // a full disk, a quota, a size limit: what to do, not the system call's words
    warn(`could not record approvals in ${state.file}: ${errnoCode(e) ? fileProblem(state.file, e, "XDG_STATE_HOME") : errorText(e)}`);
    return update(before);
  }
}

/**
 * `record` (recordApprovals with this run's configuration) — the first record (none yet: every file
 * taken as it is) only once this run's model has answered, at its first answer (recordingOnAnswer),
 * so a run that never reached the model does not use up "the first run"; what a later call owes
 * replaces what an earlier one did. A record that exists is updated at once, as before: a yes at
 * the question is the user's, and an update never takes more than the user approved; so is a `yes`
 * (the user said yes at the approvals or the trust question) after a removed record. trust.json is
 * read when the record is written: at the first answer no tool of this run has run yet.
 */
export async function recordOnAnswer(state: ApprovalState, record: () => Promise<Approvals>, yes = false): Promise<void> {
  const write = async () => {
    state.record = await record();
    state.lost = undefined; // what the record now holds of each file keeps the loss (RECORD_LOST) until the user's yes
  };
  // a record that was removed is rewritten only from a run the model answered, as a first one is written — or at
  // once when the user said yes at the question: that is the user's act, kept if the model never answers
  if (state.owed === "answered" || (state.record !== undefined && (!state.lost || yes))) {
    if (state.owed !== "answered") state.owed = undefined; // what an earlier call owed is replaced
    return write();
  }
  state.owed = { write };
}

/**
 * `provider` with what the run owes the approvals record (recordOnAnswer) written when the model's
 * first answer arrives, before any of it is passed on: before a tool the answer calls runs (a hey
 * that command starts finds the record), and never in a run the model did not answer.
 */
export function recordingOnAnswer(provider: Provider, state: ApprovalState): Provider {
  return {
    ...identityOf(provider),
    async *stream(request, signal) {
      for await (const event of provider.stream(request, signal)) {
        // a notice is no answer (agent.ts), nor are the counts of one just begun
        if (event.type !== "notice" && event.type !== "usage" && state.owed !== "answered") {
          const owed = state.owed;
          state.owed = "answered";
          // the one failure that reaches here (recordApprovals: the record kept locked) ends the run before the answer is used, unretried
          await owed?.write().catch((e: unknown) => Promise.reject(new ProviderError("config", errorText(e), { final: true, cause: e })));
        }
        yield event;
      }
    },
    ...(provider.serverWindow ? { serverWindow: () => provider.serverWindow!() } : {}),
  };
}

/** Whether `record` still keeps a removed record's loss of one of `files` (config/vanished.ts RECORD_LOST): its allow list waits for a yes. */
export const keepsLoss = (record: Approvals | undefined, files: readonly string[]): boolean =>
  record !== undefined && files.some((file) => recordedFor(record, file)?.allow?.includes(ALLOWS_NOTHING));

/** Whether the user said yes at decideWidenings' question: `before` held widenings, `after` (what it returned) none. */
export const saidYes = (before: LoadedConfig, after: LoadedConfig, servers = true): boolean =>
  after !== before && widenings(before, servers).length > 0 && widenings(after, servers).length === 0;

/**
 * `a` with the instruction files this run uses recorded (state.instructions). A removed record
 * (`state.lost`) is rewritten holding none approved, even by a run without a list: else the next
 * run with one would take every file there as approved, as a first run does.
 */
function withInstructionHashes(a: Approvals, state: ApprovalState): Approvals {
  if (state.instructions) return withInstructions(a, state.instructions);
  return state.lost && a.instructions === undefined ? { ...a, instructions: {} } : a;
}

/** The projects trust.json trusts: what the first record takes as trusted at hey's question. */
function trustedIn(trustFile: string): string[] {
  try {
    return Object.entries(readTrust(trustFile).projects)
      .filter(([, d]) => d.trusted)
      .map(([p]) => p);
  } catch {
    return []; // a broken trust.json trusts nothing (settleTrust said so)
  }
}

const hasAny = (g: Guarded) =>
  Boolean(
    g.allow?.length ||
      g.deny?.length ||
      g.bash_filter ||
      g.shell ||
      g.rg ||
      g.keep_env?.length ||
      Object.keys(g.mcp).length ||
      Object.keys(g.endpoints ?? {}).length ||
      g.proxy ||
      g.ca_file ||
      g.vars?.length,
  );

/**
 * `config` with each MCP server whose changed table was left out (not approved) kept as it runs
 * now: the approvals record holds only a fingerprint of the approved table, and the running one
 * is that table. A server that is not in `current` stays out.
 */
export function keepApproved(config: LoadedConfig, current: Settings): LoadedConfig {
  const kept = new Set(config.guards.flatMap((g) => g.kept));
  const now = new Set(config.settings.mcp.servers.map((s) => s.name));
  const back = current.mcp.servers.filter((s) => kept.has(s.name) && !now.has(s.name));
  if (back.length === 0) return config;
  const settings = { ...config.settings, mcp: { ...config.settings.mcp, servers: [...config.settings.mcp.servers, ...back] } };
  return { ...config, settings };
}

/** hey's folders the agent may not write in while a list is set (config/control-context.ts): its cache, and the copies of the user's approved instruction files. */
export const guardedDirs = (here: { cacheDir: string; approvalsFile: string }) => ({ cacheDir: here.cacheDir, copiesDir: copiesDir(here.approvalsFile) });
