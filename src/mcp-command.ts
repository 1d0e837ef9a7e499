// `hey mcp` (the servers, as /mcp lists them), `hey mcp login NAME` and `hey mcp logout NAME`
// (issue 27): sign in to (or out of) the remote MCP server of the `[mcp.NAME]` table, from the shell. A sign-in ends by connecting with the new
// token, so what it prints is proven: `connected: NAME (N tools)`. Exit 0 done, 1 the sign-in (or
// that connection) failed, 2 a bad command line or configuration, 130 cancelled.
import { EXIT, parseCli, UsageError, VERSION, type CliArgs } from "./cli.ts";
import { hideSecrets, knownSecrets } from "./config/secrets.ts";
import { ConfigError, type McpServerSettings } from "./config/settings.ts";
import { didYouMean } from "./config/suggest.ts";
import type { Places } from "./fs/places.ts";
import { NetConfigError } from "./net/proxy.ts";
import { beginConfig } from "./trust/start.ts";
import { strayNotices } from "./trust/store.ts";
import { writer } from "./ui/term.ts";
import { agentSignIn } from "./agent-mark.ts";
import { fetchFor } from "./endpoint.ts";
import { connectServer } from "./mcp/client.ts";
import { redactingConnect } from "./mcp/redacted.ts";
import { createCredentialStore, type CredentialStore } from "./mcp/credentials.ts";
import { signIn, signOut } from "./mcp/login.ts";
import { signedIn } from "./mcp/oauth.ts";
import { whichServer } from "./mcp/status.ts";
import { createToolStore } from "./mcp/store.ts";
import { errorText } from "./kernel/errors.ts";

export const MCP_USAGE =
  "usage: hey mcp [list] | hey mcp login NAME | hey mcp logout NAME\n         [--config FILE] [--approve] [--proxy URL] [--verbose]\n  hey mcp (or hey mcp list, hey mcp ls) lists the servers as /mcp does;\n  NAME: an [mcp.NAME] table with a url\n"; // under 80 columns: a terminal would break it mid-word

export async function mcpCommand(argv: string[], here: Places): Promise<number> {
  const out = writer(1);
  const err = writer(2);
  const [verb, ...rest] = argv;
  if (verb === "--help" || verb === "-h" || verb === "help") {
    out.write(MCP_USAGE);
    return EXIT.ok;
  }
  // alone (or `list`, with flags or not): the servers, their state and tools, as /mcp shows them (a one-shot run of /mcp)
  if (verb === undefined || verb === "list" || verb === "ls" || verb.startsWith("-")) {
    const list = verb === "list" || verb === "ls";
    const flags = list ? rest : argv;
    try {
      const { message } = parseCli(flags, "command"); // a stray word is no prompt of its own (`hey mcp list doctr`)
      const asPrompt = `(to send it as a prompt: hey -p "mcp ${argv.join(" ")}")`;
      if (message) throw new UsageError(`hey mcp${list ? ` ${verb}` : ""} takes flags only, got "${message}" ${asPrompt}`);
    } catch (e) {
      if (!(e instanceof UsageError)) throw e;
      err.write(`hey mcp: ${e.message}\n${MCP_USAGE}`);
      return EXIT.usage;
    }
    return (await import("./run.ts")).run(parseCli([...flags, "-p", "/mcp"]), here);
  }
  if (verb !== "login" && verb !== "logout") {
    err.write(`hey mcp: unknown subcommand ${JSON.stringify(verb)}\n${MCP_USAGE}`);
    return EXIT.usage;
  }
  let name: string;
  let args: CliArgs;
  try {
    args = parseCli(rest, "command");
    const words = args.message.split(/\s+/).filter(Boolean);
    if (words.length > 1) throw new UsageError(`hey mcp ${verb} takes one server name, got "${args.message}"`);
    name = words[0] ?? ""; // none: which server is asked once the configuration names them
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    err.write(`hey mcp: ${e.message}\n${MCP_USAGE}`);
    return EXIT.usage;
  }
  const env = process.env;
  const agent = agentSignIn(env, verb, name); // at once: nothing read, no browser opened
  if (agent) {
    err.write(`hey: ${agent}\n`);
    return EXIT.usage;
  }
  const warn = (m: string) => err.write(`hey: ${m}\n`);
  try {
    // as the doctor does: what the user has not approved (a server the agent added) is left out
    const begun = await beginConfig(here, env, args.flags, { approve: args.approve, configFile: args.config, warn });
    if (begun === "cancelled") return EXIT.interrupted; // never asked: not interactive
    const { config, trust } = begun;
    for (const w of config.warnings) warn(w);
    for (const line of strayNotices(here.cwd, here.root)) warn(line); // a package's own .mcp.json, never read: why its server is unknown
    const { settings } = config;
    if (name === "") {
      err.write(`hey: ${whichServer(`hey mcp ${verb}`, settings.mcp.servers, [])}\n`);
      return EXIT.usage;
    }
    const server = settings.mcp.servers.find((s) => s.name === name);
    if (!server) {
      const known = settings.mcp.servers.filter((s) => s.url).map((s) => s.name);
      // the files that could define servers: .hey/config.toml, .mcp.json (skills define none)
      const unread = trust.trusted ? [] : trust.resources.filter((r) => !r.endsWith("/"));
      const untrusted = unread.length
        ? ` (this project is not trusted here, so its ${unread.join(" and ")} ${unread.length > 1 ? "are" : "is"} not read: --approve reads ${unread.length > 1 ? "them" : "it"})`
        : "";
      throw new ConfigError(`no [mcp.${name}] table${didYouMean(name, known)}; remote servers configured: ${known.join(", ") || "none"}${untrusted}`);
    }
    const store = createCredentialStore(here.configDir);
    if (verb === "logout") {
      const r = signOut(server, store);
      await createToolStore(here.cacheDir).forget(server); // the next run offers none of its tools until a sign-in
      (r.ok ? out : err).write(`${r.ok ? "" : "hey: "}${r.text}\n`);
      return r.ok ? EXIT.ok : EXIT.usage;
    }
    const debug =
      args.verbose || env.HEY_LOG === "debug"
        ? (await import("./net/debug-log.ts")).openDebugLog(
            here.logsDir,
            hideSecrets(() => []),
          )
        : undefined;
    if (debug?.ok) warn(`debug log: ${debug.path}`);
    const fetchImpl = fetchFor(settings, args.run.proxy, env, debug);
    // what the connection after the sign-in says (a failure that echoes the new token) is redacted, as in a run
    return await login(server, store, fetchImpl, env, () => [...knownSecrets(settings, env, args.run.proxy), ...store.secrets()]);
  } catch (e) {
    if (!(e instanceof ConfigError || e instanceof NetConfigError)) throw e;
    for (const line of e.message.split("\n")) warn(line);
    return EXIT.usage;
  }
}

/** an environment, as process.env */
type Env = Record<string, string | undefined>;

async function login(server: McpServerSettings, store: CredentialStore, fetchImpl: typeof fetch, env: Env, secrets: () => readonly string[]): Promise<number> {
  const out = writer(1);
  const abort = new AbortController();
  const onSigint = () => abort.abort();
  process.on("SIGINT", onSigint);
  try {
    const r = await signIn(server, { store, fetch: fetchImpl, env, print: (t) => out.write(`${t}\n`), signal: abort.signal });
    if (!r.ok) {
      writer(2).write(`hey: ${r.text}\n`);
      return abort.signal.aborted ? EXIT.interrupted : EXIT.runtime;
    }
    out.write(`${r.text}\n`);
    if (!store.read(server.url!)?.tokens) return EXIT.ok; // the server asked for nothing
    return await check(server, store, fetchImpl, env, secrets, abort.signal);
  } finally {
    process.off("SIGINT", onSigint);
  }
}

/** Connects with the new sign-in and lists the tools, as a run will. */
async function check(
  server: McpServerSettings,
  store: CredentialStore,
  fetchImpl: typeof fetch,
  env: Record<string, string | undefined>,
  secrets: () => readonly string[],
  signal: AbortSignal,
): Promise<number> {
  const hooks = { onClose() {}, onTools() {} };
  const ctx = {
    version: VERSION,
    env,
    fetch: fetchImpl,
    auth: (s: McpServerSettings, refresh: Parameters<typeof signedIn>[3]) => signedIn(s, store, Date.now, refresh),
  };
  try {
    const c = await redactingConnect((s, h, abort) => connectServer(s, h, ctx, abort), secrets)(server, hooks, signal);
    writer(1).write(`connected: ${server.name} (${c.tools.length} tool${c.tools.length === 1 ? "" : "s"})\n`);
    await c.close();
    return EXIT.ok;
  } catch (e) {
    writer(2).write(`hey: signed in, but connecting to ${server.name} with the new token failed: ${errorText(e)}\n`);
    return EXIT.runtime;
  }
}
