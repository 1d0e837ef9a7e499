// What every command of hey starts from (SPEC §3, §15, issue 24): whether the project is trusted,
// what the user approved so far, and the configuration read accordingly. A run, `hey doctor` and
// `hey mcp` take the same steps; only the interactive prompt asks (`ask`).
import { existsSync } from "node:fs";
import { relative } from "node:path";
import { loadConfig, type LoadedConfig } from "../config/load.ts";
import { loadLayer } from "../config/read-layer.ts";
import { ConfigError, UnknownProviderError, type ConfigFlags } from "../config/settings.ts";
import { isTable } from "../config/table.ts";
import type { Approvals } from "../config/approvals.ts";
import { pathKey, recordKey } from "../config/record-key.ts";
import { withRecordedAbove, type Places } from "../fs/places.ts";
import { keepsLoss, readApprovalState, type ApprovalState } from "./approve.ts";
import { APPROVE_LEAVES_LOST, keptLossNotice, unloadedProviderHint } from "./policy.ts";
import { peerProviderHint } from "../peers/found.ts";
import { agentCommand } from "../agent-mark.ts";
import { projectKey, readTrust, settleTrust, type TrustOutcome } from "./store.ts";

export interface Begun {
  /** `here` with the configs above it the approvals record holds deny entries of among its outerConfigs (fs/places.ts withRecordedAbove) */
  here: Places;
  config: LoadedConfig;
  trust: TrustOutcome;
  approvals: ApprovalState;
}

/**
 * Settles trust (asking with `ask`, when given, about a project not decided yet), then loads the
 * configuration: the user file, the project's when trusted, `configFile`, resolved with `flags`
 * against what the user approved. `approve`: `--approve` (the project trusted for this run, as
 * written). "cancelled": Ctrl-C at the trust question. Throws ConfigError (withUnloadedProvider's
 * words added to an unknown provider's).
 */
export async function beginConfig(
  here: Places,
  env: Record<string, string | undefined>,
  flags: ConfigFlags,
  opts: {
    approve: boolean;
    configFile: string | undefined;
    ask?: (question: string) => Promise<string | undefined>;
    warn(message: string): void;
    /** --no-mcp: the project's `.mcp.json` is not read */
    noMcp?: boolean;
  },
): Promise<Begun | "cancelled"> {
  // a session left by an earlier run (written, as the first record is, once a model answered; in the record's own
  // state tree, not the cache a CI job may restore apart): a missing record was removed, not never written.
  // Only a person's yes at the interactive question confirms the files then, never a flag: the agent's bash can
  // unset its mark, set CI or run hey under `script` for a terminal as easily as the user types --approve. An agent
  // with an unrestricted shell could still drive the prompt itself through a pseudo-terminal, timing its "y" after
  // the question shows (ask.ts drops keys typed before it): no program tells that from a person, so this closes the
  // one-line routes, not every route
  const approvals = readApprovalState(here.approvalsFile, opts.warn, [here.sessionsDir], opts.ask !== undefined);
  if (opts.approve && approvals.lost && !opts.ask) opts.warn(APPROVE_LEAVES_LOST);
  // said before the files load: an unapproved base_url there ends the run (exit 2) with no other word of the loss
  if (!opts.ask && !approvals.lost && keepsLoss(approvals.record, [here.userConfig, here.projectConfig]))
    opts.warn(keptLossNotice(here.approvalsFile, here.sessionsDir));
  // read before the trust question: this run's own answer is no sign that the project's .hey/config.toml was ever there
  const projectAnswered = approvals.lost === true && answered(here);
  const at = withRecordAbove(here, approvals.record, approvals.lost); // the record's configs above, which no move of the project drops
  const { ask } = opts;
  const trust = await settleTrust({
    here,
    trustFile: here.trustFile,
    approve: opts.approve,
    interactive: ask !== undefined,
    ask: ask ?? (async () => undefined),
    warn: opts.warn,
    approvals,
  });
  if (trust === "cancelled") return trust;
  // a yes at the question, which showed the project's skills, approves them as shown (trust/instructions.ts decideInstructions)
  if (trust.skills) approvals.trustShown = trust.skills;
  try {
    const config = loadConfig({
      env,
      here: at,
      configFile: opts.configFile,
      trustProject: trust.trusted,
      flags,
      approvals: approvals.record,
      recordLost: approvals.lost,
      projectAnswered,
      approveProject: opts.approve,
      agent: agentCommand(env) !== undefined,
      noMcp: opts.noMcp,
      // a yes at the question, which listed what the project's files run, approves them as listed
      projectApproved: trust.asked && trust.trusted ? trust.shown : undefined,
    });
    return { here: at, config, trust, approvals };
  } catch (e) {
    throw e instanceof UnknownProviderError ? withUnloadedProvider(e, here, trust.trusted) : e;
  }
}

/**
 * `here` whose outerConfigs take in every config above the launch directory of which `record` holds
 * deny entries, looked up by the record's keys (config/record-key.ts): a `.hey/` that is a link
 * (dotfiles, stow) is recorded by its real path, never by the path written here. After a removed
 * record (`lost`) what it held cannot be known: every config there is on the way up to home is taken
 * instead, as deny-only — they only narrow, and the record this run writes then keeps their entries,
 * where else a git root the agent moved would drop them for good.
 */
function withRecordAbove(here: Places, record: Approvals | undefined, lost: boolean | undefined): Places {
  const denies = (path: string) => [recordKey(path), pathKey(path)].some((key) => (record?.configs[key]?.deny?.length ?? 0) > 0);
  const above = lost ? (path: string) => existsSync(path) : denies;
  return { ...here, outerConfigs: withRecordedAbove(here.outerConfigs, here.cwd, here.root, here.home, above) };
}

/** Whether trust.json holds an answer for the project: it was trusted once, so its `.hey/config.toml` may have been there. */
function answered(here: Places): boolean {
  try {
    return readTrust(here.trustFile).projects[projectKey(here.root)] !== undefined;
  } catch {
    return false; // settleTrust said what is wrong with the file
  }
}

/**
 * `e`, and when the provider it names is defined in this project's config file, not loaded as the
 * project is not trusted, that said with how to load it: the run stops on the error before the
 * notice of what is not loaded is given. The file is read for that name only, never used. Else,
 * when the user's Codex config defines it (`[model_providers.NAME]`), that file and hey's table.
 */
export function withUnloadedProvider(e: UnknownProviderError, here: Places, trusted: boolean): ConfigError {
  let defined = false;
  try {
    const providers = trusted ? undefined : loadLayer(here.projectConfig, { required: false })?.data.provider;
    defined = isTable(providers) && Object.hasOwn(providers, e.provider);
  } catch {
    // unreadable or not TOML: nothing to tell beyond the error
  }
  const hint = defined ? unloadedProviderHint(e.provider, relative(here.root, here.projectConfig)) : peerProviderHint(here, e.provider);
  return hint ? new ConfigError(e.message + hint, e.warnings) : e;
}
