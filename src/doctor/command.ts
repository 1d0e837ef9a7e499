// `hey doctor [provider] [--write]` (SPEC §23): probe the configured endpoint — network, TLS,
// authentication, streaming, tool calls and the quirks hey has flags for — print one line per
// check, and with --write record the flags it found in the config file that defines the provider
// (backed up first, replaced atomically). Exit 0 only when the endpoint is usable as configured.
import { readFile, stat } from "node:fs/promises";
import { EXIT, parseCli, UsageError, type CliArgs } from "../cli.ts";
import { createRedaction, hideSecrets, knownSecrets, redactedForm } from "../config/secrets.ts";
import { builtInUrl, unknownProviderHint } from "../config/presets.ts";
import { ConfigError, UnknownProviderError, type ProviderSettings, type Settings } from "../config/settings.ts";
import { writeFileAtomic } from "../fs/atomic.ts";
import { decodeText, likeBefore } from "../fs/text-encoding.ts";
import type { Places } from "../fs/places.ts";
import { trustedCas } from "../net/ca.ts";
import type { DebugLog } from "../net/debug-log.ts";
import { describeRoute, NetConfigError, parseProxyUrl, resolveProxy, unapprovedRoute, type ProxySources } from "../net/proxy.ts";
import { decideInstructions, decideWidenings } from "../trust/approve.ts";
import { withProjectSkills } from "../trust/instructions.ts";
import { beginConfig, withUnloadedProvider } from "../trust/start.ts";
import { setupHint } from "../ui/setup-help.ts";
import { canDraw, fitted, writer } from "../ui/term.ts";
import { baseUrlSettingOf, fetchFor, unsendable } from "../endpoint.ts";
import { judge, missingFlags, type Flags, type Probes } from "./checks.ts";
import { probeNetwork } from "./network.ts";
import { replaysEveryTurn } from "../providers/reasoning-replay.ts";
import { PROBE_TIMEOUT_MS, probeEndpoint } from "./probe.ts";
import { hasLists, peerNotices, projectNotes, setupPlaces } from "../peers/found.ts";
import { permissionLines } from "./permission-lines.ts";
import { outerDenyNotice } from "../config/outer-deny.ts";
import { grepLine } from "../fs/ripgrep-choice.ts";
import { filterLine } from "../tools/filter-watch.ts";
import { renderJson, renderText, type Subject, type Written } from "./report.ts";
import { setProviderKeys, TomlEditError } from "./toml-edit.ts";
import { errnoCode, errorText } from "../kernel/errors.ts";

export const DOCTOR_USAGE =
  "usage: hey doctor [PROVIDER] [--write] [--output json] [-m PROVIDER/MODEL]\n         [--config FILE] [--proxy URL] [--base-url URL --protocol P --api-key K]\n"; // under 80 columns

/** Runs the subcommand; the exit code: 0 usable, 1 not usable (or flags to record), 2 bad arguments or config. */
export async function doctorCommand(argv: string[], here: Places): Promise<number> {
  const err = writer(2);
  let args: CliArgs;
  let write = false;
  let named: string | undefined; // the PROVIDER word
  try {
    write = argv.includes("--write");
    args = parseCli(
      argv.filter((a) => a !== "--write"),
      "command",
    );
    if (args.help) {
      writer(1).write(DOCTOR_USAGE);
      return EXIT.ok;
    }
    const words = args.message.split(/\s+/).filter(Boolean);
    if (words.length > 1) throw new UsageError(`hey doctor takes one provider name, got "${args.message}"`);
    if (words[0] && args.flags.model === undefined) (named = words[0]), (args = { ...args, flags: { ...args.flags, model: words[0] } });
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    err.write(`hey doctor: ${e.message}\n${DOCTOR_USAGE}`);
    return EXIT.usage;
  }
  try {
    return await doctor(args, write, named, here);
  } catch (e) {
    if (!(e instanceof ConfigError || e instanceof NetConfigError)) throw e;
    err.write(`hey doctor: ${e.message}\n`);
    return EXIT.usage;
  }
}

/** `named`: the PROVIDER word, which must name a provider (`-m` syntax would take it for a model). */
async function doctor(args: CliArgs, write: boolean, named: string | undefined, here: Places): Promise<number> {
  const env = process.env;
  const warn = (m: string) => writer(2).write(`${fitted(2, `hey doctor: ${m}`)}\n`); // at spaces, never mid-word, at a terminal
  // the doctor runs no tools: what the files give the agent is weighed as a run would, but not recorded
  const begun = await beginConfig(here, env, args.flags, { approve: args.approve, configFile: args.config, warn });
  if (begun === "cancelled") return EXIT.interrupted; // never asked: not interactive
  const { config, trust } = begun;
  const { settings } = config;
  if (named !== undefined && settings.provider.name !== named) {
    const known = settings.providers.map((p) => p.name);
    const unknown = new UnknownProviderError(
      `unknown provider ${JSON.stringify(named)}${unknownProviderHint(named, known)}; known: ${known.join(", ")}`,
      named,
    );
    throw withUnloadedProvider(unknown, here, trust.trusted);
  }
  // an unrunnable `[tools] rg` is the report's `! grep:` line, with where it is set: not said twice
  const grep = grepLine(settings.tools.rg, config.warnings);
  const filter = filterLine(settings.tools.bashFilter, settings.bashFilterSource, config.warnings); // an unrunnable bash_filter too
  for (const w of config.warnings) if (!grep.endsWith(w) && !filter?.endsWith(w)) warn(w);
  await decideWidenings(config, undefined, warn); // what a -p run would leave out, said as it says it: the doctor checks the approved values
  await decideInstructions(settings.permission, begun.approvals, withProjectSkills(here, begun.trust.trusted), undefined, warn, false); // your AGENTS.md and skills a -p run would leave out
  const provider = settings.provider;
  if (unsendable(provider)) throw new ConfigError(unsendable(provider)!); // no probe goes out there, nor without a model name
  const project = { root: here.root, trusted: trust.trusted, approved: args.approve, files: trust.resources };
  const from = { ...(provider.urlVar ? { from: provider.urlVar } : {}), ...(provider.modelVar ? { modelFrom: provider.modelVar } : {}) };
  // every time, [permission] lists or not: the doctor is where a user looks for what hey leaves out
  const redaction = createRedaction(
    () => knownSecrets(settings, env),
    () => settings.tools.redactSecrets,
  ); // the skills' descriptions as a run's prompt has them
  const notes = projectNotes(here, trust.trusted && !trust.provisional, settings.agent.budgetTokens, (t) => redactedForm(t, redaction));
  const peers = [...peerNotices(here, hasLists(settings.permission), env, true), ...notes];
  const outer = outerDenyNotice(config.outerDeny ?? [], here); // whose the deny entries no file of the project names are
  const permissions = [...permissionLines(settings.permission, here.home), ...(outer ? [`permission: ${outer.line}`] : [])];
  const subject: Subject = {
    provider: provider.name,
    protocol: provider.protocol,
    baseUrl: provider.baseUrl,
    ...from,
    model: settings.model,
    project,
    peers,
    permissions,
    grep,
    ...(filter ? { filter } : {}),
  };

  // what it writes names the endpoint, whose base_url may hold a password, and quotes its answers
  const hide = hideSecrets(() => knownSecrets(settings, env, args.run.proxy));
  let debug: DebugLog | undefined;
  if (args.verbose || env.HEY_LOG === "debug") {
    debug = (await import("../net/debug-log.ts")).openDebugLog(here.logsDir, hide);
    if (debug.ok) warn(`debug log: ${debug.path}`);
  }
  // the report comes whole at the end; a terminal is shown what is being waited for meanwhile
  const progress = canDraw(2, env) ? progressLine(writer(2)) : undefined;
  if (progress)
    warn(
      `probing ${hide(provider.baseUrl)} (${settings.model}): the network, then a few requests, each given up on after ${PROBE_TIMEOUT_MS / 1000} s at most`,
    );
  let probes: Probes;
  try {
    probes = await runProbes(settings, args.run.proxy, env, debug, progress?.show);
  } finally {
    progress?.stop();
  }
  const help = runHelp(probes, settings, setupPlaces(here, env));
  // a keyless server (OPENAI_BASE_URL alone) accepted no key
  const verdict = judge({ ...probes, ...(help ? { help } : {}) }, provider.apiKeyVar, provider.apiKey !== undefined, provider.apiKeyEmpty);
  const missing = missingFlags(verdict.flags, effectiveFlags(provider, settings.model));
  // the lines the report asks for, no more: a flag that is the default already changes nothing written
  const written = write && Object.keys(missing).length > 0 ? await writeFlags(provider, missing) : undefined;
  const out = writer(1);
  // the text report at a terminal as a run's setup help is: broken at spaces, a check's words under its detail column, config lines to paste whole
  out.write(
    args.run.output === "json"
      ? hide(renderJson(subject, verdict, missing, written))
      : fitted(1, hide(renderText(subject, verdict, missing, written, provider.name))),
  );
  const recorded = Object.keys(missing).length === 0 || (written !== undefined && !("error" in written));
  return verdict.usable && recorded ? EXIT.ok : EXIT.runtime;
}

/** Every probe, in order: the route, the network, then the model requests when the network works. */
async function runProbes(
  settings: Settings,
  cliProxy: string | undefined,
  env: Record<string, string | undefined>,
  debug?: DebugLog,
  onProbe?: (what: string) => void,
): Promise<Probes> {
  const provider = settings.provider;
  const target = new URL(provider.baseUrl);
  const sources: ProxySources = { cli: cliProxy, config: settings.proxy, configSource: settings.proxySource, env, held: settings.network.heldProxy };
  const base = { protocol: provider.protocol, model: settings.model, rateLimits: [], setting: builtInUrl(provider) ? undefined : baseUrlSettingOf(provider) };
  let route: ReturnType<typeof resolveProxy>;
  try {
    if (cliProxy) parseProxyUrl(cliProxy, "--proxy"); // as a run checks it: a mistake even where the model URL is loopback
    // no probe goes out where no request would: not directly, not around a proxy waiting for approval
    const held = unapprovedRoute(target, sources);
    if (held) return { ...base, route: { ok: false, kind: "approval", message: held } };
    route = resolveProxy(target, sources);
    const text = describeRoute(target, sources);
    const routed = { ...base, route: { ok: true as const, text, proxied: route.kind !== "direct" } };
    let ca: ReturnType<typeof trustedCas>;
    try {
      ca = trustedCas(settings.network);
    } catch (e) {
      // a CA file that cannot be read is the TLS check's failure (it names the setting), not the proxy's
      if (!(e instanceof NetConfigError)) throw e;
      return { ...routed, tls: { ok: false, kind: "ca", message: e.message } };
    }
    onProbe?.("network");
    const network = await probeNetwork(target, route, { ca, insecure: provider.insecure ?? false, env });
    const probes: Probes = { ...routed, ...network };
    if ([network.dns, network.tcp, network.tls].some((o) => o && !o.ok)) return probes;
    return {
      ...probes,
      ...(await probeEndpoint({
        settings: provider,
        model: settings.model,
        effort: settings.effort,
        fetch: fetchFor(settings, cliProxy, env, debug),
        idleTimeoutMs: settings.retry.idleTimeoutMs,
        ...(onProbe ? { onProbe } : {}),
      })),
    };
  } catch (e) {
    if (!(e instanceof NetConfigError)) throw e;
    return { ...base, route: { ok: false, kind: "network", message: e.message } };
  }
}

/** What a run says after the failure the probes end with, a refused connection or a failed answer (ui/setup-help.ts). */
function runHelp(p: Probes, settings: Settings, where: Parameters<typeof setupHint>[3]): string | undefined {
  const failed = [p.tcp, p.answer].find((o) => o && !o.ok);
  return failed && !failed.ok ? setupHint(settings.provider, settings.model, { kind: failed.kind, message: failed.message }, where) : undefined;
}

/** One line on a terminal saying which check hey waits for and for how long; `stop` clears it. */
function progressLine(out: { write(text: string): unknown }): { show(what: string): void; stop(): void } {
  let what = "";
  let since = 0;
  const draw = () => out.write(`\r\x1b[2K  waiting for: ${what}… ${Math.floor((Date.now() - since) / 1000)} s`);
  const timer = setInterval(draw, 1000);
  timer.unref();
  return {
    show(next) {
      what = next;
      since = Date.now();
      draw();
    },
    stop() {
      clearInterval(timer);
      if (what) out.write("\r\x1b[2K");
    },
  };
}

/**
 * What the adapters do today without new flags (the openai adapter's defaults included): reasoning
 * that went out (the user turn's, every tool-call turn's) goes back in every later request
 * everywhere, and an empty field on a tool-call turn without any where replaysEveryTurn says so
 * (`reasoning_replay = true`).
 */
function effectiveFlags(p: ProviderSettings, model: string): Flags {
  const c = p.compat ?? {};
  const host = URL.canParse(p.baseUrl) ? new URL(p.baseUrl).hostname : "";
  return {
    max_tokens_field: c.maxTokensField ?? (host === "api.openai.com" ? "max_completion_tokens" : "max_tokens"),
    system_role: c.systemRole ?? "system",
    ...(c.reasoningReplay !== undefined ? { reasoning_replay: c.reasoningReplay } : replaysEveryTurn(host, model) ? { reasoning_replay: true } : {}),
    ...(c.parallelToolCalls !== undefined ? { parallel_tool_calls: c.parallelToolCalls } : {}),
  };
}

/**
 * Records `flags` in the `[provider.NAME]` table of the file that defines the provider: a copy of
 * the file goes to FILE.bak first, the new text is checked to parse to the same settings plus the
 * flags, then replaces the file atomically. Presets and --base-url have no such table: the lines
 * to add are returned as the error.
 */
async function writeFlags(p: ProviderSettings, flags: Flags): Promise<Written> {
  // the lines to add yourself are the verdict's, just above (report.ts)
  const by = (why: string) => ({ error: `not written: ${why}` });
  if (!p.source)
    return by(
      p.name === "cli"
        ? "--base-url names no config table"
        : `${p.name} is a built-in provider with no table in a config file (add [provider.${p.name}] with its base_url first)`,
    );
  const file = p.source;
  let old: Uint8Array;
  let before: string;
  try {
    // read as hey read it to load it (UTF-16 from Windows PowerShell 5.1's `>`, CRLF), and written back so
    old = await readFile(file);
    before = decodeText(old)
      .text.replace(/^\uFEFF/, "")
      .replace(/\r\n/g, "\n");
  } catch (e) {
    return by(`cannot read ${file} (${errnoCode(e) ?? errorText(e)})`);
  }
  let after: string;
  try {
    after = setProviderKeys(before, p.name, flags);
    checkEdit(before, after, p.name, flags);
  } catch (e) {
    if (!(e instanceof TomlEditError)) throw e;
    return by(`${file}: ${e.message}`);
  }
  const backup = `${file}.bak`;
  try {
    // a new file renamed into place, never written through a link planted at FILE.bak (issue 24); mode as the config's
    const mode = (await stat(file)).mode & 0o777;
    await writeFileAtomic(backup, old, { follow: false, mode });
    await writeFileAtomic(file, likeBefore(old, after).bytes);
  } catch (e) {
    return by(`cannot write ${file} (${errnoCode(e) ?? errorText(e)})`);
  }
  return { file, backup, flags };
}

/** The edited text parses, and to the old data with only the flags changed. Throws TomlEditError. */
function checkEdit(before: string, after: string, name: string, flags: Flags): void {
  let old: Record<string, unknown>;
  let next: Record<string, unknown>;
  try {
    old = Bun.TOML.parse(before) as Record<string, unknown>;
    next = Bun.TOML.parse(after) as Record<string, unknown>;
  } catch (e) {
    throw new TomlEditError(`the edited file would not parse (${errorText(e)})`);
  }
  const table = (data: Record<string, unknown>) => (data.provider as Record<string, Record<string, unknown>> | undefined)?.[name] ?? {};
  const expected = { ...old, provider: { ...(old.provider as object), [name]: { ...table(old), ...flags } } };
  if (JSON.stringify(sorted(expected)) !== JSON.stringify(sorted(next)))
    throw new TomlEditError(`[provider.${name}] is written in a form this edit cannot follow`);
}

/** A copy with every table's keys in order, for comparing parsed files. */
function sorted(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sorted);
  if (typeof v !== "object" || v === null || v instanceof Date) return v;
  return Object.fromEntries(
    Object.entries(v)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, x]) => [k, sorted(x)]),
  );
}
